package io.vigil.experiment;

import io.vigil.classify.Knn;
import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.evaluate.Evaluation;
import io.vigil.ldg.LinearMaps;
import io.vigil.model.VigilModel;
import io.vigil.reduce.Dlda;
import io.vigil.reduce.Fda;
import io.vigil.reduce.IllPosedReductionException;
import io.vigil.reduce.KernelLmca;
import io.vigil.reduce.Lfda;
import io.vigil.reduce.Lmca;
import io.vigil.reduce.Mmc;
import io.vigil.reduce.Nca;
import io.vigil.reduce.Pca;
import io.vigil.reduce.PcaFda;
import io.vigil.reduce.RegularizedFda;
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
import org.ejml.data.DMatrixRMaj;

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
        /**
         * True when the reducer reported its problem ill-posed ({@link IllPosedReductionException}) on some split: the
         * thesis's "nc", and every accuracy figure is NaN.
         */
        public boolean notComputable() {
            return splits.stream().anyMatch(s -> Double.isNaN(s.accuracy3nn()));
        }

        /** Mean 3-NN accuracy in percent (NaN when {@link #notComputable()}). */
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

    /** Folds of the dimension cross-validation of the supervised nested peers (lfda, mmc) in Table 3.4. */
    static final int PEER_CV_FOLDS = 5;

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
        return run(name, train, test, config, pool, progress, SplitCache.none());
    }

    /**
     * As {@link #run(String, Dataset, Dataset, Config, ExecutorService, Progress)}, taking finished splits from
     * {@code cache} and keeping the ones it computes there.
     */
    public static DatasetResult run(
            String name,
            Dataset train,
            Dataset test,
            Config config,
            ExecutorService pool,
            Progress progress,
            SplitCache cache)
            throws InterruptedException {
        SplitCache.Key key = cache.key(
                name,
                config.params().reducer().cliName(),
                settings(config) + ";params=" + config.params(),
                train,
                test);
        return run(name, train, test, config, pool, progress, Table33Experiment::runSplit, cache, key);
    }

    /** What a split's result depends on besides the method, the training parameters and the data. */
    private static String settings(Config config) {
        return "dims=" + config.dims().cliName() + ";seed=" + config.seed();
    }

    /**
     * As {@link #run(String, Dataset, Dataset, Config, ExecutorService, Progress)} with a comparison reducer
     * ({@link Peer}) in place of Vigil's selection and LDG, on the same re-splits; {@code config}'s training
     * parameters are not used.
     */
    public static DatasetResult runPeer(
            String name, Dataset train, Dataset test, Config config, Peer peer, ExecutorService pool, Progress progress)
            throws InterruptedException {
        return runPeer(name, train, test, config, peer, pool, progress, SplitCache.none());
    }

    /** As {@link #runPeer(String, Dataset, Dataset, Config, Peer, ExecutorService, Progress)} with a split cache. */
    public static DatasetResult runPeer(
            String name,
            Dataset train,
            Dataset test,
            Config config,
            Peer peer,
            ExecutorService pool,
            Progress progress,
            SplitCache cache)
            throws InterruptedException {
        return run(
                name,
                train,
                test,
                config,
                pool,
                progress,
                (merged, trainSize, g, split, c) -> runPeerSplit(merged, trainSize, g, split, c, peer),
                cache,
                cache.key(name, peer.cliName(), settings(config), train, test));
    }

    /** One re-split's work. */
    private interface SplitRunner {
        SplitResult run(Dataset merged, int trainSize, int g, int split, Config config);
    }

    private static DatasetResult run(
            String name,
            Dataset train,
            Dataset test,
            Config config,
            ExecutorService pool,
            Progress progress,
            SplitRunner runner,
            SplitCache cache,
            SplitCache.Key key)
            throws InterruptedException {
        Dataset merged = Resplit.merge(train, test);
        int g = train.numClasses();
        List<Future<SplitResult>> futures = new ArrayList<>();
        for (int s = 0; s < config.splits(); s++) {
            final int split = s;
            futures.add(pool.submit(() -> {
                SplitResult r = cache.get(key, split).orElse(null);
                if (r == null) {
                    r = runner.run(merged, train.size(), g, split, config);
                    cache.put(key, r);
                }
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

    /**
     * A comparison reducer on one re-split, followed by 3-NN (and 1-NN). ℓ = G − 1 (capped at the map's width) in
     * Table 3.3. In Table 3.4 the thesis keeps the FDA family at G − 1 and cross-validates ℓ for PCA and LFDA; so
     * here reg-fda, fda, pca-fda and dlda (at most G − 1 directions) and nca (one optimisation per ℓ) stay at G − 1,
     * while pca, lfda and mmc, whose maps are nested, take ℓ from {G − 1, G, G + 1, G + 2, G + 4, G + 8, G + 16, G + 32}
     * (capped at the map's width) by 3-NN accuracy on the training part: PCA, which uses no labels, by leave-one-out in
     * the space of the whole training part; lfda and mmc by stratified 5-fold cross-validation with the map refitted
     * on each fold (their in-sample leave-one-out would always favour G − 1). A reducer that throws
     * {@link IllPosedReductionException} gives a split with NaN accuracies: "nc".
     */
    private static SplitResult runPeerSplit(Dataset merged, int trainSize, int g, int split, Config config, Peer peer) {
        long seed = splitSeed(config.seed(), split);
        int[][] parts = Resplit.split(merged, trainSize, seed);
        Dataset trainPart = merged.subset(parts[0]);
        Dataset testPart = merged.subset(parts[1]);
        double[][] x = trainPart.rows();
        int[] y = trainPart.classIndices();
        int g1 = Math.max(1, g - 1);
        boolean cv = config.dims() == DimsMode.CV && peer.nested();
        int width = cv ? g + 32 : g1;
        long start = System.nanoTime();
        if (peer == Peer.LMCA || peer == Peer.KERNEL_LMCA) {
            return runLmcaSplit(x, y, testPart, g, split, seed, peer == Peer.KERNEL_LMCA, start);
        }
        DMatrixRMaj w;
        int dims;
        try {
            double ridge = peer == Peer.LFDA ? lfdaRidgeByFolds(x, y, g, seed) : Lfda.RIDGE;
            w = fitPeer(peer, x, y, g, width, ridge);
            dims = Math.min(g1, w.numCols);
            if (cv) {
                dims = peer == Peer.PCA
                        ? dimsByLeaveOneOut(x, y, g, w)
                        : dimsByFolds(x, y, g, peer, w.numCols, seed, ridge);
            }
        } catch (IllPosedReductionException e) {
            double seconds = (System.nanoTime() - start) / 1e9;
            return new SplitResult(
                    split, seed, Double.NaN, Double.NaN, Double.NaN, Double.NaN, seconds, Double.NaN, 0, 0, 0);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return knnSplit(
                split,
                seed,
                LinearMaps.project(x, w, dims),
                y,
                g,
                LinearMaps.project(testPart.rows(), w, dims),
                testPart.classIndices(),
                seconds);
    }

    /**
     * A comparison reducer's split: 3-NN and 1-NN test accuracy of the projected test series {@code q} against the
     * projected training series {@code z}; no local QDA and no CV score (NaN), ℓ = the projection's width.
     */
    private static SplitResult knnSplit(
            int split, long seed, double[][] z, int[] y, int g, double[][] q, int[] truth, double seconds) {
        Knn knn = Knn.fit(z, y, g);
        int ok3 = 0;
        int ok1 = 0;
        for (int i = 0; i < q.length; i++) {
            ok3 += knn.predict(q[i], Trainer.KNN_K) == truth[i] ? 1 : 0;
            ok1 += knn.predict(q[i], 1) == truth[i] ? 1 : 0;
        }
        return new SplitResult(
                split,
                seed,
                (double) ok3 / q.length,
                (double) ok1 / q.length,
                Double.NaN,
                Double.NaN,
                seconds,
                Double.NaN,
                z[0].length,
                0,
                0);
    }

    /**
     * LMCA or kernel LMCA at ℓ = G − 1 on one re-split, followed by 3-NN (and 1-NN). Torresani and Lee tune the margin
     * weight c (and the RBF width of KLMCA) by cross-validation; here c ∈ {@link Lmca#C_GRID} (and σ ∈ {@link
     * KernelLmca#WIDTH_GRID} × the median distance) by stratified {@value #PEER_CV_FOLDS}-fold 3-NN cross-validation
     * of the training part, the map refitted on each fold (ties → the earlier candidate); k = 3 target neighbours.
     */
    private static SplitResult runLmcaSplit(
            double[][] x, int[] y, Dataset testPart, int g, int split, long seed, boolean kernel, long start) {
        int g1 = Math.max(1, g - 1);
        int[][] folds = Folds.stratifiedKFold(y, g, PEER_CV_FOLDS, seed);
        double[] widths = kernel ? KernelLmca.WIDTH_GRID : new double[] {Double.NaN};
        double bestC = Lmca.C_GRID[0];
        double bestWidth = widths[0];
        int bestHits = -1;
        for (double width : widths) {
            for (double c : Lmca.C_GRID) {
                int hits = 0;
                for (int[] test : folds) {
                    int[] train = Folds.complement(test, x.length);
                    double[][] xt = Folds.rows(x, train);
                    int[] yt = Folds.labels(y, train);
                    if (hasSingleton(yt, g)) {
                        // LMCA needs a target neighbour per series: such a fold scores no hits for any candidate.
                        continue;
                    }
                    double[][][] z = lmcaMap(xt, yt, g, g1, kernel, c, width, Folds.rows(x, test));
                    hits += hits3nn(z[0], yt, g, z[1], y, test);
                }
                if (hits > bestHits) {
                    bestHits = hits;
                    bestC = c;
                    bestWidth = width;
                }
            }
        }
        double[][][] z = lmcaMap(x, y, g, g1, kernel, bestC, bestWidth, testPart.rows());
        double seconds = (System.nanoTime() - start) / 1e9;
        return knnSplit(split, seed, z[0], y, g, z[1], testPart.classIndices(), seconds);
    }

    /**
     * How many held-out rows 3-NN labels right: the training rows {@code xt} (labels {@code yt}) and the held-out rows
     * {@code xq} both mapped by the first {@code l} columns of {@code w}, see {@link #hits3nn(double[][], int[], int,
     * double[][], int[], int[])}.
     */
    private static int hits3nn(
            double[][] xt, int[] yt, int g, DMatrixRMaj w, int l, double[][] xq, int[] y, int[] test) {
        return hits3nn(LinearMaps.project(xt, w, l), yt, g, LinearMaps.project(xq, w, l), y, test);
    }

    /**
     * How many held-out rows 3-NN labels right: {@code zq[i]}, the mapped row {@code test[i]}, against its label
     * {@code y[test[i]]}, the neighbours taken from the mapped training rows {@code zt} (labels {@code yt}).
     */
    private static int hits3nn(double[][] zt, int[] yt, int g, double[][] zq, int[] y, int[] test) {
        Knn knn = Knn.fit(zt, yt, g);
        int hits = 0;
        for (int i = 0; i < test.length; i++) {
            hits += knn.predict(zq[i], Trainer.KNN_K) == y[test[i]] ? 1 : 0;
        }
        return hits;
    }

    private static boolean hasSingleton(int[] y, int g) {
        int[] counts = new int[g];
        for (int c : y) {
            counts[c]++;
        }
        return java.util.Arrays.stream(counts).anyMatch(c -> c == 1);
    }

    /** The training rows and the query rows mapped by (kernel) LMCA with margin weight c (and RBF width multiple). */
    private static double[][][] lmcaMap(
            double[][] x, int[] y, int g, int dims, boolean kernel, double c, double width, double[][] query) {
        Lmca.Params params = new Lmca.Params(Lmca.Params.DEFAULT.neighbors(), c);
        if (kernel) {
            KernelLmca.Model m = KernelLmca.fit(x, y, g, dims, KernelLmca.rbf(x, width), params);
            return new double[][][] {m.project(x, m.dims()), m.project(query, m.dims())};
        }
        DMatrixRMaj w = Lmca.fit(x, y, g, dims, params);
        return new double[][][] {LinearMaps.project(x, w, w.numCols), LinearMaps.project(query, w, w.numCols)};
    }

    /**
     * The ridge ρ of regularised LFDA (thesis §3.5.2: "I first choose ... the ϵ parameter for regularized LFDA based
     * on the k = 3 nearest-neighbor cross-validation accuracy at dimensionality G − 1"): the candidate of {@link
     * Lfda#RIDGE_GRID} with the most 3-NN hits over stratified {@value #PEER_CV_FOLDS}-fold cross-validation of the
     * training part, LFDA refitted per fold at G − 1 (ties → the smaller ρ). Without a ridge to set (n − G ≥ d) it is
     * {@link Lfda#RIDGE}, unused.
     */
    private static double lfdaRidgeByFolds(double[][] x, int[] y, int g, long seed) {
        if (x.length - g >= x[0].length) {
            return Lfda.RIDGE;
        }
        int g1 = Math.max(1, g - 1);
        int[][] folds = Folds.stratifiedKFold(y, g, PEER_CV_FOLDS, seed);
        double best = Lfda.RIDGE_GRID[0];
        int bestHits = -1;
        for (double ridge : Lfda.RIDGE_GRID) {
            int hits = 0;
            for (int[] test : folds) {
                int[] train = Folds.complement(test, x.length);
                double[][] xt = Folds.rows(x, train);
                int[] yt = Folds.labels(y, train);
                DMatrixRMaj w = Lfda.fit(xt, yt, g, g1, ridge);
                int l = Math.min(g1, w.numCols);
                hits += hits3nn(xt, yt, g, w, l, Folds.rows(x, test), y, test);
            }
            if (hits > bestHits) {
                bestHits = hits;
                best = ridge;
            }
        }
        return best;
    }

    /** The peer's map with up to {@code width} columns (G − 1 for those that have no more); LFDA with ridge ρ. */
    private static DMatrixRMaj fitPeer(Peer peer, double[][] x, int[] y, int g, int width, double lfdaRidge) {
        int g1 = Math.max(1, g - 1);
        return switch (peer) {
            case PCA -> Pca.directions(x);
            case REG_FDA -> RegularizedFda.fit(x, y, g, g1);
            case FDA -> Fda.fit(x, y, g, g1);
            case PCA_FDA -> PcaFda.fit(x, y, g, g1);
            case LFDA -> Lfda.fit(x, y, g, width, lfdaRidge);
            case MMC -> Mmc.fit(x, y, g, width);
            case DLDA -> Dlda.fit(x, y, g, g1);
            case NCA -> Nca.fit(x, y, g, g1);
            case LMCA -> Lmca.fit(x, y, g, g1);
            case KERNEL_LMCA -> throw new IllegalArgumentException("kernel-lmca has no linear map");
        };
    }

    /**
     * ℓ for a supervised nested map by stratified {@value #PEER_CV_FOLDS}-fold 3-NN cross-validation on the training
     * part, the map refitted on each fold's training rows, over the candidates of {@link #candidateDims} that every
     * fold's map and the final map ({@code cols} columns) have; ties go to the smaller ℓ.
     */
    private static int dimsByFolds(double[][] x, int[] y, int g, Peer peer, int cols, long seed, double lfdaRidge) {
        int[] candidates = candidateDims(g);
        int[] correct = new int[candidates.length];
        int usable = cols;
        for (int[] test : Folds.stratifiedKFold(y, g, PEER_CV_FOLDS, seed)) {
            int[] train = Folds.complement(test, x.length);
            double[][] xt = Folds.rows(x, train);
            int[] yt = Folds.labels(y, train);
            DMatrixRMaj w = fitPeer(peer, xt, yt, g, g + 32, lfdaRidge);
            usable = Math.min(usable, w.numCols);
            for (int c = 0; c < candidates.length; c++) {
                int l = candidates[c];
                if (l < 1 || l > w.numCols) {
                    continue;
                }
                correct[c] += hits3nn(xt, yt, g, w, l, Folds.rows(x, test), y, test);
            }
        }
        int best = -1;
        for (int c = 0; c < candidates.length; c++) {
            int l = candidates[c];
            if (l >= 1 && l <= usable && (best < 0 || correct[c] > correct[best])) {
                best = c;
            }
        }
        return best < 0 ? Math.min(Math.max(1, g - 1), cols) : candidates[best];
    }

    /** The thesis's candidate dimensions for Table 3.4: G − 1, G, G + 1, G + 2, G + 4, G + 8, G + 16, G + 32. */
    private static int[] candidateDims(int g) {
        return new int[] {g - 1, g, g + 1, g + 2, g + 4, g + 8, g + 16, g + 32};
    }

    private static int dimsByLeaveOneOut(double[][] x, int[] y, int g, DMatrixRMaj w) {
        int best = -1;
        int bestCorrect = -1;
        for (int l : candidateDims(g)) {
            if (l < 1 || l > w.numCols) {
                continue;
            }
            double[][] p = LinearMaps.project(x, w, l);
            int correct = 0;
            for (int i = 0; i < p.length; i++) {
                correct += leaveOneOut3nn(p, y, g, i) == y[i] ? 1 : 0;
            }
            if (correct > bestCorrect) {
                bestCorrect = correct;
                best = l;
            }
        }
        return best;
    }

    private static int leaveOneOut3nn(double[][] p, int[] y, int g, int left) {
        double[][] rest = new double[p.length - 1][];
        int[] ry = new int[p.length - 1];
        for (int i = 0, k = 0; i < p.length; i++) {
            if (i != left) {
                rest[k] = p[i];
                ry[k++] = y[i];
            }
        }
        return Knn.fit(rest, ry, g).predict(p[left], Trainer.KNN_K);
    }

    /** The comparison reducers the Table 3.3 harness runs beside Vigil's. */
    public enum Peer {
        /** PCA (no labels). */
        PCA("pca", true, "PCA, no labels (thesis column PCA)"),
        /** FDA with a Ledoit–Wolf-shrunk within-class covariance. */
        REG_FDA(
                "reg-fda",
                false,
                "FDA with a Ledoit-Wolf shrunk within-class covariance, G-1 dims (thesis Reg. FDA cross-validates a "
                        + "ridge instead)"),
        /** Plain FDA: "nc" whenever n − G &lt; d. */
        FDA("fda", false, "plain FDA, S_b w = λ S_w w, G-1 dims; nc when S_w is singular (thesis Table 3.1 FDA)"),
        /** PCA to n − G dimensions, then FDA (Fisherfaces). */
        PCA_FDA("pca-fda", false, "PCA to n-G dims then FDA, Fisherfaces, G-1 dims (thesis PCA FDA)"),
        /** Regularised local FDA: local-scaling affinities, ridge chosen by 3-NN CV at G − 1 as the thesis does. */
        LFDA(
                "lfda",
                true,
                "regularised local FDA (Sugiyama 2007), local scaling k = 7, weighted, ridge rho·tr(S_w)/d when n-G < d"
                        + " with rho in {0.001, 0.01, 0.1, 1, 10} by 5-fold 3-NN CV at G-1 (thesis Reg. LFDA)"),
        /** Maximum margin criterion. */
        MMC("mmc", true, "maximum margin criterion, top eigenvectors of S_b - S_w (thesis eq. 3.33; no thesis column)"),
        /** Direct LDA. */
        DLDA("dlda", false, "direct LDA (Yu & Yang 2001), S_b range then smallest sphered S_w, G-1 dims (thesis DLDA)"),
        /** Neighbourhood components analysis. */
        NCA(
                "nca",
                false,
                "neighbourhood components analysis, conjugate gradient from PCA, G-1 dims (thesis Table 3.1 NCA; no "
                        + "Table 3.3 column)"),
        /** Large margin component analysis (linear). */
        LMCA(
                "lmca",
                false,
                "large margin component analysis (Torresani & Lee 2006), conjugate gradient from PCA, k = 3 target "
                        + "neighbours, margin weight c in {0.25, 1, 4} by 5-fold 3-NN CV, G-1 dims (no thesis column)"),
        /** Kernel LMCA with a Gaussian RBF kernel. */
        KERNEL_LMCA(
                "kernel-lmca",
                false,
                "kernel LMCA (KLMCA, Torresani & Lee 2006 sec. 3), Gaussian RBF kernel, kernel-PCA start, k = 3, c in "
                        + "{0.25, 1, 4} and width in {0.5, 1, 2} x median distance by 5-fold 3-NN CV, G-1 dims (no "
                        + "thesis column)");

        private final String cliName;
        private final boolean nested;
        private final String description;

        Peer(String cliName, boolean nested, String description) {
            this.cliName = cliName;
            this.nested = nested;
            this.description = description;
        }

        /** The name in {@code --reducers} ({@code pca}, {@code reg-fda}, {@code fda}, …). */
        public String cliName() {
            return cliName;
        }

        /** One line for the report's legend: the method, its ℓ and the thesis column it corresponds to. */
        public String description() {
            return description;
        }

        /** Whether its first ℓ columns are its ℓ-dimensional map for every ℓ, so Table 3.4 can choose ℓ. */
        boolean nested() {
            return nested;
        }

        /** The peer of this name, if it is one. */
        public static java.util.Optional<Peer> of(String name) {
            for (Peer p : values()) {
                if (p.cliName.equals(name.trim())) {
                    return java.util.Optional.of(p);
                }
            }
            return java.util.Optional.empty();
        }
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
