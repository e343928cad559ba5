package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The trust-region subproblem's hard case and near-hard cases, solved exactly (docs/method.md §3.3), and the thesis's
 * projected gradient (App. B) failing on them: why Vigil does not use it.
 */
class TrustRegionHardCaseTest {
    /** Storage for the solver's report (bound, iterations, convergence) of the last call. */
    private final MinMaxResult result = new MinMaxResult();

    // ---------------------------------------------------------------- hard case and near-hard cases

    @Test
    void hardCaseIsSolvedInClosedForm() {
        // z-space instance (E = I, m = 0): h = (−3, 1, 2) → a = h/2, γ = (0, 0.5, 0.3) ⟂ e₁, r = 2.
        // ψ(σ=3) = (0.5/4)² + (0.3/5)² = 0.019225 ≤ 4: hard case, σ = 3, z = (±t, −0.125, −0.06), t² = 4 − 0.019225.
        double[] a = {-1.5, 0.5, 1.0};
        double[] g = {0.0, 0.5, 0.3};
        double r = 2.0;
        double expected = -0.5 * (0.25 / 4 + 0.09 / 5) + 0.5 * (-3.0) * r * r;
        TauSet set = new TauSet(3);
        set.setDiagonalEllipsoid(new double[3], new double[] {1, 1, 1}, r);
        QuadraticMinMax solver = new QuadraticMinMax(3);
        double[] z = new double[3];
        double min = solver.minimum(set, a, g, 0.0, z, result);
        assertEquals(expected, min, 1e-12);
        assertEquals(0, result.iterations(), "closed form");
        assertEquals(-0.125, z[1], 1e-15);
        assertEquals(-0.06, z[2], 1e-15);
        assertEquals(Math.sqrt(4 - 0.019225), Math.abs(z[0]), 1e-12);
        assertEquals(expected, Samples.eval(new double[3], a, g, 0.0, z), 1e-12);
    }

    @Test
    void hardCaseWithRepeatedSmallestEigenvalueAndWithZeroSmallestEigenvalue() {
        QuadraticMinMax solver = new QuadraticMinMax(3);
        TauSet set = new TauSet(3);
        set.setDiagonalEllipsoid(new double[3], new double[] {1, 1, 1}, 1.0);
        // h = (−1, −1, 2), γ = (0, 0, 1): σ = 1, z₃ = −1/3, remaining length on the 2-D eigenspace.
        double[] a = {-0.5, -0.5, 1.0};
        double[] g = {0.0, 0.0, 1.0};
        double expected = -0.5 * (1.0 / 3.0) + 0.5 * (-1.0) * 1.0;
        double[] z = new double[3];
        assertEquals(expected, solver.minimum(set, a, g, 0.0, z, result), 1e-12);
        assertEquals(1.0, Math.sqrt(Samples.dot(z, z)), 1e-12);
        // h = (0, 2, 2), γ = (0, 1, 0): λ₁ = 0 with γ₁ = 0, interior on the rest: z₂ = −1/2, value −1/4.
        double[] a0 = {0.0, 1.0, 1.0};
        double[] g0 = {0.0, 1.0, 0.0};
        assertEquals(-0.25, solver.minimum(set, a0, g0, 0.0, z, result), 1e-12);
        assertTrue(set.contains(z, QuadraticMinMaxTest.FEASIBILITY_TOL));
    }

    @Test
    void nearHardCasesConvergeToTheHardCaseLimit() {
        // Perturbing γ₁ by ε moves the minimum by at most ε·r (|Δq| ≤ |Δγ|·‖z‖), so the near-hard minima must
        // approach the hard-case value; and each must still be attained and below dense samples.
        double[] a = {-1.5, 0.5, 1.0};
        double r = 2.0;
        double hardValue = -0.5 * (0.25 / 4 + 0.09 / 5) - 6.0;
        TauSet set = new TauSet(3);
        double[] m = new double[3];
        set.setDiagonalEllipsoid(m, new double[] {1, 1, 1}, r);
        QuadraticMinMax solver = new QuadraticMinMax(3);
        SplittableRandom rnd = new SplittableRandom(13);
        for (double eps : new double[] {1e-2, 1e-4, 1e-8, 1e-12, 1e-100, 1e-300, -1e-8}) {
            double[] g = {eps, 0.5, 0.3};
            double[] z = new double[3];
            double min = solver.minimum(set, a, g, 0.0, z, result);
            assertTrue(result.converged(), "eps " + eps);
            assertTrue(result.iterations() < 60, "eps " + eps + ": " + result.iterations() + " iterations");
            assertTrue(Math.abs(min - hardValue) <= Math.abs(eps) * r + 1e-12, "eps " + eps + ": " + min);
            QuadraticMinMaxTest.assertAttained(set, m, a, g, 0.0, z, min, 10.0, "eps " + eps);
            // The minimiser leans to the side opposite γ₁.
            assertTrue(z[0] * eps <= 0.0, "eps " + eps);
            for (int s = 0; s < 5000; s++) {
                double[] y = QuadraticMinMaxTest.diagonalSample(rnd, m, new double[] {1, 1, 1}, r, s % 2 == 0);
                assertTrue(min <= Samples.eval(m, a, g, 0.0, y) + 1e-12, "eps " + eps);
            }
        }
    }

    @Test
    void nearHardCaseWhereTheRestAlmostFillsTheBall() {
        // ψ_rest(σ = −λ₁) = r² ± tiny: the borderline between the hard and the easy case.
        QuadraticMinMax solver = new QuadraticMinMax(2);
        TauSet set = new TauSet(2);
        double[] m = new double[2];
        // h = (−1, 1), δ₂ = 2; with γ₂ = 2(1 + η) the rest has ‖z‖ = 1 + η at σ = 1; r = 1.
        for (double eta : new double[] {-1e-6, -1e-12, 0.0, 1e-12, 1e-6}) {
            for (double g1 : new double[] {0.0, 1e-10}) {
                double[] a = {-0.5, 0.5};
                double[] g = {g1, 2.0 * (1.0 + eta)};
                set.setDiagonalEllipsoid(m, new double[] {1, 1}, 1.0);
                double[] z = new double[2];
                double min = solver.minimum(set, a, g, 0.0, z, result);
                assertTrue(result.converged());
                QuadraticMinMaxTest.assertAttained(set, m, a, g, 0.0, z, min, 4.0, "eta " + eta + " g1 " + g1);
                double grid = Double.POSITIVE_INFINITY;
                for (int t = 0; t < 200000; t++) {
                    double th = 2 * Math.PI * t / 200000;
                    grid = Math.min(grid, Samples.eval(m, a, g, 0.0, new double[] {Math.cos(th), Math.sin(th)}));
                }
                assertTrue(min <= grid + 1e-12, "eta " + eta);
                assertEquals(grid, min, 1e-8, "eta " + eta);
            }
        }
    }

    // ---------------------------------------------------------------- the thesis's projected gradient (App. B)

    @Test
    void projectedGradientFromTheCentreStallsInTheHardCase() {
        // App. B iterates z ← P(z − (Hz + γ)/L) from z₀ = 0 (the centre m). With γ ⟂ e₁ the iterates never acquire an
        // e₁ component, so they converge to a non-global stationary point on the e₂/e₃ plane.
        double[] h = {-3.0, 1.0, 2.0};
        double[] gamma = {0.0, 0.5, 0.3};
        double r = 2.0;
        double pg = projectedGradient(h, gamma, r, new double[3], 20000);
        TauSet set = new TauSet(3);
        set.setDiagonalEllipsoid(new double[3], new double[] {1, 1, 1}, r);
        double exact = new QuadraticMinMax(3).minimum(set, QuadraticMinMaxTest.half(h), gamma, 0.0, null, result);
        assertTrue(pg > exact + 4.0, "projected gradient " + pg + " vs exact " + exact);
        // With f0 between the two values the thesis's rule would call the set one-sided — wrongly.
        double f0 = 0.5 * (pg + exact) * -1.0;
        assertTrue(f0 + pg > 0 && f0 + exact < 0);
        assertFalse(new QuadraticMinMax(3).minAtLeastZero(set, QuadraticMinMaxTest.half(h), gamma, f0, result));
    }

    @Test
    void projectedGradientWithAnIterationCapStopsFarFromTheMinimumInANearHardCase() {
        // h = (−0.01, 100, 50), γ₁ = 1e-12: from z₀ = 0 the e₁ component grows by the factor 1 + |λ₁|/L = 1.0001 per
        // step, so reaching it takes ~3e5 steps. Capped at 10,000 (the thesis stops early only on a negative value),
        // the iteration reports about −0.015 while the minimum is about −0.020: with f0 = 0.0175 it would call the
        // set one-sided.
        double[] h = {-0.01, 100.0, 50.0};
        double[] gamma = {1e-12, 1.0, 1.0};
        double pg = projectedGradient(h, gamma, 1.0, new double[3], 10000);
        TauSet set = new TauSet(3);
        set.setDiagonalEllipsoid(new double[3], new double[] {1, 1, 1}, 1.0);
        QuadraticMinMax solver = new QuadraticMinMax(3);
        double exact = solver.minimum(set, QuadraticMinMaxTest.half(h), gamma, 0.0, null, result);
        assertTrue(result.iterations() < 60, result.iterations() + " iterations");
        assertTrue(0.0175 + pg > 0 && 0.0175 + exact < 0, "pg " + pg + ", exact " + exact);
        assertFalse(solver.minAtLeastZero(set, QuadraticMinMaxTest.half(h), gamma, 0.0175, result));
    }

    @Test
    void projectedGradientWarmStartedNearTheLocalNonGlobalMinimiserStaysThere() {
        // Martínez (1994): H = diag(−2, −1), γ = (0.3, 0.3), r = 1 has a local non-global minimiser near
        // (0.892, −0.452) with value ≈ −0.7658 (σ between the two poles), while the global one is near
        // (−0.973, −0.229) with value ≈ −1.3345. Projected gradient warm-started from the previous sample's answer
        // (a natural streaming shortcut) can sit in the local one.
        double[] h = {-2.0, -1.0};
        double[] gamma = {0.3, 0.3};
        double pg = projectedGradient(h, gamma, 1.0, new double[] {0.9, -0.4}, 20000);
        assertEquals(-0.76584, pg, 1e-4);
        // It is a strict local minimiser on the circle: neighbouring boundary points are higher.
        double th0 = Math.atan2(-0.45202998, 0.89200275);
        double q0 = circleValue(h, gamma, th0);
        assertTrue(circleValue(h, gamma, th0 + 1e-3) > q0 && circleValue(h, gamma, th0 - 1e-3) > q0);
        TauSet set = new TauSet(2);
        set.setDiagonalEllipsoid(new double[2], new double[] {1, 1}, 1.0);
        double[] z = new double[2];
        double exact = new QuadraticMinMax(2).minimum(set, QuadraticMinMaxTest.half(h), gamma, 0.0, z, result);
        assertEquals(-1.3345074947, exact, 1e-9);
        assertTrue(z[0] < 0);
        // f0 = 1: the local minimiser says min f > 0 (reliable), the global one says otherwise.
        assertTrue(1.0 + pg > 0 && 1.0 + exact < 0);
        assertFalse(new QuadraticMinMax(2).minAtLeastZero(set, QuadraticMinMaxTest.half(h), gamma, 1.0, result));
    }

    /** The thesis's App. B iteration with step 1/L, L = max|h_i| (the Lipschitz constant of the gradient). */
    private static double projectedGradient(double[] h, double[] gamma, double r, double[] z0, int iterations) {
        double lip = 0;
        for (double v : h) {
            lip = Math.max(lip, Math.abs(v));
        }
        double[] z = z0.clone();
        for (int it = 0; it < iterations; it++) {
            for (int i = 0; i < z.length; i++) {
                z[i] -= (h[i] * z[i] + gamma[i]) / lip;
            }
            double n = Math.sqrt(Samples.dot(z, z));
            if (n > r) {
                for (int i = 0; i < z.length; i++) {
                    z[i] *= r / n;
                }
            }
        }
        double q = 0;
        for (int i = 0; i < z.length; i++) {
            q += 0.5 * h[i] * z[i] * z[i] + gamma[i] * z[i];
        }
        return q;
    }

    private static double circleValue(double[] h, double[] gamma, double th) {
        double x = Math.cos(th);
        double y = Math.sin(th);
        return 0.5 * (h[0] * x * x + h[1] * y * y) + gamma[0] * x + gamma[1] * y;
    }
}
