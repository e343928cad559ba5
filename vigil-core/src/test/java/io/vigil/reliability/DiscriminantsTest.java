package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DiscriminantsTest {
    /** Relative tolerance for re-evaluating the same quadratic by two formulas (a few roundings of O(value)). */
    private static final double REL_TOL = 1e-12;

    @Test
    void localQdaDiscriminantFollowsTheFormulaAndItsExpansionIsExact() {
        SplittableRandom rnd = new SplittableRandom(3);
        int ell = 7;
        double[][] mu = {Samples.gaussianVector(rnd, ell, 1), Samples.gaussianVector(rnd, ell, 1)};
        double[][] var = {Samples.uniformVector(rnd, ell, 0.1, 3), Samples.uniformVector(rnd, ell, 0.1, 3)};
        double[] logPrior = {Math.log(0.3), Math.log(0.7)};
        DiagonalQuadraticDiscriminants f = DiagonalQuadraticDiscriminants.of(mu, var, logPrior);
        double[] m = Samples.gaussianVector(rnd, ell, 1);
        double[] grad = new double[ell];
        double[] curv = new double[ell];
        for (int g = 0; g < 2; g++) {
            double f0 = f.expand(g, m, grad, curv);
            for (int s = 0; s < 50; s++) {
                double[] u = Samples.gaussianVector(rnd, ell, 2);
                double[] y = Samples.plus(m, u);
                double direct = 2 * logPrior[g];
                for (int i = 0; i < ell; i++) {
                    direct -= (y[i] - mu[g][i]) * (y[i] - mu[g][i]) / var[g][i] + Math.log(var[g][i]);
                }
                assertEquals(direct, f.value(g, y), REL_TOL * (1 + Math.abs(direct)));
                assertEquals(direct, Samples.eval(m, curv, grad, f0, y), REL_TOL * (1 + Math.abs(direct)));
            }
        }
    }

    @Test
    void logDeterminantSurvivesExtremeVariances() {
        int ell = 40;
        double[] var = new double[ell];
        double[] mean = new double[ell];
        double expected = 0;
        for (int i = 0; i < ell; i++) {
            var[i] = i % 2 == 0 ? 1e-250 * (1 + i) : 1e200 / (1 + i);
            expected += Math.log(var[i]);
        }
        DiagonalQuadraticDiscriminants f = new DiagonalQuadraticDiscriminants(1, ell);
        f.setClass(0, mean, var, 0.0);
        // Σ log of 40 terms of magnitude ~500: the naive sum itself carries ~40 ulp(10^4).
        assertEquals(expected, f.logDeterminant(0), 1e-10 * Math.abs(expected));
    }

    @Test
    void linearExpansionIsExact() {
        LinearDiscriminants f = new LinearDiscriminants(new double[][] {{1, -2}, {0.5, 3}}, new double[] {0.25, -1});
        double[] grad = new double[2];
        double[] curv = {9, 9};
        assertEquals(1 * 2 - 2 * 3 + 0.25, f.expand(0, new double[] {2, 3}, grad, curv));
        assertEquals(-2.0, grad[1]);
        assertEquals(0.0, curv[0]);
        assertEquals(0.5 * 2 + 3 * 3 - 1, f.value(1, new double[] {2, 3}));
    }

    @Test
    void invalidClassesAreRejected() {
        DiagonalQuadraticDiscriminants f = new DiagonalQuadraticDiscriminants(2, 2);
        assertThrows(IllegalStateException.class, () -> f.value(1, new double[2]));
        assertThrows(IllegalArgumentException.class, () -> f.setClass(0, new double[2], new double[] {1, 0}, 0));
        assertThrows(IllegalArgumentException.class, () -> f.setClass(2, new double[2], new double[] {1, 1}, 0));
        assertThrows(IllegalArgumentException.class, () -> f.setClass(0, new double[3], new double[] {1, 1}, 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> new LinearDiscriminants(new double[][] {{1, 2}, {1}}, new double[] {0, 0}));
    }
}
