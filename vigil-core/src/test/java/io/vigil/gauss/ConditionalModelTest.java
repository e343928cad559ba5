package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConditionalModelTest {
    /**
     * Incremental and direct moments agree to this fraction of the problem's scale. Σ has eigenvalues
     * in [0.5, 5] (κ ≤ 10) and d ≤ 40; both routes are backward stable, so each is within ~d·κ·ε ≈ 1e-13
     * of the truth relative to scale. 1e-10 leaves three orders of margin and is still ten orders below
     * the O(1) error of any wrong formula (e.g. an off-by-one in t or a missing D_t).
     */
    static final double REL_TOL = 1e-10;

    private record Problem(double[] mean, DMatrixRMaj sigma, DMatrixRMaj basis, double[] x, double scale) {}

    private static Problem problem(int d, int l, long seed, boolean orthonormal) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[] mean = GaussTestSupport.randomVector(d, 2.0, rng);
        DMatrixRMaj sigma = GaussTestSupport.randomSpd(d, 0.5, 5.0, rng);
        DMatrixRMaj b;
        if (orthonormal) {
            b = GaussTestSupport.randomOrthonormal(d, l, rng);
        } else {
            b = new DMatrixRMaj(d, l);
            for (int i = 0; i < b.data.length; i++) {
                b.data[i] = rng.nextGaussian();
            }
        }
        double[] x = GaussTestSupport.sample(mean, sigma, 1, rng)[0];
        double bScale = Math.max(1.0, GaussTestSupport.maxAbs(b) * GaussTestSupport.maxAbs(b) * d);
        double scale = bScale
                * Math.max(
                        5.0,
                        Math.max(GaussTestSupport.maxAbs(mean), GaussTestSupport.maxAbs(x))
                                * (orthonormal ? 1.0 : Math.sqrt(d)));
        return new Problem(mean, sigma, b, x, scale);
    }

    @ParameterizedTest(name = "d={0}, ℓ={1}, orthonormal={2}")
    @CsvSource({
        "1, 1, true",
        "2, 1, true",
        "5, 1, true",
        "7, 3, true",
        "12, 12, true",
        "30, 5, true",
        "40, 40, true",
        "9, 4, false",
        "16, 20, false"
    })
    void incrementalMomentsEqualDirectFormulaForEveryPrefix(int d, int l, boolean orthonormal) {
        Problem p = problem(d, l, 1000L * d + l, orthonormal);
        JointGaussianEstimator est =
                JointGaussianEstimator.of(JointGaussian.fromCovariance(p.mean, p.sigma, Shrinkage.external()), p.basis);
        assertEquals(0.0, est.gaussian().fitInfo().ridge(), "well-conditioned Σ needs no ridge");
        SeriesState state = est.newState();
        double[] my = new double[l];
        DMatrixRMaj ry = new DMatrixRMaj(l, l);
        double tol = REL_TOL * p.scale;
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                est.update(state, p.x[t - 1]);
            }
            assertEquals(t, state.time());
            double[] z = Arrays.copyOf(p.x, t);
            DirectReference ref = DirectReference.conditional(p.mean, p.sigma, z, p.basis);
            est.conditionalMean(state, my);
            est.conditionalCovariance(state, ry);
            assertArrayEquals(ref.meanY, my, tol, "m_y at t = " + t);
            assertArrayEquals(ref.covY.data, ry.data, tol, "R_y at t = " + t);
        }
        // Complete series: the features are known exactly.
        assertArrayEquals(GaussTestSupport.project(p.basis, p.x), my, tol, "m_y(d) = Bᵀx");
        assertTrue(GaussTestSupport.maxAbs(ry) <= tol, "R_y(d) = 0");
        double[] packed = new double[SymmetricPacked.size(l)];
        est.conditionalCovariance(state, packed);
        for (double v : packed) {
            assertEquals(0.0, v, 0.0, "the backward table makes R_y(d) exactly zero");
        }
    }

    @Test
    void innovationVariancesAreTheSequentialConditionalVariances() {
        // D_t = Var(x_t | x_1..x_{t−1}) = Σ_tt − Σ_t,<t Σ_<t⁻¹ Σ_<t,t: the innovations interpretation of LDLᵀ.
        Problem p = problem(10, 1, 77, true);
        JointGaussian g = JointGaussian.fromCovariance(p.mean, p.sigma, Shrinkage.external());
        double[] dv = g.innovationVariances();
        DMatrixRMaj unit = new DMatrixRMaj(10, 10);
        for (int i = 0; i < 10; i++) {
            unit.set(i, i, 1.0);
        }
        for (int t = 0; t < 10; t++) {
            double[] z = Arrays.copyOf(p.x, t);
            DirectReference ref = DirectReference.conditional(p.mean, p.sigma, z, unit);
            assertEquals(ref.covY.get(t, t), dv[t], REL_TOL * 5.0, "D_" + t);
        }
    }

    @Test
    void covarianceTableIsNonIncreasingAndTabulatedInPackedForm() {
        Problem p = problem(25, 6, 5, true);
        ConditionalModel m =
                ConditionalModel.build(JointGaussian.fromCovariance(p.mean, p.sigma, Shrinkage.external()), p.basis);
        int q = SymmetricPacked.size(6);
        double[] table = m.covarianceTable();
        assertEquals((25 + 1) * q, table.length);
        double[] row = new double[q];
        DMatrixRMaj dense = new DMatrixRMaj(6, 6);
        double previousTrace = Double.POSITIVE_INFINITY;
        for (int t = 0; t <= 25; t++) {
            m.conditionalCovariance(t, row);
            m.conditionalCovariance(t, dense);
            double trace = 0.0;
            for (int i = 0; i < 6; i++) {
                trace += dense.get(i, i);
                for (int j = 0; j < 6; j++) {
                    assertEquals(row[SymmetricPacked.index(i, j)], dense.get(i, j), 0.0);
                }
            }
            assertTrue(trace <= previousTrace, "trace R_y(t) must not increase, t = " + t);
            previousTrace = trace;
        }
    }

    @Test
    void reloadFromStoredFactorsGivesIdenticalTables() {
        SplittableRandom rng = new SplittableRandom(42);
        int d = 33;
        double[][] rows = GaussTestSupport.sample(
                GaussTestSupport.randomVector(d, 1.0, rng), GaussTestSupport.randomSpd(d, 0.1, 3.0, rng), 20, rng);
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 4, rng);
        JointGaussian fitted = JointGaussian.fit(rows, ShrinkageParams.defaults());
        ConditionalModel original = ConditionalModel.build(fitted, b);

        JointGaussian dense = JointGaussian.fromFactors(
                fitted.mean(), fitted.unitLower(), fitted.innovationVariances(), fitted.fitInfo());
        JointGaussian packed = JointGaussian.fromPackedFactors(
                fitted.mean(), fitted.strictLowerPacked(), fitted.innovationVariances(), fitted.fitInfo());
        for (JointGaussian restored : new JointGaussian[] {dense, packed}) {
            ConditionalModel reloaded = ConditionalModel.build(restored, b);
            assertArrayEquals(original.covarianceTable(), reloaded.covarianceTable(), 0.0);
            assertArrayEquals(original.projectedFactor().data, reloaded.projectedFactor().data, 0.0);
            double[] m0 = new double[4];
            double[] m1 = new double[4];
            original.initialMean(m0);
            reloaded.initialMean(m1);
            assertArrayEquals(m0, m1, 0.0);
            assertEquals(fitted.fitInfo(), restored.fitInfo());
        }
    }

    @Test
    void projectedFactorIsBTransposeL() {
        Problem p = problem(8, 3, 9, true);
        JointGaussian g = JointGaussian.fromCovariance(p.mean, p.sigma, Shrinkage.external());
        ConditionalModel m = ConditionalModel.build(g, p.basis);
        DMatrixRMaj expected = new DMatrixRMaj(3, 8);
        CommonOps_DDRM.multTransA(p.basis, g.unitLower(), expected);
        assertArrayEquals(expected.data, m.projectedFactor().data, 1e-14 * 8, "P = BᵀL (8-term sums of O(1))");
    }

    @Test
    void basisShapeErrorsNameBothSizes() {
        Problem p = problem(6, 2, 3, true);
        JointGaussian g = JointGaussian.fromCovariance(p.mean, p.sigma, Shrinkage.external());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ConditionalModel.build(g, new DMatrixRMaj(5, 2)));
        assertTrue(e.getMessage().contains("5") && e.getMessage().contains("6"), e.getMessage());
        ConditionalModel m = ConditionalModel.build(g, p.basis);
        IllegalArgumentException e2 =
                assertThrows(IllegalArgumentException.class, () -> m.conditionalCovariance(2, new DMatrixRMaj(3, 3)));
        assertTrue(e2.getMessage().contains("3×3") && e2.getMessage().contains("2×2"), e2.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.conditionalCovariance(7, new double[3]));
        assertThrows(IllegalArgumentException.class, () -> m.conditionalCovariance(2, new double[2]));
        DMatrixRMaj nan = p.basis.copy();
        nan.set(1, 1, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> ConditionalModel.build(g, nan));
    }
}
