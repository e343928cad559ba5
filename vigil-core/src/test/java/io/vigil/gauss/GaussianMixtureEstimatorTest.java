package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.junit.jupiter.api.Test;

class GaussianMixtureEstimatorTest {
    /**
     * Posterior agreement. The running log-likelihoods differ from the dense ones by ~t·κ·ε·|log p|
     * (|log p| ≤ ~100 here, κ ≤ 10) ≈ 1e-12 absolute, which moves a posterior by about as much; 1e-9
     * leaves margin, and any modelling slip (wrong prior, a missing log D_t) moves it by ≥ 1e-3.
     */
    static final double POSTERIOR_TOL = 1e-9;

    /** Mixture moments vs the dense Appendix C double sum; see ConditionalModelTest.REL_TOL. */
    static final double REL_TOL = ConditionalModelTest.REL_TOL;

    /** Monte-Carlo checks accept |estimate − formula| ≤ this many standard errors (fixed seed). */
    static final double MC_SIGMAS = 5.0;

    private record Mixture(double[] weights, double[][] means, DMatrixRMaj[] sigmas, DMatrixRMaj basis) {
        GaussianMixtureEstimator estimator() {
            List<JointGaussian> gs = new ArrayList<>();
            for (int g = 0; g < weights.length; g++) {
                gs.add(JointGaussian.fromCovariance(means[g], sigmas[g], Shrinkage.external()));
            }
            return GaussianMixtureEstimator.of(weights, gs, basis);
        }
    }

    private static Mixture mixture(int d, int l, double meanScale, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[] w = {0.5, 0.3, 0.2};
        double[][] means = new double[3][];
        DMatrixRMaj[] sigmas = new DMatrixRMaj[3];
        for (int g = 0; g < 3; g++) {
            means[g] = GaussTestSupport.randomVector(d, meanScale, rng);
            sigmas[g] = GaussTestSupport.randomSpd(d, 0.5, 5.0, rng);
        }
        return new Mixture(w, means, sigmas, GaussTestSupport.randomOrthonormal(d, l, rng));
    }

    /** Dense Bayes: p(g|z) ∝ w_g N(z; z̄_g, Σ_zz(g)) with log-sum-exp. */
    private static double[] densePosterior(Mixture m, double[] z, double[] logEvidence) {
        int classes = m.weights.length;
        double[] a = new double[classes];
        double max = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < classes; g++) {
            a[g] = Math.log(m.weights[g]) + DirectReference.logDensity(m.means[g], m.sigmas[g], z);
            max = Math.max(max, a[g]);
        }
        double sum = 0.0;
        for (int g = 0; g < classes; g++) {
            a[g] = Math.exp(a[g] - max);
            sum += a[g];
        }
        for (int g = 0; g < classes; g++) {
            a[g] /= sum;
        }
        logEvidence[0] = max + Math.log(sum);
        return a;
    }

    @Test
    void posteriorAndMixtureMomentsEqualDenseBayesForEveryPrefix() {
        int d = 14;
        int l = 3;
        Mixture m = mixture(d, l, 1.0, 21);
        GaussianMixtureEstimator est = m.estimator();
        double[] x = GaussTestSupport.sample(m.means[1], m.sigmas[1], 1, new SplittableRandom(4))[0];
        SeriesState s = est.newState();
        double[] post = new double[3];
        double[] my = new double[l];
        DMatrixRMaj ry = new DMatrixRMaj(l, l);
        double[] packed = new double[SymmetricPacked.size(l)];
        double[] logEvidence = new double[1];
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                est.update(s, x[t - 1]);
            }
            double[] z = Arrays.copyOf(x, t);
            double[] ref = densePosterior(m, z, logEvidence);
            est.posterior(s, post);
            assertArrayEquals(ref, post, POSTERIOR_TOL, "posterior at t = " + t);
            assertEquals(logEvidence[0], est.logLikelihood(s), 1e-10 * (1 + Math.abs(logEvidence[0])), "t = " + t);

            // Appendix C as printed: m = Σ p m_g, R = Σ p (R_g + m_g m_gᵀ) − Σ_q Σ_h m_q m_hᵀ p_q p_h.
            DirectReference[] byClass = new DirectReference[3];
            double[] mRef = new double[l];
            for (int g = 0; g < 3; g++) {
                byClass[g] = DirectReference.conditional(m.means[g], m.sigmas[g], z, m.basis);
                for (int k = 0; k < l; k++) {
                    mRef[k] += ref[g] * byClass[g].meanY[k];
                }
            }
            double[] rRef = new double[l * l];
            double scale = 5.0;
            for (int i = 0; i < l; i++) {
                for (int j = 0; j < l; j++) {
                    double v = 0.0;
                    for (int g = 0; g < 3; g++) {
                        v += ref[g] * (byClass[g].covY.get(i, j) + byClass[g].meanY[i] * byClass[g].meanY[j]);
                        scale = Math.max(scale, byClass[g].meanY[i] * byClass[g].meanY[i]);
                    }
                    for (int q = 0; q < 3; q++) {
                        for (int h = 0; h < 3; h++) {
                            v -= byClass[q].meanY[i] * byClass[h].meanY[j] * ref[q] * ref[h];
                        }
                    }
                    rRef[i * l + j] = v;
                }
            }
            est.conditionalMean(s, my);
            est.conditionalCovariance(s, ry);
            est.conditionalCovariance(s, packed);
            assertArrayEquals(mRef, my, REL_TOL * scale, "m at t = " + t);
            assertArrayEquals(rRef, ry.data, REL_TOL * scale, "R at t = " + t);
            for (int i = 0; i < l; i++) {
                for (int j = 0; j < l; j++) {
                    assertEquals(ry.get(i, j), packed[SymmetricPacked.index(i, j)], 1e-15 * scale);
                }
            }
        }
        assertArrayEquals(GaussTestSupport.project(m.basis, x), my, REL_TOL * 10, "m(d) = Bᵀx");
        assertTrue(GaussTestSupport.maxAbs(ry) <= REL_TOL * 10, "R(d) = 0");
    }

    @Test
    void mixtureMomentsMatchMonteCarloOfTheConditionalMixture() {
        int l = 3;
        Mixture m = mixture(10, l, 0.6, 33);
        GaussianMixtureEstimator est = m.estimator();
        double[] x = GaussTestSupport.sample(m.means[0], m.sigmas[0], 1, new SplittableRandom(8))[0];
        SeriesState s = est.newState();
        est.update(s, x[0]);
        est.update(s, x[1]);
        double[] z = Arrays.copyOf(x, 2);
        double[] post = densePosterior(m, z, new double[1]);
        double minPost = Arrays.stream(post).min().orElseThrow();
        assertTrue(minPost > 0.05, "the test needs a genuinely mixed posterior, got " + Arrays.toString(post));

        // Sample g ~ p(g|z), then y ~ N(m_g, R_g) from the independent dense conditionals.
        DirectReference[] byClass = new DirectReference[3];
        DMatrixRMaj[] chol = new DMatrixRMaj[3];
        for (int g = 0; g < 3; g++) {
            byClass[g] = DirectReference.conditional(m.means[g], m.sigmas[g], z, m.basis);
            CholeskyDecomposition_F64<DMatrixRMaj> c = DecompositionFactory_DDRM.chol(l, true);
            assertTrue(c.decompose(byClass[g].covY.copy()));
            chol[g] = c.getT(null);
        }
        int n = 200_000;
        SplittableRandom rng = new SplittableRandom(99);
        double[][] ys = new double[n][l];
        double[] e = new double[l];
        for (double[] y : ys) {
            double u = rng.nextDouble();
            int g = u < post[0] ? 0 : u < post[0] + post[1] ? 1 : 2;
            for (int k = 0; k < l; k++) {
                e[k] = rng.nextGaussian();
            }
            for (int i = 0; i < l; i++) {
                double v = byClass[g].meanY[i];
                for (int k = 0; k <= i; k++) {
                    v += chol[g].get(i, k) * e[k];
                }
                y[i] = v;
            }
        }
        double[] my = new double[l];
        DMatrixRMaj ry = new DMatrixRMaj(l, l);
        est.conditionalMean(s, my);
        est.conditionalCovariance(s, ry);
        for (int i = 0; i < l; i++) {
            double mc = 0.0;
            for (double[] y : ys) {
                mc += y[i] / n;
            }
            double se = Math.sqrt(ry.get(i, i) / n);
            assertEquals(my[i], mc, MC_SIGMAS * se, "mean " + i);
        }
        double power = 0.0;
        for (int i = 0; i < l; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = 0.0;
                double sumSq = 0.0;
                for (double[] y : ys) {
                    double v = (y[i] - my[i]) * (y[j] - my[j]);
                    sum += v;
                    sumSq += v * v;
                }
                double mc = sum / n;
                double se = Math.sqrt((sumSq / n - mc * mc) / n);
                assertEquals(ry.get(i, j), mc, MC_SIGMAS * se, "cov " + i + "," + j);
                // Power check: leaving out the between-class term Σ p (m_g − m)(m_g − m)ᵀ must be detectable.
                if (i == j) {
                    double between = 0.0;
                    for (int g = 0; g < 3; g++) {
                        double dg = byClass[g].meanY[i] - my[i];
                        between += post[g] * dg * dg;
                    }
                    power = Math.max(power, between / se);
                }
            }
        }
        assertTrue(power > 2 * MC_SIGMAS, "omitting the between-class term would go unnoticed: " + power + " SE");
    }

    @Test
    void oneClassMixtureIsTheJointEstimator() {
        SplittableRandom rng = new SplittableRandom(6);
        int d = 20;
        double[][] rows = GaussTestSupport.sample(
                GaussTestSupport.randomVector(d, 1.0, rng), GaussTestSupport.randomSpd(d, 0.2, 2.0, rng), 12, rng);
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 4, rng);
        JointGaussianEstimator joint = JointGaussianEstimator.fit(rows, b, ShrinkageParams.defaults());
        GaussianMixtureEstimator gmm =
                GaussianMixtureEstimator.fit(rows, new int[rows.length], 1, b, ShrinkageParams.defaults());
        assertArrayEquals(new double[] {1.0}, gmm.weights(), 0.0);
        SeriesState sj = joint.newState();
        SeriesState sg = gmm.newState();
        double[] mj = new double[4];
        double[] mg = new double[4];
        double[] rj = new double[10];
        double[] rg = new double[10];
        double[] x = GaussTestSupport.randomVector(d, 1.0, rng);
        for (int t = 0; t <= d; t++) {
            if (t > 0) {
                joint.update(sj, x[t - 1]);
                gmm.update(sg, x[t - 1]);
            }
            joint.conditionalMean(sj, mj);
            gmm.conditionalMean(sg, mg);
            joint.conditionalCovariance(sj, rj);
            gmm.conditionalCovariance(sg, rg);
            // Same arithmetic: the posterior is exactly 1 and m_g − m exactly 0.
            assertArrayEquals(mj, mg, 0.0, "t = " + t);
            assertArrayEquals(rj, rg, 0.0, "t = " + t);
            assertEquals(joint.logLikelihood(sj), gmm.logLikelihood(sg), 0.0);
        }
    }

    @Test
    void farApartClassesGiveAOneHotPosteriorWithoutOverflow() {
        int d = 60;
        double[] a = new double[d];
        double[] c = new double[d];
        Arrays.fill(c, 12.0);
        DMatrixRMaj eye = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            eye.set(i, i, 1.0);
        }
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 2, new SplittableRandom(1));
        GaussianMixtureEstimator est = GaussianMixtureEstimator.of(
                new double[] {0.5, 0.5},
                List.of(
                        JointGaussian.fromCovariance(a, eye, Shrinkage.external()),
                        JointGaussian.fromCovariance(c, eye, Shrinkage.external())),
                b);
        SeriesState s = est.newState();
        double[] x = new double[d];
        Arrays.fill(x, 12.0);
        for (double v : x) {
            est.update(s, v);
        }
        double[] post = new double[2];
        est.posterior(s, post);
        // log-likelihood gap = 60·72 = 4320: exp(−4320) underflows to exactly 0.
        assertEquals(0.0, post[0], 0.0);
        assertEquals(1.0, post[1], 0.0);
        assertTrue(Double.isFinite(est.logLikelihood(s)));
        double[] m = new double[2];
        est.conditionalMean(s, m);
        assertArrayEquals(GaussTestSupport.project(b, x), m, 1e-12);
    }

    @Test
    void fitUsesClassPriorsAndPoolsForSingletonOrDegenerateClasses() {
        SplittableRandom rng = new SplittableRandom(17);
        int d = 8;
        double[][] rows = new double[10][];
        int[] cls = {0, 0, 0, 0, 0, 1, 2, 2, 2, 2};
        for (int i = 0; i < 10; i++) {
            rows[i] = GaussTestSupport.randomVector(d, 1.0, rng);
            rows[i][0] += 3.0 * cls[i];
        }
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 2, rng);
        GaussianMixtureEstimator est = GaussianMixtureEstimator.fit(rows, cls, 3, b, ShrinkageParams.defaults());
        assertArrayEquals(new double[] {0.5, 0.1, 0.4}, est.weights(), 1e-15);
        assertEquals("", est.component(0).fitInfo().note());
        String note = est.component(1).fitInfo().note();
        assertTrue(note.contains("1 training series") && note.contains("pooled"), note);
        assertEquals(9, est.component(1).fitInfo().shrinkage().sampleCount(), "pooled over the 5 + 4 others");
        assertArrayEquals(rows[5], est.component(1).mean(), 0.0, "a singleton class keeps its own mean");
        // The pooled covariance is the shrinkage estimate of the within-class residuals.
        double[][] residuals = new double[9][d];
        int r = 0;
        for (int g : new int[] {0, 2}) {
            double[] mean = est.component(g).mean();
            for (int i = 0; i < 10; i++) {
                if (cls[i] == g) {
                    for (int t = 0; t < d; t++) {
                        residuals[r][t] = rows[i][t] - mean[t];
                    }
                    r++;
                }
            }
        }
        DMatrixRMaj pooled = ShrinkageCovariance.estimate(residuals, ShrinkageParams.defaults())
                .covariance();
        assertArrayEquals(pooled.data, est.component(1).covariance().data, 1e-12);

        // A class whose series are identical has no scatter either.
        double[][] same = {rows[0], rows[1], rows[2], rows[5].clone(), rows[5].clone()};
        GaussianMixtureEstimator est2 =
                GaussianMixtureEstimator.fit(same, new int[] {0, 0, 0, 1, 1}, 2, b, ShrinkageParams.defaults());
        assertTrue(
                est2.component(1).fitInfo().note().contains("identical"),
                est2.component(1).fitInfo().note());
    }

    @Test
    void restoredMixtureBehavesIdentically() {
        SplittableRandom rng = new SplittableRandom(71);
        int d = 15;
        double[][] rows = new double[24][];
        int[] cls = new int[24];
        for (int i = 0; i < 24; i++) {
            cls[i] = i % 3;
            rows[i] = GaussTestSupport.randomVector(d, 1.0, rng);
            rows[i][cls[i]] += 2.0;
        }
        DMatrixRMaj b = GaussTestSupport.randomOrthonormal(d, 3, rng);
        GaussianMixtureEstimator fitted = GaussianMixtureEstimator.fit(rows, cls, 3, b, ShrinkageParams.oas());
        List<JointGaussian> restored = new ArrayList<>();
        for (int g = 0; g < 3; g++) {
            JointGaussian jg = (JointGaussian) fitted.component(g);
            restored.add(JointGaussian.fromPackedFactors(
                    jg.mean(), jg.strictLowerPacked(), jg.innovationVariances(), jg.fitInfo()));
            assertEquals(ShrinkageMethod.OAS, jg.fitInfo().shrinkage().method());
        }
        GaussianMixtureEstimator reloaded = GaussianMixtureEstimator.of(fitted.weights(), restored, fitted.basis());
        for (int g = 0; g < 3; g++) {
            assertArrayEquals(
                    fitted.componentModel(g).covarianceTable(),
                    reloaded.componentModel(g).covarianceTable(),
                    0.0);
        }
        SeriesState s1 = fitted.newState();
        SeriesState s2 = reloaded.newState();
        double[] r1 = new double[6];
        double[] r2 = new double[6];
        for (int t = 0; t < d; t++) {
            fitted.update(s1, rows[4][t]);
            reloaded.update(s2, rows[4][t]);
            fitted.conditionalCovariance(s1, r1);
            reloaded.conditionalCovariance(s2, r2);
            assertArrayEquals(r1, r2, 0.0);
        }
        assertTrue(s1.contentEquals(s2));
    }

    @Test
    void misuseIsRejected() {
        double[][] rows = {{1, 2}, {2, 1}, {0, 1}, {1, 0}};
        DMatrixRMaj b = DMatrixRMaj.wrap(2, 1, new double[] {1, 0});
        IllegalArgumentException missing = assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.fit(rows, new int[] {0, 0, 2, 2}, 3, b, ShrinkageParams.defaults()));
        assertTrue(missing.getMessage().contains("class 1"), missing.getMessage());
        IllegalArgumentException count = assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.fit(rows, new int[] {0, 1}, 2, b, ShrinkageParams.defaults()));
        assertTrue(count.getMessage().contains("4") && count.getMessage().contains("2"), count.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.fit(rows, new int[] {0, 1, 2, 3}, 3, b, ShrinkageParams.defaults()));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.fit(rows, new int[] {0, 1, 2, 3}, 4, b, ShrinkageParams.defaults()),
                "no class with two series for the pooled fallback");
        JointGaussian g = JointGaussian.fit(rows, ShrinkageParams.defaults());
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.of(new double[] {0.5, 0.6}, List.of(g, g), b));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.of(new double[] {1.0, 0.0}, List.of(g, g), b));
        assertThrows(
                IllegalArgumentException.class,
                () -> GaussianMixtureEstimator.of(new double[] {1.0}, List.of(g, g), b));
        GaussianMixtureEstimator est = GaussianMixtureEstimator.of(new double[] {0.25, 0.75}, List.of(g, g), b);
        assertThrows(IllegalArgumentException.class, () -> est.posterior(est.newState(), new double[3]));
    }
}
