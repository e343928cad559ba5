package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Beef (UCR): 30 training series of length 470, n ≪ d — the case shrinkage exists for. */
class UcrBeefSmokeTest {
    private static Dataset read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        double[][] rows = new double[lines.size()][];
        String[] labels = new String[lines.size()];
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).trim().split("\t");
            labels[i] = f[0];
            rows[i] = new double[f.length - 1];
            for (int t = 1; t < f.length; t++) {
                rows[i][t - 1] = Double.parseDouble(f[t]);
            }
        }
        return Dataset.of(file.getFileName().toString(), rows, labels);
    }

    @Test
    void beefFitsWithoutRidgeAndEndsAtTheProjectedSeries() throws IOException {
        Path dir = Paths.get(System.getProperty("vigil.ucr", "../shared/ucr")).resolve("Beef");
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir + "; skipping");
        Dataset train = read(dir.resolve("Beef_TRAIN.tsv"));
        Dataset test = read(dir.resolve("Beef_TEST.tsv"));
        assertEquals(470, train.length());
        DMatrixRMaj b =
                GaussTestSupport.randomOrthonormal(train.length(), train.numClasses() - 1, new SplittableRandom(1));
        for (EstimatorType type : EstimatorType.values()) {
            CompleteSeriesEstimator est = CompleteSeriesEstimator.fit(
                    type, train.rows(), train.classIndices(), train.numClasses(), b, ShrinkageParams.defaults());
            if (est instanceof JointGaussianEstimator j) {
                FitInfo info = j.gaussian().fitInfo();
                assertEquals(0.0, info.ridge(), info.note());
                double delta = info.shrinkage().intensity();
                assertTrue(delta > 0.0 && delta < 1.0, "δ = " + delta);
            }
            SeriesState s = est.newState();
            double[] x = test.series(0);
            for (double v : x) {
                est.update(s, v);
            }
            double[] m = new double[b.numCols];
            est.conditionalMean(s, m);
            double scale = Math.max(1.0, GaussTestSupport.maxAbs(x));
            // 470 accumulated O(1) increments; rounding only.
            assertArrayEquals(GaussTestSupport.project(b, x), m, 1e-9 * scale, type.id());
            assertTrue(Double.isFinite(est.logLikelihood(s)));
        }
    }
}
