package io.vigil.experiment;

import io.vigil.classify.Knn;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.evaluate.Evaluation;
import io.vigil.model.ProtocolScores;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.util.List;
import java.util.Locale;

/**
 * Full-series accuracy of the default training-only selection ({@code vigil train} with no selection options)
 * against 1-NN with the Euclidean distance on the raw (for several channels: concatenated, unstandardised) series, on
 * a standard train/test split: the check that the selection does not lose to the simplest strong baseline
 * (docs/data-and-training.md, "LDG and local QDA"). The test split is only scored, never used to choose.
 */
public final class NnCompare {
    /** How far below 1-NN ED a data set may fall and still count as "not losing" (one point of accuracy). */
    public static final double TOLERANCE = 0.01;

    /**
     * One data set's figures.
     *
     * @param dataset name
     * @param trainSize n
     * @param channels C
     * @param seriesLength d per channel
     * @param protocol the candidate {@code --selection auto} kept, or "given" when it did not search
     * @param dims ℓ
     * @param qdaNeighbors local QDA's k
     * @param localQda test accuracy of the model's classifier (local QDA in LDG space)
     * @param knn3 test accuracy of 3-NN in LDG space
     * @param nn1Euclidean test accuracy of 1-NN Euclidean on the raw series
     * @param trainSeconds wall time of the selection and fit
     */
    public record Row(
            String dataset,
            int trainSize,
            int channels,
            int seriesLength,
            String protocol,
            int dims,
            int qdaNeighbors,
            double localQda,
            double knn3,
            double nn1Euclidean,
            double trainSeconds) {
        /** Local QDA minus 1-NN ED. */
        public double gap() {
            return localQda - nn1Euclidean;
        }

        /** Whether local QDA is at least 1-NN ED − {@value NnCompare#TOLERANCE}. */
        public boolean meetsGoal() {
            return gap() >= -TOLERANCE - 1e-12;
        }
    }

    private NnCompare() {}

    /** Trains with the defaults (seeded) on the training split and scores both classifiers on the test split. */
    public static Row run(TrainTest tt, long seed, int threads, Progress progress) {
        Dataset train = tt.train();
        Dataset test = tt.test();
        long start = System.nanoTime();
        VigilModel model = Trainer.train(
                train, TrainParams.builder().seed(seed).build(), java.time.Instant.EPOCH, progress, threads);
        double seconds = (System.nanoTime() - start) / 1e9;
        Evaluation e = Evaluation.of(model, test);
        ProtocolScores p = model.selection().protocol();
        String protocol = p == null ? "given" : p.chosen();
        return new Row(
                train.name(),
                train.size(),
                train.channels(),
                train.seriesLength(),
                protocol,
                model.dims(),
                model.qdaNeighbors(),
                e.accuracyLocalQda(),
                e.accuracy3nn(),
                oneNnEuclidean(train, test),
                seconds);
    }

    /** Test accuracy of 1-NN with the Euclidean distance on the series as read (all channels, time-major). */
    public static double oneNnEuclidean(Dataset train, Dataset test) {
        Knn knn = Knn.fit(train.rows(), train.classIndices(), train.numClasses());
        int correct = 0;
        for (int i = 0; i < test.size(); i++) {
            correct += knn.predict(test.series(i), 1) == test.classOf(i) ? 1 : 0;
        }
        return (double) correct / test.size();
    }

    /** The table: one row per data set, then the mean and the sets more than the tolerance below 1-NN ED. */
    public static String markdown(List<Row> rows) {
        StringBuilder s = new StringBuilder();
        s.append(
                        "| data set | n | C × d | chosen protocol | ℓ | local-QDA k | local QDA | 3-NN (LDG) | 1-NN ED | gap | ")
                .append("≥ 1-NN ED − 0.01 | train s |\n");
        s.append("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---|---:|\n");
        double qda = 0;
        double nn = 0;
        StringBuilder missing = new StringBuilder();
        for (Row r : rows) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %d | %d × %d | %s | %d | %d | %.3f | %.3f | %.3f | %+.3f | %s | %.1f |%n",
                    r.dataset(),
                    r.trainSize(),
                    r.channels(),
                    r.seriesLength(),
                    r.protocol(),
                    r.dims(),
                    r.qdaNeighbors(),
                    r.localQda(),
                    r.knn3(),
                    r.nn1Euclidean(),
                    r.gap(),
                    r.meetsGoal() ? "yes" : "**no**",
                    r.trainSeconds()));
            qda += r.localQda();
            nn += r.nn1Euclidean();
            if (!r.meetsGoal()) {
                missing.append(missing.length() == 0 ? "" : ", ").append(r.dataset());
            }
        }
        int m = Math.max(1, rows.size());
        s.append(String.format(
                Locale.ROOT,
                "| **mean (%d)** | | | | | | **%.4f** | | **%.4f** | %+.4f | | |%n",
                rows.size(),
                qda / m,
                nn / m,
                (qda - nn) / m));
        s.append(String.format(
                Locale.ROOT,
                "%nMore than %.2f below 1-NN ED: %s%n",
                TOLERANCE,
                missing.length() == 0 ? "none" : missing.toString()));
        return s.toString();
    }
}
