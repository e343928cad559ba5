package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Test;

/**
 * Conditioning on any observed subset, one value at a time in any order, equals the closed-form conditional
 * Gaussian of eq. 5.19 on that subset (dense solve), for both covariance forms; a prefix gives the tabulated
 * {@link ConditionalModel}'s R_y(t).
 *
 * <p>Tolerance: Σ here has eigenvalues in [0.5, ~60] (condition number ≲ 120) and D = 12; each path is ≤ 12 rank-one
 * downdates or one LU solve, whose rounding error is bounded by a small multiple of D·κ·ε·‖Σ‖ ≈ 1e-12 relative to
 * the largest entry (≈ 60). An absolute 1e-9 leaves three orders of margin and is still ≥ 6 orders below any error in
 * the algebra (a wrong term changes entries by ≥ 1e-3 at these scales).
 *
 * <p>The reduced-rank factor is checked against the closed form of the reduced Gaussian built independently here,
 * from the eigendecomposition of the dense Σ (σ² the mean of its D − q smallest eigenvalues, the q largest kept): the
 * two routes to Σ_q differ by rounding in two eigensolvers of a 12×12 matrix with well separated leading
 * eigenvalues (≲ 1e-13 relative), so the same 1e-9 applies.
 */
class SubsetConditionerTest {
    private static final int CHANNELS = 3;
    private static final int SAMPLES = 4;
    private static final int D = CHANNELS * SAMPLES;
    private static final int L = 3;
    private static final double TOL = 1e-9;

    private final Random rnd = new Random(26);

    @Test
    void randomSubsetsInRandomOrderMatchTheClosedFormForBothForms() {
        BothForms f = bothForms(5);
        double[] mu = f.mu();
        DMatrixRMaj sigma = f.sigma();
        DMatrixRMaj b = f.basis();
        double[] x = f.x();
        for (SeriesGaussian g : f.forms()) {
            SubsetConditioner c = SubsetConditioner.of(g, b);
            SubsetState s = c.newState();
            for (int trial = 0; trial < 20; trial++) {
                c.reset(s);
                List<Integer> order = new ArrayList<>();
                for (int j = 0; j < D; j++) {
                    order.add(j);
                }
                Collections.shuffle(order, rnd);
                int k = 1 + rnd.nextInt(D);
                for (int step = 0; step < k; step++) {
                    c.observe(s, order.get(step), x[order.get(step)]);
                }
                int[] observed =
                        order.subList(0, k).stream().mapToInt(Integer::intValue).toArray();
                assertMatchesClosedForm(c, s, mu, sigma, b, x, observed, g.form() + ", trial " + trial);
                assertEquals((double) k / D, s.observedFraction());
            }
        }
    }

    @Test
    void anyArrivalOrderOfTheSameSetGivesTheSameMoments() {
        double[] mu = gaussians(D, 1.0);
        DMatrixRMaj u = new DMatrixRMaj(D, 4, true, gaussians(D * 4, 1.0));
        LowRankGaussian low = LowRankGaussian.fromFactors(mu, 0.3, u, FitInfo.of(Shrinkage.external()));
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        SubsetConditioner c = SubsetConditioner.of(low, b);
        double[] x = gaussians(D, 1.0);
        // Channel 1 two samples late, channel 2's sample 0 missing: the same set in time order and reversed.
        int[] set = {0, 3, 6, 1, 9, 4, 7, 10, 5, 8};
        SubsetState forward = c.newState();
        SubsetState backward = c.newState();
        for (int i = 0; i < set.length; i++) {
            c.observe(forward, set[i], x[set[i]]);
            c.observe(backward, set[set.length - 1 - i], x[set[set.length - 1 - i]]);
        }
        DMatrixRMaj f = new DMatrixRMaj(L, L);
        DMatrixRMaj r = new DMatrixRMaj(L, L);
        c.conditionalCovariance(forward, f);
        c.conditionalCovariance(backward, r);
        for (int k = 0; k < L; k++) {
            assertEquals(forward.blocks[0].mean[k], backward.blocks[0].mean[k], TOL);
            for (int m = 0; m < L; m++) {
                assertEquals(f.get(k, m), r.get(k, m), TOL);
            }
        }
        assertEquals(forward.logLikelihood(), backward.logLikelihood(), TOL);
        assertThrows(IllegalArgumentException.class, () -> c.observe(forward, 3, 1.0), "a duplicate is refused");
        assertThrows(IllegalArgumentException.class, () -> c.observe(forward, D, 1.0));
        assertThrows(IllegalArgumentException.class, () -> c.observe(forward, 2, Double.NaN));
    }

    @Test
    void aPrefixGivesTheTabulatedConditionalCovariance() {
        LowRankGaussian low = rankSix();
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        ConditionalModel tabulated = ConditionalModel.build(low, b);
        SubsetConditioner c = SubsetConditioner.of(low, b);
        SubsetState s = c.newState();
        DMatrixRMaj expected = new DMatrixRMaj(L, L);
        DMatrixRMaj actual = new DMatrixRMaj(L, L);
        double[] x = gaussians(D, 1.0);
        for (int t = 0; t <= D; t++) {
            tabulated.conditionalCovariance(t, expected);
            c.conditionalCovariance(s, actual);
            for (int i = 0; i < L * L; i++) {
                assertEquals(expected.data[i], actual.data[i], TOL, "t = " + t);
            }
            if (t < D) {
                c.observe(s, t, x[t]);
            }
        }
    }

    @Test
    void aReducedFactorConditionsExactlyOnTheReducedGaussianForBothForms() {
        BothForms f = bothForms(6);
        double[] mu = f.mu();
        DMatrixRMaj sigma = f.sigma();
        DMatrixRMaj b = f.basis();
        double[] x = f.x();
        for (int q : new int[] {1, 3}) {
            DMatrixRMaj reducedSigma = ppca(sigma, q);
            for (SeriesGaussian g : f.forms()) {
                SubsetConditioner c = SubsetConditioner.of(g, b, q);
                assertEquals(q, c.rank());
                DMatrixRMaj own = c.covariance();
                for (int i = 0; i < D * D; i++) {
                    assertEquals(reducedSigma.data[i], own.data[i], TOL, g.form() + ", q " + q + ": Σ_q entry " + i);
                }
                assertEquals(CommonOps_DDRM.trace(sigma), CommonOps_DDRM.trace(own), TOL, "the trace is kept");
                SubsetState s = c.newState();
                for (int trial = 0; trial < 10; trial++) {
                    c.reset(s);
                    int[] order = shuffled(D);
                    int k = 1 + rnd.nextInt(D);
                    for (int step = 0; step < k; step++) {
                        c.observe(s, order[step], x[order[step]]);
                    }
                    assertMatchesClosedForm(
                            c,
                            s,
                            mu,
                            reducedSigma,
                            b,
                            x,
                            Arrays.copyOf(order, k),
                            g.form() + ", q " + q + ", " + trial);
                }
            }
        }
    }

    @Test
    void atFullRankTheFactorIsNotReduced() {
        double[] mu = gaussians(D, 1.0);
        DMatrixRMaj u = new DMatrixRMaj(D, 5, true, gaussians(D * 5, 1.0));
        LowRankGaussian low = LowRankGaussian.fromFactors(mu, 0.3, u, FitInfo.of(Shrinkage.external()));
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        double[] x = gaussians(D, 1.0);
        SubsetConditioner full = SubsetConditioner.of(low, b, 5);
        SubsetConditioner exact = SubsetConditioner.of(low, b);
        assertEquals(5, full.rank());
        assertEquals(0.3, full.noise());
        SubsetState a = full.newState();
        SubsetState e = exact.newState();
        for (int j : shuffled(D)) {
            full.observe(a, j, x[j]);
            exact.observe(e, j, x[j]);
            assertArrayEquals(e.blocks[0].mean, a.blocks[0].mean, "bit for bit after coordinate " + j);
            assertArrayEquals(e.blocks[0].cov, a.blocks[0].cov);
        }
        assertEquals(e.logLikelihood(), a.logLikelihood());
    }

    @Test
    void aDeferredPrefixIsConditionedOnWhenTheFirstValueOutOfOrderArrives() {
        LowRankGaussian low = rankSix();
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        SubsetConditioner c = SubsetConditioner.of(low, b, 2);
        double[] x = gaussians(D, 1.0);
        SubsetState deferred = c.newState();
        deferred.attachPrefix(new SeriesState(D, L, 1));
        SubsetState direct = c.newState();
        for (int j = 0; j < 4; j++) {
            c.defer(deferred, j, x[j]);
            c.observe(direct, j, x[j]);
        }
        assertTrue(deferred.onPrefix());
        assertEquals(4, deferred.observedCount());
        assertEquals(3, deferred.lastIndex());
        assertThrows(IllegalStateException.class, () -> c.conditionalMean(deferred, new double[L]));
        assertThrows(IllegalArgumentException.class, () -> c.defer(deferred, 6, 1.0), "not the next coordinate");
        c.observe(deferred, 9, x[9]);
        c.observe(direct, 9, x[9]);
        assertFalse(deferred.onPrefix());
        assertThrows(IllegalStateException.class, () -> c.defer(deferred, 5, 1.0), "the prefix is left");
        assertArrayEquals(direct.blocks[0].mean, deferred.blocks[0].mean, "the same innovations in the same order");
        assertArrayEquals(direct.blocks[0].cov, deferred.blocks[0].cov);
        assertEquals(direct.logLikelihood(), deferred.logLikelihood());
        assertEquals(direct.firstInnovation(), deferred.firstInnovation());
        c.reset(deferred);
        assertTrue(deferred.onPrefix(), "a reset state is on its prefix again");
        assertEquals(0, deferred.prefix().time());
    }

    @Test
    void thePackedCovarianceAndTheVariancesAreTheDenseOnesEntries() {
        LowRankGaussian low = rankSix();
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        SubsetConditioner c = SubsetConditioner.of(low, b, 2);
        SubsetState s = c.newState();
        double[] x = gaussians(D, 1.0);
        for (int j : new int[] {7, 2, 11, 0}) {
            c.observe(s, j, x[j]);
        }
        DMatrixRMaj dense = new DMatrixRMaj(L, L);
        c.conditionalCovariance(s, dense);
        double[] packed = new double[SymmetricPacked.size(L)];
        c.conditionalCovariance(s, packed);
        double[] variances = new double[L];
        c.conditionalVariances(s, variances);
        double[] expected = new double[SymmetricPacked.size(L)];
        SymmetricPacked.pack(dense, expected);
        assertArrayEquals(expected, packed, 0.0, "the same values, not merely close");
        for (int k = 0; k < L; k++) {
            assertEquals(dense.get(k, k), variances[k], 0.0);
        }
        assertThrows(IllegalArgumentException.class, () -> c.conditionalCovariance(s, new double[L]));
        assertThrows(IllegalArgumentException.class, () -> c.conditionalVariances(s, new double[L + 1]));
    }

    @Test
    void aMixtureConditionsEveryComponentAndWeighsThemByTheirLikelihoodOfTheObservedSet() {
        // Appendix C on the observed set: p(g | x_O) ∝ w_g N(x_O; μ_g,O, Σ_g,OO), m = Σ p_g m_g,
        // R = Σ p_g (R_g + (m_g − m)(m_g − m)ᵀ), log p(x_O) = log Σ w_g N(x_O; ·) — each component's closed form by a
        // dense solve. One dense and two low-rank components of different ranks, weights unequal.
        BothForms first = bothForms(5);
        LowRankGaussian second = rankSix();
        LowRankGaussian third = LowRankGaussian.fromFactors(
                gaussians(D, 1.5),
                0.7,
                new DMatrixRMaj(D, 3, true, gaussians(D * 3, 0.8)),
                FitInfo.of(Shrinkage.external()));
        List<SeriesGaussian> parts = List.of(first.forms().get(1), second, third);
        List<DMatrixRMaj> sigmas = List.of(first.sigma(), second.covariance(), third.covariance());
        double[] weights = {0.5, 0.3, 0.2};
        DMatrixRMaj b = first.basis();
        SubsetConditioner c = SubsetConditioner.mixture(weights, parts, b, D);
        assertEquals(3, c.components());
        assertEquals(D, c.rank(), "the dense component keeps all D directions");
        double[] x = first.x();
        SubsetState s = c.newState();
        for (int trial = 0; trial < 20; trial++) {
            c.reset(s);
            int[] order = shuffled(D);
            int k = 1 + rnd.nextInt(D);
            for (int step = 0; step < k; step++) {
                c.observe(s, order[step], x[order[step]]);
            }
            int[] observed = Arrays.copyOf(order, k);
            Moments[] each = new Moments[3];
            for (int g = 0; g < 3; g++) {
                each[g] = closedForm(parts.get(g).mean(), sigmas.get(g), b, x, observed);
            }
            double[] post = new double[3];
            double max = Double.NEGATIVE_INFINITY;
            for (int g = 0; g < 3; g++) {
                post[g] = Math.log(weights[g]) + each[g].logLikelihood();
                max = Math.max(max, post[g]);
            }
            double sum = 0;
            for (int g = 0; g < 3; g++) {
                post[g] = Math.exp(post[g] - max);
                sum += post[g];
            }
            double[] m = new double[L];
            for (int g = 0; g < 3; g++) {
                post[g] /= sum;
                for (int i = 0; i < L; i++) {
                    m[i] += post[g] * each[g].my()[i];
                }
            }
            DMatrixRMaj r = new DMatrixRMaj(L, L);
            for (int g = 0; g < 3; g++) {
                for (int i = 0; i < L; i++) {
                    for (int j = 0; j < L; j++) {
                        double di = each[g].my()[i] - m[i];
                        double dj = each[g].my()[j] - m[j];
                        r.add(i, j, post[g] * (each[g].ry().get(i, j) + di * dj));
                    }
                }
            }
            String what = "trial " + trial + ", " + k + " observed";
            assertMoments(new Moments(m, r, max + Math.log(sum)), c, s, what);
            double[] posterior = new double[3];
            c.posterior(s, posterior);
            assertArrayEquals(post, posterior, TOL, what + ": p(g | x_O)");
        }
        c.reset(s);
        double[] prior = new double[3];
        c.posterior(s, prior);
        assertArrayEquals(
                weights, prior, 1e-15, "nothing observed: the weights (exp(log w_g), normalised: a few ulps)");
    }

    @Test
    void aMixtureOnAPrefixGivesTheTabulatedMixtureEstimatorsMoments() {
        // The gmm estimator's prefix path (GaussianMixtureEstimator, tabulated per class) and the any-order mixture at
        // full rank condition on the same Gaussians: on a time-major prefix their moments and likelihoods agree.
        List<SeriesGaussian> parts = List.of(rankSix(), bothForms(4).forms().get(1));
        double[] weights = {0.4, 0.6};
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        GaussianMixtureEstimator tabulated = GaussianMixtureEstimator.of(weights, parts, b);
        SubsetConditioner c = SubsetConditioner.mixture(weights, parts, b, D);
        SeriesState prefix = tabulated.newState();
        SubsetState s = c.newState();
        double[] x = gaussians(D, 1.0);
        DMatrixRMaj expected = new DMatrixRMaj(L, L);
        DMatrixRMaj actual = new DMatrixRMaj(L, L);
        double[] em = new double[L];
        double[] am = new double[L];
        for (int t = 0; t <= D; t++) {
            tabulated.conditionalMean(prefix, em);
            c.conditionalMean(s, am);
            tabulated.conditionalCovariance(prefix, expected);
            c.conditionalCovariance(s, actual);
            assertArrayEquals(em, am, TOL, "m_y at t = " + t);
            assertArrayEquals(expected.data, actual.data, TOL, "R_y at t = " + t);
            assertEquals(tabulated.logLikelihood(prefix), s.logLikelihood(), TOL, "log p at t = " + t);
            if (t < D) {
                tabulated.update(prefix, x[t]);
                c.observe(s, t, x[t]);
            }
        }
    }

    @Test
    void aMixtureOfOneIsTheSingleGaussianBitForBit() {
        LowRankGaussian low = rankSix();
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        SubsetConditioner single = SubsetConditioner.of(low, b);
        SubsetConditioner one =
                SubsetConditioner.mixture(new double[] {1.0}, List.of(low), b, SubsetConditioner.DEFAULT_RANK);
        SubsetState a = single.newState();
        SubsetState e = one.newState();
        double[] x = gaussians(D, 1.0);
        double[] ma = new double[L];
        double[] me = new double[L];
        for (int j : shuffled(D)) {
            single.observe(a, j, x[j]);
            one.observe(e, j, x[j]);
            single.conditionalMean(a, ma);
            one.conditionalMean(e, me);
            assertArrayEquals(ma, me, 0.0);
        }
        assertEquals(a.logLikelihood(), e.logLikelihood(), 0.0);
        assertEquals(single.stateDoubles(), one.stateDoubles());
    }

    @Test
    void mixtureArgumentsAreCheckedWithClearMessages() {
        LowRankGaussian low = rankSix();
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        IllegalArgumentException sum = assertThrows(
                IllegalArgumentException.class,
                () -> SubsetConditioner.mixture(new double[] {0.5, 0.4}, List.of(low, low), b, 4));
        assertTrue(sum.getMessage().contains("weights sum to 0.9"), sum.getMessage());
        IllegalArgumentException count = assertThrows(
                IllegalArgumentException.class,
                () -> SubsetConditioner.mixture(new double[] {1.0}, List.of(low, low), b, 4));
        assertTrue(count.getMessage().contains("1 weights but 2 components"), count.getMessage());
        IllegalArgumentException empty = assertThrows(
                IllegalArgumentException.class, () -> SubsetConditioner.mixture(new double[0], List.of(), b, 4));
        assertTrue(empty.getMessage().contains("at least one component"), empty.getMessage());
        SubsetState single = SubsetConditioner.of(low, b).newState();
        SubsetConditioner two = SubsetConditioner.mixture(new double[] {0.5, 0.5}, List.of(low, low), b, 6);
        IllegalArgumentException shape =
                assertThrows(IllegalArgumentException.class, () -> two.observe(single, 0, 1.0));
        assertTrue(shape.getMessage().contains("G = 2"), shape.getMessage());
    }

    @Test
    void shapesAndRanksAreCheckedWithClearMessages() {
        double[] mu = gaussians(D, 1.0);
        DMatrixRMaj u = new DMatrixRMaj(D, 6, true, gaussians(D * 6, 1.0));
        LowRankGaussian low = LowRankGaussian.fromFactors(mu, 0.4, u, FitInfo.of(Shrinkage.external()));
        DMatrixRMaj b = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        IllegalArgumentException rank =
                assertThrows(IllegalArgumentException.class, () -> SubsetConditioner.of(low, b, 0));
        assertTrue(rank.getMessage().contains("rank of the any-order factor must be ≥ 1, got 0"), rank.getMessage());
        DMatrixRMaj shortBasis = new DMatrixRMaj(D - 1, L, true, gaussians((D - 1) * L, 1.0));
        IllegalArgumentException rows =
                assertThrows(IllegalArgumentException.class, () -> SubsetConditioner.of(low, shortBasis, 2));
        assertTrue(rows.getMessage().contains("B has 11 rows but the series has 12"), rows.getMessage());
        SubsetState other = SubsetConditioner.of(low, b, 3).newState();
        IllegalArgumentException shape =
                assertThrows(IllegalArgumentException.class, () -> SubsetConditioner.of(low, b, 2)
                        .reset(other));
        assertTrue(shape.getMessage().contains("r = 2"), shape.getMessage());
        IllegalArgumentException q =
                assertThrows(IllegalArgumentException.class, () -> ProbabilisticPca.reduce(u.data, D, 6, 0.4, 6));
        assertTrue(q.getMessage().contains("reduced rank q must be in 1..5"), q.getMessage());
    }

    /** One Gaussian, Σ = 0.5·I + UUᵀ with U of the given rank, in the low-rank and the dense form, with B and x. */
    private BothForms bothForms(int rank) {
        double[] mu = gaussians(D, 1.0);
        DMatrixRMaj u = new DMatrixRMaj(D, rank, true, gaussians(D * rank, 1.0));
        double a = 0.5;
        DMatrixRMaj sigma = new DMatrixRMaj(D, D);
        CommonOps_DDRM.multTransB(u, u, sigma);
        for (int i = 0; i < D; i++) {
            sigma.add(i, i, a);
        }
        List<SeriesGaussian> forms = List.of(
                LowRankGaussian.fromFactors(mu, a, u, FitInfo.of(Shrinkage.external())),
                JointGaussian.fromCovariance(mu, sigma, Shrinkage.external()));
        DMatrixRMaj basis = new DMatrixRMaj(D, L, true, gaussians(D * L, 1.0));
        return new BothForms(mu, sigma, forms, basis, gaussians(D, 2.0));
    }

    /** The Gaussian in both forms, an LDG basis B and a complete series x to observe from. */
    private record BothForms(
            double[] mu, DMatrixRMaj sigma, List<SeriesGaussian> forms, DMatrixRMaj basis, double[] x) {}

    /** σ²I + U_q(Λ_q − σ²I)U_qᵀ from the eigendecomposition of the dense Σ (Tipping &amp; Bishop eqs. 7–8). */
    private static DMatrixRMaj ppca(DMatrixRMaj sigma, int q) {
        int d = sigma.numRows;
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(d, true, true);
        assertTrue(eig.decompose(sigma.copy()));
        Integer[] idx = new Integer[d];
        for (int i = 0; i < d; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (i, j) -> Double.compare(eig.getEigenvalue(j).real, eig.getEigenvalue(i).real));
        double noise = 0;
        for (int i = q; i < d; i++) {
            noise += eig.getEigenvalue(idx[i]).real;
        }
        noise /= d - q;
        DMatrixRMaj out = CommonOps_DDRM.identity(d);
        CommonOps_DDRM.scale(noise, out);
        for (int k = 0; k < q; k++) {
            DMatrixRMaj v = eig.getEigenVector(idx[k]);
            double norm = CommonOps_DDRM.dot(v, v);
            double w = (eig.getEigenvalue(idx[k]).real - noise) / norm;
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    out.add(i, j, w * v.data[i] * v.data[j]);
                }
            }
        }
        return out;
    }

    private int[] shuffled(int n) {
        List<Integer> order = new ArrayList<>();
        for (int j = 0; j < n; j++) {
            order.add(j);
        }
        Collections.shuffle(order, rnd);
        return order.stream().mapToInt(Integer::intValue).toArray();
    }

    /** m_y, R_y and log p(x_O) against μ + Σ_{·O}Σ_OO⁻¹(x_O − μ_O), Σ − Σ_{·O}Σ_OO⁻¹Σ_{O·} and log N(x_O; μ_O, Σ_OO). */
    private static void assertMatchesClosedForm(
            SubsetConditioner c,
            SubsetState s,
            double[] mu,
            DMatrixRMaj sigma,
            DMatrixRMaj b,
            double[] x,
            int[] observed,
            String what) {
        assertMoments(closedForm(mu, sigma, b, x, observed), c, s, what);
    }

    /** The conditioner's m_y, R_y and log p(x_O) against the expected ones. */
    private static void assertMoments(Moments expected, SubsetConditioner c, SubsetState s, String what) {
        double[] mean = new double[L];
        c.conditionalMean(s, mean);
        DMatrixRMaj cov = new DMatrixRMaj(L, L);
        c.conditionalCovariance(s, cov);
        for (int i = 0; i < L; i++) {
            assertEquals(expected.my()[i], mean[i], TOL, what + ": m_y[" + i + "]");
            for (int j = 0; j < L; j++) {
                assertEquals(expected.ry().get(i, j), cov.get(i, j), TOL, what + ": R_y[" + i + "," + j + "]");
            }
        }
        assertEquals(expected.logLikelihood(), s.logLikelihood(), TOL, what + ": log p(x_O)");
    }

    /** E[BᵀX | x_O], Cov(BᵀX | x_O) and log p(x_O) of one Gaussian or a mixture. */
    private record Moments(double[] my, DMatrixRMaj ry, double logLikelihood) {}

    /** The closed form of eq. 5.19 on the observed set by dense solves. */
    private static Moments closedForm(double[] mu, DMatrixRMaj sigma, DMatrixRMaj b, double[] x, int[] observed) {
        int k = observed.length;
        DMatrixRMaj soo = new DMatrixRMaj(k, k);
        DMatrixRMaj sxo = new DMatrixRMaj(D, k);
        DMatrixRMaj z = new DMatrixRMaj(k, 1);
        for (int i = 0; i < k; i++) {
            z.data[i] = x[observed[i]] - mu[observed[i]];
            for (int j = 0; j < k; j++) {
                soo.set(i, j, sigma.get(observed[i], observed[j]));
            }
            for (int r = 0; r < D; r++) {
                sxo.set(r, i, sigma.get(r, observed[i]));
            }
        }
        DMatrixRMaj alpha = new DMatrixRMaj(k, 1);
        assertTrue(CommonOps_DDRM.solve(soo, z, alpha));
        DMatrixRMaj m = new DMatrixRMaj(D, 1);
        CommonOps_DDRM.mult(sxo, alpha, m);
        for (int r = 0; r < D; r++) {
            m.data[r] += mu[r];
        }
        DMatrixRMaj solved = new DMatrixRMaj(k, D);
        DMatrixRMaj sox = new DMatrixRMaj(k, D);
        CommonOps_DDRM.transpose(sxo, sox);
        assertTrue(CommonOps_DDRM.solve(soo, sox, solved));
        DMatrixRMaj reduction = new DMatrixRMaj(D, D);
        CommonOps_DDRM.mult(sxo, solved, reduction);
        DMatrixRMaj r = sigma.copy();
        CommonOps_DDRM.subtractEquals(r, reduction);
        DMatrixRMaj my = new DMatrixRMaj(L, 1);
        CommonOps_DDRM.multTransA(b, m, my);
        DMatrixRMaj rb = new DMatrixRMaj(D, L);
        CommonOps_DDRM.mult(r, b, rb);
        DMatrixRMaj ry = new DMatrixRMaj(L, L);
        CommonOps_DDRM.multTransA(b, rb, ry);
        double quad = 0;
        for (int i = 0; i < k; i++) {
            quad += z.data[i] * alpha.data[i];
        }
        double logLik = -0.5 * (k * Math.log(2 * Math.PI) + Math.log(CommonOps_DDRM.det(soo)) + quad);
        return new Moments(my.data, ry, logLik);
    }

    private double[] gaussians(int n, double scale) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = scale * rnd.nextGaussian();
        }
        return v;
    }

    /** A D-dimensional Gaussian with mean and six factor columns drawn N(0, 1), noise variance 0.4. */
    private LowRankGaussian rankSix() {
        double[] mu = gaussians(D, 1.0);
        DMatrixRMaj u = new DMatrixRMaj(D, 6, true, gaussians(D * 6, 1.0));
        return LowRankGaussian.fromFactors(mu, 0.4, u, FitInfo.of(Shrinkage.external()));
    }
}
