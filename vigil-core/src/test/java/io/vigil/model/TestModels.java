package io.vigil.model;

import io.vigil.ldg.Standardizer;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;

/** Hand-built models for format tests (no training involved, so these tests isolate the file format). */
final class TestModels {
    private TestModels() {}

    /** d = 5, ℓ = 2, G = 3, n = 9, with standardisation. */
    static VigilModel small(boolean standardize) {
        SplittableRandom rnd = new SplittableRandom(3);
        int d = 5;
        int dims = 2;
        int n = 9;
        DMatrixRMaj basis = new DMatrixRMaj(d, dims);
        for (int i = 0; i < d * dims; i++) {
            basis.data[i] = rnd.nextGaussian() / 3;
        }
        double[][] points = new double[n][dims];
        int[] classes = new int[n];
        for (int i = 0; i < n; i++) {
            classes[i] = i % 3;
            points[i][0] = classes[i] + rnd.nextGaussian() * 0.1;
            points[i][1] = -classes[i] + rnd.nextGaussian() * 0.1;
        }
        GridScores k = GridScores.searched(new int[] {1, 2}, new double[] {0.5, 0.75}, 2);
        GridScores gamma = GridScores.searched(new double[] {0.1, 0.5}, new double[] {0.7, 0.7}, 0.5);
        GridScores dimsScores = GridScores.searched(new int[] {2, 3}, new double[] {0.8, 2.0 / 3}, 2);
        GridScores qda = GridScores.user(2, true);
        VigilModel.Builder b = VigilModel.builder()
                .vigilVersion("test")
                .created(Instant.parse("2024-05-01T12:00:00Z"))
                .datasetName("Tiny")
                .classNames(List.of("a", "b", "c"))
                .length(d)
                .trainSize(n)
                .classCounts(new int[] {3, 3, 3})
                .fingerprint("sha256:00")
                .seed(42)
                .ldg(3, 0.5, dims, new double[] {-2, -1, 0.25, 1e-300}, basis)
                .trainingPoints(points, classes)
                .priors(new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3})
                .qdaNeighbors(2)
                .selection(new SelectionReport(
                        CvScheme.LOO, "local-qda", CvScheme.kFold(5), 2, k, gamma, dimsScores, qda, 0.8));
        if (standardize) {
            b.standardizer(Standardizer.of(new double[] {0, 1, 2, 3, 4}, new double[] {1, 2, 0.5, 1, 3}));
        }
        return b.build();
    }
}
