package io.vigil.model;

import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What cross-fitting the model on its own training series measured (section {@code calibration}; method notes §5):
 * K folds refitted without each fold, its series replayed sample by sample through the same early classifier. It
 * holds
 *
 * <ul>
 *   <li>a variance inflation of the conditional covariance R_y(t) per band of t/d, learned so that the squared
 *       Mahalanobis distance of held-out series from m_y(t) has its 0.9-quantile at the χ²_ℓ quantile (the model's own
 *       R_y is overconfident because LDG picks the directions in which the training series collapse);
 *   <li>the decision thresholds λ the rules were replayed at (ascending) and, per rule/classifier/set/estimator, how
 *       many held-out series each threshold labelled differently from their complete-series label, how many it
 *       labelled correctly and the sum of their decision times t/d — from which Learn-then-Test certifies a threshold
 *       for every announced τ and the operating point is chosen;
 *   <li>the held-out coverage of the Gaussian τ-set before and after the inflation;
 *   <li>the operating point chosen on these replays, if any.
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
        Optional<OperatingPoint> operatingPoint)
        implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "calibration";

    /** Validates (messages name the field) and copies. */
    public CalibrationSection {
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
        for (int b = 0; b < inflation.length; b++) {
            if (!(inflation[b] > 0) || !Double.isFinite(inflation[b])) {
                throw new IllegalArgumentException(
                        NAME + ".inflation[" + b + "] must be finite and > 0, got " + inflation[b]);
            }
        }
        thresholds = thresholds.clone();
        if (thresholds.length == 0) {
            throw new IllegalArgumentException(NAME + ".thresholds is empty");
        }
        for (int j = 0; j < thresholds.length; j++) {
            if (!(thresholds[j] > 0 && thresholds[j] <= 1) || (j > 0 && thresholds[j] <= thresholds[j - 1])) {
                throw new IllegalArgumentException(
                        NAME + ".thresholds must ascend within (0, 1], got " + Arrays.toString(thresholds));
            }
        }
        curves = List.copyOf(curves);
        for (Curve c : curves) {
            if (c.disagreements().length != thresholds.length) {
                throw new IllegalArgumentException(NAME + ".curves: " + c.rule().cliName() + "/"
                        + c.classifier().cliName() + " has " + c.disagreements().length + " counts for "
                        + thresholds.length + " thresholds");
            }
        }
        coverageTaus = coverageTaus.clone();
        coverageBefore = coverageBefore.clone();
        coverageAfter = coverageAfter.clone();
        if (coverageBefore.length != coverageTaus.length || coverageAfter.length != coverageTaus.length) {
            throw new IllegalArgumentException(NAME + ".coverage arrays differ in length");
        }
        VigilModel.requireFinite(coverageTaus, NAME + ".coverage.taus");
    }

    /** The variance inflation for sample t (1-based) of a series of length d; 1 when none was learned. */
    public double inflationAt(int t, int d) {
        if (inflation.length == 0) {
            return 1.0;
        }
        int band = Math.min(inflation.length - 1, (int) ((long) (t - 1) * inflation.length / d));
        return inflation[band];
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
                && operatingPoint.equals(s.operatingPoint);
    }

    @Override
    public int hashCode() {
        return Objects.hash(folds, seed, Arrays.hashCode(inflation), Arrays.hashCode(thresholds), curves);
    }

    @Override
    public String toString() {
        return "CalibrationSection[K=" + folds + ", " + curves.size() + " curves, "
                + operatingPoint.map(OperatingPoint::toString).orElse("no operating point") + "]";
    }

    /**
     * One rule's cross-fitted replay, per threshold λ_j: among {@code series} held-out series, how many stopped with a
     * label other than their complete-series label ({@code disagreements}), how many with their true label ({@code
     * correct}), and the sum of their decision times t/d.
     */
    public record Curve(
            DecisionRule rule,
            ClassifierKind classifier,
            SetKind set,
            EstimatorType estimator,
            int series,
            int[] disagreements,
            int[] correct,
            double[] fractionSum) {
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
        public boolean equals(Object o) {
            return o instanceof Curve c
                    && rule == c.rule
                    && classifier == c.classifier
                    && set == c.set
                    && estimator == c.estimator
                    && series == c.series
                    && Arrays.equals(disagreements, c.disagreements)
                    && Arrays.equals(correct, c.correct)
                    && Arrays.equals(fractionSum, c.fractionSum);
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
     * @param objective {@code hm} or {@code earliest-at-reliability}
     * @param targetReliability the target of {@code earliest-at-reliability} (NaN for {@code hm})
     * @param harmonicMean the cross-fitted harmonic mean of accuracy and 1 − t/d at this point
     * @param certified whether τ was certified at this point
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
            boolean certified) {
        /** Validates. */
        public OperatingPoint {
            if (!(tau > 0 && tau < 1)) {
                throw new IllegalArgumentException(NAME + ".operating_point.tau must lie in (0, 1), got " + tau);
            }
            if (!"hm".equals(objective) && !"earliest-at-reliability".equals(objective)) {
                throw new IllegalArgumentException(NAME + ".operating_point.objective must be hm or "
                        + "earliest-at-reliability, got '" + objective + "'");
            }
            Objects.requireNonNull(rule, "rule");
            Objects.requireNonNull(classifier, "classifier");
            Objects.requireNonNull(set, "set");
            Objects.requireNonNull(estimator, "estimator");
        }
    }
}
