package io.vigil.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.ldg.LinearMaps;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** PCA against its definition, and regularised FDA against the Bayes direction of two Gaussians. */
class ReducersTest {
    /** PCA directions: orthonormal, variance along them descending, and the first maximises it over random units. */
    @Test
    void directionsAreOrthonormalByDecreasingVarianceAndTheFirstIsTheBest() {
        SplittableRandom r = new SplittableRandom(3);
        double[][] rows = new double[40][6];
        for (double[] row : rows) {
            for (int t = 0; t < 6; t++) {
                row[t] = r.nextGaussian() * (t + 1) + (t == 2 ? 5 : 0);
            }
        }
        DMatrixRMaj v = Pca.directions(rows);
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

    /**
     * Two Gaussian classes with a shared, correlated covariance Σ: with many series the shrinkage vanishes and FDA's
     * direction is the Bayes direction Σ⁻¹(μ₁ − μ₀).
     */
    @Test
    void fdaOnTwoGaussiansIsTheBayesDirection() {
        double[][] lchol = {{1, 0, 0}, {0.8, 0.6, 0}, {0.3, -0.5, 0.7}};
        double[] delta = {1, 0.5, -0.3};
        SplittableRandom r = new SplittableRandom(11);
        int n = 20000;
        double[][] x = new double[n][3];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            double[] z = {r.nextGaussian(), r.nextGaussian(), r.nextGaussian()};
            for (int t = 0; t < 3; t++) {
                for (int s = 0; s <= t; s++) {
                    x[i][t] += lchol[t][s] * z[s];
                }
                x[i][t] += y[i] * delta[t];
            }
        }
        DMatrixRMaj w = RegularizedFda.fit(x, y, 2, 5);
        assertEquals(1, w.numCols, "G - 1 directions at most");
        DMatrixRMaj sigma = new DMatrixRMaj(lchol);
        DMatrixRMaj cov = new DMatrixRMaj(3, 3);
        CommonOps_DDRM.multTransB(sigma, sigma, cov);
        DMatrixRMaj bayes = new DMatrixRMaj(3, 1, true, delta);
        CommonOps_DDRM.solve(cov, bayes.copy(), bayes);
        double dot = 0;
        double nw = 0;
        double nb = 0;
        for (int t = 0; t < 3; t++) {
            dot += w.get(t, 0) * bayes.get(t, 0);
            nw += w.get(t, 0) * w.get(t, 0);
            nb += bayes.get(t, 0) * bayes.get(t, 0);
        }
        // 20,000 samples estimate Σ and the means to ~1 %: the angle to the population direction is a few degrees.
        assertTrue(Math.abs(dot) / Math.sqrt(nw * nb) > 0.995, "cosine " + Math.abs(dot) / Math.sqrt(nw * nb));
    }

    @Test
    void fdaIsDefinedWhenSeriesAreFewerThanFeaturesAndRefusesOneClass() {
        SplittableRandom r = new SplittableRandom(2);
        double[][] x = new double[12][50];
        int[] y = new int[12];
        for (int i = 0; i < 12; i++) {
            y[i] = i % 3;
            for (int t = 0; t < 50; t++) {
                x[i][t] = r.nextGaussian() + (t == y[i] ? 3 : 0);
            }
        }
        DMatrixRMaj w = RegularizedFda.fit(x, y, 3, 2);
        assertEquals(50, w.numRows);
        assertEquals(2, w.numCols);
        assertTrue(Arrays.stream(w.data).allMatch(Double::isFinite));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> RegularizedFda.fit(x, new int[12], 3, 2));
        assertTrue(e.getMessage().contains("two classes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RegularizedFda.fit(x, new int[11], 3, 2));
        assertTrue(e.getMessage().contains("12 rows but y has 11"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LinearMaps.project(x, w, 3));
        assertTrue(e.getMessage().contains("dims = 3 but the map has 2 columns"), e.getMessage());
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
