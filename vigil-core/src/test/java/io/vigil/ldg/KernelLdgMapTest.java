package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.Knn;
import io.vigil.util.Progress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Kernel LDG (thesis §3.3.2): reduction to linear LDG, a non-linear case, cross-validation consistency, bad input. */
class KernelLdgMapTest {
    /** Two classes on concentric circles (radius 1 and 3, noise 0.2) in 2-D plus 3 noise coordinates. */
    private static double[][] circles(int n, int[] y, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][5];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            double radius = y[i] == 0 ? 1 : 3;
            double a = 2 * Math.PI * r.nextDouble();
            x[i][0] = radius * Math.cos(a) + 0.2 * r.nextGaussian();
            x[i][1] = radius * Math.sin(a) + 0.2 * r.nextGaussian();
            for (int t = 2; t < 5; t++) {
                x[i][t] = 0.3 * r.nextGaussian();
            }
        }
        return x;
    }

    private static double accuracy(double[][] train, int[] trainY, double[][] test, int[] testY) {
        Knn knn = Knn.fit(train, trainY, 2);
        int ok = 0;
        for (int i = 0; i < test.length; i++) {
            ok += knn.predict(test[i], 3) == testY[i] ? 1 : 0;
        }
        return (double) ok / test.length;
    }

    private static double[][] project(KernelLdgMap map, double[][] x) {
        double[][] out = new double[x.length][map.dims()];
        for (int i = 0; i < x.length; i++) {
            map.project(x[i], out[i]);
        }
        return out;
    }

    /**
     * With the degree-1 polynomial kernel, K = XXᵀ/d + 11ᵀ, whose double-centred form is the linear Gram matrix over d:
     * kernel LDG is linear LDG with every coordinate scaled by 1/√d, so distances between projected points agree
     * after that scaling (signs and a common shift do not affect distances).
     */
    @Test
    void degreeOnePolynomialIsLinearLdgScaled() {
        int[] y = new int[40];
        double[][] x = circles(40, y, 1);
        LdgParams p = new LdgParams(3, 0.5);
        KernelLdgMap map = KernelLdgMap.fit(x, y, 2, p, new KernelFunction.Polynomial(1), 2);
        double[][] kernelProj = project(map, x);
        double[][] linearProj = Ldg.fit(x, y, 2, p).project(x, 2);
        double d = x[0].length;
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < i; j++) {
                double dk = 0;
                double dl = 0;
                for (int c = 0; c < 2; c++) {
                    dk += Math.pow(kernelProj[i][c] - kernelProj[j][c], 2);
                    dl += Math.pow(linearProj[i][c] - linearProj[j][c], 2);
                }
                // Both come from 2×2 symmetric eigenproblems of well-separated eigenvalues: rounding ≈ 1e-13.
                assertEquals(dl, dk * d, 1e-9 * Math.max(1, dl), "pair " + i + ", " + j);
            }
        }
    }

    /**
     * Concentric circles: a linear direction only splits the inner interval from the outer tails (a third of the outer
     * circle projects inside it, so 3-NN on it stays near 5/6); the RBF kernel's first direction is the radius.
     */
    @Test
    void rbfSeparatesWhatLinearLdgCannot() {
        int[] y = new int[80];
        double[][] x = circles(80, y, 2);
        int[] ty = new int[200];
        double[][] tx = circles(200, ty, 3);
        LdgParams p = new LdgParams(5, 0.5);
        double linear = accuracy(
                Ldg.fit(x, y, 2, p).project(x, 1), y, Ldg.fit(x, y, 2, p).project(tx, 1), ty);
        KernelLdgMap map = KernelLdgMap.fit(x, y, 2, p, new KernelFunction.Rbf(1.5), 1);
        double kernel = accuracy(project(map, x), y, project(map, tx), ty);
        assertTrue(linear < 0.9, "linear LDG at ℓ = 1: " + linear);
        assertTrue(kernel > 0.95, "kernel LDG at ℓ = 1: " + kernel + " (linear " + linear + ")");
    }

    /** A fold of the kernel cross-validation scores exactly what a fit on its training rows and project give. */
    @Test
    void crossValidationFoldsMatchAFreshFitAndProject() {
        int[] y = new int[30];
        double[][] x = circles(30, y, 4);
        KernelFunction k = new KernelFunction.Rbf(2.0);
        int[] test = {0, 3, 7, 12, 18, 25};
        int[] train = io.vigil.data.Folds.complement(test, 30);
        double[][] xTrain = new double[train.length][];
        int[] yTrain = new int[train.length];
        for (int i = 0; i < train.length; i++) {
            xTrain[i] = x[train[i]];
            yTrain[i] = y[train[i]];
        }
        double[][] xTest = new double[test.length][];
        int[] yTest = new int[test.length];
        for (int i = 0; i < test.length; i++) {
            xTest[i] = x[test[i]];
            yTest[i] = y[test[i]];
        }
        KernelLdgMap map = KernelLdgMap.fit(xTrain, yTrain, 2, new LdgParams(3, 0.3), k, 2);
        double expected = accuracy(project(map, xTrain), yTrain, project(map, xTest), yTest);
        double[][] cv = LdgCrossValidation.accuracy(
                x,
                y,
                2,
                3,
                k,
                new double[] {0.3},
                new int[] {2},
                new int[][] {test},
                LdgCrossValidation.knnScorer(2, 3),
                1,
                Progress.none());
        assertEquals(expected, cv[0][0], 1e-12);
    }

    @Test
    void badParametersAreNamed() {
        int[] y = new int[10];
        double[][] x = circles(10, y, 5);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> KernelLdgMap.fit(x, y, 2, new LdgParams(2, 0.5), new KernelFunction.Rbf(1), 10));
        assertTrue(e.getMessage().contains("exceeds the kernel LDG rank"), e.getMessage());
        assertEquals(
                "the poly kernel degree must be an integer, got 2.5",
                assertThrows(IllegalArgumentException.class, () -> KernelFunction.of("poly", 2.5))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> KernelFunction.of("rbf", 0));
        assertEquals(
                "unknown kernel 'sigmoid' (expected rbf or poly)",
                assertThrows(IllegalArgumentException.class, () -> KernelFunction.of("sigmoid", 1))
                        .getMessage());
        double[] out = new double[1];
        KernelLdgMap map = KernelLdgMap.fit(x, y, 2, new LdgParams(2, 0.5), new KernelFunction.Rbf(1), 1);
        assertThrows(IllegalArgumentException.class, () -> map.project(new double[4], out));
    }
}
