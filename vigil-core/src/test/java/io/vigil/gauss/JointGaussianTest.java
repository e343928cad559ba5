package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class JointGaussianTest {
    /**
     * L D Lᵀ reproduces Σ to this fraction of max Σ_ii: the Cholesky backward error is ≤ (d+1)·ε·max Σ_ii
     * (Higham Thm 10.3) plus one rounding per entry for the rescale; d ≤ 60 gives ≈ 1.4e-14, so 1e-12
     * has margin and still catches any wrong entry.
     */
    static final double RECONSTRUCT_TOL = 1e-12;

    @Test
    void factorsReproduceTheCovariance() {
        SplittableRandom rng = new SplittableRandom(1);
        for (int d : new int[] {1, 2, 7, 60}) {
            DMatrixRMaj sigma = GaussTestSupport.randomSpd(d, 0.01, 10.0, rng);
            double[] mean = GaussTestSupport.randomVector(d, 1.0, rng);
            JointGaussian g = JointGaussian.fromCovariance(mean, sigma, Shrinkage.external());
            assertEquals(d, g.length());
            DMatrixRMaj l = g.unitLower();
            for (int i = 0; i < d; i++) {
                assertEquals(1.0, l.get(i, i), 0.0);
                for (int j = i + 1; j < d; j++) {
                    assertEquals(0.0, l.get(i, j), 0.0);
                }
            }
            for (double v : g.innovationVariances()) {
                assertTrue(v > 0.0);
            }
            double scale = GaussTestSupport.maxAbs(sigma);
            assertArrayEquals(sigma.data, g.covariance().data, RECONSTRUCT_TOL * scale, "d = " + d);
            assertArrayEquals(mean, g.mean(), 0.0);
            assertEquals(0.0, g.fitInfo().ridge());
            assertEquals("", g.fitInfo().note());
        }
    }

    @Test
    void logDeterminantFromPivotsMatchesAKnownCase() {
        // AR(1) covariance ρ^|i−j|: det = (1 − ρ²)^{d−1}, and D = (1, 1−ρ², 1−ρ², …).
        int d = 9;
        double rho = 0.7;
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                s.set(i, j, Math.pow(rho, Math.abs(i - j)));
            }
        }
        JointGaussian g = JointGaussian.fromCovariance(new double[d], s, Shrinkage.external());
        assertEquals((d - 1) * Math.log(1 - rho * rho), g.logDeterminant(), 1e-12);
        double[] dv = g.innovationVariances();
        assertEquals(1.0, dv[0], 1e-15);
        for (int t = 1; t < d; t++) {
            assertEquals(1 - rho * rho, dv[t], 1e-14, "D_" + t);
            assertEquals(rho, g.unitLower().get(t, t - 1), 1e-14, "L[t, t−1] = ρ");
        }
    }

    @Test
    void slightlyAsymmetricInputIsSymmetrised() {
        SplittableRandom rng = new SplittableRandom(3);
        DMatrixRMaj sigma = GaussTestSupport.randomSpd(5, 0.5, 2.0, rng);
        DMatrixRMaj skew = sigma.copy();
        skew.set(0, 3, skew.get(0, 3) + 1e-13);
        JointGaussian g = JointGaussian.fromCovariance(new double[5], skew, Shrinkage.external());
        assertEquals(0.0, g.fitInfo().ridge());
        assertArrayEquals(sigma.data, g.covariance().data, 1e-12);
    }

    @Test
    void singularCovarianceIsRegularisedWithAReportedReason() {
        // Rank one: v vᵀ with d = 4.
        double[] v = {1, 2, -1, 0.5};
        DMatrixRMaj s = new DMatrixRMaj(4, 4);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 4; j++) {
                s.set(i, j, v[i] * v[j]);
            }
        }
        JointGaussian g = JointGaussian.fromCovariance(new double[4], s, Shrinkage.external());
        double ridge = g.fitInfo().ridge();
        assertTrue(ridge > 0.0, "a ridge must be added");
        assertTrue(
                g.fitInfo().note().contains("not positive definite"),
                g.fitInfo().note());
        DMatrixRMaj expected = s.copy();
        for (int i = 0; i < 4; i++) {
            expected.add(i, i, ridge);
        }
        assertArrayEquals(expected.data, g.covariance().data, 1e-12 * GaussTestSupport.maxAbs(s));
    }

    @Test
    void unshrunkSmallSampleFitNeedsARidgeButShrunkDoesNot() {
        double[][] rows = ShrinkageCovarianceTest.anisotropicRows(10, 30, 4);
        JointGaussian raw = JointGaussian.fit(rows, ShrinkageParams.none());
        assertTrue(raw.fitInfo().ridge() > 0.0, "rank-9 sample covariance of a 30-vector is singular");
        assertEquals(ShrinkageMethod.NONE, raw.fitInfo().shrinkage().method());
        JointGaussian lw = JointGaussian.fit(rows, ShrinkageParams.defaults());
        assertEquals(0.0, lw.fitInfo().ridge());
        assertEquals(10, lw.fitInfo().shrinkage().sampleCount());
    }

    @Test
    void hopelessCovariancesFailWithAReason() {
        DMatrixRMaj neg = new DMatrixRMaj(new double[][] {{-1, 0}, {0, -2}});
        CovarianceFitException e1 = assertThrows(
                CovarianceFitException.class,
                () -> JointGaussian.fromCovariance(new double[2], neg, Shrinkage.external()));
        assertTrue(e1.getMessage().contains("trace"), e1.getMessage());
        // Strongly indefinite: eigenvalues 3 and −1; a ridge of 1e-2·tr/d = 0.01 cannot fix it.
        DMatrixRMaj indefinite = new DMatrixRMaj(new double[][] {{1, 2}, {2, 1}});
        CovarianceFitException e2 = assertThrows(
                CovarianceFitException.class,
                () -> JointGaussian.fromCovariance(new double[2], indefinite, Shrinkage.external()));
        assertTrue(e2.getMessage().contains("not positive definite"), e2.getMessage());
    }

    @Test
    void misuseIsRejectedWithBothSizes() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromCovariance(new double[3], new DMatrixRMaj(4, 4), Shrinkage.external()));
        assertTrue(e.getMessage().contains("4×4") && e.getMessage().contains("3"), e.getMessage());
        DMatrixRMaj nan = DMatrixRMaj.wrap(1, 1, new double[] {Double.NaN});
        assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromCovariance(new double[1], nan, Shrinkage.external()));

        FitInfo info = FitInfo.of(Shrinkage.external());
        DMatrixRMaj l = DMatrixRMaj.wrap(2, 2, new double[] {1, 0, 0.5, 1});
        JointGaussian ok = JointGaussian.fromFactors(new double[2], l, new double[] {1, 2}, info);
        assertArrayEquals(new double[] {0.5}, ok.strictLowerPacked(), 0.0);
        assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromFactors(
                        new double[2], DMatrixRMaj.wrap(2, 2, new double[] {2, 0, 0.5, 1}), new double[] {1, 2}, info));
        assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromFactors(
                        new double[2],
                        DMatrixRMaj.wrap(2, 2, new double[] {1, 0.1, 0.5, 1}),
                        new double[] {1, 2},
                        info));
        assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromFactors(new double[2], l, new double[] {1, 0}, info));
        IllegalArgumentException e2 = assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromPackedFactors(new double[3], new double[2], new double[3], info));
        assertTrue(e2.getMessage().contains("2") && e2.getMessage().contains("3"), e2.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> JointGaussian.fromPackedFactors(new double[2], new double[1], new double[] {1}, info));
    }
}
