package io.vigil.bench;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.LowRankGaussian;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Long series end to end: generates two- or three-class CBF series of length d ({@code vigil generate
 * --kind cbf --length d}), runs {@code vigil train}'s defaults (LDG selection by cross-validation, local QDA, the
 * complete-series Gaussians in the automatic covariance form, the linear SVM), writes the model file, loads it
 * back, builds the early classifier and replays test series sample by sample. Reports the time and peak heap of
 * each phase and the size of the file and its parts. Not a timed test: run it as {@code vigil bench long-series}
 * (goal: n = 300, d = 20,000, two classes trains in ≤ 60 s within {@code -Xmx4g} into a file of ≤ 200 MB).
 */
public final class LongSeriesBenchmark {
    private LongSeriesBenchmark() {}

    /**
     * What was measured.
     *
     * @param trainSeconds wall time of model selection, LDG and local QDA ({@link Trainer#train})
     * @param completeSeriesSeconds wall time of the complete-series Gaussians and the SVM ({@link
     *     EarlyModelTrainer#addSections})
     * @param trainPeakHeapBytes heap-pool peak sum over both (upper bound, see {@link HeapMeter})
     * @param saveSeconds serialising and writing the model file
     * @param fileBytes size of the model file
     * @param partBytes the file's parts ({@link ModelFile#partSizes})
     * @param loadSeconds reading and validating the file
     * @param buildSeconds building the early classifier (LDLᵀ generators, P, R_y table, local-QDA tables)
     * @param loadPeakHeapBytes heap-pool peak sum over load and build
     * @param jointForm the covariance form {@code auto} chose for the joint Gaussian
     * @param jointRank r of the joint Gaussian (0 when dense)
     * @param microsPerSample mean cost of one early-decision step during the replay
     * @param decisions the replay's decisions, one per test series
     */
    public record Result(
            int n,
            int d,
            int classes,
            int dims,
            double trainSeconds,
            double completeSeriesSeconds,
            long trainPeakHeapBytes,
            double saveSeconds,
            long fileBytes,
            Map<String, Long> partBytes,
            double loadSeconds,
            double buildSeconds,
            long loadPeakHeapBytes,
            CovarianceForm jointForm,
            int jointRank,
            double microsPerSample,
            List<SeriesDecision> decisions) {
        /** Mean decision time t over the test series. */
        public double meanT() {
            return decisions.stream().mapToInt(SeriesDecision::t).average().orElse(Double.NaN);
        }

        /** Fraction of early labels equal to the complete-series label. */
        public double reliability() {
            return decisions.stream().filter(SeriesDecision::reliable).count() / (double) decisions.size();
        }

        /** Fraction of complete-series labels equal to the true label. */
        public double completeAccuracy() {
            return decisions.stream()
                            .filter(s -> s.completeLabel() == s.trueLabel())
                            .count()
                    / (double) decisions.size();
        }
    }

    /**
     * Runs the benchmark. The model file goes to a temporary file in {@code tempDir}, deleted on every exit.
     *
     * @param n training series (a multiple of {@code classes})
     * @param d series length
     * @param classes 2 or 3 (CBF's first classes: cylinder, bell, funnel)
     * @param testSize test series replayed
     * @param params the early rule's parameters (τ, set, estimator, classifier)
     * @throws IOException when the temporary model file cannot be written or read
     */
    public static Result run(int n, int d, int classes, int testSize, DecisionParams params, long seed, Path tempDir)
            throws IOException {
        if (classes < 2 || classes > 3) {
            throw new IllegalArgumentException("classes must be 2 or 3 (CBF has three), got " + classes);
        }
        if (n < 2 * classes || n % classes != 0) {
            throw new IllegalArgumentException("n must be a multiple of " + classes + " and ≥ " + 2 * classes);
        }
        if (testSize < 1) {
            throw new IllegalArgumentException("test size must be ≥ 1, got " + testSize);
        }
        TrainTest all = io.vigil.data.synthetic.SyntheticData.generate(
                SyntheticKind.CBF, n / classes * 3, ceilDiv(testSize, classes) * 3, seed, false, d);
        Dataset train = firstClasses(all.train(), classes, n);
        Dataset test = firstClasses(all.test(), classes, testSize);

        HeapMeter.reset();
        long t0 = System.nanoTime();
        VigilModel model = Trainer.train(train, TrainParams.defaults(), Instant.EPOCH, Progress.none());
        long t1 = System.nanoTime();
        model = EarlyModelTrainer.addSections(model, train, EarlyModelTrainer.Params.defaults());
        long t2 = System.nanoTime();
        long trainPeak = HeapMeter.peakBytes();
        CompleteSeriesSection section =
                model.section(CompleteSeriesSection.class).orElseThrow();
        SeriesGaussian joint = section.joint();
        int rank = joint instanceof LowRankGaussian lr ? lr.rank() : 0;

        Path file = Files.createTempFile(tempDir, "vigil-long-series-", ".json");
        try {
            ModelFile io = ModelFile.standard();
            long s0 = System.nanoTime();
            io.save(model, file);
            long s1 = System.nanoTime();
            long fileBytes = Files.size(file);
            model = null;
            HeapMeter.reset();
            long l0 = System.nanoTime();
            byte[] bytes = Files.readAllBytes(file);
            VigilModel loaded = io.read(bytes, file.toString());
            long l1 = System.nanoTime();
            Map<String, Long> parts = ModelFile.partSizes(bytes);
            bytes = null;
            long b0 = System.nanoTime();
            EarlyClassifier classifier = EarlyClassifier.of(loaded, params);
            long b1 = System.nanoTime();
            long loadPeak = HeapMeter.peakBytes();
            Dataset named = Dataset.of(loaded.datasetName(), test.rows(), test.classIndices(), loaded.classNames());
            EarlyReplay.Result replay = EarlyReplay.run(classifier, named);
            return new Result(
                    n,
                    d,
                    classes,
                    loaded.dims(),
                    (t1 - t0) / 1e9,
                    (t2 - t1) / 1e9,
                    trainPeak,
                    (s1 - s0) / 1e9,
                    fileBytes,
                    parts,
                    (l1 - l0) / 1e9,
                    (b1 - b0) / 1e9,
                    loadPeak,
                    joint.form(),
                    rank,
                    replay.microsPerSample(),
                    replay.decisions());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /** The first {@code count} series of classes 0..classes−1 (generated round-robin, so balanced). */
    private static Dataset firstClasses(Dataset all, int classes, int count) {
        List<double[]> rows = new ArrayList<>();
        List<Integer> y = new ArrayList<>();
        for (int i = 0; i < all.size() && rows.size() < count; i++) {
            if (all.classOf(i) < classes) {
                rows.add(all.series(i));
                y.add(all.classOf(i));
            }
        }
        int[] cls = y.stream().mapToInt(Integer::intValue).toArray();
        return Dataset.of(
                all.name(), rows.toArray(double[][]::new), cls, all.classNames().subList(0, classes));
    }
}
