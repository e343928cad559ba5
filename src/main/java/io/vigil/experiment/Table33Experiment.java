package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The small-sample protocol of thesis §3.5.2 behind Tables 3.3 and 3.4: merge the standard train and test
 * splits, draw {@code splits} seeded random re-splits with the original training size ({@link Resplit}),
 * run the full model selection of {@link Trainer} on each training part, and measure LDG + 3-NN accuracy
 * on the test part (plus 1-NN and local QDA). ℓ is fixed at G − 1 for Table 3.3 and cross-validated for
 * Table 3.4 (where, as in the thesis, γ is chosen at G − 1 first: every dataset of the tables is
 * small-sample, n &lt; d + G). Splits run in parallel on a caller-supplied pool; every split's seed
 * depends only on the base seed and its index, so results do not depend on thread scheduling.
 */
public final class Table33Experiment {
    /** Which table's ℓ rule to follow. */
    public enum DimsMode {
        /** Table 3.3: ℓ = G − 1. */
        G_MINUS_1("g-1"),
        /** Table 3.4: ℓ by 3-NN cross-validation over {G−1, …, G+32}. */
        CV("cv");

        private final String cliName;

        DimsMode(String cliName) {
            this.cliName = cliName;
        }

        /** {@code g-1} or {@code cv}. */
        public String cliName() {
            return cliName;
        }

        /** Parses {@code g-1} or {@code cv}. */
        public static DimsMode parse(String s) {
            for (DimsMode m : values()) {
                if (m.cliName.equalsIgnoreCase(s.trim())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("dims mode must be 'g-1' or 'cv', got '" + s + "'");
        }
    }

    /**
     * Experiment settings.
     *
     * @param dims which table's ℓ rule
     * @param splits number of random re-splits (the thesis uses 10)
     * @param seed base seed; split s uses {@link #splitSeed(long, int)}
     * @param params training parameters (standardisation, CV scheme, grids); its seed and ℓ are replaced
     *     per split
     */
    public record Config(DimsMode dims, int splits, long seed, TrainParams params) {
        /**
         * @throws IllegalArgumentException when splits &lt; 2 (a standard error needs two)
         */
        public Config {
            Objects.requireNonNull(dims, "dims");
            Objects.requireNonNull(params, "params");
            if (splits < 2) {
                throw new IllegalArgumentException("need at least 2 splits, got " + splits);
            }
        }
    }

    /**
     * The outcome of one re-split.
     *
     * @param split index
     * @param seed the split's seed
     * @param accuracy3nn LDG + 3-NN test accuracy
     * @param accuracy1nn LDG + 1-NN test accuracy
     * @param accuracyLocalQda LDG + local QDA test accuracy
     * @param cvAccuracy the selection's 3-NN CV accuracy on the training part
     * @param fitSeconds wall time of model selection and training
     * @param gamma chosen γ
     * @param dims chosen ℓ
     * @param neighbors chosen LDG k
     * @param qdaNeighbors chosen local-QDA k
     */
    public record SplitResult(
            int split,
            long seed,
            double accuracy3nn,
            double accuracy1nn,
            double accuracyLocalQda,
            double cvAccuracy,
            double fitSeconds,
            double gamma,
            int dims,
            int neighbors,
            int qdaNeighbors) {}

    /**
     * Every split of one dataset.
     *
     * @param name archive name
     * @param classes G
     * @param trainSize training size of each re-split (the standard split's)
     * @param testSize test size of each re-split
     * @param length d
     * @param splits per-split results in split order
     */
    public record DatasetResult(
            String name, int classes, int trainSize, int testSize, int length, List<SplitResult> splits) {
        /** Mean 3-NN accuracy in percent. */
        public double meanPercent() {
            return 100 * Stats.mean(acc());
        }

        /** Sample standard deviation (n − 1) of the 3-NN accuracy over splits, percent. */
        public double stdPercent() {
            return 100 * Stats.std(acc());
        }

        /** Standard error of the mean over splits, percent. */
        public double standardErrorPercent() {
            return stdPercent() / Math.sqrt(splits.size());
        }

        /** Mean local-QDA accuracy in percent. */
        public double meanLocalQdaPercent() {
            return 100
                    * Stats.mean(splits.stream()
                            .mapToDouble(SplitResult::accuracyLocalQda)
                            .toArray());
        }

        /** Mean fit time in seconds. */
        public double meanFitSeconds() {
            return Stats.mean(
                    splits.stream().mapToDouble(SplitResult::fitSeconds).toArray());
        }

        private double[] acc() {
            return splits.stream().mapToDouble(SplitResult::accuracy3nn).toArray();
        }
    }

    private Table33Experiment() {}

    /** The seed of split {@code s}: a fixed function of the base seed and the index. */
    public static long splitSeed(long seed, int s) {
        return seed * 1_000_003L + s;
    }

    /**
     * Runs every split of one dataset.
     *
     * @param name archive name (for the report)
     * @param train standard training split
     * @param test standard test split (same classes and length)
     * @param pool runs the splits; results are collected in split order
     * @param progress stepped once per finished split
     */
    public static DatasetResult run(
            String name, Dataset train, Dataset test, Config config, ExecutorService pool, Progress progress)
            throws InterruptedException {
        Dataset merged = Resplit.merge(train, test);
        int g = train.numClasses();
        List<Future<SplitResult>> futures = new ArrayList<>();
        for (int s = 0; s < config.splits(); s++) {
            final int split = s;
            futures.add(pool.submit(() -> {
                SplitResult r = runSplit(merged, train.size(), g, split, config);
                progress.step();
                return r;
            }));
        }
        List<SplitResult> results = new ArrayList<>();
        for (Future<SplitResult> f : futures) {
            try {
                results.add(f.get());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                throw new IllegalStateException(String.format(Locale.ROOT, "%s: %s", name, cause.getMessage()), cause);
            }
        }
        return new DatasetResult(name, g, train.size(), test.size(), train.length(), List.copyOf(results));
    }

    private static SplitResult runSplit(Dataset merged, int trainSize, int g, int split, Config config) {
        long seed = splitSeed(config.seed(), split);
        int[][] parts = Resplit.split(merged, trainSize, seed);
        Dataset trainPart = merged.subset(parts[0]);
        Dataset testPart = merged.subset(parts[1]);
        TrainParams.Builder pb = config.params().toBuilder().seed(seed);
        if (config.dims() == DimsMode.G_MINUS_1) {
            pb.dims(Math.max(1, g - 1));
        }
        TrainParams params = pb.build();
        long start = System.nanoTime();
        VigilModel model = Trainer.train(trainPart, params, Instant.EPOCH, Progress.none(), 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        Evaluation e = Evaluation.of(model, testPart);
        return new SplitResult(
                split,
                seed,
                e.accuracy3nn(),
                e.accuracy1nn(),
                e.accuracyLocalQda(),
                model.selection().cvAccuracy(),
                seconds,
                model.gamma(),
                model.dims(),
                model.ldgNeighbors(),
                model.qdaNeighbors());
    }

    /** Mean and sample standard deviation. */
    static final class Stats {
        private Stats() {}

        static double mean(double[] v) {
            double m = 0;
            for (int i = 0; i < v.length; i++) {
                m += (v[i] - m) / (i + 1);
            }
            return m;
        }

        static double std(double[] v) {
            if (v.length < 2) {
                return Double.NaN;
            }
            double m = mean(v);
            double s = 0;
            for (double x : v) {
                s += (x - m) * (x - m);
            }
            return Math.sqrt(s / (v.length - 1));
        }
    }
}
