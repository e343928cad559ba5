package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** The pieces of the transfer protocol: per-class draws and pooled PCA against its definition. */
class TransferExperimentTest {
    @Test
    void drawsExactlyMPerClassAndTestsOnTheRest() {
        String[] labels = new String[30];
        double[][] x = new double[30][3];
        for (int i = 0; i < 30; i++) {
            labels[i] = i < 10 ? "a" : "b";
        }
        Dataset ds = Dataset.of("d", x, labels);
        int[][] parts = TransferExperiment.drawPerClass(ds, 2, 9);
        assertEquals(4, parts[0].length);
        assertEquals(26, parts[1].length);
        assertEquals(2, Arrays.stream(parts[0]).filter(i -> i < 10).count());
        int[] all = IntStream.concat(Arrays.stream(parts[0]), Arrays.stream(parts[1]))
                .sorted()
                .toArray();
        assertTrue(Arrays.equals(IntStream.range(0, 30).toArray(), all), "a partition");
        assertTrue(Arrays.equals(parts[0], TransferExperiment.drawPerClass(ds, 2, 9)[0]), "seeded");
    }

    /** PCA directions: orthonormal, variance along them descending, and the first maximises it over random units. */
    @Test
    void pooledPcaDirectionsAreTheCovarianceEigenvectorsByVariance() {
        SplittableRandom r = new SplittableRandom(3);
        double[][] rows = new double[40][6];
        for (double[] row : rows) {
            for (int t = 0; t < 6; t++) {
                row[t] = r.nextGaussian() * (t + 1) + (t == 2 ? 5 : 0);
            }
        }
        DMatrixRMaj v = TransferExperiment.pcaDirections(rows);
        DMatrixRMaj vtv = new DMatrixRMaj(v.numCols, v.numCols);
        CommonOps_DDRM.multTransA(v, v, vtv);
        for (int i = 0; i < vtv.numRows; i++) {
            for (int j = 0; j < vtv.numCols; j++) {
                // EJML's SVD gives orthonormal V to ~1e-15; 1e-12 leaves room for its rounding.
                assertEquals(i == j ? 1 : 0, vtv.get(i, j), 1e-12);
            }
        }
        double prev = Double.POSITIVE_INFINITY;
        for (int k = 0; k < v.numCols; k++) {
            double var = variance(rows, column(v, k));
            assertTrue(var <= prev + 1e-9, "descending variance at " + k);
            prev = var;
        }
        double first = variance(rows, column(v, 0));
        for (int trial = 0; trial < 200; trial++) {
            double[] u = new double[6];
            double n = 0;
            for (int t = 0; t < 6; t++) {
                u[t] = r.nextGaussian();
                n += u[t] * u[t];
            }
            for (int t = 0; t < 6; t++) {
                u[t] /= Math.sqrt(n);
            }
            assertTrue(variance(rows, u) <= first + 1e-9, "a random direction beats the first PC");
        }
    }

    @Test
    void settingsAreValidated() {
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(0, 10, 1, new int[] {2}, 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 1, 1, new int[] {2}, 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 10, 1, new int[0], 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 10, 1, new int[] {2}, 0, false));
    }

    private static double[] column(DMatrixRMaj v, int k) {
        double[] c = new double[v.numRows];
        for (int t = 0; t < c.length; t++) {
            c[t] = v.get(t, k);
        }
        return c;
    }

    private static double variance(double[][] rows, double[] u) {
        double[] p = Arrays.stream(rows)
                .mapToDouble(row -> IntStream.range(0, u.length)
                        .mapToDouble(t -> row[t] * u[t])
                        .sum())
                .toArray();
        double m = Arrays.stream(p).average().orElseThrow();
        return Arrays.stream(p).map(x -> (x - m) * (x - m)).sum() / p.length;
    }
}
