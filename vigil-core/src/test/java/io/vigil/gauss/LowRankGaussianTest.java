package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The low-rank form (Σ = a·I + UUᵀ with its semiseparable LDLᵀ) against the dense form (d×d shrinkage estimate,
 * Cholesky): the same Gaussian by two independent routes, so every conditional moment must agree at every t up
 * to rounding.
 *
 * <p>Tolerances. Both routes are backward stable: the dense Cholesky has backward error ≈ d·ε·‖Σ‖ (Higham Thm
 * 10.3), Potter's square-root recursion a comparable one per step, the shrinkage scalars are sums of squares of
 * O(n·d) terms. The conditional moments solve with leading principal blocks of Σ, so their forward error is at
 * most about d·ε·κ(Σ) relative to the problem's scale, κ(Σ) = λ_max/λ_min. Each comparison below allows {@link
 * #MOMENT_FACTOR}·d·ε·κ(Σ) relative to the scale — 100× headroom over that first-order bound for the constants it
 * leaves out — and the tests check κ(Σ) ≤ {@link #KAPPA_MAX}, so the allowance stays below 1e-6 relative, many
 * orders under the O(1) error of a wrong formula (an off-by-one in t, a missing gain, a wrong intensity).
 */
class LowRankGaussianTest {
    static final double EPS = Math.ulp(1.0);

    /** Headroom over the first-order bound d·ε·κ(Σ) (see the class comment). */
    static final double MOMENT_FACTOR = 100.0;

    /** Largest condition number of the test instances (shrinkage keeps them far below; "none" adds a ridge). */
    static final double KAPPA_MAX = 1e8;

    /**
     * δ, μ and Σ entries: O(n·d) terms of O(1) summed in different orders (Welford scatter vs Gram matrix and
     * eigenvalues); relative error ≲ n·d·ε ≈ 1e-12 at n·d ≤ 3,600, so 1e-10 relative leaves 100× headroom.
     */
    static final double SHRINKAGE_TOL = 1e-10;

    static Stream<Arguments> instances() {
        Stream.Builder<Arguments> b = Stream.builder();
        int[][] sizes = {{10, 40}, {30, 60}, {8, 9}, {60, 20}, {25, 25}, {2, 5}};
        String[] methods = {"ledoit-wolf", "oas", "0.3", "none"};
        for (int[] s : sizes) {
            for (String m : methods) {
                b.add(Arguments.of(s[0], s[1], m));
            }
        }
        return b.build();
    }

    static ShrinkageParams params(String method) {
        try {
            return ShrinkageParams.fixed(Double.parseDouble(method));
        } catch (NumberFormatException e) {
            return new ShrinkageParams(ShrinkageMethod.fromId(method), Double.NaN);
        }
    }

    /** Smooth class-like signals (a few shared shapes, random amplitudes) plus noise, offset from 0. */
    static double[][] rows(int n, int d, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[][] rows = new double[n + 1][d];
        for (double[] r : rows) {
            double a1 = rng.nextGaussian();
            double a2 = rng.nextGaussian();
            double shift = rng.nextInt(3);
            for (int t = 0; t < d; t++) {
                r[t] = 2.0 + a1 * Math.sin(0.2 * (t + shift)) + a2 * Math.cos(0.05 * t) + 0.3 * rng.nextGaussian();
            }
        }
        return rows;
    }

    static double conditionNumber(DMatrixRMaj sigma) {
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(sigma.numRows, false, true);
        assertTrue(eig.decompose(sigma.copy()));
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0.0;
        for (int i = 0; i < sigma.numRows; i++) {
            double v = eig.getEigenvalue(i).real;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return hi / lo;
    }

    @ParameterizedTest(name = "n={0}, d={1}, {2}")
    @MethodSource("instances")
    void shrinkageEstimateEqualsTheDenseOne(int n, int d, String method) {
        double[][] all = rows(n, d, 31L * n + d);
        double[][] train = java.util.Arrays.copyOf(all, n);
        ShrinkageParams p = params(method);
        CovarianceEstimate dense = ShrinkageCovariance.estimate(train, p);
        LowRankShrinkage.Estimate low = LowRankShrinkage.estimate(train, p);
        Shrinkage ds = dense.shrinkage();
        Shrinkage ls = low.shrinkage();
        assertEquals(ds.method(), ls.method());
        assertEquals(ds.sampleCount(), ls.sampleCount());
        assertEquals(ds.targetScale(), ls.targetScale(), SHRINKAGE_TOL * ds.targetScale(), "μ");
        assertEquals(ds.intensity(), ls.intensity(), SHRINKAGE_TOL, "δ");
        assertArrayEquals(dense.mean(), low.mean(), 0.0, "x̄ (same Welford arithmetic)");
        assertEquals(ds.intensity() == 1.0 ? 0 : Math.min(n - 1, d), low.rank(), "rank of the centred series");
        for (int t = 0; t < d; t++) {
            for (int i = t + 1; i < low.rank(); i++) {
                assertEquals(0.0, low.factor()[t * low.rank() + i], 0.0, "U is lower trapezoidal");
            }
        }
        DMatrixRMaj sigma = dense.covariance();
        double[] u = low.factor();
        int r = low.rank();
        double scale = ds.targetScale() * d;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double v = SemiseparableLdl.dot(u, i * r, u, j * r, r) + (i == j ? low.identityScale() : 0.0);
                assertEquals(sigma.get(i, j), v, SHRINKAGE_TOL * scale, "Σ[" + i + "," + j + "]");
            }
        }
    }

    @ParameterizedTest(name = "n={0}, d={1}, {2}")
    @MethodSource("instances")
    void conditionalMomentsInnovationsAndPivotsEqualTheDenseFormAtEveryT(int n, int d, String method) {
        double[][] all = rows(n, d, 17L * n + d);
        double[][] train = java.util.Arrays.copyOf(all, n);
        double[] x = all[n];
        ShrinkageParams p = params(method);
        JointGaussian dense = JointGaussian.fit(train, p);
        LowRankGaussian low = LowRankGaussian.fit(train, p);
        double ridge = dense.fitInfo().ridge();
        assertEquals(ridge, low.fitInfo().ridge(), SHRINKAGE_TOL * ridge, "same ridge rung: " + low.fitInfo());
        double kappa = conditionNumber(dense.covariance());
        if (ridge > 0.0) {
            // A singular sample covariance (none, or an intensity ≈ 0 with n ≤ d) plus a 1e-10 ridge has κ ≈ 1e11:
            // no rounding-level comparison of the moments is meaningful; the ridge itself is what must agree.
            assertTrue(kappa > KAPPA_MAX, "a ridge is only added to a numerically singular Σ, κ = " + kappa);
            return;
        }
        assertTrue(kappa <= KAPPA_MAX, "κ(Σ) = " + kappa);
        double rel = MOMENT_FACTOR * d * EPS * kappa;
        int l = Math.min(d, 4);
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, l, new SplittableRandom(d));
        JointGaussianEstimator de = JointGaussianEstimator.of(dense, b);
        JointGaussianEstimator le = JointGaussianEstimator.of(low, b);
        assertTrue(le.model() instanceof LowRankConditionalModel);
        double[] dd = dense.innovationVariances();
        double[] ld = low.innovationVariances();
        for (int t = 0; t < d; t++) {
            assertEquals(dd[t], ld[t], rel * dd[t], "D_" + t);
        }
        assertEquals(dense.logDeterminant(), low.logDeterminant(), rel * d, "log det Σ");
        double xScale = Math.max(1.0, GaussTestSupport.maxAbs(x)) * Math.sqrt(d);
        double varScale = low.covariance().get(0, 0) + GaussTestSupport.maxAbs(dd);
        SeriesState sd = de.newState();
        SeriesState sl = le.newState();
        double[] md = new double[l];
        double[] ml = new double[l];
        DMatrixRMaj rd = new DMatrixRMaj(l, l);
        DMatrixRMaj rl = new DMatrixRMaj(l, l);
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                de.update(sd, x[t - 1]);
                le.update(sl, x[t - 1]);
                assertEquals(sd.innovation(0, t - 1), sl.innovation(0, t - 1), rel * xScale, "e_" + (t - 1));
            }
            de.conditionalMean(sd, md);
            le.conditionalMean(sl, ml);
            assertArrayEquals(md, ml, rel * xScale, "m_y(" + t + ")");
            de.conditionalCovariance(sd, rd);
            le.conditionalCovariance(sl, rl);
            assertArrayEquals(rd.data, rl.data, rel * varScale * d, "R_y(" + t + ")");
            double lld = de.logLikelihood(sd);
            assertEquals(lld, le.logLikelihood(sl), rel * Math.max(1.0, Math.abs(lld)) * d, "log p(x_1..x_t)");
        }
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.ValueSource(strings = {"ledoit-wolf", "oas", "0.3"})
    void mixtureLikelihoodsPosteriorsAndMomentsEqualTheDenseFormAtEveryT(String method) {
        int d = 36;
        int classes = 3;
        double[][] all = rows(25, d, 4242);
        double[][] train = java.util.Arrays.copyOf(all, 24);
        int[] cls = new int[24];
        for (int i = 0; i < 24; i++) {
            cls[i] = i < 22 ? i % 2 : 2; // class 2 gets two series, class 0/1 eleven each
            for (int t = 0; t < d; t++) {
                train[i][t] += cls[i] * Math.sin(0.1 * t * (cls[i] + 1));
            }
        }
        cls[23] = 1; // class 2 keeps a single series: the pooled fallback in both forms
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 3, new SplittableRandom(9));
        ShrinkageParams p = params(method);
        GaussianMixtureEstimator dense = GaussianMixtureEstimator.fit(train, cls, classes, b, p, CovarianceForm.DENSE);
        GaussianMixtureEstimator low = GaussianMixtureEstimator.fit(train, cls, classes, b, p, CovarianceForm.LOW_RANK);
        double kappa = 0.0;
        for (int g = 0; g < classes; g++) {
            assertEquals(CovarianceForm.LOW_RANK, low.component(g).form());
            assertEquals(CovarianceForm.DENSE, dense.component(g).form());
            assertEquals(
                    dense.component(g).fitInfo().note(),
                    low.component(g).fitInfo().note());
            kappa = Math.max(kappa, conditionNumber(dense.component(g).covariance()));
        }
        assertTrue(
                low.component(2).fitInfo().note().contains("pooled"),
                low.component(2).fitInfo().note());
        assertTrue(kappa <= KAPPA_MAX, "κ = " + kappa);
        double rel = MOMENT_FACTOR * d * EPS * kappa;
        double[] x = all[24];
        double xScale = Math.max(1.0, GaussTestSupport.maxAbs(x)) * Math.sqrt(d);
        SeriesState sd = dense.newState();
        SeriesState sl = low.newState();
        double[] pd = new double[classes];
        double[] pl = new double[classes];
        double[] md = new double[3];
        double[] ml = new double[3];
        double[] rd = new double[SymmetricPacked.size(3)];
        double[] rl = new double[SymmetricPacked.size(3)];
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                dense.update(sd, x[t - 1]);
                low.update(sl, x[t - 1]);
            }
            for (int g = 0; g < classes; g++) {
                double a = sd.componentLogLikelihood(g);
                assertEquals(
                        a, sl.componentLogLikelihood(g), rel * d * Math.max(1.0, Math.abs(a)), "log p(z|" + g + ")");
            }
            dense.posterior(sd, pd);
            low.posterior(sl, pl);
            assertArrayEquals(pd, pl, rel * d * (1 + Math.abs(dense.logLikelihood(sd))), "posterior at t = " + t);
            dense.conditionalMean(sd, md);
            low.conditionalMean(sl, ml);
            assertArrayEquals(md, ml, rel * d * xScale, "mixture m_y at t = " + t);
            dense.conditionalCovariance(sd, rd);
            low.conditionalCovariance(sl, rl);
            assertArrayEquals(rd, rl, rel * d * xScale * xScale, "mixture R_y at t = " + t);
        }
    }

    @Test
    void semiseparableFactorIsTheDenseLdlOfTheSameMatrix() {
        SplittableRandom rng = new SplittableRandom(5);
        int d = 30;
        int r = 7;
        double a = 0.4;
        double[] u = GaussTestSupport.randomVector(d * r, 1.0, rng);
        SemiseparableLdl ldl = SemiseparableLdl.factor(a, u, d, r);
        LowRankGaussian g = LowRankGaussian.fromFactors(
                new double[d], a, new DMatrixRMaj(d, r, true, u), FitInfo.of(Shrinkage.external()));
        JointGaussian dense = JointGaussian.fromCovariance(new double[d], g.covariance(), Shrinkage.external());
        double kappa = conditionNumber(g.covariance());
        double tol = MOMENT_FACTOR * d * EPS * kappa;
        DMatrixRMaj lDense = dense.unitLower();
        DMatrixRMaj lSemi = ldl.unitLower();
        for (int i = 0; i < d * d; i++) {
            assertEquals(lDense.data[i], lSemi.data[i], tol * Math.max(1.0, Math.abs(lDense.data[i])), "L entry " + i);
        }
        double[] dd = dense.innovationVariances();
        for (int t = 0; t < d; t++) {
            assertEquals(dd[t], ldl.diagRef()[t], tol * dd[t], "D_" + t);
            assertTrue(ldl.diagRef()[t] >= a, "D_t ≥ a (eq. 11)");
        }
    }

    @Test
    void fullShrinkageLeavesNoLowRankTerm() {
        double[][] train = java.util.Arrays.copyOf(rows(6, 12, 3), 6);
        LowRankGaussian g = LowRankGaussian.fit(train, ShrinkageParams.fixed(1.0));
        assertEquals(0, g.rank());
        double[] dv = g.innovationVariances();
        for (double v : dv) {
            assertEquals(g.identityScale(), v, 0.0, "Σ = μI: every pivot is μ");
        }
        JointGaussianEstimator est =
                JointGaussianEstimator.of(g, GaussTestSupport.randomOrthonormal(12, 2, new SplittableRandom(1)));
        SeriesState s = est.newState();
        est.update(s, 1.0);
        assertEquals(1.0 - g.mean()[0], s.innovation(0, 0), 0.0, "no prediction without a low-rank part");
    }

    @Test
    void noShrinkageWithFewSeriesAddsTheDenseRidgeAndSaysSo() {
        double[][] train = java.util.Arrays.copyOf(rows(5, 30, 8), 5);
        LowRankGaussian g = LowRankGaussian.fit(train, ShrinkageParams.none());
        JointGaussian dense = JointGaussian.fit(train, ShrinkageParams.none());
        assertTrue(g.fitInfo().ridge() > 0.0, g.fitInfo().toString());
        assertEquals(
                dense.fitInfo().ridge(),
                g.fitInfo().ridge(),
                SHRINKAGE_TOL * dense.fitInfo().ridge());
        assertTrue(g.fitInfo().note().contains("ridge"), g.fitInfo().note());
        for (double v : g.innovationVariances()) {
            assertTrue(v >= g.identityScale());
        }
    }

    @Test
    void restoredCopiedOrSharedStateContinuesBitForBit() throws IOException {
        double[][] all = rows(12, 40, 99);
        double[][] train = java.util.Arrays.copyOf(all, 12);
        int[] cls = new int[12];
        for (int i = 0; i < 12; i++) {
            cls[i] = i % 2;
        }
        LowRankGaussian g = LowRankGaussian.fit(train, ShrinkageParams.defaults());
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(40, 3, new SplittableRandom(2));
        CompleteSeriesEstimator[][] pairs = {
            {JointGaussianEstimator.of(g, b), JointGaussianEstimator.of(g, b)},
            {
                GaussianMixtureEstimator.fit(train, cls, 2, b, ShrinkageParams.defaults(), CovarianceForm.LOW_RANK),
                GaussianMixtureEstimator.fit(train, cls, 2, b, ShrinkageParams.defaults(), CovarianceForm.LOW_RANK)
            }
        };
        for (CompleteSeriesEstimator[] pair : pairs) {
            SeriesState straight = pair[0].newState();
            SeriesState interrupted = pair[0].newState();
            double[] x = all[12];
            for (int t = 0; t < 40; t++) {
                pair[0].update(straight, x[t]);
                // Alternating estimators on one state: each must notice the other's work vector and rebuild its own.
                pair[t % 3 == 1 ? 1 : 0].update(interrupted, x[t]);
                if (t % 7 == 3) {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    interrupted.writeTo(new DataOutputStream(bytes));
                    interrupted = SeriesState.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
                } else if (t % 7 == 5) {
                    SeriesState copy = pair[0].newState();
                    copy.copyFrom(interrupted);
                    interrupted = copy;
                }
                assertTrue(straight.contentEquals(interrupted), "t = " + t);
            }
        }
    }

    @Test
    void storedFactorsAreValidated() {
        FitInfo info = FitInfo.of(Shrinkage.external());
        assertThrows(
                IllegalArgumentException.class,
                () -> LowRankGaussian.fromFactors(new double[3], -1.0, new DMatrixRMaj(3, 1), info));
        IllegalArgumentException rows = assertThrows(
                IllegalArgumentException.class,
                () -> LowRankGaussian.fromFactors(new double[3], 1.0, new DMatrixRMaj(4, 1), info));
        assertTrue(rows.getMessage().contains("4") && rows.getMessage().contains("3"), rows.getMessage());
        DMatrixRMaj nan = new DMatrixRMaj(3, 1);
        nan.set(1, 0, Double.NaN);
        assertThrows(IllegalArgumentException.class, () -> LowRankGaussian.fromFactors(new double[3], 1.0, nan, info));
        LowRankGaussian singular = LowRankGaussian.fromFactors(new double[3], 0.0, new DMatrixRMaj(3, 1), info);
        assertThrows(IllegalArgumentException.class, singular::innovationVariances, "a = 0 with rank-deficient U");
    }

    @Test
    void autoChoosesLowRankWhenTheRankIsAtMostHalfTheLength() {
        assertEquals(CovarianceForm.LOW_RANK, CovarianceForm.AUTO.resolve(30, 470));
        assertEquals(CovarianceForm.LOW_RANK, CovarianceForm.AUTO.resolve(300, 20_000));
        assertEquals(CovarianceForm.DENSE, CovarianceForm.AUTO.resolve(1000, 1024));
        assertEquals(CovarianceForm.LOW_RANK, CovarianceForm.AUTO.resolve(10_000, 5_000), "d above the dense limit");
        assertEquals(CovarianceForm.DENSE, CovarianceForm.DENSE.resolve(3, 1000));
        assertEquals(CovarianceForm.LOW_RANK, CovarianceForm.fromId("Low-Rank"));
        assertThrows(IllegalArgumentException.class, () -> CovarianceForm.fromId("sparse"));
    }
}
