package io.vigil.model;

import io.vigil.data.ObservationPattern;
import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.LearnThenTest;
import io.vigil.reliability.risk.Selection;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * What cross-fitting the model on its own training series measured (section {@code calibration}; docs/method.md §5):
 * K folds refitted without each fold, its series replayed sample by sample through the same early classifier. It
 * holds
 *
 * <ul>
 *   <li>a variance inflation of the conditional covariance R_y(t) per band of t/d, learned so that the squared
 *       Mahalanobis distance of held-out series from m_y(t) has its 0.9-quantile at the χ²_ℓ quantile (the model's own
 *       R_y is overconfident because LDG picks the directions in which the training series collapse), for the one
 *       complete-series estimator its curves were replayed with ({@link #inflates});
 *   <li>the decision thresholds λ the rules were replayed at (ascending) and, per rule/classifier/set/estimator, how
 *       many held-out series each threshold labelled differently from their complete-series label, how many it
 *       labelled correctly and the sum of their decision times t/d — from which Learn-then-Test certifies a threshold
 *       for every announced τ and the operating point is chosen;
 *   <li>the held-out coverage of the Gaussian τ-set before and after the inflation;
 *   <li>the operating point chosen on these replays, if any;
 *   <li>which guarantee the certificates carry ({@link Guarantee}) and how they account for the operating point being
 *       chosen among {@code candidates} candidates on the same replays ({@link Selection}); files written before
 *       the two guarantees existed have neither and read as {@code pac} without correction, exactly as they certified before.
 * </ul>
 *
 * Optional: a model without it decides exactly as before (τ used as the threshold, uncertified). Immutable.
 *
 * @param folds K
 * @param seed seed of the fold assignment
 * @param delta the default confidence parameter δ of the certification
 * @param inflation per band of t/d (equal widths), the factor on R_y(t); empty when not learned
 * @param thresholds the replayed thresholds λ, ascending in (0, 1]
 * @param curves the replays' counts per rule
 * @param coverageTaus τ values at which the held-out coverage was measured
 * @param coverageBefore held-out coverage of the Gaussian τ-set with the model's R_y
 * @param coverageAfter the same with the inflated R_y
 * @param operatingPoint the chosen operating point, if any
 * @param guarantee what a certificate promises: a high-probability or an expected bound on the disagreement rate
 * @param selection how certificates account for choosing the operating point on the same replays
 * @param candidates K, the number of (curve, τ) candidates the operating point was chosen among (1 without a
 *     correction); {@link Selection#BONFERRONI} certifies at δ/K (pac) or α/K (expected); under {@link
 *     Selection#NESTED} and {@link Selection#FIXED} K counts the τ candidates only (1 for the default objective)
 * @param nestedDisagreements under {@link Selection#NESTED}, per threshold how many replayed series disagree with
 *     their complete-series label on at least one curve; empty otherwise
 * @param nestedMonotone under {@link Selection#NESTED}, per threshold how many disagree on at least one curve at that
 *     threshold or a more conservative one (the monotonised loss of the expected guarantee); empty otherwise
 * @param pattern the observation pattern the replays saw ({@link ObservationPattern}: values missing at random,
 *     channel lags, dropped channels, shuffled arrival), so the certificate is for series observed that way; {@link
 *     ObservationPattern#complete()} (every value, in time order) for files without it
 * @param crcDraw the draw U ∈ (0, 1] the expected guarantee's conformal risk control certifies with ({@link
 *     ConformalRiskControl}, "the randomised form"): 1, the non-randomised form, for pac and for files without it
 * @param crcDrawSource where U came from ({@link DrawSource}: drawn reproducibly, given, conservative, or unrecorded
 *     in files written before it was stored)
 * @param holdout 0 when the curves come from cross-fitted replays through fold models; otherwise the share F of the
 *     training series that was held out of fitting and selection and replayed through this very model ({@code vigil
 *     train --calibration holdout:F}), so that the certificate is for the deployed model; the inflation's folds then
 *     split the fitted part only
 */
public record CalibrationSection(
        int folds,
        long seed,
        double delta,
        double[] inflation,
        double[] thresholds,
        List<Curve> curves,
        double[] coverageTaus,
        double[] coverageBefore,
        double[] coverageAfter,
        Optional<OperatingPoint> operatingPoint,
        Guarantee guarantee,
        Selection selection,
        int candidates,
        int[] nestedDisagreements,
        int[] nestedMonotone,
        ObservationPattern pattern,
        double crcDraw,
        DrawSource crcDrawSource,
        double holdout)
        implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "calibration";

    /** Validates (messages name the field) and copies. */
    public CalibrationSection {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(inflation, "inflation");
        Objects.requireNonNull(thresholds, "thresholds");
        Objects.requireNonNull(curves, "curves");
        Objects.requireNonNull(operatingPoint, "operatingPoint");
        if (folds < 2) {
            throw new IllegalArgumentException(NAME + ".folds must be ≥ 2, got " + folds);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException(NAME + ".delta must lie in (0, 1), got " + delta);
        }
        inflation = inflation.clone();
        CalibrationChecks.inflation(inflation);
        thresholds = thresholds.clone();
        CalibrationChecks.thresholds(thresholds);
        curves = List.copyOf(curves);
        CalibrationChecks.curves(curves, thresholds.length);
        coverageTaus = coverageTaus.clone();
        coverageBefore = coverageBefore.clone();
        coverageAfter = coverageAfter.clone();
        if (coverageBefore.length != coverageTaus.length || coverageAfter.length != coverageTaus.length) {
            throw new IllegalArgumentException(NAME + ".coverage arrays differ in length");
        }
        ModelChecks.requireFinite(coverageTaus, NAME + ".coverage.taus");
        Objects.requireNonNull(guarantee, "guarantee");
        Objects.requireNonNull(selection, "selection");
        if (candidates < 1) {
            throw new IllegalArgumentException(NAME + ".candidates must be ≥ 1, got " + candidates);
        }
        CalibrationChecks.expectedCurves(curves, guarantee);
        nestedDisagreements = nestedDisagreements.clone();
        nestedMonotone = nestedMonotone.clone();
        CalibrationChecks.nested(curves, thresholds.length, selection, nestedDisagreements, nestedMonotone);
        CalibrationChecks.crcDraw(crcDraw, guarantee);
        Objects.requireNonNull(crcDrawSource, "crcDrawSource");
        if (!(holdout >= 0 && holdout < 1)) {
            throw new IllegalArgumentException(NAME + ".holdout must lie in [0, 1), got " + holdout);
        }
    }

    /**
     * A section without nested counts (every selection correction but {@link Selection#NESTED}) whose replays saw every
     * value in time order ({@link ObservationPattern#complete()}), certifying expected in the non-randomised form.
     */
    public CalibrationSection(
            int folds,
            long seed,
            double delta,
            double[] inflation,
            double[] thresholds,
            List<Curve> curves,
            double[] coverageTaus,
            double[] coverageBefore,
            double[] coverageAfter,
            Optional<OperatingPoint> operatingPoint,
            Guarantee guarantee,
            Selection selection,
            int candidates) {
        this(
                folds,
                seed,
                delta,
                inflation,
                thresholds,
                curves,
                coverageTaus,
                coverageBefore,
                coverageAfter,
                operatingPoint,
                guarantee,
                selection,
                candidates,
                new int[0],
                new int[0],
                ObservationPattern.complete(),
                ConformalRiskControl.CONSERVATIVE,
                DrawSource.CONSERVATIVE,
                0);
    }

    /**
     * What certifying one τ on one curve gives.
     *
     * @param index the threshold index to decide at (the most conservative one when not certified)
     * @param certified whether the τ is certified
     * @param pValue the Learn-then-Test p-value at {@code index} (pac), or the conformal bound (n·R̂ + U)/(n + 1)
     *     (expected)
     */
    public record Certificate(int index, boolean certified, double pValue) {}

    /**
     * Certifies the announced τ on a curve under this section's guarantee and selection correction: Learn-then-Test
     * at δ (δ/K with Bonferroni) for {@code pac}, conformal risk control at α = 1 − τ (α/K with Bonferroni) on the
     * monotonised counts, with this section's draw {@link #crcDraw}, for {@code expected}. Under {@link Selection#NESTED} the counts are those of the nested
     * family (a series counts when any curve disagrees), so every curve gets the same threshold index.
     */
    public Certificate certify(Curve c, double tau) {
        double alpha = 1 - tau;
        boolean nested = selection == Selection.NESTED;
        if (guarantee == Guarantee.EXPECTED) {
            int[] monotone = nested ? nestedMonotone : c.monotoneDisagreements();
            ConformalRiskControl.Result r =
                    ConformalRiskControl.certify(c.series(), monotone, alpha / correction(), crcDraw);
            return new Certificate(
                    r.index(), r.certified() && CalibrationChecks.expectedPremiseHolds(pattern, monotone), r.bound());
        }
        LearnThenTest.Result r = LearnThenTest.certify(
                c.series(), nested ? nestedDisagreements : c.disagreements(), alpha, delta / correction());
        return new Certificate(r.index(), r.certified(), r.pValue());
    }

    /**
     * The cross-fitted reliability a curve of n series needs for τ to be certified under this section's guarantee
     * and correction; empty when τ cannot be certified on n series at all (distinct from 1.0: certifiable with no
     * disagreement).
     */
    public OptionalDouble requiredReliability(int n, double tau) {
        return guarantee == Guarantee.EXPECTED
                ? ConformalRiskControl.requiredReliability(n, (1 - tau) / correction(), crcDraw)
                : LearnThenTest.requiredReliability(n, 1 - tau, delta / correction());
    }

    /** The smallest disagreement rate α certifiable on n series with no disagreement, under this section's rules. */
    public double smallestCertifiableAlpha(int n) {
        return guarantee == Guarantee.EXPECTED
                ? ConformalRiskControl.smallestCertifiableAlpha(n, crcDraw) * correction()
                : LearnThenTest.smallestCertifiableAlpha(n, delta / correction());
    }

    /**
     * How many replayed series would certify τ on this curve, under this section's guarantee and correction, if its
     * disagreement rate at the most conservative threshold — where the fixed sequence of Learn-then-Test starts, and
     * the rate is lowest — stayed what cross-fitting measured: more than the curve's replayed series, which did not
     * certify τ; empty when that rate is not below 1 − τ (no number of series would do) or the number exceeds {@code
     * maxSeries}. Under expected it is counted with U = 1, so it suffices whatever a retrained model draws.
     */
    public OptionalInt seriesNeeded(Curve c, double tau, int maxSeries) {
        int last = thresholds.length - 1;
        double rate = (double) (selection == Selection.NESTED ? nestedDisagreements[last] : c.disagreements[last])
                / c.series();
        double alpha = 1 - tau;
        return guarantee == Guarantee.EXPECTED
                ? ConformalRiskControl.seriesNeeded(rate, alpha / correction(), c.series() + 1, maxSeries)
                : LearnThenTest.seriesNeeded(rate, alpha, delta / correction(), c.series() + 1, maxSeries);
    }

    /**
     * The same section certifying under another guarantee (curves, correction and operating point unchanged; the draw
     * of the expected guarantee kept for expected, 1 under pac).
     */
    public CalibrationSection withGuarantee(Guarantee g) {
        boolean expected = g == Guarantee.EXPECTED;
        return copy(
                operatingPoint,
                g,
                expected ? crcDraw : ConformalRiskControl.CONSERVATIVE,
                expected ? crcDrawSource : DrawSource.CONSERVATIVE,
                holdout);
    }

    /** The same section with another operating point. */
    public CalibrationSection withOperatingPoint(Optional<OperatingPoint> point) {
        return copy(point, guarantee, crcDraw, crcDrawSource, holdout);
    }

    /**
     * The same section marked as certified on a holdout of share {@code fraction} of the training series (0:
     * cross-fitted).
     */
    public CalibrationSection withHoldout(double fraction) {
        return copy(operatingPoint, guarantee, crcDraw, crcDrawSource, fraction);
    }

    private CalibrationSection copy(
            Optional<OperatingPoint> point, Guarantee g, double draw, DrawSource source, double fraction) {
        return new CalibrationSection(
                folds,
                seed,
                delta,
                inflation,
                thresholds,
                curves,
                coverageTaus,
                coverageBefore,
                coverageAfter,
                point,
                g,
                selection,
                candidates,
                nestedDisagreements,
                nestedMonotone,
                pattern,
                draw,
                source,
                fraction);
    }

    /** Whether the curves were replayed through this model on series it was never fitted on ({@link #holdout} > 0). */
    public boolean isHoldout() {
        return holdout > 0;
    }

    /** The divisor of α (expected) or δ (pac): K with Bonferroni (the τ candidates with nested and fixed), else 1. */
    public int correction() {
        return switch (selection) {
            case BONFERRONI, NESTED, FIXED -> candidates;
            case NONE, SPLIT -> 1;
        };
    }

    /** The variance inflation for sample t (1-based) of a series of length d; 1 when none was learned. */
    public double inflationAt(int t, int d) {
        if (inflation.length == 0) {
            return 1.0;
        }
        int band = Math.min(inflation.length - 1, (int) ((long) (t - 1) * inflation.length / d));
        return inflation[band];
    }

    /**
     * Whether {@link #inflation} was learned for estimator {@code e}: the one every curve was replayed with (thesis
     * 5.19 joint in files before the gmm estimator could be calibrated). A section without curves — the per-fold
     * section of a replay, holding only κ — serves whichever estimator it is replayed with.
     */
    public boolean inflates(EstimatorType e) {
        return curves.isEmpty() || curves.get(0).estimator() == e;
    }

    /** The curve replayed with these choices, if any. */
    public Optional<Curve> curve(DecisionRule rule, ClassifierKind classifier, SetKind set, EstimatorType estimator) {
        return curves.stream()
                .filter(c -> c.rule() == rule
                        && c.classifier() == classifier
                        && c.set() == set
                        && c.estimator() == estimator)
                .findFirst();
    }

    @Override
    public double[] inflation() {
        return inflation.clone();
    }

    @Override
    public double[] thresholds() {
        return thresholds.clone();
    }

    @Override
    public int[] nestedDisagreements() {
        return nestedDisagreements.clone();
    }

    @Override
    public int[] nestedMonotone() {
        return nestedMonotone.clone();
    }

    @Override
    public double[] coverageTaus() {
        return coverageTaus.clone();
    }

    @Override
    public double[] coverageBefore() {
        return coverageBefore.clone();
    }

    @Override
    public double[] coverageAfter() {
        return coverageAfter.clone();
    }

    @Override
    public String sectionName() {
        return NAME;
    }

    @Override
    public boolean required() {
        return false;
    }

    @Override
    public void checkShape(ModelShape shape) {
        for (Curve c : curves) {
            if (holdout > 0) {
                break; // the replayed series were held out of the model's training series, not among them
            }
            if (c.series() > shape.trainSize()) {
                throw new IllegalArgumentException(NAME + ".curves: " + c.series() + " replayed series but the model"
                        + " has " + shape.trainSize() + " training series");
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CalibrationSection s
                && folds == s.folds
                && seed == s.seed
                && Double.compare(delta, s.delta) == 0
                && Arrays.equals(inflation, s.inflation)
                && Arrays.equals(thresholds, s.thresholds)
                && curves.equals(s.curves)
                && Arrays.equals(coverageTaus, s.coverageTaus)
                && Arrays.equals(coverageBefore, s.coverageBefore)
                && Arrays.equals(coverageAfter, s.coverageAfter)
                && operatingPoint.equals(s.operatingPoint)
                && guarantee == s.guarantee
                && selection == s.selection
                && candidates == s.candidates
                && Arrays.equals(nestedDisagreements, s.nestedDisagreements)
                && Arrays.equals(nestedMonotone, s.nestedMonotone)
                && pattern.equals(s.pattern)
                && Double.compare(crcDraw, s.crcDraw) == 0
                && crcDrawSource == s.crcDrawSource
                && Double.compare(holdout, s.holdout) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(folds, seed, Arrays.hashCode(inflation), Arrays.hashCode(thresholds), curves);
    }

    @Override
    public String toString() {
        return "CalibrationSection[" + (holdout > 0 ? "holdout " + holdout + ", " : "") + "K=" + folds + ", "
                + curves.size() + " curves, "
                + operatingPoint.map(OperatingPoint::toString).orElse("no operating point") + ", "
                + guarantee.cliName()
                + (crcDraw == ConformalRiskControl.CONSERVATIVE ? "" : " (U = " + crcDraw + ")")
                + ", selection " + selection.cliName() + " of " + candidates + "]";
    }

    /**
     * One rule's cross-fitted replay, per threshold λ_j: among {@code series} held-out series, how many stopped with a
     * label other than their complete-series label ({@code disagreements}), how many with their true label ({@code
     * correct}), the sum of their decision times t/d, and how many disagree at λ_j or at any more conservative
     * threshold ({@code monotoneDisagreements}, the monotonised loss of conformal risk control; empty in files
     * written before the two guarantees existed).
     */
    public record Curve(
            DecisionRule rule,
            ClassifierKind classifier,
            SetKind set,
            EstimatorType estimator,
            int series,
            int[] disagreements,
            int[] correct,
            double[] fractionSum,
            int[] monotoneDisagreements) {
        /** Validates and copies. */
        public Curve {
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(classifier, "classifier");
            Objects.requireNonNull(set, "set");
            Objects.requireNonNull(estimator, "estimator");
            if (series < 1) {
                throw new IllegalArgumentException(NAME + ".curves.series must be ≥ 1, got " + series);
            }
            disagreements = disagreements.clone();
            correct = correct.clone();
            fractionSum = fractionSum.clone();
            if (correct.length != disagreements.length || fractionSum.length != disagreements.length) {
                throw new IllegalArgumentException(NAME + ".curves: count arrays differ in length");
            }
            for (int j = 0; j < disagreements.length; j++) {
                if (disagreements[j] < 0 || disagreements[j] > series || correct[j] < 0 || correct[j] > series) {
                    throw new IllegalArgumentException(
                            NAME + ".curves: counts at threshold " + j + " lie outside 0.." + series);
                }
                if (!(fractionSum[j] >= 0 && fractionSum[j] <= series)) {
                    throw new IllegalArgumentException(NAME + ".curves.fraction_sum[" + j + "] is " + fractionSum[j]
                            + ", must lie in 0.." + series);
                }
            }
            monotoneDisagreements = monotoneDisagreements.clone();
            if (monotoneDisagreements.length != 0) {
                if (monotoneDisagreements.length != disagreements.length) {
                    throw new IllegalArgumentException(NAME + ".curves: monotone_disagreements has "
                            + monotoneDisagreements.length + " counts for " + disagreements.length + " thresholds");
                }
                for (int j = 0; j < disagreements.length; j++) {
                    int k = monotoneDisagreements[j];
                    boolean increases = j > 0 && k > monotoneDisagreements[j - 1];
                    if (k < disagreements[j] || k > series || increases) {
                        throw new IllegalArgumentException(NAME + ".curves.monotone_disagreements[" + j + "] is " + k
                                + ": must lie in " + disagreements[j] + ".." + series
                                + " and not increase with the threshold");
                    }
                }
            }
        }

        /** Accuracy of the early labels at threshold j. */
        public double accuracy(int j) {
            return (double) correct[j] / series;
        }

        /** Mean decision time t/d at threshold j. */
        public double meanFraction(int j) {
            return fractionSum[j] / series;
        }

        /** Rate of early labels differing from the complete-series label at threshold j. */
        public double disagreementRate(int j) {
            return (double) disagreements[j] / series;
        }

        @Override
        public int[] disagreements() {
            return disagreements.clone();
        }

        @Override
        public int[] correct() {
            return correct.clone();
        }

        @Override
        public double[] fractionSum() {
            return fractionSum.clone();
        }

        @Override
        public int[] monotoneDisagreements() {
            return monotoneDisagreements.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Curve c
                    && rule == c.rule
                    && classifier == c.classifier
                    && set == c.set
                    && estimator == c.estimator
                    && series == c.series
                    && Arrays.equals(disagreements, c.disagreements)
                    && Arrays.equals(correct, c.correct)
                    && Arrays.equals(fractionSum, c.fractionSum)
                    && Arrays.equals(monotoneDisagreements, c.monotoneDisagreements);
        }

        @Override
        public int hashCode() {
            return Objects.hash(rule, classifier, set, estimator, series, Arrays.hashCode(disagreements));
        }

        @Override
        public String toString() {
            return "Curve[" + rule.cliName() + ", " + classifier.cliName() + ", " + set.cliName() + ", n=" + series
                    + "]";
        }
    }

    /**
     * The operating point chosen on the cross-fitted replays: the announced τ and the rule, classifier, set and
     * estimator to use when a command is not told otherwise.
     *
     * @param tau the announced τ
     * @param objective {@code hm}, {@code earliest-at-reliability} or {@code cost}
     * @param targetReliability the target of {@code earliest-at-reliability} (NaN for {@code hm})
     * @param harmonicMean the cross-fitted harmonic mean of accuracy and 1 − t/d at this point
     * @param certified whether τ was certified at this point
     * @param delayCost A of the {@code cost} objective (NaN for the others)
     */
    public record OperatingPoint(
            double tau,
            String objective,
            double targetReliability,
            DecisionRule rule,
            ClassifierKind classifier,
            SetKind set,
            EstimatorType estimator,
            double harmonicMean,
            boolean certified,
            double delayCost) {
        /** Objective names a file may hold. */
        private static final List<String> OBJECTIVES = List.of("hm", "earliest-at-reliability", "cost");

        /** Validates. */
        public OperatingPoint {
            if (!(tau > 0 && tau < 1)) {
                throw new IllegalArgumentException(NAME + ".operating_point.tau must lie in (0, 1), got " + tau);
            }
            if (!OBJECTIVES.contains(objective)) {
                throw new IllegalArgumentException(
                        NAME + ".operating_point.objective must be one of " + OBJECTIVES + ", got '" + objective + "'");
            }
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(classifier, "classifier");
            Objects.requireNonNull(set, "set");
            Objects.requireNonNull(estimator, "estimator");
        }
    }
}
