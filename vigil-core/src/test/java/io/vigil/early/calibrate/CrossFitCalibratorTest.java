package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.Decision;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.model.CalibrationSection;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.LearnThenTest;
import io.vigil.reliability.risk.Selection;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CrossFitCalibratorTest {
    /** Generated CBF: 120 training series for the model and its cross-fitting, 200 held-out series to check it. */
    static final TrainTest DATA = SyntheticData.generate(SyntheticKind.CBF, 120, 200, 11L);

    private static final VigilModel MODEL = calibrated();

    /** The model of {@link #DATA}'s training series with its complete-series sections, not yet calibrated. */
    static VigilModel uncalibrated() {
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(6)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        VigilModel m = Trainer.train(DATA.train(), p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        return EarlyModelTrainer.addSections(m, DATA.train(), EarlyModelTrainer.Params.defaults());
    }

    private static VigilModel calibrated() {
        VigilModel m = uncalibrated();
        // Bonferroni keeps every replayed rule's curve; the default (fixed) keeps one, tested on its own below.
        CalibrationParams cp = CalibrationParams.defaults(1L)
                .withFoldsAndDelta(5, 0.1)
                .withGuarantee(Guarantee.PAC, Selection.BONFERRONI);
        return CrossFitCalibrator.calibrate(m, DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
    }

    /**
     * The coverage check the calibration must pass, on held-out generated series (never seen by the model or its cross-fitting): the
     * inflated Gaussian 0.9-set contains the series' true projection in 0.9 of (series, t) pairs within sampling
     * error, which the model's own R_y does not. The error is taken over series (samples of one series are
     * correlated): the mean of the per-series coverage ± 3 standard errors, plus 0.02 for the difference between the
     * full model and the fold models the inflation was learned on.
     */
    /** Folds run in parallel; the section is the same, bit for bit, whatever the number of threads. */
    @Test
    void calibrationDoesNotDependOnTheNumberOfThreads() {
        VigilModel base = MODEL.toBuilder().build();
        CalibrationParams cp = CalibrationParams.defaults(1L)
                .withFoldsAndDelta(5, 0.1)
                .withGuarantee(Guarantee.PAC, Selection.BONFERRONI);
        CalibrationSection one = CrossFitCalibrator.calibrate(
                        base, DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none(), 1)
                .section(CalibrationSection.class)
                .orElseThrow();
        CalibrationSection three = CrossFitCalibrator.calibrate(
                        base, DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none(), 3)
                .section(CalibrationSection.class)
                .orElseThrow();
        assertEquals(one, three);
        assertEquals(MODEL.section(CalibrationSection.class).orElseThrow(), three);
    }

    @Test
    void inflatedGaussianSetCoversHeldOutSeriesAtTau() {
        CalibrationSection cal = MODEL.section(CalibrationSection.class).orElseThrow();
        JointGaussianEstimator est = JointGaussianEstimator.of(
                MODEL.section(CompleteSeriesSection.class)
                        .orElseThrow()
                        .jointGaussian()
                        .orElseThrow(),
                MODEL.basis());
        double[][] coverage = HeldOutCoverage.perSeries(MODEL, est, cal, DATA.test());
        double[] before = coverage[0];
        double[] after = coverage[1];
        double mean = mean(after);
        double se = Math.sqrt(variance(after, mean) / after.length);
        assertEquals(0.9, mean, 3 * se + 0.02, "held-out coverage after inflation");
        assertTrue(mean(before) < mean - 3 * se, "the model's own R_y covers less: " + mean(before) + " vs " + mean);
        assertEquals(0.9, cal.coverageAfter()[2], 0.02, "cross-fitted coverage at 0.9 is matched by construction");
    }

    @Test
    void sectionRoundTripsAndEveryReplayedRuleHasACurve() throws IOException {
        ModelFile file = ModelFile.standard();
        VigilModel back = file.read(file.toBytes(MODEL), "memory");
        assertEquals(MODEL, back);
        CalibrationSection cal = back.section(CalibrationSection.class).orElseThrow();
        assertEquals(5, cal.folds());
        for (DecisionRule rule : DecisionRule.values()) {
            for (ClassifierKind k : ClassifierKind.values()) {
                boolean expected = k.hasDiscriminants() || rule == DecisionRule.PROBABILITY;
                assertEquals(
                        expected,
                        cal.curve(rule, k, SetKind.NB_QUADRATIC, EstimatorType.JOINT)
                                .isPresent(),
                        rule + "/" + k);
            }
        }
        for (CalibrationSection.Curve c : cal.curves()) {
            assertEquals(DATA.train().size(), c.series(), "every series is held out once");
            int m = c.disagreements().length;
            assertTrue(c.meanFraction(0) <= c.meanFraction(m - 1), "higher thresholds decide no earlier: " + c);
        }
        assertTrue(cal.operatingPoint().isPresent());
    }

    /**
     * A certified τ's threshold comes from the replays by Learn-then-Test, and an uncertifiable τ (above what 120
     * series can certify at δ = 0.1) never decides early: every series is decided at t = d with its complete label.
     */
    @Test
    void certifiedThresholdsAndUncertifiedTausWaitForTheCompleteSeries() {
        DecisionParams p = new DecisionParams(
                0.999, SetKind.NB_QUADRATIC, EstimatorType.JOINT, ClassifierKind.LOCAL_QDA, null, DecisionRule.SET);
        EarlyClassifier c = EarlyClassifier.of(MODEL, p);
        assertTrue(c.thresholds().calibrated());
        assertFalse(c.thresholds().certified(), "120 series cannot certify α = 0.001");
        assertTrue(c.thresholds().neverEarly());
        for (SeriesDecision d : EarlyReplay.replay(c, DATA.test())) {
            assertEquals(MODEL.length(), d.t());
            assertTrue(d.reliable());
        }
        EarlyClassifier low = EarlyClassifier.of(MODEL, p.withTau(0.7));
        assertTrue(low.thresholds().certified());
        double threshold = low.thresholds().threshold();
        assertTrue(threshold > 0 && threshold <= 1, "a replayed threshold: " + threshold);
    }

    /**
     * A calibration section as written before the two guarantees and selection corrections (no guarantee, selection, candidates, monotonised counts)
     * still loads, as pac without a selection correction, and certifies exactly as Learn-then-Test at δ did then.
     */
    @Test
    void sectionsWrittenBeforeTheGuaranteeFieldsCertifyAsBefore() throws IOException {
        ModelFile file = ModelFile.standard();
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(file.toBytes(MODEL));
        ObjectNode payload =
                (ObjectNode) root.get("sections").get("calibration").get("payload");
        payload.remove(List.of("guarantee", "selection", "candidates"));
        for (JsonNode curve : payload.get("curves")) {
            ((ObjectNode) curve).remove("monotone_disagreements");
        }
        VigilModel old = file.read(json.writeValueAsBytes(root), "pre-28 model");
        CalibrationSection cal = old.section(CalibrationSection.class).orElseThrow();
        assertEquals(Guarantee.PAC, cal.guarantee());
        assertEquals(Selection.NONE, cal.selection());
        assertEquals(1, cal.candidates());
        for (CalibrationSection.Curve c : cal.curves()) {
            assertEquals(0, c.monotoneDisagreements().length);
            for (double tau : new double[] {0.6, 0.8, 0.9, 0.95}) {
                LearnThenTest.Result r = LearnThenTest.certify(c.series(), c.disagreements(), 1 - tau, 0.1);
                CalibrationSection.Certificate now = cal.certify(c, tau);
                assertEquals(r.index(), now.index());
                assertEquals(r.certified(), now.certified());
            }
        }
    }

    /**
     * Inner cross-fit of κ: the inflation a fold is replayed with comes from the other folds' held-out distances only,
     * never from its own series; a band no other fold reached falls back to all folds' distances; the
     * stored κ uses every fold. Fold 0's ratios are 10, fold 1's are 1, so leaving either out gives the other's.
     */
    @Test
    void eachFoldIsInflatedByTheOtherFoldsDistancesOnly() {
        CrossFitCalibrator.HeldOutDistances tens =
                new CrossFitCalibrator.HeldOutDistances(List.of(List.of(10.0, 10.0, 10.0), List.of(2.0)), List.of());
        CrossFitCalibrator.HeldOutDistances ones =
                new CrossFitCalibrator.HeldOutDistances(List.of(List.of(1.0, 1.0, 1.0), List.of()), List.of());
        List<CrossFitCalibrator.HeldOutDistances> held = List.of(tens, ones);
        assertArrayEquals(new double[] {1.0, 2.0}, CrossFitCalibrator.inflation(held, 0, 2), "fold 0: fold 1's");
        assertArrayEquals(new double[] {10.0, 2.0}, CrossFitCalibrator.inflation(held, 1, 2), "fold 1: fold 0's");
        assertArrayEquals(new double[] {10.0, 2.0}, CrossFitCalibrator.inflation(held, -1, 2), "stored: all folds'");
    }

    /**
     * A rule restricted to a class of interest was never replayed (the replays announce any class), so it inherits no
     * certificate from the unrestricted rule: it decides at τ itself, uncalibrated, guarantee "none".
     */
    @Test
    void classOfInterestRulesAreNotCertifiedByTheUnrestrictedReplay() {
        DecisionParams any = new DecisionParams(
                0.7, SetKind.NB_QUADRATIC, EstimatorType.JOINT, ClassifierKind.LOCAL_QDA, null, DecisionRule.SET);
        assertTrue(EarlyClassifier.of(MODEL, any).thresholds().certified(), "the unrestricted rule is certified");
        EarlyClassifier one = EarlyClassifier.of(
                MODEL, any.withClassOfInterest(MODEL.classNames().get(0)));
        assertFalse(one.thresholds().calibrated());
        assertFalse(one.thresholds().certified());
        assertEquals("none", one.thresholds().guarantee());
        assertEquals(0.7, one.thresholds().threshold());
    }

    /**
     * The expected guarantee with the split correction: the operating point is chosen on one half of the replayed
     * series and certified on the other, whose curves alone are stored (60 of 120 series), with the monotonised counts
     * conformal risk control needs; the section round-trips, and certified decisions report "expected".
     */
    @Test
    void expectedGuaranteeWithSplitSelectionCertifiesOnTheOtherHalf() throws IOException {
        CalibrationParams cp = CalibrationParams.defaults(1L)
                .withFoldsAndDelta(5, 0.1)
                .withGuarantee(Guarantee.EXPECTED, Selection.SPLIT);
        VigilModel m = CrossFitCalibrator.calibrate(
                MODEL.toBuilder().build(), DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
        CalibrationSection cal = m.section(CalibrationSection.class).orElseThrow();
        assertEquals(Guarantee.EXPECTED, cal.guarantee());
        assertEquals(Selection.SPLIT, cal.selection());
        for (CalibrationSection.Curve c : cal.curves()) {
            assertEquals(DATA.train().size() / 2, c.series(), "the certifying half: " + c);
            for (int j = 0; j < c.disagreements().length; j++) {
                assertTrue(c.monotoneDisagreements()[j] >= c.disagreements()[j]);
            }
        }
        ModelFile file = ModelFile.standard();
        assertEquals(m, file.read(file.toBytes(m), "memory"));
        CalibrationSection.OperatingPoint p = cal.operatingPoint().orElseThrow();
        CalibrationSection.Curve chosen =
                cal.curve(p.rule(), p.classifier(), p.set(), p.estimator()).orElseThrow();
        assertEquals(cal.certify(chosen, p.tau()).certified(), p.certified(), "certified on the stored half");
        EarlyClassifier c =
                EarlyClassifier.of(m, new DecisionParams(0.8, p.set(), p.estimator(), p.classifier(), null, p.rule()));
        assertEquals(
                c.thresholds().certified() ? "expected" : "none", c.thresholds().guarantee());
    }

    /**
     * The nested correction: one family indexed by the threshold, a series counting when any curve disagrees. Its
     * counts are at least every curve's and at most their sum, the monotone ones do not increase with the threshold,
     * every curve gets the same certified index — never earlier than the curve's own uncorrected one — and the section
     * round-trips through the model file.
     */
    @Test
    void nestedSelectionCertifiesEveryCurveAtTheFamilysThreshold() throws IOException {
        for (Guarantee g : Guarantee.values()) {
            CalibrationParams cp =
                    CalibrationParams.defaults(1L).withFoldsAndDelta(5, 0.1).withGuarantee(g, Selection.NESTED);
            VigilModel m = CrossFitCalibrator.calibrate(
                    MODEL.toBuilder().build(), DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
            CalibrationSection cal = m.section(CalibrationSection.class).orElseThrow();
            assertEquals(Selection.NESTED, cal.selection());
            assertEquals(1, cal.candidates());
            int[] raw = cal.nestedDisagreements();
            int[] monotone = cal.nestedMonotone();
            CalibrationSection plain = new CalibrationSection(
                    cal.folds(),
                    cal.seed(),
                    cal.delta(),
                    cal.inflation(),
                    cal.thresholds(),
                    cal.curves(),
                    cal.coverageTaus(),
                    cal.coverageBefore(),
                    cal.coverageAfter(),
                    cal.operatingPoint(),
                    g,
                    Selection.NONE,
                    1);
            for (int j = 0; j < raw.length; j++) {
                int max = 0;
                int sum = 0;
                for (CalibrationSection.Curve c : cal.curves()) {
                    max = Math.max(max, c.monotoneDisagreements()[j]);
                    sum += c.disagreements()[j];
                    assertTrue(raw[j] >= c.disagreements()[j], "threshold " + j + ": " + c);
                }
                assertTrue(monotone[j] >= max && raw[j] <= sum, "threshold " + j);
                assertTrue(j == 0 || monotone[j] <= monotone[j - 1], "monotone at " + j);
            }
            for (double tau : new double[] {0.7, 0.8, 0.9}) {
                CalibrationSection.Certificate first = cal.certify(cal.curves().get(0), tau);
                for (CalibrationSection.Curve c : cal.curves()) {
                    CalibrationSection.Certificate r = cal.certify(c, tau);
                    assertEquals(first, r, g + " τ=" + tau + " " + c);
                    assertTrue(r.index() >= plain.certify(c, tau).index(), g + " τ=" + tau + " " + c);
                }
            }
            ModelFile file = ModelFile.standard();
            assertEquals(m, file.read(file.toBytes(m), "memory"));
        }
    }

    /**
     * The fixed correction, the default of both guarantees, keeps only the default rule's curve (set rule, local QDA),
     * certified without a correction; the operating point is on it, and a rule not fixed in advance finds no curve, so
     * it is not certified.
     */
    @Test
    void fixedSelectionCertifiesOnlyTheDefaultRule() {
        for (Guarantee g : Guarantee.values()) {
            CalibrationParams cp = CalibrationParams.defaults(1L).withFoldsAndDelta(5, 0.1);
            if (g != cp.guarantee()) {
                cp = cp.withGuarantee(g, CalibrationParams.defaultSelection(g));
            }
            assertEquals(Selection.FIXED, cp.selection(), g.cliName());
            VigilModel m = CrossFitCalibrator.calibrate(
                    MODEL.toBuilder().build(), DATA.train(), EarlyModelTrainer.Params.defaults(), cp, Progress.none());
            CalibrationSection cal = m.section(CalibrationSection.class).orElseThrow();
            assertEquals(g, cal.guarantee());
            assertEquals(1, cal.curves().size(), g.cliName());
            CalibrationSection.Curve c = cal.curves().get(0);
            DecisionParams d = DecisionParams.defaults();
            assertEquals(List.of(d.rule(), d.classifier()), List.of(c.rule(), c.classifier()));
            assertEquals(1, cal.candidates());
            CalibrationSection.OperatingPoint p = cal.operatingPoint().orElseThrow();
            assertEquals(List.of(d.rule(), d.classifier()), List.of(p.rule(), p.classifier()));
            EarlyClassifier other = EarlyClassifier.of(
                    m, new DecisionParams(0.8, d.set(), d.estimator(), d.classifier(), null, DecisionRule.PROBABILITY));
            assertFalse(other.thresholds().certified(), g.cliName());
        }
    }

    /**
     * Decision records never report a reliability below the τ the decision was made at, calibrated or not, for both
     * rules (a record once showed 0.89959 at τ = 0.9, from a bisection tolerance).
     */
    @Test
    void reportedReliabilityIsNeverBelowTau() {
        for (DecisionRule rule : DecisionRule.values()) {
            for (double tau : new double[] {0.6, 0.8, 0.9}) {
                for (VigilModel model : List.of(
                        MODEL,
                        MODEL.toBuilder().removeSection(CalibrationSection.NAME).build())) {
                    DecisionParams p = new DecisionParams(
                            tau, SetKind.NB_QUADRATIC, EstimatorType.JOINT, ClassifierKind.LOCAL_QDA, null, rule);
                    EarlyClassifier c = EarlyClassifier.of(model, p);
                    EarlyClassifier.Workspace ws = c.newWorkspace();
                    Decision d = Decision.withReliability();
                    for (int i = 0; i < 40; i++) {
                        double[] x = DATA.test().series(i);
                        SeriesState s = c.newState();
                        int t = 0;
                        while (!c.observe(s, x[t++], ws, d)) {
                            // until the decision
                        }
                        assertTrue(d.reliability() >= tau, rule + ", τ = " + tau + ": " + d.reliability());
                        assertTrue(d.reliability() <= 1.0);
                    }
                }
            }
        }
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double variance(double[] v, double mean) {
        double s = 0;
        for (double x : v) {
            s += (x - mean) * (x - mean);
        }
        return s / (v.length - 1);
    }
}
