package io.vigil.experiment;

import io.vigil.classify.Knn;
import io.vigil.data.Dataset;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LinearMaps;
import io.vigil.ldg.Standardizer;
import io.vigil.ldg.TransferLdg;
import io.vigil.model.VigilModel;
import io.vigil.reduce.Dtdkl;
import io.vigil.reduce.IllPosedReductionException;
import io.vigil.reduce.Pca;
import io.vigil.select.Reducer;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.select.TransferTrainer;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;

/**
 * The transfer protocol of thesis §4.5.3 on two related labelled data sets: the source domain is all of its series,
 * the target training part exactly m series per class drawn at random (the rest of the target is the test part), and
 * each method maps both domains and classifies the target test series by 3-NN against the mapped target training
 * and source series. Methods: transfer LDG (α, γ and k chosen on the target training series as §4.5.2, {@link
 * TransferTrainer}; ℓ as given, and ℓ by its own CV), pooled PCA (thesis §4.5.2: PCA on both domains pooled, the
 * domains ignored), no reduction, and DTDKL (Zeng and Ren's domain transfer discriminant kernel learning, {@link
 * Dtdkl}, with the paper's λ and β; its ℓ is capped at its number of directions, 1 for two classes, G otherwise;
 * NaN on a split where its solver fails). With standardisation each domain is standardised with its own statistics, the
 * target's from its m-per-class training part (§4.5.3). Split s draws with seed {@code seed + s}, so every method sees the same splits;
 * transfer LDG against pooled PCA is marked where a two-sided paired t-test over the splits rejects equality at 5 %.
 */
public final class TransferExperiment {
    /** What to run. */
    public record Config(int perClass, int splits, long seed, int[] dims, int threads, boolean standardize) {
        /** Validates. */
        public Config {
            if (perClass < 1) {
                throw new IllegalArgumentException("--per-class must be ≥ 1, got " + perClass);
            }
            if (splits < 2) {
                throw new IllegalArgumentException("--splits must be ≥ 2 (a paired test needs two), got " + splits);
            }
            if (dims.length == 0 || Arrays.stream(dims).anyMatch(l -> l < 1)) {
                throw new IllegalArgumentException("--dims must list dimensions ≥ 1, got " + Arrays.toString(dims));
            }
            if (threads < 1) {
                throw new IllegalArgumentException("--threads must be ≥ 1, got " + threads);
            }
            dims = dims.clone();
        }
    }

    /** Methods in column order. */
    public static final List<String> METHODS = List.of("transfer-ldg", "pooled-pca", "none", "dtdkl");

    /**
     * Accuracies: [split][method][ℓ index] for the methods with an ℓ ({@code none} repeats its one value), and the
     * ℓ-by-CV transfer LDG accuracy and chosen ℓ, α, γ per split.
     */
    public record Result(
            String source,
            String target,
            int perClass,
            int[] dims,
            double[][][] accuracy,
            double[] cvAccuracy,
            int[] cvDims,
            double[] alpha,
            double[] gamma,
            boolean resampled) {
        /** Mean over splits of one method at ℓ index j. */
        public double mean(int method, int j) {
            return Arrays.stream(accuracy)
                    .mapToDouble(a -> a[method][j])
                    .average()
                    .orElse(Double.NaN);
        }

        /** Sample standard deviation over splits. */
        public double std(int method, int j) {
            return Table33Experiment.Stats.std(
                    Arrays.stream(accuracy).mapToDouble(a -> a[method][j]).toArray());
        }

        /** Whether transfer LDG and {@code method} differ at ℓ index j (two-sided paired t-test, 5 %). */
        public boolean significant(int method, int j) {
            double[] a = Arrays.stream(accuracy).mapToDouble(r -> r[0][j]).toArray();
            double[] b = Arrays.stream(accuracy).mapToDouble(r -> r[method][j]).toArray();
            return PairedTest.differs(a, b);
        }
    }

    private TransferExperiment() {}

    /**
     * Runs every split.
     *
     * @param source all labelled series of the source domain; resampled to the target's length when it differs
     * @param target all labelled series of the target domain (e.g. its train and test splits merged)
     * @throws IllegalArgumentException when a target class has fewer than m + 1 series (nothing left to test) or the
     *     domains' classes differ
     */
    public static Result run(Dataset source, Dataset target, Config config, Progress progress) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(target, "target");
        int[] counts = target.classCounts();
        for (int c = 0; c < counts.length; c++) {
            if (counts[c] <= config.perClass()) {
                throw new IllegalArgumentException(
                        "target class '" + target.classNames().get(c) + "' has " + counts[c] + " series; "
                                + config.perClass() + " per class for training leaves none to test");
            }
        }
        boolean resampled = source.length() != target.length();
        Dataset src = io.vigil.data.Resample.linear(source, target.length()).withClasses(target.classNames());
        progress.extendBy(config.splits());
        List<Integer> splits = IntStream.range(0, config.splits()).boxed().toList();
        List<SplitResult> rs = Parallel.map(splits, config.threads(), "transfer splits", s -> {
            SplitResult r = split(src, target, config, config.seed() + s);
            progress.step();
            return r;
        });
        int n = config.splits();
        double[][][] acc = new double[n][][];
        double[] cvAcc = new double[n];
        int[] cvDims = new int[n];
        double[] alpha = new double[n];
        double[] gamma = new double[n];
        for (int s = 0; s < n; s++) {
            SplitResult r = rs.get(s);
            acc[s] = r.accuracy;
            cvAcc[s] = r.cvAccuracy;
            cvDims[s] = r.cvDims;
            alpha[s] = r.alpha;
            gamma[s] = r.gamma;
        }
        return new Result(
                source.name(),
                target.name(),
                config.perClass(),
                config.dims(),
                acc,
                cvAcc,
                cvDims,
                alpha,
                gamma,
                resampled);
    }

    private record SplitResult(double[][] accuracy, double cvAccuracy, int cvDims, double alpha, double gamma) {}

    private static SplitResult split(Dataset source, Dataset target, Config config, long seed) {
        int[][] parts = drawPerClass(target, config.perClass(), seed);
        Dataset train = target.subset(parts[0]);
        Dataset test = target.subset(parts[1]);
        int g = target.numClasses();
        TrainParams params = TrainParams.builder()
                .reducer(Reducer.TRANSFER_LDG)
                .standardize(config.standardize())
                .qdaNeighbors(1)
                .seed(seed)
                .build();
        VigilModel model = TransferTrainer.train(train, source, params, Instant.EPOCH, Progress.none(), 1)
                .model();
        double[][] testRows = test.rows();
        int[] testY = test.classIndices();
        double cvAcc = accuracy(
                Knn.fit(model.trainingPoints(), model.trainingClasses(), g),
                model.projection().projectAll(testRows),
                testY);
        double[][] trainRows = train.rows();
        double[][] sourceRows = source.rows();
        if (config.standardize()) {
            // Each domain with its own statistics (thesis §4.5.3); the test series with the target's.
            Standardizer t = Standardizer.fit(trainRows);
            trainRows = t.apply(trainRows);
            testRows = t.apply(testRows);
            sourceRows = Standardizer.fit(sourceRows).apply(sourceRows);
        }
        double alpha = model.projection().transfer().orElseThrow().alpha();
        double gamma = model.gamma();
        LdgBasis transfer = TransferLdg.fit(
                trainRows,
                train.classIndices(),
                sourceRows,
                source.classIndices(),
                g,
                new TransferLdg.Params(model.ldgNeighbors(), alpha, gamma));
        double[][] reference = Stream.concat(Arrays.stream(trainRows), Arrays.stream(sourceRows))
                .toArray(double[][]::new);
        int[] refY = IntStream.concat(Arrays.stream(train.classIndices()), Arrays.stream(source.classIndices()))
                .toArray();
        DMatrixRMaj pca = Pca.directions(reference);
        double[] none = {accuracy(Knn.fit(reference, refY, g), testRows, testY)};
        Dtdkl.Model dtdkl;
        try {
            dtdkl = Dtdkl.fit(
                    trainRows, train.classIndices(), sourceRows, source.classIndices(), g, Dtdkl.Params.DEFAULT, seed);
        } catch (IllPosedReductionException e) {
            dtdkl = null;
        }
        int[] dims = config.dims();
        double[][] acc = new double[METHODS.size()][dims.length];
        for (int j = 0; j < dims.length; j++) {
            int l = Math.min(dims[j], transfer.rank());
            acc[0][j] =
                    accuracy(Knn.fit(transfer.project(reference, l), refY, g), transfer.project(testRows, l), testY);
            int lp = Math.min(dims[j], pca.numCols);
            acc[1][j] = accuracy(
                    Knn.fit(LinearMaps.project(reference, pca, lp), refY, g),
                    LinearMaps.project(testRows, pca, lp),
                    testY);
            acc[2][j] = none[0];
            if (dtdkl == null) {
                acc[3][j] = Double.NaN;
            } else {
                int ld = Math.min(dims[j], dtdkl.rank());
                acc[3][j] =
                        accuracy(Knn.fit(dtdkl.project(reference, ld), refY, g), dtdkl.project(testRows, ld), testY);
            }
        }
        return new SplitResult(acc, cvAcc, model.dims(), alpha, gamma);
    }

    /** Indices of m random series per class (training part) and the rest (test part). */
    static int[][] drawPerClass(Dataset ds, int m, long seed) {
        Random rnd = new Random(seed);
        List<Integer> train = new ArrayList<>();
        List<Integer> test = new ArrayList<>();
        for (int c = 0; c < ds.numClasses(); c++) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < ds.size(); i++) {
                if (ds.classOf(i) == c) {
                    members.add(i);
                }
            }
            java.util.Collections.shuffle(members, rnd);
            train.addAll(members.subList(0, m));
            test.addAll(members.subList(m, members.size()));
        }
        return new int[][] {
            train.stream().mapToInt(Integer::intValue).sorted().toArray(),
            test.stream().mapToInt(Integer::intValue).sorted().toArray()
        };
    }

    private static double accuracy(Knn knn, double[][] q, int[] y) {
        int correct = 0;
        for (int i = 0; i < q.length; i++) {
            if (knn.predict(q[i], Trainer.KNN_K) == y[i]) {
                correct++;
            }
        }
        return (double) correct / q.length;
    }
}
