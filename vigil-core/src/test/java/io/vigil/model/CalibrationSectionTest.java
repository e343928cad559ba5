package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.data.ObservationPattern;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.json.CalibrationCodec;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import org.hipparchus.distribution.discrete.BinomialDistribution;
import org.junit.jupiter.api.Test;

/** The certificates a calibration section gives: both guarantees on a problem with known rates, and the correction. */
class CalibrationSectionTest {
    private static final int THRESHOLDS = 100;
    private static final int SERIES = 100;
    private static final double TAU = 0.9;
    private static final double DELTA = 0.1;
    private static final int DRAWS = 200;

    /**
     * A synthetic stopping rule with known disagreement rates: series i disagrees at threshold j when U_i &lt; R_j
     * (R_j falls from 0.3 to 0 as j grows more conservative), and also at every even threshold but the last when
     * V_i &lt; 0.04 — so the loss is not monotone in j and conformal risk control has to monotonise it. The true rate
     * at j is R_j, plus 0.04·(1 − R_j) at the even thresholds.
     */
    private static double base(int j) {
        return 0.3 * (1 - j / (double) (THRESHOLDS - 1));
    }

    private static boolean noisy(int j) {
        return j % 2 == 0 && j < THRESHOLDS - 1;
    }

    private static double trueRate(int j) {
        return base(j) + (noisy(j) ? 0.04 * (1 - base(j)) : 0.0);
    }

    /** One draw of n calibration series, as the curve cross-fitting would store. */
    private static CalibrationSection.Curve draw(SplittableRandom rnd) {
        int[] disagree = new int[THRESHOLDS];
        int[] monotone = new int[THRESHOLDS];
        for (int i = 0; i < SERIES; i++) {
            double u = rnd.nextDouble();
            boolean v = rnd.nextDouble() < 0.04;
            boolean later = false;
            for (int j = THRESHOLDS - 1; j >= 0; j--) {
                boolean differs = u < base(j) || (v && noisy(j));
                later |= differs;
                disagree[j] += differs ? 1 : 0;
                monotone[j] += later ? 1 : 0;
            }
        }
        return curve(SERIES, disagree, monotone);
    }

    private static CalibrationSection.Curve curve(int n, int[] disagree, int[] monotone) {
        return new CalibrationSection.Curve(
                DecisionRule.SET,
                ClassifierKind.LOCAL_QDA,
                SetKind.NB_QUADRATIC,
                EstimatorType.JOINT,
                n,
                disagree,
                new int[disagree.length],
                new double[disagree.length],
                monotone);
    }

    private static CalibrationSection section(
            CalibrationSection.Curve c, Guarantee g, Selection selection, int candidates) {
        double[] grid = new double[c.disagreements().length];
        for (int j = 0; j < grid.length; j++) {
            grid[j] = (j + 1.0) / grid.length;
        }
        return new CalibrationSection(
                2,
                1L,
                DELTA,
                new double[0],
                grid,
                List.of(c),
                new double[0],
                new double[0],
                new double[0],
                Optional.empty(),
                g,
                selection,
                candidates);
    }

    /** The true disagreement rate of the rule a certificate chooses: 0 when it waits for t = d. */
    private static double chosenRate(CalibrationSection.Certificate r) {
        return r.certified() ? trueRate(r.index()) : 0.0;
    }

    @Test
    void theObservationPatternOfTheReplaysSurvivesTheFileAndIsOmittedWhenComplete() {
        CalibrationSection plain =
                section(curve(4, new int[] {1, 0}, new int[] {1, 0}), Guarantee.PAC, Selection.NONE, 1);
        ObservationPattern pattern = ObservationPattern.builder()
                .missing(0.2)
                .lag(1, 3)
                .drop(2)
                .seed(5)
                .build();
        CalibrationSection patterned = withPattern(plain, pattern);
        CalibrationCodec codec = new CalibrationCodec();
        ObjectNode a = JsonNodeFactory.instance.objectNode();
        codec.write(plain, a);
        assertTrue(!a.has("pattern"), "a complete pattern is not written");
        assertEquals(
                ObservationPattern.complete(),
                codec.read(a, 1, null, "calibration").pattern());
        ObjectNode b = JsonNodeFactory.instance.objectNode();
        codec.write(patterned, b);
        assertEquals(pattern, codec.read(b, 1, null, "calibration").pattern());
        ((ObjectNode) b.get("pattern")).put("missing", 1.5);
        assertThrows(IllegalArgumentException.class, () -> codec.read(b, 1, null, "calibration"));
    }

    /**
     * Conformal risk control's premise (no series disagrees at the most conservative threshold) holds by construction
     * for complete series; under an incomplete pattern a replay that disagrees there shows it failing, and {@code
     * expected} then certifies nothing, while {@code pac} is unaffected. 40 series, 2 then 1 or 0 disagreements: at
     * τ 0.8 the conformal bound (40 · 1/40 + 1)/41 = 0.049 ≤ 0.2 certifies the first threshold.
     */
    @Test
    void expectedCertifiesNothingWhereItsPremiseIsSeenToFail() {
        ObservationPattern missing =
                ObservationPattern.builder().missing(0.2).seed(5).build();
        CalibrationSection.Curve endsWrong = curve(40, new int[] {2, 1}, new int[] {2, 1});
        CalibrationSection.Curve endsRight = curve(40, new int[] {2, 0}, new int[] {2, 0});
        assertTrue(section(endsWrong, Guarantee.EXPECTED, Selection.NONE, 1)
                .certify(endsWrong, 0.8)
                .certified());
        assertFalse(withPattern(section(endsWrong, Guarantee.EXPECTED, Selection.NONE, 1), missing)
                .certify(endsWrong, 0.8)
                .certified());
        CalibrationSection.Certificate ok = withPattern(
                        section(endsRight, Guarantee.EXPECTED, Selection.NONE, 1), missing)
                .certify(endsRight, 0.8);
        assertTrue(ok.certified());
        assertEquals(0, ok.index());
        assertTrue(withPattern(section(endsWrong, Guarantee.PAC, Selection.NONE, 1), missing)
                .certify(endsWrong, 0.5)
                .certified());
    }

    private static CalibrationSection withPattern(CalibrationSection s, ObservationPattern pattern) {
        return copy(s, pattern, s.crcDraw(), s.crcDrawSource());
    }

    /**
     * The draw U of the expected guarantee's randomised form survives the file as {@code crc_draw}, is omitted at U = 1
     * (files without it read as the non-randomised form), and is refused out of (0, 1] or under pac.
     */
    @Test
    void theConformalDrawSurvivesTheFile() {
        CalibrationSection.Curve c = curve(4, new int[] {1, 0}, new int[] {1, 0});
        CalibrationSection plain = section(c, Guarantee.EXPECTED, Selection.NONE, 1);
        CalibrationSection drawn = withDraw(plain, 0.37);
        CalibrationCodec codec = new CalibrationCodec();
        ObjectNode a = JsonNodeFactory.instance.objectNode();
        codec.write(plain, a);
        assertTrue(!a.has("crc_draw"), "U = 1 is not written");
        assertEquals(1.0, codec.read(a, 1, null, "calibration").crcDraw());
        ObjectNode b = JsonNodeFactory.instance.objectNode();
        codec.write(drawn, b);
        assertEquals(0.37, b.get("crc_draw").doubleValue());
        assertEquals(drawn, codec.read(b, 1, null, "calibration"));
        b.put("crc_draw", 0.0);
        IllegalArgumentException zero =
                assertThrows(IllegalArgumentException.class, () -> codec.read(b, 1, null, "calibration"));
        assertTrue(zero.getMessage().contains("crc_draw"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> withDraw(section(c, Guarantee.PAC, Selection.NONE, 1), 0.5));
        assertEquals(1.0, drawn.withGuarantee(Guarantee.PAC).crcDraw(), "pac has no draw");
        assertEquals(0.37, drawn.withGuarantee(Guarantee.EXPECTED).crcDraw());
        assertEquals(
                1.0,
                drawn.withGuarantee(Guarantee.PAC)
                        .withGuarantee(Guarantee.EXPECTED)
                        .crcDraw());
    }

    private static CalibrationSection withDraw(CalibrationSection s, double u) {
        return copy(s, s.pattern(), u, io.vigil.reliability.risk.DrawSource.implied(u));
    }

    /** {@code s} with another observation pattern and conformal draw (and where the draw came from). */
    private static CalibrationSection copy(
            CalibrationSection s, ObservationPattern pattern, double u, io.vigil.reliability.risk.DrawSource source) {
        return new CalibrationSection(
                s.folds(),
                s.seed(),
                s.delta(),
                s.inflation(),
                s.thresholds(),
                s.curves(),
                s.coverageTaus(),
                s.coverageBefore(),
                s.coverageAfter(),
                s.operatingPoint(),
                s.guarantee(),
                s.selection(),
                s.candidates(),
                s.nestedDisagreements(),
                s.nestedMonotone(),
                pattern,
                u,
                source,
                0);
    }

    /**
     * Conformal risk control's randomised form is exact where the non-randomised one is not: on a rule whose series
     * each stop disagreeing at their own threshold (a continuous critical value on a grid of 2,000, so ties are rare),
     * n = 23 and τ = 0.8, the true disagreement rate of the chosen threshold has mean 1 − τ = 0.2 over draws of the
     * calibration series and of U, against ⌊α(n + 1)⌋/(n + 1) = 4/24 = 0.167 with U = 1 (class comment of {@link
     * ConformalRiskControl}). 4,000 seeded draws: the standard error of each mean is below 0.002, so the tolerance of
     * 4 standard errors (0.008) cannot mistake one form for the other, 0.033 apart.
     */
    @Test
    void theRandomisedFormIsExactInExpectation() {
        int n = 23;
        int m = 2000;
        double alpha = 0.2;
        SplittableRandom rnd = new SplittableRandom(34L);
        double[] sum = new double[2];
        double[] sumSq = new double[2];
        int draws = 4000;
        for (int d = 0; d < draws; d++) {
            int[] monotone = new int[m];
            for (int i = 0; i < n; i++) {
                // Series i disagrees at threshold j exactly when j < its critical index: true rate (m − 1 − j)/m.
                int critical = (int) (rnd.nextDouble() * m);
                for (int j = 0; j < critical; j++) {
                    monotone[j]++;
                }
            }
            double[] u = {1.0 - rnd.nextDouble(), 1.0};
            for (int form = 0; form < 2; form++) {
                ConformalRiskControl.Result r = ConformalRiskControl.certify(n, monotone, alpha, u[form]);
                double rate = r.certified() ? (m - 1.0 - r.index()) / m : 0.0;
                sum[form] += rate;
                sumSq[form] += rate * rate;
            }
        }
        double[] mean = new double[2];
        for (int form = 0; form < 2; form++) {
            mean[form] = sum[form] / draws;
            double se = Math.sqrt(Math.max(0, sumSq[form] / draws - mean[form] * mean[form]) / (draws - 1));
            double target = form == 0 ? alpha : 4.0 / 24;
            assertEquals(target, mean[form], 4 * se + 1.0 / m, (form == 0 ? "randomised" : "U = 1") + " ± " + se);
        }
    }

    /**
     * Over 200 independent draws of the calibration series: pac's certificate is wrong (true rate &gt; 1 − τ) in at
     * most a δ fraction of draws, and expected's true rate is at most 1 − τ on average. Tolerances: if pac's failure
     * probability were exactly δ, the failure count is Bin(200, δ) and exceeds its 0.999-quantile with probability
     * 0.001; expected's mean over 200 draws has standard error sd/√200, and exceeds 1 − τ by 3 of them with
     * probability about 0.001 when the true mean is exactly 1 − τ. The draws are seeded, so the test is deterministic.
     */
    @Test
    void pacFailsInAtMostADeltaFractionAndExpectedHoldsOnAverage() {
        SplittableRandom rnd = new SplittableRandom(28L);
        int pacFailures = 0;
        int pacCertified = 0;
        double sum = 0;
        double sumSq = 0;
        double pacSum = 0;
        for (int d = 0; d < DRAWS; d++) {
            CalibrationSection.Curve c = draw(rnd);
            CalibrationSection.Certificate pac =
                    section(c, Guarantee.PAC, Selection.NONE, 1).certify(c, TAU);
            CalibrationSection.Certificate exp =
                    section(c, Guarantee.EXPECTED, Selection.NONE, 1).certify(c, TAU);
            pacFailures += chosenRate(pac) > 1 - TAU ? 1 : 0;
            pacCertified += pac.certified() ? 1 : 0;
            pacSum += chosenRate(pac);
            double r = chosenRate(exp);
            sum += r;
            sumSq += r * r;
        }
        int allowed = new BinomialDistribution(DRAWS, DELTA).inverseCumulativeProbability(0.999);
        assertTrue(
                pacFailures <= allowed, pacFailures + " of " + DRAWS + " pac certificates wrong, allowed " + allowed);
        assertTrue(pacCertified > DRAWS / 2, "the problem is certifiable: " + pacCertified);
        double mean = sum / DRAWS;
        double se = Math.sqrt(Math.max(0, sumSq / DRAWS - mean * mean) / (DRAWS - 1));
        assertTrue(mean <= 1 - TAU + 3 * se, "expected: mean true rate " + mean + " ± " + se);
        assertTrue(mean > pacSum / DRAWS, "expected is less conservative than pac: " + mean + " vs " + pacSum / DRAWS);
    }

    /**
     * The selection-corrected certificate is never less conservative than the uncorrected one, for either guarantee:
     * its threshold index is at least as high (as late) and it certifies only what the uncorrected one certifies.
     */
    @Test
    void bonferroniIsNeverLessConservativeThanNoCorrection() {
        SplittableRandom rnd = new SplittableRandom(7L);
        for (int d = 0; d < 50; d++) {
            CalibrationSection.Curve c = draw(rnd);
            for (Guarantee g : Guarantee.values()) {
                for (double tau : new double[] {0.5, 0.7, 0.8, 0.9, 0.95}) {
                    CalibrationSection.Certificate plain =
                            section(c, g, Selection.NONE, 1).certify(c, tau);
                    for (int k : new int[] {1, 6, 72}) {
                        CalibrationSection.Certificate corrected =
                                section(c, g, Selection.BONFERRONI, k).certify(c, tau);
                        String what = g + " τ=" + tau + " K=" + k;
                        assertTrue(corrected.index() >= plain.index(), what);
                        assertTrue(!corrected.certified() || plain.certified(), what);
                        if (k == 1) {
                            assertEquals(plain, corrected, what);
                        }
                    }
                }
            }
        }
    }

    /** The candidate curves of the nested test: every rule and classifier pair a model replays. */
    private static final CalibrationSection.Curve[] CURVE_KINDS = {
        curve(1, new int[] {0}, new int[] {0}),
        kind(DecisionRule.SET, ClassifierKind.LINEAR_SVM),
        kind(DecisionRule.PROBABILITY, ClassifierKind.LOCAL_QDA),
        kind(DecisionRule.PROBABILITY, ClassifierKind.LINEAR_SVM),
        kind(DecisionRule.PROBABILITY, ClassifierKind.KNN)
    };

    private static CalibrationSection.Curve kind(DecisionRule rule, ClassifierKind classifier) {
        return new CalibrationSection.Curve(
                rule,
                classifier,
                SetKind.NB_QUADRATIC,
                EstimatorType.JOINT,
                1,
                new int[1],
                new int[1],
                new double[1],
                new int[1]);
    }

    /**
     * Choosing the curve after certifying: five curves with the same true rate R_j (series i disagrees on curve c at
     * threshold j when its own U_ic &lt; R_j, independently across curves), and the curve with the earliest certified
     * threshold is taken — the choice the default objective makes. Without a correction that choice is optimistic (the
     * chosen rate exceeds 1 − τ on average, so the test can tell); under {@link Selection#NESTED} the expected
     * guarantee's mean chosen rate is ≤ 1 − τ and pac's certificate is wrong in at most a δ fraction of 200 draws
     * (tolerances as in {@link #pacFailsInAtMostADeltaFractionAndExpectedHoldsOnAverage}).
     */
    @Test
    void nestedFamilyHoldsWhenTheEarliestCurveIsChosen() {
        int k = CURVE_KINDS.length;
        double tau = 0.8;
        SplittableRandom rnd = new SplittableRandom(2028L);
        double nestedSum = 0;
        double nestedSq = 0;
        double plainSum = 0;
        int pacFailures = 0;
        for (int d = 0; d < DRAWS; d++) {
            int[][] disagree = new int[k][THRESHOLDS];
            int[] union = new int[THRESHOLDS];
            for (int i = 0; i < SERIES; i++) {
                double[] u = new double[k];
                for (int c = 0; c < k; c++) {
                    u[c] = rnd.nextDouble();
                }
                for (int j = 0; j < THRESHOLDS; j++) {
                    boolean any = false;
                    for (int c = 0; c < k; c++) {
                        boolean differs = u[c] < base(j);
                        disagree[c][j] += differs ? 1 : 0;
                        any |= differs;
                    }
                    union[j] += any ? 1 : 0;
                }
            }
            List<CalibrationSection.Curve> curves = new java.util.ArrayList<>();
            for (int c = 0; c < k; c++) {
                CalibrationSection.Curve t = CURVE_KINDS[c];
                curves.add(new CalibrationSection.Curve(
                        t.rule(),
                        t.classifier(),
                        t.set(),
                        t.estimator(),
                        SERIES,
                        disagree[c],
                        new int[THRESHOLDS],
                        new double[THRESHOLDS],
                        disagree[c]));
            }
            for (Guarantee g : Guarantee.values()) {
                double nested = earliestChosenRate(sections(curves, g, Selection.NESTED, union), curves, tau);
                if (g == Guarantee.EXPECTED) {
                    nestedSum += nested;
                    nestedSq += nested * nested;
                    plainSum += earliestChosenRate(sections(curves, g, Selection.NONE, union), curves, tau);
                } else {
                    pacFailures += nested > 1 - tau ? 1 : 0;
                }
            }
        }
        double mean = nestedSum / DRAWS;
        double se = Math.sqrt(Math.max(0, nestedSq / DRAWS - mean * mean) / (DRAWS - 1));
        assertTrue(plainSum / DRAWS > 1 - tau, "uncorrected choice is optimistic: " + plainSum / DRAWS);
        assertTrue(mean <= 1 - tau + 3 * se, "nested expected: mean chosen rate " + mean + " ± " + se);
        int allowed = new BinomialDistribution(DRAWS, DELTA).inverseCumulativeProbability(0.999);
        assertTrue(pacFailures <= allowed, pacFailures + " nested pac certificates wrong, allowed " + allowed);
    }

    private static CalibrationSection sections(
            List<CalibrationSection.Curve> curves, Guarantee g, Selection s, int[] union) {
        double[] grid = new double[THRESHOLDS];
        for (int j = 0; j < grid.length; j++) {
            grid[j] = (j + 1.0) / grid.length;
        }
        boolean nested = s == Selection.NESTED;
        return new CalibrationSection(
                2,
                1L,
                DELTA,
                new double[0],
                grid,
                curves,
                new double[0],
                new double[0],
                new double[0],
                Optional.empty(),
                g,
                s,
                1,
                nested ? union : new int[0],
                nested ? union : new int[0],
                ObservationPattern.complete(),
                ConformalRiskControl.CONSERVATIVE,
                io.vigil.reliability.risk.DrawSource.implied(ConformalRiskControl.CONSERVATIVE),
                0);
    }

    /** The true rate of the curve whose certified threshold comes first (0 when none is certified). */
    private static double earliestChosenRate(CalibrationSection s, List<CalibrationSection.Curve> curves, double tau) {
        int best = Integer.MAX_VALUE;
        for (CalibrationSection.Curve c : curves) {
            CalibrationSection.Certificate r = s.certify(c, tau);
            if (r.certified()) {
                best = Math.min(best, r.index());
            }
        }
        return best == Integer.MAX_VALUE ? 0.0 : base(best);
    }

    /** Files written before the expected guarantee existed carry no monotonised counts; the expected guarantee refuses such curves. */
    @Test
    void expectedNeedsTheMonotonisedCounts() {
        CalibrationSection.Curve old = curve(10, new int[] {1, 0}, new int[0]);
        assertEquals(
                Guarantee.PAC, section(old, Guarantee.PAC, Selection.NONE, 1).guarantee());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> section(old, Guarantee.EXPECTED, Selection.NONE, 1));
        assertTrue(e.getMessage().contains("monotone_disagreements"), e.getMessage());
    }
}
