package io.vigil.early.calibrate;

import io.vigil.data.ObservationPattern;
import io.vigil.early.TauSaturation;
import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.List;
import java.util.Objects;

/**
 * What cross-fitted calibration does (docs/method.md §5): K folds, their seed, the confidence parameter δ of the
 * certification, the number of t/d bands of the variance inflation, the replayed thresholds, which rules and
 * classifiers to replay, and how the operating point is chosen.
 *
 * @param folds K ≥ 2 (capped by the smallest class that can be held out), or {@link #AUTO_FOLDS}
 * @param seed fold assignment seed
 * @param delta δ of Learn-then-Test, in (0, 1)
 * @param bands bands of t/d for the inflation of R_y (≥ 1)
 * @param thresholds replayed thresholds λ, ascending in (0, 1]
 * @param rules decision rules to replay
 * @param classifiers classifiers to replay (those without their model section are skipped)
 * @param set the set of the set rule (and, when valid, the probability rule's fast path)
 * @param estimator the complete-series estimator every replayed curve conditions with (thesis 5.19 joint, the
 *     default, or 5.20 gmm); the folds refit it and the inflation κ is learned for it
 * @param objective how the operating point is chosen
 * @param targetReliability the target of {@link Objective#EARLIEST_AT_RELIABILITY} (NaN for the others)
 * @param delayCost A of {@link Objective#COST} (NaN for the others)
 * @param guarantee what the certificates promise
 * @param selection how the certificate accounts for choosing the operating point on the same replays
 * @param pattern how the held-out series are observed in the replays ({@link #withPattern})
 * @param crcDraw the draw U ∈ (0, 1] of the expected guarantee's conformal risk control ({@link #withCrcDraw}); 1, the
 *     non-randomised form, unless set
 * @param crcDrawSource where U came from ({@link DrawSource}), stored in the model so {@code inspect} can say it
 */
public record CalibrationParams(
        int folds,
        long seed,
        double delta,
        int bands,
        double[] thresholds,
        List<DecisionRule> rules,
        List<ClassifierKind> classifiers,
        SetKind set,
        EstimatorType estimator,
        Objective objective,
        double targetReliability,
        double delayCost,
        Guarantee guarantee,
        Selection selection,
        ObservationPattern pattern,
        double crcDraw,
        DrawSource crcDrawSource) {
    /** K when the work allows: ten folds, refitting on 90 % of the series. */
    public static final int DEFAULT_FOLDS = 10;

    /** K for large training sets (see {@link #autoFolds}): five folds, refitting on 80 % of the series. */
    public static final int LARGE_FOLDS = 5;

    /** {@code folds} value asking for {@link #autoFolds}, the default. */
    public static final int AUTO_FOLDS = 0;

    /**
     * n²·d above which {@link #autoFolds} takes {@link #LARGE_FOLDS}: 300 series of length 11,111. Each fold's refit
     * costs O(n²·d) (the LDG Gram matrix, the QR of the centred series and the semiseparable LDLᵀ of the
     * complete-series Gaussian), so calibration grows as K·n²·d; at n = 300, d = 20,000 ten folds take about as long
     * as the rest of training twice over.
     */
    public static final double LARGE_WORK = 1e9;

    /** Default δ: the announced reliability holds with confidence 90 %, the project's contract. */
    public static final double DEFAULT_DELTA = 0.1;

    /**
     * Default target of {@link Objective#EARLIEST_AT_RELIABILITY}, the default objective: early labels agree with the
     * complete-series label at least 90 % of the time, which bounds the accuracy given up by early decisions to 0.10.
     */
    public static final double DEFAULT_TARGET_RELIABILITY = 0.9;

    /** Default bands of t/d for the variance inflation. */
    public static final int DEFAULT_BANDS = 10;

    /** How the operating point is chosen on the cross-fitted replays. */
    public enum Objective {
        /** Largest harmonic mean of accuracy and earliness 1 − t/d (Schäfer &amp; Leser's HM). */
        HM("hm"),
        /** Earliest mean decision among the rules certified at the target reliability. */
        EARLIEST_AT_RELIABILITY("earliest-at-reliability"),
        /**
         * Smallest average cost (1 − accuracy) + A·t/d, misclassification plus delay (ml_edm's {@code average_cost},
         * Renault et al. 2024), with A the delay cost.
         */
        COST("cost");

        private final String cliName;

        Objective(String cliName) {
            this.cliName = cliName;
        }

        /** {@code hm}, {@code earliest-at-reliability} or {@code cost}. */
        public String cliName() {
            return cliName;
        }

        /** Parses {@link #cliName()}. */
        public static Objective fromCliName(String name) {
            return io.vigil.util.EnumNames.parse(Objective.class, name, Objective::cliName, "objective");
        }
    }

    /** Validates and copies. */
    public CalibrationParams {
        Objects.requireNonNull(pattern, "pattern");
        if (folds < 2 && folds != AUTO_FOLDS) {
            throw new IllegalArgumentException("cross-fitting needs at least 2 folds, got " + folds);
        }
        if (!(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("δ must lie in (0, 1), got " + delta);
        }
        if (bands < 1) {
            throw new IllegalArgumentException("the inflation needs at least one band, got " + bands);
        }
        thresholds = thresholds.clone();
        for (int j = 0; j < thresholds.length; j++) {
            if (!(thresholds[j] > 0 && thresholds[j] <= 1) || (j > 0 && thresholds[j] <= thresholds[j - 1])) {
                throw new IllegalArgumentException("thresholds must ascend within (0, 1]");
            }
        }
        rules = List.copyOf(rules);
        classifiers = List.copyOf(classifiers);
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(estimator, "estimator");
        Objects.requireNonNull(objective, "objective");
        if (objective == Objective.EARLIEST_AT_RELIABILITY && !(targetReliability > 0 && targetReliability < 1)) {
            throw new IllegalArgumentException(
                    "--target-reliability must lie in (0, 1) for earliest-at-reliability, got " + targetReliability);
        }
        if (objective == Objective.COST && !(delayCost >= 0 && Double.isFinite(delayCost))) {
            throw new IllegalArgumentException("--delay-cost must be finite and ≥ 0 for cost, got " + delayCost);
        }
        Objects.requireNonNull(guarantee, "guarantee");
        Objects.requireNonNull(selection, "selection");
        ConformalRiskControl.checkDraw(crcDraw);
        Objects.requireNonNull(crcDrawSource, "crcDrawSource");
    }

    /** Parameters whose draw's source follows from U alone ({@link DrawSource#implied}). */
    public CalibrationParams(
            int folds,
            long seed,
            double delta,
            int bands,
            double[] thresholds,
            List<DecisionRule> rules,
            List<ClassifierKind> classifiers,
            SetKind set,
            EstimatorType estimator,
            Objective objective,
            double targetReliability,
            double delayCost,
            Guarantee guarantee,
            Selection selection,
            ObservationPattern pattern,
            double crcDraw) {
        this(
                folds,
                seed,
                delta,
                bands,
                thresholds,
                rules,
                classifiers,
                set,
                estimator,
                objective,
                targetReliability,
                delayCost,
                guarantee,
                selection,
                pattern,
                crcDraw,
                DrawSource.implied(crcDraw));
    }

    /**
     * The K of {@link #AUTO_FOLDS} for n training series of length d: {@link #DEFAULT_FOLDS}, or {@link #LARGE_FOLDS}
     * when n²·d exceeds {@link #LARGE_WORK}. Fewer folds refit on fewer series, which makes the certified reliability
     * slightly conservative, never optimistic.
     */
    public static int autoFolds(int n, int d) {
        return (double) n * n * d > LARGE_WORK ? LARGE_FOLDS : DEFAULT_FOLDS;
    }

    /** K for n training series of length d: {@link #folds()} unless it is {@link #AUTO_FOLDS}. */
    public int foldsFor(int n, int d) {
        return folds == AUTO_FOLDS ? autoFolds(n, d) : folds;
    }

    /**
     * Automatic K, δ = 0.1, ten bands, both rules and all classifiers, nb-quadratic, the earliest decisions certified
     * at reliability 0.9, the pac guarantee certified for the default rule alone ({@link Selection#FIXED}).
     */
    public static CalibrationParams defaults(long seed) {
        return new CalibrationParams(
                AUTO_FOLDS,
                seed,
                DEFAULT_DELTA,
                DEFAULT_BANDS,
                defaultThresholds(),
                List.of(DecisionRule.SET, DecisionRule.PROBABILITY),
                List.of(ClassifierKind.LOCAL_QDA, ClassifierKind.LINEAR_SVM, ClassifierKind.KNN),
                SetKind.NB_QUADRATIC,
                EstimatorType.JOINT,
                Objective.EARLIEST_AT_RELIABILITY,
                DEFAULT_TARGET_RELIABILITY,
                Double.NaN,
                Guarantee.PAC,
                defaultSelection(Guarantee.PAC),
                ObservationPattern.complete(),
                ConformalRiskControl.CONSERVATIVE);
    }

    /**
     * The same replayed under an observation pattern (values missing at random, channel lags, dropped channels,
     * shuffled arrival; seeded per series id {@code DATASET/train/INDEX}), so the certificate is for series observed
     * that way.
     */
    public CalibrationParams withPattern(ObservationPattern p) {
        return copy(folds, delta, objective, targetReliability, delayCost, guarantee, selection, estimator, p);
    }

    /**
     * The selection correction a guarantee gets unless told otherwise: for both, the default rule alone ({@link
     * Selection#FIXED}). It is the one rule fixed before training (the set rule with local QDA), so there is no choice
     * among curves to correct for; over the 21 UCR datasets × 10 re-splits it kept both guarantees valid and decided
     * earliest on average (BENCHMARKS.md, "Certificates over re-splits"); with 100 or more training series
     * Bonferroni, free to pick another rule, decided earlier there. Bonferroni, nested and split stay selectable.
     */
    public static Selection defaultSelection(Guarantee g) {
        Objects.requireNonNull(g, "guarantee");
        return Selection.FIXED;
    }

    /** The same with another objective (and target for earliest-at-reliability, NaN otherwise). */
    public CalibrationParams withObjective(Objective o, double target) {
        return withObjective(o, target, Double.NaN);
    }

    /** The same with another objective, its target (earliest-at-reliability) and delay cost (cost), NaN if unused. */
    public CalibrationParams withObjective(Objective o, double target, double cost) {
        return copy(folds, delta, o, target, cost, guarantee, selection);
    }

    /** The same with another complete-series estimator for the replayed curves (either under any pattern). */
    public CalibrationParams withEstimator(EstimatorType e) {
        return copy(folds, delta, objective, targetReliability, delayCost, guarantee, selection, e, pattern);
    }

    /** The same with another guarantee and selection correction. */
    public CalibrationParams withGuarantee(Guarantee g, Selection s) {
        return copy(folds, delta, objective, targetReliability, delayCost, g, s);
    }

    /**
     * The same with another draw U ∈ (0, 1] for the expected guarantee's conformal risk control ({@link
     * ConformalRiskControl}, "the randomised form"): 1 (the default here) is the non-randomised form; a uniform draw,
     * fresh for every model, makes the expected disagreement rate α rather than up to 1/(n + 1) below it. Unused by
     * pac.
     */
    public CalibrationParams withCrcDraw(double u) {
        return withCrcDraw(u, u == ConformalRiskControl.CONSERVATIVE ? DrawSource.CONSERVATIVE : DrawSource.GIVEN);
    }

    /** The same with draw U and its source ({@link DrawSource#DRAWN} for {@link ConformalRiskControl#derivedDraw}). */
    public CalibrationParams withCrcDraw(double u, DrawSource source) {
        return new CalibrationParams(
                folds,
                seed,
                delta,
                bands,
                thresholds,
                rules,
                classifiers,
                set,
                estimator,
                objective,
                targetReliability,
                delayCost,
                guarantee,
                selection,
                pattern,
                u,
                source);
    }

    /**
     * The same replayed at other thresholds (ascending in (0, 1]); the default is {@link #defaultThresholds()}. A
     * model stores the grid it was replayed at, so models replayed at any grid load and decide alike.
     */
    public CalibrationParams withThresholds(double[] grid) {
        return new CalibrationParams(
                folds,
                seed,
                delta,
                bands,
                grid,
                rules,
                classifiers,
                set,
                estimator,
                objective,
                targetReliability,
                delayCost,
                guarantee,
                selection,
                pattern,
                crcDraw,
                crcDrawSource);
    }

    /** The same with other K and δ. */
    public CalibrationParams withFoldsAndDelta(int k, double d) {
        return copy(k, d, objective, targetReliability, delayCost, guarantee, selection);
    }

    /** The same with another δ. */
    public CalibrationParams withDelta(double d) {
        return withFoldsAndDelta(folds, d);
    }

    private CalibrationParams copy(int k, double d, Objective o, double target, double cost, Guarantee g, Selection s) {
        return copy(k, d, o, target, cost, g, s, estimator, pattern);
    }

    private CalibrationParams copy(
            int k,
            double d,
            Objective o,
            double target,
            double cost,
            Guarantee g,
            Selection s,
            EstimatorType e,
            ObservationPattern p) {
        return new CalibrationParams(
                k,
                seed,
                d,
                bands,
                thresholds,
                rules,
                classifiers,
                set,
                Objects.requireNonNull(e, "estimator"),
                o,
                target,
                cost,
                g,
                s,
                Objects.requireNonNull(p, "pattern"),
                crcDraw,
                crcDrawSource);
    }

    @Override
    public double[] thresholds() {
        return thresholds.clone();
    }

    /**
     * The thresholds below 0.02 of {@link #defaultThresholds()}: from 10⁻¹², where every set is a point in all
     * dimensions LDG keeps (the χ²_ℓ radius shrinks like λ^{1/ℓ}, so a small radius at ℓ = 20 needs λ far below 0.02),
     * up to 0.01. Without them a data set whose replays certify 0.02 at every τ of interest gives the same decisions
     * for all of them (docs/guarantee.md, "The threshold grid").
     */
    static final double[] LOW_THRESHOLDS = {
        TauSaturation.GRID_FLOOR, 1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3, 0.002, 0.005, 0.01
    };

    /**
     * 64 thresholds: {@link #LOW_THRESHOLDS} (10⁻¹² … 0.01), then 0.02, 0.04, …, 0.98, then 0.99, 0.995, 0.998,
     * 0.999, 0.9995: fine near 1, where certifying τ ≥ 0.95 needs conservative thresholds, and reaching down to sets
     * that are practically the conditional mean, where a low τ may decide at the first samples. Models store the grid
     * they were replayed at, so a model written with the older 54 thresholds (from 0.02) keeps deciding as it did.
     */
    public static double[] defaultThresholds() {
        double[] t = new double[LOW_THRESHOLDS.length + 54];
        System.arraycopy(LOW_THRESHOLDS, 0, t, 0, LOW_THRESHOLDS.length);
        int o = LOW_THRESHOLDS.length;
        for (int j = 0; j < 49; j++) {
            t[o + j] = (j + 1) / 50.0;
        }
        t[o + 49] = 0.99;
        t[o + 50] = 0.995;
        t[o + 51] = 0.998;
        t[o + 52] = 0.999;
        t[o + 53] = 0.9995;
        return t;
    }
}
