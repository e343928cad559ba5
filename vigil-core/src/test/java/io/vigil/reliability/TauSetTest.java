package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class TauSetTest {
    private static final int DRAWS = 20000;

    /**
     * Coverage margin in binomial standard deviations: a set with mass exactly τ gives a sample fraction with standard
     * deviation sqrt(τ(1−τ)/N); 4.5 σ makes a false alarm about 3e-6 per comparison, over the ~100 comparisons below
     * well under 1e-3, with fixed seeds so the outcome is reproducible anyway.
     */
    private static final double SIGMAS = 4.5;

    /** Slack for points on the boundary in containment checks (not used for sampled points). */
    private static final double CONTAINS_TOL = 1e-12;

    @Test
    void monteCarloCoverageIsAtLeastTau() {
        SplittableRandom rnd = new SplittableRandom(7);
        TauSet set = new TauSet(10);
        for (int ell : new int[] {1, 2, 5, 10}) {
            for (double tau : new double[] {0.25, 0.9, 0.99}) {
                double[] m = Samples.gaussianVector(rnd, ell, 3.0);
                DMatrixRMaj full = Samples.randomSpd(rnd, ell, 0.05, 4.0);
                DMatrixRMaj diagonal = new DMatrixRMaj(ell, ell);
                for (int i = 0; i < ell; i++) {
                    diagonal.set(i, i, full.get(i, i));
                }
                double margin = SIGMAS * Math.sqrt(tau * (1 - tau) / DRAWS);
                for (SetKind kind : SetKind.values()) {
                    SetConstruction construction = new SetConstruction(kind, tau, 10);
                    // The naive-Bayes sets are exact for a diagonal R (tested two-sided); the others get the full R.
                    DMatrixRMaj r = kind.usesFullCovariance() ? full : diagonal;
                    construction.build(m, r, set);
                    double frac = coverage(rnd, set, m, r);
                    String what = kind + " ell " + ell + " tau " + tau + ": coverage " + frac;
                    assertTrue(frac >= tau - margin, what);
                    if (kind != SetKind.CHEBYSHEV) {
                        // Exact mass τ: the fraction must not be far above either.
                        assertTrue(frac <= tau + margin, what);
                    }
                }
                // Šidák: the box keeps mass ≥ τ under any correlation.
                new SetConstruction(SetKind.NB_BOX, tau, 10).build(m, full, set);
                double frac = coverage(rnd, set, m, full);
                assertTrue(frac >= tau - margin, "correlated nb-box ell " + ell + " tau " + tau + ": " + frac);
            }
        }
    }

    @Test
    void naiveBayesEllipsoidUnderCoversACorrelatedGaussian() {
        // The thesis calls the naive-Bayes assumption conservative; for the ellipsoid (5.4) it is not. ℓ = 2 with
        // correlation 0.99: Σ (Y_i/σ_i)² ≈ 2 Z², so the mass is P(χ²_1 ≤ χ²_2(0.9)/2) ≈ 0.868 < 0.9.
        SplittableRandom rnd = new SplittableRandom(8);
        double[] m = {0.0, 0.0};
        DMatrixRMaj r = new DMatrixRMaj(new double[][] {{1.0, 0.99}, {0.99, 1.0}});
        TauSet set = new TauSet(2);
        new SetConstruction(SetKind.NB_QUADRATIC, 0.9, 2).build(m, r, set);
        double frac = coverage(rnd, set, m, r);
        assertTrue(frac < 0.9 - SIGMAS * Math.sqrt(0.09 / DRAWS), "coverage " + frac);
        new SetConstruction(SetKind.GAUSSIAN, 0.9, 2).build(m, r, set);
        assertEquals(0.9, coverage(rnd, set, m, r), SIGMAS * Math.sqrt(0.09 / DRAWS));
    }

    @Test
    void degenerateCovariances() {
        TauSet set = new TauSet(3);
        double[] m = {1.0, 2.0, 3.0};
        SetConstruction nb = new SetConstruction(SetKind.NB_QUADRATIC, 0.9, 3);
        nb.buildDiagonal(m, new double[] {0.0, 0.0, 0.0}, set);
        assertEquals(TauSet.Shape.POINT, set.shape());
        assertTrue(set.contains(m.clone(), CONTAINS_TOL));
        assertFalse(set.contains(new double[] {1.0, 2.0, 3.001}, CONTAINS_TOL));

        nb.buildDiagonal(m, new double[] {1.0, 0.0, 4.0}, set);
        assertEquals(TauSet.Shape.DIAGONAL_ELLIPSOID, set.shape());
        assertFalse(set.contains(new double[] {1.0, 2.001, 3.0}, CONTAINS_TOL), "the known coordinate is fixed");
        assertTrue(set.contains(new double[] {1.5, 2.0, 3.5}, CONTAINS_TOL));

        // Tiny negative variances from rank-one downdates are rounding and count as zero.
        nb.buildDiagonal(m, new double[] {1.0, -1e-17, 4.0}, set);
        assertEquals(TauSet.Shape.DIAGONAL_ELLIPSOID, set.shape());

        SetConstruction gauss = new SetConstruction(SetKind.GAUSSIAN, 0.9, 3);
        gauss.build(m, new DMatrixRMaj(3, 3), set);
        assertEquals(TauSet.Shape.POINT, set.shape());
        // A rank-one covariance: the set is a segment along v = (1, 1, 0)/√2 of half-length r.
        DMatrixRMaj rank1 = new DMatrixRMaj(new double[][] {{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 0}});
        gauss.build(m, rank1, set);
        assertEquals(TauSet.Shape.FULL_ELLIPSOID, set.shape());
        double r = SetKind.GAUSSIAN.radius(3, 0.9);
        double t = 0.999 * r / Math.sqrt(2);
        assertTrue(set.contains(new double[] {1 + t, 2 + t, 3}, CONTAINS_TOL));
        assertFalse(set.contains(new double[] {1 + t, 2 - t, 3}, CONTAINS_TOL));
        assertFalse(set.contains(new double[] {1 + 1.01 * r / Math.sqrt(2), 2 + 1.01 * r / Math.sqrt(2), 3}, 0));
    }

    @Test
    void radiusCanBeChangedWithoutRebuilding() {
        TauSet set = new TauSet(2);
        set.setBox(new double[] {0, 0}, new double[] {1, 4}, 0.0);
        assertEquals(TauSet.Shape.POINT, set.shape());
        set.setRadius(1.5);
        assertEquals(TauSet.Shape.BOX, set.shape());
        assertTrue(set.contains(new double[] {1.5, -3.0}, CONTAINS_TOL));
        assertFalse(set.contains(new double[] {1.6, 0.0}, CONTAINS_TOL));
    }

    @Test
    void invalidInputsAreRejectedWithBothSizes() {
        TauSet set = new TauSet(3);
        SetConstruction c = new SetConstruction(SetKind.CHEBYSHEV, 0.9, 3);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> c.build(new double[3], new DMatrixRMaj(2, 2), set));
        assertTrue(e.getMessage().contains("2×2") && e.getMessage().contains("3"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> c.buildDiagonal(new double[3], new double[2], set));
        assertTrue(e.getMessage().contains("2") && e.getMessage().contains("3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.build(new double[4], new DMatrixRMaj(4, 4), set));
        assertThrows(
                IllegalArgumentException.class,
                () -> set.setDiagonalEllipsoid(new double[] {Double.NaN, 0, 0}, new double[3], 1.0));
        assertThrows(IllegalArgumentException.class, () -> set.setBox(new double[3], new double[3], -1.0));
    }

    /** Fraction of N(m, R) draws (R positive definite, factored by the test's own Cholesky) that fall into the set. */
    private static double coverage(SplittableRandom rnd, TauSet set, double[] m, DMatrixRMaj r) {
        int ell = m.length;
        double[][] l = Samples.cholesky(r);
        int inside = 0;
        for (int s = 0; s < DRAWS; s++) {
            double[] y = Samples.plus(m, Samples.times(l, Samples.gaussianVector(rnd, ell, 1.0)));
            if (set.contains(y, 0.0)) {
                inside++;
            }
        }
        return inside / (double) DRAWS;
    }
}
