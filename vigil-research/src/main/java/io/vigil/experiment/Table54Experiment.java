package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.Decision;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionStride;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The protocol of thesis Table 5.4 (§5.6.4) on the standard split of one dataset: the cost per test series of the
 * reliable early decision at t = 1 — the worst case, since the d − 1 unseen samples are then all unknown — with local
 * QDA, the naive-Bayes quadratic set, the jointly Gaussian estimator and the set rule at τ, once in the d-dimensional
 * sample space (no reduction: {@link Trainer#trainWithoutReduction}) and once in the ℓ-dimensional LDG space (ℓ and
 * every other parameter chosen by cross-validation on the training split, {@link Trainer#train} with the defaults).
 * Both models share the same complete-series Gaussian (Ledoit–Wolf shrinkage, fitted on the same training series);
 * only B differs (I<sub>d</sub> or the LDG basis), and neither is calibrated, so the rule decides at τ itself.
 *
 * <p>Timing: the call of {@link EarlyClassifier#observe} that feeds the first sample of a fresh {@link SeriesState}
 * (the conditional moments, local QDA's class Gaussians around m_y, the τ-set and the min/max check), timed with
 * {@link System#nanoTime}, {@link Config#repeats} times per series (the median kept) over the first {@link
 * Config#maxSeries} test series, after warm-up passes over the same series until {@link Config#warmupSeconds} have
 * passed (at least one pass). The median and the mean over the series are reported. Beyond d = {@value
 * DecisionStride#MAX_CHECKS} Vigil evaluates the rule only every {@link DecisionStride} samples, so there the call
 * timed is the first that evaluates it ({@link #firstCheck}), the samples before it fed untimed. The raw-space model needs the joint estimator's R_y table of 8·(d+1)·d(d+1)/2 bytes; when that exceeds
 * half the heap the column is skipped with the reason rather than running out of memory.
 */
public final class Table54Experiment {
    /** The method name (cache and CSV) of the classifier in the sample space. */
    public static final String RAW = "raw";

    /** The method name (cache and CSV) of the classifier in LDG space. */
    public static final String LDG = "ldg";

    static final String HEADER =
            "method,dims,qda_neighbors,cv_accuracy,timed_series,median_ms,mean_ms,decided_at_t1,fit_seconds,skipped";

    private Table54Experiment() {}

    /**
     * What a run measures.
     *
     * @param tau τ of the set rule, in (0, 1)
     * @param maxSeries most test series timed, ≥ 1
     * @param repeats timed decisions per series (each on a fresh state; the series' time is their median), ≥ 1
     * @param warmupSeconds least time spent in untimed passes before the timed ones, ≥ 0
     * @param seed seed of the selection's folds
     */
    public record Config(double tau, int maxSeries, int repeats, double warmupSeconds, long seed) {
        /** Validates. */
        public Config {
            if (!(tau > 0 && tau < 1)) {
                throw new IllegalArgumentException("τ must lie in (0, 1), got " + tau);
            }
            if (maxSeries < 1) {
                throw new IllegalArgumentException("the number of timed series must be ≥ 1, got " + maxSeries);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("the number of timed repeats must be ≥ 1, got " + repeats);
            }
            if (!(warmupSeconds >= 0 && Double.isFinite(warmupSeconds))) {
                throw new IllegalArgumentException(
                        "the warm-up must be a finite number of seconds ≥ 0, got " + warmupSeconds);
            }
        }

        /** The settings text of the cache key. */
        String settings() {
            return "tau=" + tau + ";maxSeries=" + maxSeries + ";repeats=" + repeats + ";warmup=" + warmupSeconds
                    + ";seed=" + seed + ";set=nb-quadratic;estimator=joint;classifier=local-qda;rule=set";
        }

        /** The decision parameters timed: τ, naive-Bayes quadratic set, joint estimator, local QDA, set rule. */
        public DecisionParams decisionParams() {
            return DecisionParams.defaults().withTau(tau);
        }
    }

    /**
     * One classifier's measurement on one dataset.
     *
     * @param method {@link #RAW} or {@link #LDG}
     * @param dims the dimension the rule works in: d without reduction, ℓ with LDG
     * @param qdaNeighbors local QDA's k
     * @param cvAccuracy the selection's cross-validation accuracy (NaN when not scored)
     * @param timedSeries test series timed
     * @param medianMillis median time of one series' decision at t = 1, ms
     * @param meanMillis mean of the same, ms
     * @param decidedAtT1 share of the timed series that the rule decided at the timed sample (t = 1 up to d = 1,000)
     * @param fitSeconds training time (selection, fit and the complete-series Gaussian), s
     * @param skipped why the classifier was not timed, or empty
     */
    public record Timing(
            String method,
            int dims,
            int qdaNeighbors,
            double cvAccuracy,
            int timedSeries,
            double medianMillis,
            double meanMillis,
            double decidedAtT1,
            double fitSeconds,
            Optional<String> skipped) {
        /** Validates. */
        public Timing {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(skipped, "skipped");
        }

        /** A classifier that was not timed, and why. */
        static Timing skipped(String method, int dims, String reason) {
            return new Timing(
                    method,
                    dims,
                    0,
                    Double.NaN,
                    0,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    Double.NaN,
                    Optional.of(reason));
        }
    }

    /**
     * One dataset's row.
     *
     * @param dataset archive name
     * @param generated whether the data came from Vigil's generator rather than the archive
     * @param length d
     * @param trainSize training series
     * @param testSize test series
     * @param raw the classifier in the sample space
     * @param ldg the classifier in LDG space
     */
    public record Row(
            String dataset, boolean generated, int length, int trainSize, int testSize, Timing raw, Timing ldg) {
        /** Validates. */
        public Row {
            Objects.requireNonNull(dataset, "dataset");
            Objects.requireNonNull(raw, "raw");
            Objects.requireNonNull(ldg, "ldg");
        }

        /** The name the report shows: the archive name, marked when generated. */
        public String label() {
            return generated ? dataset + " (generated)" : dataset;
        }

        /** The sample count the decision was timed at: {@link #firstCheck} of d (1 up to d = 1,000). */
        public int timedAt() {
            return firstCheck(length);
        }

        /** Median time without LDG over median time with it (NaN when either was skipped). */
        public double speedUp() {
            return raw.medianMillis() / ldg.medianMillis();
        }
    }

    /**
     * Measures one dataset, taking each classifier's timing from {@code cache} when an earlier run with the same
     * settings and data kept it, and keeping it there otherwise.
     *
     * @param name the archive name (the cache's and the report's)
     * @param generated whether {@code data} came from Vigil's generator
     * @param progress stepped twice: once per classifier
     * @throws IllegalArgumentException naming the dataset when it cannot be trained on
     */
    public static Row run(
            String name, boolean generated, TrainTest data, Config config, Progress progress, SplitCache cache) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(config, "config");
        Dataset train = data.train();
        Dataset test = data.test();
        if (test.length() != train.length()) {
            throw new IllegalArgumentException(name + ": the test series have length " + test.length()
                    + " but the training series " + train.length());
        }
        String cacheName = generated ? name + "-generated" : name;
        Timing ldg = measure(cacheName, LDG, data, config, cache);
        progress.step();
        Timing raw = measure(cacheName, RAW, data, config, cache);
        progress.step();
        return new Row(name, generated, train.length(), train.size(), test.size(), raw, ldg);
    }

    private static Timing measure(String name, String method, TrainTest data, Config config, SplitCache cache) {
        SplitCache.Key key = cache.key(name, "table54-" + method, config.settings(), data.train(), data.test());
        Optional<Timing> cached = cache.get(key, "timing.csv", Table54Experiment::parse);
        if (cached.isPresent()) {
            return cached.get();
        }
        Timing t;
        try {
            t = measure(method, data.train(), data.test(), config);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " (" + method + "): " + e.getMessage(), e);
        }
        cache.put(key, "timing.csv", HEADER + "\n" + format(t) + "\n");
        return t;
    }

    /** Trains one classifier on {@code train} and times its decisions at t = 1 on the first test series. */
    static Timing measure(String method, Dataset train, Dataset test, Config config) {
        int d = train.length();
        if (method.equals(RAW)) {
            Optional<String> tooLarge = tooLargeForHeap(d, Runtime.getRuntime().maxMemory());
            if (tooLarge.isPresent()) {
                return Timing.skipped(RAW, d, tooLarge.get());
            }
        } else if (!method.equals(LDG)) {
            throw new IllegalArgumentException("unknown method '" + method + "'; expected " + RAW + " or " + LDG);
        }
        long start = System.nanoTime();
        TrainParams params = TrainParams.builder().seed(config.seed()).build();
        VigilModel model = method.equals(RAW)
                ? Trainer.trainWithoutReduction(train, params, Instant.EPOCH, Progress.none())
                : Trainer.train(train, params, Instant.EPOCH, Progress.none());
        EarlyModelTrainer.Params sections = new EarlyModelTrainer.Params(
                ShrinkageParams.defaults(), EnumSet.of(EstimatorType.JOINT), Double.NaN, config.seed());
        model = EarlyModelTrainer.addSections(model, train, sections);
        double fitSeconds = (System.nanoTime() - start) / 1e9;
        EarlyClassifier classifier = EarlyClassifier.of(model, config.decisionParams());
        double[][] rows = test.rows();
        int m = Math.min(config.maxSeries(), rows.length);
        int at = firstCheck(d);
        EarlyClassifier.Workspace ws = classifier.newWorkspace();
        Decision decision = Decision.labelOnly();
        long warmupNanos = (long) (config.warmupSeconds() * 1e9);
        long warmStart = System.nanoTime();
        do {
            for (int i = 0; i < m; i++) {
                decideAt(classifier, rows[i], at, ws, decision);
            }
        } while (System.nanoTime() - warmStart < warmupNanos);
        double[] millis = new double[m];
        double[] repeats = new double[config.repeats()];
        int decided = 0;
        for (int i = 0; i < m; i++) {
            for (int r = 0; r < repeats.length; r++) {
                repeats[r] = decideAt(classifier, rows[i], at, ws, decision) / 1e6;
            }
            millis[i] = Table33Report.median(repeats);
            decided += decision.decided() ? 1 : 0;
        }
        return new Timing(
                method,
                model.dims(),
                model.qdaNeighbors(),
                model.selection().cvAccuracy(),
                m,
                Table33Report.median(millis),
                Arrays.stream(millis).average().orElse(Double.NaN),
                decided / (double) m,
                fitSeconds,
                Optional.empty());
    }

    /**
     * The first sample count at which the rule is evaluated: t = 1 up to d = {@value DecisionStride#MAX_CHECKS}, else
     * the first {@link DecisionStride} point (the samples before it only update the state).
     */
    public static int firstCheck(int length) {
        return Math.min(DecisionStride.of(length), length);
    }

    /**
     * Feeds the first {@code at} samples of {@code series} to a fresh state, the last one timed.
     *
     * @return nanoseconds of the timed {@link EarlyClassifier#observe} call
     */
    private static long decideAt(
            EarlyClassifier classifier, double[] series, int at, EarlyClassifier.Workspace ws, Decision decision) {
        SeriesState state = classifier.newState();
        for (int t = 0; t < at - 1; t++) {
            classifier.observe(state, series[t], ws, decision);
        }
        long t0 = System.nanoTime();
        classifier.observe(state, series[at - 1], ws, decision);
        return System.nanoTime() - t0;
    }

    /**
     * Why a sample-space model of length d does not fit a heap of {@code maxHeapBytes}, or empty when it does: the
     * joint estimator's R_y table holds (d+1)·d(d+1)/2 doubles and must take at most half the heap.
     */
    static Optional<String> tooLargeForHeap(int d, long maxHeapBytes) {
        double bytes = 8.0 * (d + 1) * d * (d + 1) / 2.0;
        if (bytes <= maxHeapBytes / 2.0) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "the sample-space R_y table for d = %d needs %.1f GB, more than half the %.1f GB heap (raise -Xmx)",
                d,
                bytes / 1e9,
                maxHeapBytes / 1e9));
    }

    /** One CSV line of a timing ({@link Double#toString}, exact; the reason with commas replaced). */
    static String format(Timing t) {
        return String.join(
                ",",
                t.method(),
                Integer.toString(t.dims()),
                Integer.toString(t.qdaNeighbors()),
                Double.toString(t.cvAccuracy()),
                Integer.toString(t.timedSeries()),
                Double.toString(t.medianMillis()),
                Double.toString(t.meanMillis()),
                Double.toString(t.decidedAtT1()),
                Double.toString(t.fitSeconds()),
                t.skipped().map(s -> s.replace(',', ';')).orElse(""));
    }

    /** Reads a cached timing file: {@link #HEADER} and one {@link #format} line. */
    static Timing parse(List<String> lines) {
        if (lines.size() != 2 || !lines.get(0).equals(HEADER)) {
            throw new IllegalArgumentException("not a table54 timing file");
        }
        String[] f = lines.get(1).split(",", -1);
        if (f.length != 10) {
            throw new IllegalArgumentException("expected 10 fields, got " + f.length);
        }
        return new Timing(
                f[0],
                Integer.parseInt(f[1]),
                Integer.parseInt(f[2]),
                Double.parseDouble(f[3]),
                Integer.parseInt(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Double.parseDouble(f[7]),
                Double.parseDouble(f[8]),
                f[9].isEmpty() ? Optional.empty() : Optional.of(f[9]));
    }
}
