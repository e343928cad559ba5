package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ShrinkageCovarianceTest {
    /** Hand-computed cases use small dyadic-friendly numbers: a few roundings of O(1) values. */
    static final double EXACT_TOL = 1e-14;

    /**
     * Library vs reference transcription on random O(1) data with d ≤ 60, n ≤ 200: both sum ≤ n·d² terms
     * of O(1) in different orders; relative error ≤ ~n·ε ≈ 4e-14, so 1e-11 relative is ample and still
     * far below any formula slip (which changes δ at the 1e-2 level).
     */
    static final double REFERENCE_TOL = 1e-11;

    @Test
    void ledoitWolfHandExample() {
        // x = (2,0), (−2,0), (0,1), (0,−1): x̄ = 0, S = diag(2, 0.5), μ = 1.25, d̂² = 0.5625,
        // each ‖x_k x_kᵀ − S‖² = 4.25, b̄² = (4·4.25/2)/16 = 0.53125 < d̂², δ = 0.53125/0.5625 = 17/18,
        // Σ̂ = (17/18)·1.25·I + (1/18)·S = diag(93/72, 87/72).
        double[][] rows = {{2, 0}, {-2, 0}, {0, 1}, {0, -1}};
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.ledoitWolf());
        assertEquals(17.0 / 18.0, e.shrinkage().intensity(), EXACT_TOL);
        assertEquals(1.25, e.shrinkage().targetScale(), EXACT_TOL);
        assertEquals(4, e.shrinkage().sampleCount());
        assertEquals(ShrinkageTarget.SCALED_IDENTITY, e.shrinkage().target());
        assertArrayEquals(new double[] {93.0 / 72.0, 0, 0, 87.0 / 72.0}, e.covariance().data, EXACT_TOL);
        assertArrayEquals(new double[] {0, 0}, e.mean(), 0.0);
    }

    @Test
    void ledoitWolfClipsAtOne() {
        // x = (2,0), (−1,1), (−1,−1): S = diag(2, 2/3), μ = 4/3, d̂² = 4/9, b̄² = 16/27 > d̂² → δ = 1.
        double[][] rows = {{2, 0}, {-1, 1}, {-1, -1}};
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.ledoitWolf());
        assertEquals(1.0, e.shrinkage().intensity(), 0.0);
        assertArrayEquals(new double[] {4.0 / 3.0, 0, 0, 4.0 / 3.0}, e.covariance().data, EXACT_TOL);
    }

    @ParameterizedTest(name = "n={0}, d={1}")
    @CsvSource({"5, 3", "10, 40", "30, 60", "200, 8", "2, 2", "3, 1"})
    void ledoitWolfMatchesTheFormulasOfThePaper(int n, int d) {
        double[][] rows = anisotropicRows(n, d, 11L * n + d);
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.ledoitWolf());
        Reference ref = Reference.ledoitWolf(rows);
        assertEquals(ref.mu, e.shrinkage().targetScale(), REFERENCE_TOL * ref.mu);
        assertEquals(ref.delta, e.shrinkage().intensity(), REFERENCE_TOL);
        assertArrayEquals(ref.sigma.data, e.covariance().data, REFERENCE_TOL * ref.mu * d);
    }

    @ParameterizedTest(name = "n={0}, d={1}")
    @CsvSource({"5, 3", "10, 40", "30, 60", "200, 8", "1000, 4"})
    void oasMatchesEquation23(int n, int d) {
        double[][] rows = anisotropicRows(n, d, 13L * n + d);
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.oas());
        Reference ref = Reference.oas(rows);
        assertEquals(ref.delta, e.shrinkage().intensity(), REFERENCE_TOL);
        assertArrayEquals(ref.sigma.data, e.covariance().data, REFERENCE_TOL * ref.mu * d);
        assertEquals(ShrinkageMethod.OAS, e.shrinkage().method());
    }

    @Test
    void oasIsBelowOneOnLargeAnisotropicSamples() {
        // The paper's ρ ≈ (tr²S + ...)/(n·‖S − μI‖²) → 0 as n grows with fixed, non-spherical Σ.
        CovarianceEstimate e = ShrinkageCovariance.estimate(anisotropicRows(2000, 4, 3), ShrinkageParams.oas());
        assertTrue(e.shrinkage().intensity() > 0.0 && e.shrinkage().intensity() < 0.05, e.shrinkage() + "");
    }

    @Test
    void intensityTracksHowFarTheTruthIsFromTheTarget() {
        // Σ = diag(1..5), n = 5000: the target is wrong and S accurate → δ near 0 (≈ 0.005 expected).
        CovarianceEstimate aniso =
                ShrinkageCovariance.estimate(anisotropicRows(5000, 5, 1), ShrinkageParams.ledoitWolf());
        assertTrue(
                aniso.shrinkage().intensity() < 0.02, "δ = " + aniso.shrinkage().intensity());
        // Σ = I with n = 30 < d = 40: the target is right and S poor → δ near 1.
        SplittableRandom rng = new SplittableRandom(2);
        double[][] iso = new double[30][40];
        for (double[] r : iso) {
            for (int i = 0; i < 40; i++) {
                r[i] = rng.nextGaussian();
            }
        }
        CovarianceEstimate e = ShrinkageCovariance.estimate(iso, ShrinkageParams.ledoitWolf());
        assertTrue(e.shrinkage().intensity() > 0.8, "δ = " + e.shrinkage().intensity());
    }

    @Test
    void smallSampleEstimateIsPositiveDefiniteWithEigenvaluesAboveDeltaMu() {
        // Beef-like: n = 30 ≪ d = 120; S has rank 29, Σ̂ must have λ_min ≥ δμ.
        double[][] rows = anisotropicRows(30, 120, 8);
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.ledoitWolf());
        double delta = e.shrinkage().intensity();
        assertTrue(delta > 0.0 && delta < 1.0, "δ = " + delta);
        double floor = delta * e.shrinkage().targetScale();
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(120, false, true);
        assertTrue(eig.decompose(e.covariance()));
        for (int i = 0; i < 120; i++) {
            // 1e-10 relative: symmetric QR eigenvalues are accurate to ~d·ε·‖Σ‖.
            assertTrue(eig.getEigenvalue(i).real >= floor * (1 - 1e-10), "λ_" + i + " below δμ");
        }
        JointGaussian g = JointGaussian.fit(rows, ShrinkageParams.ledoitWolf());
        assertEquals(0.0, g.fitInfo().ridge(), "shrinkage makes the ridge unnecessary");
    }

    @Test
    void fixedIntensityAndNone() {
        double[][] rows = anisotropicRows(12, 6, 4);
        DMatrixRMaj s =
                ShrinkageCovariance.estimate(rows, ShrinkageParams.none()).covariance();
        CovarianceEstimate f = ShrinkageCovariance.estimate(rows, ShrinkageParams.fixed(0.3));
        double mu = CommonOps_DDRM.trace(s) / 6;
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 6; j++) {
                double expected = 0.7 * s.get(i, j) + (i == j ? 0.3 * mu : 0.0);
                assertEquals(expected, f.covariance().get(i, j), EXACT_TOL * 10);
            }
        }
        assertEquals(0.3, f.shrinkage().intensity(), 0.0);
        assertEquals(ShrinkageMethod.FIXED, f.shrinkage().method());
        // S uses divisor n (maximum likelihood), as in Ledoit & Wolf.
        double var0 = 0.0;
        double m0 = 0.0;
        for (double[] r : rows) {
            m0 += r[0] / 12;
        }
        for (double[] r : rows) {
            var0 += (r[0] - m0) * (r[0] - m0) / 12;
        }
        assertEquals(var0, s.get(0, 0), 1e-13);
    }

    @Test
    void oneDimensionalDataNeedsNoShrinkage() {
        double[][] rows = {{1}, {2}, {4}};
        CovarianceEstimate e = ShrinkageCovariance.estimate(rows, ShrinkageParams.ledoitWolf());
        assertEquals(0.0, e.shrinkage().intensity(), 0.0);
        double mean = 7.0 / 3.0;
        double var = ((1 - mean) * (1 - mean) + (2 - mean) * (2 - mean) + (4 - mean) * (4 - mean)) / 3;
        assertEquals(var, e.covariance().get(0, 0), EXACT_TOL);
        assertEquals(
                0.0,
                ShrinkageCovariance.estimate(rows, ShrinkageParams.oas())
                        .shrinkage()
                        .intensity(),
                0.0);
    }

    @Test
    void misuseAndDegenerateInputs() {
        assertThrows(
                IllegalArgumentException.class,
                () -> ShrinkageCovariance.estimate(new double[][] {{1, 2}}, ShrinkageParams.defaults()));
        IllegalArgumentException ragged = assertThrows(
                IllegalArgumentException.class,
                () -> ShrinkageCovariance.estimate(new double[][] {{1, 2}, {1, 2, 3}}, ShrinkageParams.defaults()));
        assertTrue(ragged.getMessage().contains("3") && ragged.getMessage().contains("2"), ragged.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> ShrinkageCovariance.estimate(
                        new double[][] {{1, 2}, {1, Double.NaN}}, ShrinkageParams.defaults()));
        CovarianceFitException same = assertThrows(
                CovarianceFitException.class,
                () -> ShrinkageCovariance.estimate(new double[][] {{1, 2}, {1, 2}}, ShrinkageParams.defaults()));
        assertTrue(same.getMessage().contains("identical"), same.getMessage());
    }

    @Test
    void paramsValidateAndParse() {
        assertThrows(IllegalArgumentException.class, () -> ShrinkageParams.fixed(1.5));
        assertThrows(IllegalArgumentException.class, () -> ShrinkageParams.fixed(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new ShrinkageParams(ShrinkageMethod.OAS, 0.2));
        assertEquals(ShrinkageMethod.LEDOIT_WOLF, ShrinkageParams.defaults().method());
        for (ShrinkageMethod m : ShrinkageMethod.values()) {
            assertEquals(m, ShrinkageMethod.fromId(m.id()));
        }
        assertEquals(ShrinkageMethod.OAS, ShrinkageMethod.fromId(" OAS "));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShrinkageMethod.fromId("lw"));
        assertTrue(e.getMessage().contains("ledoit-wolf"), e.getMessage());
        assertEquals(ShrinkageTarget.SCALED_IDENTITY, ShrinkageTarget.fromId("scaled-identity"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Shrinkage(ShrinkageMethod.FIXED, ShrinkageTarget.SCALED_IDENTITY, 1.0, 1.2, 3));
    }

    /** Rows from N(c, diag(1..d)) with a nonzero mean c. */
    static double[][] anisotropicRows(int n, int d, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] rows = new double[n][d];
        for (double[] r : rows) {
            for (int i = 0; i < d; i++) {
                r[i] = 3.0 + Math.sqrt(i + 1.0) * rng.nextGaussian();
            }
        }
        return rows;
    }

    /** Straight transcriptions of the papers with explicit matrices and two-pass moments. */
    private record Reference(double mu, double delta, DMatrixRMaj sigma) {
        static DMatrixRMaj sampleCovariance(double[][] rows, double[] mean) {
            int n = rows.length;
            int d = rows[0].length;
            for (double[] r : rows) {
                for (int i = 0; i < d; i++) {
                    mean[i] += r[i] / n;
                }
            }
            DMatrixRMaj s = new DMatrixRMaj(d, d);
            for (double[] r : rows) {
                for (int i = 0; i < d; i++) {
                    for (int j = 0; j < d; j++) {
                        s.add(i, j, (r[i] - mean[i]) * (r[j] - mean[j]) / n);
                    }
                }
            }
            return s;
        }

        /** ‖A‖² = tr(AAᵀ)/p, the normalised Frobenius norm of Ledoit & Wolf (2004). */
        static double norm2(DMatrixRMaj a) {
            double s = 0.0;
            for (double v : a.data) {
                s += v * v;
            }
            return s / a.numRows;
        }

        static Reference ledoitWolf(double[][] rows) {
            int n = rows.length;
            int p = rows[0].length;
            double[] mean = new double[p];
            DMatrixRMaj s = sampleCovariance(rows, mean);
            DMatrixRMaj eye = CommonOps_DDRM.identity(p);
            double m = CommonOps_DDRM.trace(s) / p; // ⟨S, I⟩
            DMatrixRMaj diff = s.copy();
            CommonOps_DDRM.addEquals(diff, -m, eye);
            double d2 = norm2(diff);
            double bbar2 = 0.0;
            for (double[] r : rows) {
                DMatrixRMaj xk = new DMatrixRMaj(p, 1);
                for (int i = 0; i < p; i++) {
                    xk.data[i] = r[i] - mean[i];
                }
                DMatrixRMaj outer = new DMatrixRMaj(p, p);
                CommonOps_DDRM.multTransB(xk, xk, outer);
                CommonOps_DDRM.subtractEquals(outer, s);
                bbar2 += norm2(outer) / ((double) n * n);
            }
            double b2 = Math.min(bbar2, d2);
            double a2 = d2 - b2;
            DMatrixRMaj sigma = new DMatrixRMaj(p, p);
            double delta = d2 == 0.0 ? 0.0 : b2 / d2;
            if (d2 == 0.0) {
                sigma.setTo(s);
            } else {
                CommonOps_DDRM.add(b2 / d2 * m, eye, a2 / d2, s, sigma);
            }
            return new Reference(m, delta, sigma);
        }

        static Reference oas(double[][] rows) {
            int n = rows.length;
            int p = rows[0].length;
            double[] mean = new double[p];
            DMatrixRMaj s = sampleCovariance(rows, mean);
            DMatrixRMaj s2 = new DMatrixRMaj(p, p);
            CommonOps_DDRM.mult(s, s, s2);
            double trS2 = CommonOps_DDRM.trace(s2);
            double trS = CommonOps_DDRM.trace(s);
            double rho = Math.min(
                    1.0, ((1.0 - 2.0 / p) * trS2 + trS * trS) / ((n + 1.0 - 2.0 / p) * (trS2 - trS * trS / p)));
            DMatrixRMaj sigma = new DMatrixRMaj(p, p);
            CommonOps_DDRM.add(1.0 - rho, s, rho * trS / p, CommonOps_DDRM.identity(p), sigma);
            return new Reference(trS / p, rho, sigma);
        }
    }
}
