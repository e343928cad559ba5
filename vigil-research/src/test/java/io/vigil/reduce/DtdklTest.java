package io.vigil.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** DTDKL (Zeng and Ren): the derivatives of eq. 9 in θ, the simplex, a transfer case, bad input. */
class DtdklTest {
    /**
     * λF*(θ) = aᵀK(θ)u against central differences in θ. F* is smooth (a rational function of θ with λI + GKG ≻ 0),
     * so the central difference errs by O(h²)·F‴ ≈ 10⁻¹⁰ plus rounding ε·|F|/h ≈ 10⁻¹¹ for h = 10⁻⁵ (F is of order
     * one): a relative tolerance of 10⁻⁵ is ample. Also concave along a line, the paper's premise for its SDP.
     */
    @Test
    void gradientInThetaMatchesFiniteDifferencesAndIsConcave() {
        SplittableRandom r = new SplittableRandom(2);
        int n = 16;
        double[][] x = LmcaTest.gaussianRows(r, n, 3, 1);
        int[] y = LmcaTest.alternating(n, 2);
        double[] sig = {0.5, 1.5, 4};
        double[][][] base = new double[sig.length][][];
        for (int k = 0; k < sig.length; k++) {
            double s = sig[k];
            base[k] = LmcaTest.kernelMatrix(x, (u, v) -> Math.exp(-LargeMargin.squared(u, v) / (s * s)));
        }
        Dtdkl.Problem p = new Dtdkl.Problem(base, y, 0, 1e-2);
        double[] theta = {0.2, 0.5, 0.3};
        Dtdkl.Evaluation e = p.evaluate(theta);
        double h = 1e-5;
        for (int i = 0; i < theta.length; i++) {
            double[] up = theta.clone();
            double[] down = theta.clone();
            up[i] += h;
            down[i] -= h;
            double fd = (p.evaluate(up).value() - p.evaluate(down).value()) / (2 * h);
            assertEquals(fd, e.gradient()[i], 1e-5 * Math.max(1, Math.abs(fd)), "gradient " + i);
        }
        double[] v = {0.1, -0.15, 0.05};
        double[] plus = new double[3];
        double[] minus = new double[3];
        for (int i = 0; i < 3; i++) {
            plus[i] = theta[i] + v[i];
            minus[i] = theta[i] - v[i];
        }
        double second = p.evaluate(plus).value()
                + p.evaluate(minus).value()
                - 2 * p.evaluate(theta).value();
        assertTrue(second < 0, "second difference " + second);
    }

    /**
     * Source and target share one class signal along x₀ (±1, sd 0.3), but the target is shifted by +3 along the five
     * noise coordinates (sd 2) that dominate Euclidean distances; two labelled target series per class. 3-NN against
     * the raw target and source series (no transfer) is near chance; against their DTDKL images it must do clearly
     * better, and θ must lie on the simplex.
     */
    @Test
    void dtdklBeatsNoTransferOnAShiftedTarget() {
        SplittableRandom r = new SplittableRandom(9);
        double[][] source = domain(r, 120, 0);
        int[] sourceY = LmcaTest.alternating(120, 2);
        double[][] target = domain(r, 4, 3);
        int[] targetY = LmcaTest.alternating(4, 2);
        double[][] test = domain(r, 200, 3);
        int[] testY = LmcaTest.alternating(200, 2);
        Dtdkl.Model m = Dtdkl.fit(target, targetY, source, sourceY, 2);
        assertEquals(1, m.rank(), "binary: one direction");
        double[] theta = m.theta();
        assertEquals(1, Arrays.stream(theta).sum(), 1e-9, "θ on the simplex");
        assertTrue(Arrays.stream(theta).allMatch(t -> t >= 0), Arrays.toString(theta));
        double[][] reference =
                Stream.concat(Arrays.stream(target), Arrays.stream(source)).toArray(double[][]::new);
        int[] refY =
                IntStream.concat(Arrays.stream(targetY), Arrays.stream(sourceY)).toArray();
        double none = LmcaTest.accuracy(reference, refY, test, testY, 2);
        double dtdkl = LmcaTest.accuracy(m.project(reference, 1), refY, m.project(test, 1), testY, 2);
        assertTrue(dtdkl > none + 0.15, "DTDKL " + dtdkl + " vs no transfer " + none);
    }

    @Test
    void badInputIsRejectedWithItsReason() {
        double[][] t = {{0, 1}, {1, 0}};
        int[] ty = {0, 1};
        double[][] s = {{0, 1}, {1, 0}, {2, 2}};
        int[] sy = {0, 1, 1};
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Dtdkl.fit(t, ty, new double[][] {{1, 2, 3}}, new int[] {0}, 2));
        assertTrue(e.getMessage().contains("source series have 3 values but target series have 2"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dtdkl.fit(t, ty, new double[0][], new int[0], 2));
        assertTrue(e.getMessage().contains("at least one source series"), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Dtdkl.fit(t, ty, new double[][] {{0, Double.NaN}}, new int[] {0}, 2));
        assertTrue(e.getMessage().contains("source value [0][1] is NaN"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dtdkl.fit(t, new int[] {0}, s, sy, 2));
        assertTrue(e.getMessage().contains("2 rows but 1 labels"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dtdkl.fit(t, ty, s, new int[] {0, 1}, 2));
        assertTrue(e.getMessage().contains("3 rows but 2 labels"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Dtdkl.fit(t, new int[] {0, 0}, s, new int[3], 2));
        assertTrue(e.getMessage().contains("two classes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dtdkl.Params(0, 1, 10));
        assertTrue(e.getMessage().contains("λ"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dtdkl.Params(1e-6, -1, 10));
        assertTrue(e.getMessage().contains("β"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new Dtdkl.Params(1e-6, 1, 0));
        assertTrue(e.getMessage().contains("base kernel"), e.getMessage());
    }

    private static double[][] domain(SplittableRandom r, int n, double shift) {
        double[][] x = new double[n][6];
        for (int i = 0; i < n; i++) {
            x[i][0] = (i % 2 == 0 ? -1 : 1) + 0.3 * r.nextGaussian();
            for (int t = 1; t < 6; t++) {
                x[i][t] = shift + 2 * r.nextGaussian();
            }
        }
        return x;
    }
}
