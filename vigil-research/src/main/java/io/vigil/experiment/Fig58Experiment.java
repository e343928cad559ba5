package io.vigil.experiment;

import io.vigil.baseline.Teaser;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.EarlyMethod;
import io.vigil.evaluate.FixedTimeBaselines;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The protocol of thesis Figures 5.8–5.11 (§5.6.5) on the standard splits: mean decision time against test
 * reliability (and accuracy) for Vigil's reliable early rule at several τ, ECTS at several minimum supports (its one
 * knob; support 0 is the earliest ECTS can be), and the fixed-time local-QDA and 1-NN classifiers at 10 %, …, 100 % of
 * d. Vigil is trained and calibrated with every default ({@link ReliabilityExperiment#trainWithDefaults}) and decides
 * with its stored rule, set, estimator and classifier at each τ; nothing is chosen on the test split. The thesis's
 * "Rel. Class." curve — its reliable local QDA on the samples themselves, without LDG — is the same rule on a model
 * with no reduction ({@link Trainer#trainWithoutReduction}: B = I, local QDA's k by cross-validation) deciding at τ
 * itself with the thesis's set rule, naive-Bayes quadratic set and joint estimator, uncalibrated as in the thesis;
 * it is left out when its R_y table would not fit in half the heap (the report says so).
 */
public final class Fig58Experiment {
    /** Series names as they appear in the report and the plot legend. */
    public static final String VIGIL = "Vigil (LDG reliable early)";

    /** Series names as they appear in the report and the plot legend. */
    public static final String ECTS = "ECTS";

    /** Series names as they appear in the report and the plot legend: the thesis's "Rel. Class.". */
    public static final String RAW = "Rel. Class. (no LDG)";

    /** Progress steps per dataset: training, Vigil, the raw-sample rule, the baselines. */
    public static final int STEPS = 4;

    private Fig58Experiment() {}

    /**
     * One point of one method's curve.
     *
     * @param method the series ({@link #VIGIL}, {@link #ECTS}, {@link FixedTimeBaselines#LOCAL_QDA}, {@link
     *     FixedTimeBaselines#ONE_NN})
     * @param setting the knob's value: τ, the minimum support, or the fraction of d
     * @param meanT mean decision time (samples)
     * @param meanFraction mean t/d
     * @param reliability agreement of the early label with the method's own complete-series label
     * @param accuracy agreement of the early label with the true label
     */
    public record Point(
            String method, double setting, double meanT, double meanFraction, double reliability, double accuracy) {}

    /**
     * Every curve of one dataset.
     *
     * @param dataset archive name
     * @param length d
     * @param testSize test series
     * @param points the curves, method by method, each in the order of its knob
     * @param seconds wall time
     */
    public record Row(String dataset, int length, int testSize, List<Point> points, double seconds) {
        /** Copies the list. */
        public Row {
            points = List.copyOf(points);
        }

        /** The points of one series, in order. */
        public List<Point> series(String method) {
            return points.stream().filter(p -> p.method().equals(method)).toList();
        }
    }

    /**
     * As {@link #run(TrainTest, List, List, long, Progress)}, taking the dataset's points from {@code cache} when an
     * earlier run with the same τ, supports, seed and data kept them, and keeping them there otherwise.
     */
    public static Row run(
            String name,
            TrainTest data,
            List<Double> taus,
            List<Double> supports,
            long seed,
            Progress progress,
            SplitCache cache) {
        SplitCache.Key key = cache.key(
                name, "fig58", "taus=" + taus + ";supports=" + supports + ";seed=" + seed, data.train(), data.test());
        java.util.Optional<Row> cached = cache.get(key, "points.csv", Fig58Report::parse);
        if (cached.isPresent()) {
            progress.stepBy(STEPS);
            return cached.get();
        }
        Row row = run(data, taus, supports, seed, progress);
        cache.put(key, "points.csv", Fig58Report.csv(List.of(row)));
        return row;
    }

    /**
     * Runs one dataset.
     *
     * @param taus Vigil's τ values, each in (0, 1)
     * @param supports ECTS minimum supports, each in [0, 1]
     * @param progress stepped {@link #STEPS} times: training, Vigil, the raw-sample rule, the baselines
     */
    public static Row run(TrainTest data, List<Double> taus, List<Double> supports, long seed, Progress progress) {
        Objects.requireNonNull(data, "data");
        if (taus.isEmpty() || supports.isEmpty()) {
            throw new IllegalArgumentException("fig58 needs at least one τ and one ECTS support");
        }
        for (double s : supports) {
            if (!(s >= 0 && s <= 1)) {
                throw new IllegalArgumentException(
                        String.format(Locale.ROOT, "ECTS minimum support must lie in [0, 1], got %s", s));
            }
        }
        long start = System.nanoTime();
        Dataset train = data.train();
        Dataset test = data.test().classNames().equals(train.classNames())
                ? data.test()
                : data.test().withClasses(train.classNames());
        ReliabilityExperiment.Trained trained = ReliabilityExperiment.trainWithDefaults(train, seed);
        VigilModel model = trained.model();
        DecisionParams base = trained.operatingPoint();
        progress.step();
        List<Point> points = new ArrayList<>();
        EarlyEvaluation.Result vigil =
                EarlyEvaluation.run(train.name(), model, train, test, taus, base, Progress.none());
        for (EarlyEvaluation.TauResult t : vigil.taus()) {
            points.add(new Point(VIGIL, t.tau(), t.meanT(), t.meanFraction(), t.reliability(), t.accuracy()));
        }
        progress.step();
        rawSampleCurve(train, test, taus, seed).ifPresent(points::addAll);
        progress.step();
        for (double support : supports) {
            BaselineEvaluation.Settings settings = new BaselineEvaluation.Settings(
                    EarlyMethod.ECTS, support, Double.NaN, Teaser.DEFAULT_PREFIXES, 0, Teaser.Master.RBF);
            EarlyEvaluation.TauResult e = BaselineEvaluation.run(
                            train.name(), model, train, test, settings, false, Progress.none())
                    .taus()
                    .get(0);
            points.add(new Point(ECTS, support, e.meanT(), e.meanFraction(), e.reliability(), e.accuracy()));
        }
        for (String method : List.of(FixedTimeBaselines.LOCAL_QDA, FixedTimeBaselines.ONE_NN)) {
            for (FixedTimeBaselines.Point p : vigil.baselines()) {
                if (p.method().equals(method)) {
                    points.add(new Point(
                            method,
                            p.fraction(),
                            p.t(),
                            p.t() / (double) test.length(),
                            p.reliability(),
                            p.accuracy()));
                }
            }
        }
        progress.step();
        return new Row(train.name(), test.length(), test.size(), points, (System.nanoTime() - start) / 1e9);
    }

    /**
     * The thesis's "Rel. Class." points: local QDA on the samples (no reduction), its reliable rule at each τ with the
     * thesis's defaults, uncalibrated; empty when the sample-space R_y table would not fit in half the heap.
     */
    static java.util.Optional<List<Point>> rawSampleCurve(Dataset train, Dataset test, List<Double> taus, long seed) {
        java.util.Optional<String> tooLarge = Table54Experiment.tooLargeForHeap(
                train.length(), Runtime.getRuntime().maxMemory());
        if (tooLarge.isPresent()) {
            return java.util.Optional.empty();
        }
        VigilModel raw = Trainer.trainWithoutReduction(
                train, TrainParams.builder().seed(seed).build(), Instant.EPOCH, Progress.none());
        raw = EarlyModelTrainer.addSections(
                raw,
                train,
                new EarlyModelTrainer.Params(
                        ShrinkageParams.defaults(), EnumSet.of(EstimatorType.JOINT), Double.NaN, seed));
        DecisionParams thesis = DecisionParams.defaults();
        EarlyEvaluation.Result r = EarlyEvaluation.run(train.name(), raw, null, test, taus, thesis, Progress.none());
        List<Point> points = new ArrayList<>();
        for (EarlyEvaluation.TauResult t : r.taus()) {
            points.add(new Point(RAW, t.tau(), t.meanT(), t.meanFraction(), t.reliability(), t.accuracy()));
        }
        return java.util.Optional.of(points);
    }
}
