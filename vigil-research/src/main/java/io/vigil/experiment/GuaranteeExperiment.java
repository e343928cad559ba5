package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.Binomial;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * Whether certificates hold as stated, over re-splits ({@code vigil experiment guarantee}): every dataset is
 * merged and re-split {@link Config#resplits} times ({@link Resplit}: stratified, the standard training size, seeded as
 * in {@link Table33Experiment#splitSeed}); on each training part a model is trained with every default ({@link
 * ReliabilityExperiment#trainEach}) and certified under each guarantee and selection correction from one cross-fit,
 * then evaluated on the test part at its operating point, at every requested τ with the operating point's rule and
 * classifier, and at its earliest threshold (as {@link ReliabilityExperiment#evaluate} does, read off one {@link
 * GridReplay} per rule and classifier). Nothing looks at the test part
 * before the model is fixed. Finished splits are kept in a {@link SplitCache}, so an interrupted run resumes.
 */
public final class GuaranteeExperiment {
    /** Mixed into the base seed for the stream of conformal draws, so it shares no state with the splits' seeds. */
    private static final long CRC_STREAM = 0x43524344524157L;

    private GuaranteeExperiment() {}

    /**
     * What to run.
     *
     * @param resplits re-splits per dataset (≥ 1)
     * @param seed base seed; split s uses {@link Table33Experiment#splitSeed(long, int)}, which also seeds training
     * @param taus the announced reliabilities evaluated, each in (0, 1)
     * @param guarantees the guarantees compared (each a mode of the report)
     * @param selections the selection corrections compared; a guarantee's mode reports its default correction when it is
     *     among them, else the first
     * @param reselectInFolds whether each calibration fold selects its own k, γ, ℓ instead of reusing the full
     *     model's
     * @param estimator the complete-series estimator the models are calibrated for ({@code vigil train --estimator})
     * @param pattern how the series are observed, in the calibration replays ({@code vigil train --missing …}) and on
     *     the test part ({@code vigil evaluate --missing …}), seeded per series by its id
     * @param randomisedCrc whether the expected guarantee certifies in conformal risk control's randomised form, as
     *     {@code vigil train} does by default ({@link #crcDraw}), or with U = 1 ({@code --crc-draw conservative})
     * @param holdout 0 to calibrate by cross-fitting; otherwise the share of each training part held out of fitting and
     *     selection and replayed through the deployed model ({@code vigil train --calibration holdout:F})
     */
    public record Config(
            int resplits,
            long seed,
            List<Double> taus,
            List<Guarantee> guarantees,
            List<Selection> selections,
            boolean reselectInFolds,
            EstimatorType estimator,
            ObservationPattern pattern,
            boolean randomisedCrc,
            double holdout) {
        /** Validates and copies. */
        public Config {
            if (!(holdout >= 0 && holdout < 1)) {
                throw new IllegalArgumentException("the calibration holdout share must lie in [0, 1), got " + holdout);
            }
            if (holdout > 0 && reselectInFolds) {
                throw new IllegalArgumentException("--reselect-in-folds applies to --calibration cross-fit only");
            }
            if (resplits < 1) {
                throw new IllegalArgumentException("--resplits must be ≥ 1, got " + resplits);
            }
            taus = List.copyOf(taus);
            guarantees = List.copyOf(guarantees);
            selections = List.copyOf(selections);
            if (taus.isEmpty() || guarantees.isEmpty() || selections.isEmpty()) {
                throw new IllegalArgumentException("at least one τ, guarantee and selection correction is needed");
            }
            if (guarantees.stream().distinct().count() < guarantees.size()
                    || selections.stream().distinct().count() < selections.size()) {
                throw new IllegalArgumentException("a guarantee or selection correction is named twice");
            }
            Objects.requireNonNull(estimator, "estimator");
            Objects.requireNonNull(pattern, "pattern");
        }

        /** Cross-fitted calibration, as {@code vigil train} does by default. */
        public Config(
                int resplits,
                long seed,
                List<Double> taus,
                List<Guarantee> guarantees,
                List<Selection> selections,
                boolean reselectInFolds,
                EstimatorType estimator,
                ObservationPattern pattern,
                boolean randomisedCrc) {
            this(resplits, seed, taus, guarantees, selections, reselectInFolds, estimator, pattern, randomisedCrc, 0);
        }

        /**
         * The selection correction a guarantee's mode reports: its default ({@link
         * CalibrationParams#defaultSelection}) when that was run, else the first one given.
         */
        public Selection modeSelection(Guarantee g) {
            Selection d = CalibrationParams.defaultSelection(g);
            return selections.contains(d) ? d : selections.get(0);
        }

        /** The default corrections of these guarantees, each once, in guarantee order. */
        public static List<Selection> defaultSelections(List<Guarantee> guarantees) {
            return guarantees.stream()
                    .map(CalibrationParams::defaultSelection)
                    .distinct()
                    .toList();
        }

        /** Every (guarantee, selection) pair, selection-major. */
        public List<Variant> variants() {
            List<Variant> v = new ArrayList<>();
            for (Selection s : selections) {
                for (Guarantee g : guarantees) {
                    v.add(new Variant(g, s));
                }
            }
            return v;
        }

        /**
         * The expected guarantee's draw U on split {@code split} of {@code dataset}: with {@link #randomisedCrc}
         * uniform in (0, 1] from a stream of its own, seeded by the base seed, the dataset's name and the split index
         * — one independent draw per (dataset, split), as every user's training run draws its own, so the datasets
         * of one split share no U; reproducible, and unrelated to how the split's series were drawn and to the
         * models' seeds — else 1.
         */
        public double crcDraw(String dataset, int split) {
            if (!randomisedCrc) {
                return ConformalRiskControl.CONSERVATIVE;
            }
            long stream = (seed ^ CRC_STREAM) + dataset.hashCode() * 0xBF58476D1CE4E5B9L;
            return 1.0 - new SplittableRandom(stream + split * 0x9E3779B97F4A7C15L).nextDouble();
        }

        /** What a split's result depends on besides the data, as cache key text. */
        String settings() {
            return String.format(
                            Locale.ROOT,
                            "taus=%s;seed=%d;variants=%s;calibration=%s;earliest=grid-0;cross-fitted-earliest;draw=dataset-split",
                            taus,
                            seed,
                            variants(),
                            describe(CalibrationParams.defaults(0)))
                    + (reselectInFolds ? ";reselect-in-folds" : "")
                    + (estimator == EstimatorType.JOINT ? "" : ";estimator=" + estimator.id())
                    + (pattern.isComplete() ? "" : ";pattern=" + pattern)
                    + (randomisedCrc && guarantees.contains(Guarantee.EXPECTED) ? ";crc=randomised" : "")
                    + (holdout > 0 ? ";holdout=" + holdout : "");
        }
    }

    /** The defaults' replay and objective settings (what the cache must notice when the defaults change). */
    private static String describe(CalibrationParams p) {
        return String.format(
                Locale.ROOT,
                "folds=%d;delta=%s;bands=%d;rules=%s;classifiers=%s;set=%s;objective=%s;target=%s;cost=%s",
                p.folds(),
                p.delta(),
                p.bands(),
                p.rules(),
                p.classifiers(),
                p.set(),
                p.objective().cliName(),
                p.targetReliability(),
                p.delayCost());
    }

    /** A guarantee under a selection correction. */
    public record Variant(Guarantee guarantee, Selection selection) {
        /** The calibration defaults with this guarantee and correction, and draw U under expected. */
        CalibrationParams params(long seed, double crcDraw) {
            return CalibrationParams.defaults(seed)
                    .withGuarantee(guarantee, selection)
                    .withCrcDraw(guarantee == Guarantee.EXPECTED ? crcDraw : ConformalRiskControl.CONSERVATIVE);
        }

        @Override
        public String toString() {
            return guarantee.cliName() + "/" + selection.cliName();
        }
    }

    /**
     * One evaluation of one rule on a test part.
     *
     * @param tau the announced τ (for the earliest rule, its threshold)
     * @param certified whether τ is certified by the training part
     * @param n test series
     * @param reliable series whose early label equals the complete-series label
     * @param correct series whose early label is the true label
     * @param meanFraction mean t/d
     */
    public record Point(double tau, boolean certified, int n, int reliable, int correct, double meanFraction) {
        static Point of(EarlyEvaluation.TauResult t) {
            int n = t.decisions().size();
            return new Point(
                    t.tau(),
                    t.certified(),
                    n,
                    (int) Math.round(t.reliability() * n),
                    (int) Math.round(t.accuracy() * n),
                    t.meanFraction());
        }

        /** reliable / n. */
        public double reliability() {
            return reliable / (double) n;
        }

        /** correct / n. */
        public double accuracy() {
            return correct / (double) n;
        }

        /** Whether the test reliability is significantly below τ (one-sided binomial test at 5 %). */
        public boolean significantlyBelow() {
            return Binomial.pBelow(reliable, n, tau) < 0.05;
        }
    }

    /**
     * One variant's model on one split.
     *
     * @param variant guarantee and selection correction
     * @param rule the operating point's rule
     * @param classifier the operating point's classifier
     * @param fullAccuracy that classifier's accuracy on the complete test series
     * @param operatingPoint the evaluation at the stored operating point
     * @param earliest the rule at the least conservative threshold of the grid, certified or not: its earliest
     *     possible decision
     * @param crossFittedEarliest the same rule and threshold on the training part's cross-fitted replays (the
     *     calibration curve's first threshold: n replayed series, reliable = n − disagreements), what a user can see
     *     before any test series, and so what selects the pairs of the calibration goal
     * @param taus one point per requested τ
     */
    public record Outcome(
            Variant variant,
            String rule,
            String classifier,
            double fullAccuracy,
            Point operatingPoint,
            Point earliest,
            Point crossFittedEarliest,
            List<Point> taus) {
        /** Copies the list. */
        public Outcome {
            taus = List.copyOf(taus);
        }
    }

    /**
     * One re-split.
     *
     * @param split index
     * @param seed its seed
     * @param trainSize training series
     * @param seconds training (one cross-fit for every variant) plus evaluation
     * @param outcomes one per variant, in {@link Config#variants()} order; empty when training failed
     * @param failure why training failed on this split, empty when it did not
     */
    public record Split(int split, long seed, int trainSize, double seconds, List<Outcome> outcomes, String failure) {
        /** Copies the list. */
        public Split {
            outcomes = List.copyOf(outcomes);
            Objects.requireNonNull(failure, "failure");
        }

        /** Whether the split was trained and evaluated. */
        public boolean done() {
            return failure.isEmpty();
        }

        /** The outcome of one variant. */
        public Optional<Outcome> outcome(Variant v) {
            return outcomes.stream().filter(o -> o.variant().equals(v)).findFirst();
        }
    }

    /** Every split of one dataset. */
    public record DatasetResult(String dataset, int trainSize, int testSize, int length, List<Split> splits) {
        /** Copies the list. */
        public DatasetResult {
            splits = List.copyOf(splits);
        }
    }

    /**
     * Runs every re-split of one dataset, taking finished ones from {@code cache} and keeping the ones it computes.
     *
     * @param progress stepped once per split
     */
    public static DatasetResult run(String name, TrainTest data, Config config, Progress progress, SplitCache cache) {
        Dataset train = data.train();
        Dataset test = data.test().classNames().equals(train.classNames())
                ? data.test()
                : data.test().withClasses(train.classNames());
        Dataset merged = Resplit.merge(train, test);
        SplitCache.Key key = cache.key(name, "guarantee", config.settings(), train, test);
        List<Split> splits = new ArrayList<>();
        for (int s = 0; s < config.resplits(); s++) {
            final int split = s;
            Split r = cache.get(key, file(split), lines -> GuaranteeReport.parseSplit(lines, split, config))
                    .orElse(null);
            if (r == null) {
                try {
                    r = runSplit(name, merged, train.size(), split, config);
                    cache.put(key, file(split), GuaranteeReport.splitCsv(r));
                } catch (IllegalArgumentException e) {
                    // Training refused this re-split's data: reported as a failed split, not cached.
                    long seed = Table33Experiment.splitSeed(config.seed(), split);
                    r = new Split(split, seed, train.size(), 0, List.of(), e.getMessage());
                }
            }
            splits.add(r);
            progress.step();
        }
        return new DatasetResult(name, train.size(), test.size(), train.length(), splits);
    }

    /** The decisions at {@code params}' τ: read off the grid replay, or replayed when τ is not on the grid. */
    private static Point point(
            String name,
            VigilModel model,
            DecisionParams params,
            GridReplay replay,
            Dataset test,
            ObservationPattern pattern) {
        DecisionThresholds th = DecisionThresholds.of(model, params);
        if (th.calibrated()) {
            return replay.at(th);
        }
        return Point.of(
                EarlyEvaluation.run(name, model, null, test, List.of(params.tau()), params, pattern, Progress.none())
                        .taus()
                        .get(0));
    }

    /**
     * The operating point's curve at its least conservative threshold, on the cross-fitted replays of the training
     * part.
     */
    private static Point crossFittedEarliest(VigilModel model) {
        CalibrationSection c = model.section(CalibrationSection.class).orElseThrow();
        CalibrationSection.Curve curve = c.operatingPoint()
                .flatMap(op -> c.curve(op.rule(), op.classifier(), op.set(), op.estimator()))
                .orElseThrow(() -> new IllegalStateException("the operating point has no calibration curve"));
        int n = curve.series();
        return new Point(
                c.thresholds()[0], false, n, n - curve.disagreements()[0], curve.correct()[0], curve.meanFraction(0));
    }

    private static String file(int split) {
        return String.format(Locale.ROOT, "guarantee-%03d.csv", split);
    }

    private static Split runSplit(String name, Dataset merged, int trainSize, int split, Config config) {
        long start = System.nanoTime();
        long seed = Table33Experiment.splitSeed(config.seed(), split);
        int[][] parts = Resplit.split(merged, trainSize, seed);
        Dataset trainPart = merged.subset(parts[0]);
        Dataset testPart = merged.subset(parts[1]);
        List<Variant> variants = config.variants();
        List<CalibrationParams> params = variants.stream()
                .map(v -> v.params(seed, config.crcDraw(name, split))
                        .withEstimator(config.estimator())
                        .withPattern(config.pattern()))
                .toList();
        List<ReliabilityExperiment.Trained> trained =
                ReliabilityExperiment.trainEach(trainPart, seed, params, config.reselectInFolds(), config.holdout());
        // The variants share one cross-fit, so one grid replay per rule and classifier serves all their τ.
        Map<DecisionParams, GridReplay> replays = new HashMap<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) {
            VigilModel model = trained.get(i).model();
            DecisionParams base = trained.get(i).operatingPoint();
            GridReplay replay = replays.computeIfAbsent(
                    base.withTau(0.5), p -> GridReplay.run(model, p, testPart, config.pattern(), name + "/test/"));
            double lowest =
                    model.section(CalibrationSection.class).orElseThrow().thresholds()[0];
            List<Point> taus = new ArrayList<>();
            for (double tau : config.taus()) {
                taus.add(point(name, model, base.withTau(tau), replay, testPart, config.pattern()));
            }
            outcomes.add(new Outcome(
                    variants.get(i),
                    base.rule().cliName(),
                    base.classifier().cliName(),
                    replay.fullAccuracy(),
                    point(name, model, base, replay, testPart, config.pattern()),
                    // The rule at its least conservative threshold, whatever the certificate: its earliest decision.
                    replay.earliest(lowest),
                    crossFittedEarliest(model),
                    taus));
        }
        return new Split(split, seed, trainSize, (System.nanoTime() - start) / 1e9, outcomes, "");
    }
}
