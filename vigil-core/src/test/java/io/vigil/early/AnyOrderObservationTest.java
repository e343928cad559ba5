package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import java.util.Arrays;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.LUDecomposition_F64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The early classifier observing values in any order ({@link EarlyClassifier#observeAt}): its conditional mean equals
 * the closed-form conditional Gaussian on the observed index set (dense solve, thesis eq. 5.19) after every value of a
 * random pattern — of the Gaussian the any-order conditioner uses (the model's reduced to rank q, {@link
 * io.vigil.gauss.SubsetConditioner#covariance}), or of the model's own while the values are a time-major prefix, which
 * is decided on the prefix path; observing the time-major prefix decides exactly where and what the prefix path
 * decides, and a value out of that order continues on the reduced Gaussian conditioned on everything seen; an
 * incomplete series is labelled by the classifier at E[Y | observed]; and the decision carries the triggering (t,
 * channel) and the fraction observed.
 *
 * <p>Tolerance 1e-7 on m_y: the model's Σ is a shrinkage estimate of D = 384 standardised values (condition number ≲
 * 1e5 with the shrinkage floor), so the dense LU solve and the ≤ 384 rank-one downdates each carry ≲ D·κ·ε ≈ 1e-8
 * relative error on entries of order 1; a wrong term in the update changes m_y by ≥ 1e-3.
 */
class AnyOrderObservationTest {
    private static final double TOL = 1e-7;

    private final VigilModel model = EarlyFixtures.MultiChannel.MODEL;
    private final Dataset test = EarlyFixtures.MultiChannel.DATA.test();

    @Test
    void theConditionalMeanAfterEveryValueEqualsTheDenseClosedForm() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).shuffled(true).seed(3).build();
        Brute reduced = new Brute(model, c.subsetConditioner().covariance());
        Brute exact = new Brute(model, Brute.modelCovariance(model));
        for (int i = 0; i < 3; i++) {
            double[] x = test.series(i);
            int[] order = pattern.order("multi/test/" + i, 3, x.length);
            c.resetSubsetState(state);
            for (int k = 0; k < order.length; k++) {
                int j = order[k];
                c.observeAt(state, j / 3, j % 3, x[j], ws, decision);
                assertEquals(j / 3, decision.time());
                assertEquals(j % 3, decision.channel());
                assertEquals(k + 1, decision.observed());
                assertEquals((k + 1) / (double) x.length, decision.observedFraction());
                if (k % 37 == 0 || k == order.length - 1) {
                    Brute brute = state.onPrefix() ? exact : reduced;
                    double[] expected = brute.conditionalMean(x, Arrays.copyOf(order, k + 1));
                    assertArrayNear(expected, ws.conditionalMean(), "series " + i + " after " + (k + 1) + " values");
                }
            }
        }
    }

    @Test
    void aValueOutOfTimeMajorOrderLeavesThePrefixForTheReducedGaussianOnEverythingSeen() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults().withTau(0.999));
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        assertTrue(c.subsetConditioner().rank() < model.length(), "the fixture's factor is reduced");
        Brute reduced = new Brute(model, c.subsetConditioner().covariance());
        Brute exact = new Brute(model, Brute.modelCovariance(model));
        double[] x = test.series(1);
        int[] seen = new int[41];
        for (int j = 0; j < 40; j++) {
            c.observeAt(state, j / 3, j % 3, x[j], ws, decision);
            seen[j] = j;
        }
        assertTrue(state.onPrefix());
        assertArrayNear(exact.conditionalMean(x, Arrays.copyOf(seen, 40)), ws.conditionalMean(), "on the prefix");
        int late = 3 * 50 + 2;
        c.observeAt(state, late / 3, late % 3, x[late], ws, decision);
        seen[40] = late;
        assertFalse(state.onPrefix());
        assertEquals(41, state.observedCount());
        assertArrayNear(reduced.conditionalMean(x, seen), ws.conditionalMean(), "after (t, channel) = (50, 2)");
        assertThrows(IllegalArgumentException.class, () -> c.observeAt(state, 5, 1, 1.0, ws, decision), "seen");
    }

    @ParameterizedTest
    @EnumSource(EstimatorType.class)
    void calibrationScoresAndStreamDecisionsAgreeAcrossTheSwitchFromThePrefix(EstimatorType estimator) {
        // Calibration replays score values (scoreAt), the stream decides them (observeAt): at the announced threshold
        // both must stop at the same value with the same label, before and after the prefix is left.
        int before = 0;
        int after = 0;
        for (double tau : new double[] {0.5, 0.9}) {
            EarlyClassifier c = EarlyClassifier.of(
                    model, DecisionParams.defaults().withTau(tau).withEstimator(estimator));
            EarlyClassifier.Workspace ws = c.newWorkspace();
            Decision decision = Decision.labelOnly();
            SampleScore score = new SampleScore();
            SubsetState decided = c.newSubsetState();
            SubsetState scored = c.newSubsetState();
            int announced = c.thresholds().index();
            for (int i = 0; i < test.size(); i++) {
                double[] x = test.series(i);
                int[] order = prefixThenShuffled(x.length, 12 + 7 * i, i);
                c.resetSubsetState(decided);
                c.resetSubsetState(scored);
                int stopDecided = -1;
                int stopScored = -1;
                int labelScored = -1;
                for (int k = 0; k < order.length; k++) {
                    int j = order[k];
                    if (stopDecided < 0 && c.observeAt(decided, j / 3, j % 3, x[j], ws, decision)) {
                        stopDecided = k;
                        if (decided.onPrefix()) {
                            before++;
                        } else {
                            after++;
                        }
                    }
                    if (stopScored < 0) {
                        c.scoreAt(scored, j / 3, j % 3, x[j], ws, score);
                        if (score.index() >= announced) {
                            stopScored = k;
                            labelScored = score.label();
                        }
                    }
                }
                assertEquals(stopDecided, stopScored, "τ " + tau + ", series " + i);
                assertEquals(decision.label(), labelScored, "τ " + tau + ", series " + i);
            }
        }
        assertTrue(before > 0 && after > 0, "decisions on both sides of the switch: " + before + ", " + after);
    }

    /** The first {@code prefix} time-major indices in order, then the rest in a random order seeded by {@code seed}. */
    private static int[] prefixThenShuffled(int length, int prefix, long seed) {
        int[] order = new int[length];
        for (int j = 0; j < length; j++) {
            order[j] = j;
        }
        Random rnd = new Random(seed);
        for (int j = length - 1; j > prefix; j--) {
            int k = prefix + rnd.nextInt(j - prefix + 1);
            int tmp = order[j];
            order[j] = order[k];
            order[k] = tmp;
        }
        return order;
    }

    @ParameterizedTest
    @EnumSource(EstimatorType.class)
    void theTimeMajorPrefixDecidesWhereAndWhatThePrefixPathDecides(EstimatorType estimator) {
        for (double tau : new double[] {0.5, 0.9}) {
            EarlyClassifier c = EarlyClassifier.of(
                    model, DecisionParams.defaults().withTau(tau).withEstimator(estimator));
            EarlyClassifier.Workspace ws = c.newWorkspace();
            Decision prefix = Decision.withReliability();
            Decision any = Decision.withReliability();
            SeriesState state = c.newState();
            SubsetState subset = c.newSubsetState();
            int early = 0;
            for (int i = 0; i < test.size(); i++) {
                double[] x = test.series(i);
                state.reset();
                c.resetSubsetState(subset);
                for (int j = 0; j < x.length; j++) {
                    boolean a = c.observe(state, x[j], ws, prefix);
                    boolean b = c.observeAt(subset, j / 3, j % 3, x[j], ws, any);
                    assertEquals(a, b, "τ " + tau + ", series " + i + ", value " + j);
                    assertEquals(prefix.time(), any.time());
                    assertEquals(prefix.channel(), any.channel());
                    assertEquals(prefix.observedFraction(), any.observedFraction());
                    if (a) {
                        assertEquals(prefix.label(), any.label());
                        assertEquals(prefix.reliability(), any.reliability(), 1e-9);
                        early += j < x.length - 1 ? 1 : 0;
                        break;
                    }
                }
            }
            assertTrue(early > 0, "τ " + tau + ": some series decided early, so the comparison covers the rule");
        }
    }

    @Test
    void anIncompleteSeriesGetsTheClassifiersLabelAtTheConditionalMean() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.withReliability();
        SubsetState state = c.newSubsetState();
        ObservationPattern pattern = ObservationPattern.builder()
                .missing(0.5)
                .lag(1, 20)
                .drop(2)
                .seed(9)
                .build();
        Brute brute = new Brute(model, c.subsetConditioner().covariance());
        LocalQda qda = model.localQda();
        LocalQda.Workspace qws = qda.newWorkspace();
        for (int i = 0; i < 5; i++) {
            double[] x = test.series(i);
            int[] order = pattern.order("multi/test/" + i, 3, x.length);
            c.resetSubsetState(state);
            for (int j : order) {
                assertFalse(state.isObserved(j));
                // Feed without deciding early: only the end matters here.
                c.scoreAt(state, j / 3, j % 3, x[j], ws, new SampleScore());
            }
            c.decideIncomplete(state, ws, decision);
            int last = order[order.length - 1];
            assertEquals(last / 3, decision.time());
            assertEquals(last % 3, decision.channel());
            assertEquals(order.length / (double) x.length, decision.observedFraction());
            double[] m = brute.conditionalMean(x, order);
            assertEquals(qda.predict(m, qws), decision.label(), "series " + i);
            double r = decision.reliability();
            assertTrue(r >= 0 && r <= 1, "reliability in [0, 1]: " + r);
        }
    }

    @Test
    void everyValueInAnyOrderEndsWithTheCompleteSeriesLabel() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults().withTau(0.999));
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        ObservationPattern shuffled =
                ObservationPattern.builder().shuffled(true).seed(1).build();
        for (int i = 0; i < 5; i++) {
            double[] x = test.series(i);
            int[] order = shuffled.order("s" + i, 3, x.length);
            c.resetSubsetState(state);
            boolean decided = false;
            for (int k = 0; k < order.length && !decided; k++) {
                decided = c.observeAt(state, order[k] / 3, order[k] % 3, x[order[k]], ws, decision);
            }
            assertTrue(decided, "the last value decides");
            if (decision.observed() == x.length) {
                assertEquals(c.completeLabel(x, ws), decision.label());
            }
        }
    }

    @Test
    void badCoordinatesAndRepeatsAreRefusedNamingThem() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        c.observeAt(state, 5, 1, 0.3, ws, decision);
        IllegalArgumentException again =
                assertThrows(IllegalArgumentException.class, () -> c.observeAt(state, 5, 1, 0.4, ws, decision));
        assertTrue(again.getMessage().contains("(5, 1) was already observed"), again.getMessage());
        IllegalArgumentException channel =
                assertThrows(IllegalArgumentException.class, () -> c.observeAt(state, 5, 3, 0.4, ws, decision));
        assertTrue(channel.getMessage().contains("128 samples × 3 channels"), channel.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.observeAt(state, 128, 0, 0.4, ws, decision));
        assertThrows(IllegalArgumentException.class, () -> c.observeAt(state, 6, 0, Double.NaN, ws, decision));
        assertEquals(1, state.observedCount(), "refused values leave the state as it was");
    }

    @Test
    void withTheMixtureTheConditionalMeanIsThePosteriorWeightedMeanOfTheClassesClosedForms() {
        // Thesis 5.20 on the observed set (Appendix C): m = Σ_g p(g | x_O) m_g, p(g | x_O) ∝ w_g N(x_O; x̄_g,O,
        // Σ_g,OO),
        // each class's m_g and density by a dense solve on the Gaussian the conditioner uses for it (reduced to rank
        // q). While the values are a time-major prefix the gmm prefix path decides; the rest is the mixture's.
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults().withEstimator(EstimatorType.GMM));
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        SubsetConditioner conditioner = c.subsetConditioner();
        CompleteSeriesSection section =
                model.section(CompleteSeriesSection.class).orElseThrow();
        int classes = section.mixture().size();
        assertEquals(classes, conditioner.components());
        Brute[] each = new Brute[classes];
        for (int g = 0; g < classes; g++) {
            each[g] = new Brute(section.mixture().get(g).mean(), conditioner.covariance(g), model);
        }
        double[] weights = section.mixtureWeights();
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).shuffled(true).seed(5).build();
        for (int i = 0; i < 3; i++) {
            double[] x = test.series(i);
            int[] order = pattern.order("multi/test/" + i, 3, x.length);
            c.resetSubsetState(state);
            for (int k = 0; k < order.length; k++) {
                int j = order[k];
                c.observeAt(state, j / 3, j % 3, x[j], ws, decision);
                if (!state.onPrefix() && (k % 53 == 0 || k == order.length - 1)) {
                    int[] seen = Arrays.copyOf(order, k + 1);
                    double[] logPost = new double[classes];
                    double max = Double.NEGATIVE_INFINITY;
                    for (int g = 0; g < classes; g++) {
                        logPost[g] = Math.log(weights[g]) + each[g].logDensity(x, seen);
                        max = Math.max(max, logPost[g]);
                    }
                    double sum = 0;
                    for (int g = 0; g < classes; g++) {
                        sum += Math.exp(logPost[g] - max);
                    }
                    double[] expected = new double[conditioner.reducedDimension()];
                    for (int g = 0; g < classes; g++) {
                        double p = Math.exp(logPost[g] - max) / sum;
                        double[] mg = each[g].conditionalMean(x, seen);
                        for (int q = 0; q < expected.length; q++) {
                            expected[q] += p * mg[q];
                        }
                    }
                    assertArrayNear(expected, ws.conditionalMean(), "series " + i + " after " + (k + 1) + " values");
                }
            }
        }
    }

    private static void assertArrayNear(double[] expected, double[] actual, String what) {
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], actual[k], TOL, what + ", feature " + k);
        }
    }

    /** E[BᵀX | x_O] by the closed form x̄ + Σ_{·O} Σ_{OO}⁻¹ (x_O − x̄_O) on standardised values (dense solve). */
    private static final class Brute {
        private final double[] mean;
        private final DMatrixRMaj sigma;
        private final DMatrixRMaj basis;
        private final Standardizer std;

        Brute(VigilModel model, DMatrixRMaj sigma) {
            this(gaussian(model).mean(), sigma, model);
        }

        /** The Gaussian N(mean, sigma) of the model's standardised complete series, on its basis. */
        Brute(double[] mean, DMatrixRMaj sigma, VigilModel model) {
            this.mean = mean;
            this.sigma = sigma;
            this.basis = model.basis();
            this.std = model.standardizer().orElse(null);
        }

        /** log N(x_O; x̄_O, Σ_OO) of the standardised observed values (dense LU). */
        double logDensity(double[] raw, int[] observed) {
            int n = observed.length;
            DMatrixRMaj soo = new DMatrixRMaj(n, n);
            DMatrixRMaj e = new DMatrixRMaj(n, 1);
            observedBlock(raw, observed, soo, e, null);
            DMatrixRMaj w = new DMatrixRMaj(n, 1);
            assertTrue(CommonOps_DDRM.solve(soo, e, w), "Σ_OO is invertible");
            double quad = CommonOps_DDRM.dot(e, w);
            LUDecomposition_F64<DMatrixRMaj> lu = DecompositionFactory_DDRM.lu(n, n);
            assertTrue(lu.decompose(soo.copy()));
            double logDet = 0;
            DMatrixRMaj u = lu.getUpper(null);
            for (int a = 0; a < n; a++) {
                logDet += Math.log(Math.abs(u.get(a, a)));
            }
            return -0.5 * (n * Math.log(2 * Math.PI) + logDet + quad);
        }

        /** Σ_OO, x_O − x̄_O (standardised) and, when {@code sxo} is not null, Σ_{·O}. */
        private void observedBlock(double[] raw, int[] observed, DMatrixRMaj soo, DMatrixRMaj e, DMatrixRMaj sxo) {
            int n = observed.length;
            for (int a = 0; a < n; a++) {
                int j = observed[a];
                double v = std == null ? raw[j] : std.apply(j, raw[j]);
                e.set(a, 0, v - mean[j]);
                for (int b = 0; b < n; b++) {
                    soo.set(a, b, sigma.get(j, observed[b]));
                }
                if (sxo != null) {
                    for (int i = 0; i < mean.length; i++) {
                        sxo.set(i, a, sigma.get(i, j));
                    }
                }
            }
        }

        /** Σ of the model's complete-series Gaussian (what the prefix path conditions on). */
        static DMatrixRMaj modelCovariance(VigilModel model) {
            return gaussian(model).covariance();
        }

        private static SeriesGaussian gaussian(VigilModel model) {
            return model.section(CompleteSeriesSection.class)
                    .orElseThrow()
                    .jointGaussian()
                    .orElseThrow();
        }

        double[] conditionalMean(double[] raw, int[] observed) {
            int d = mean.length;
            int n = observed.length;
            DMatrixRMaj soo = new DMatrixRMaj(n, n);
            DMatrixRMaj sxo = new DMatrixRMaj(d, n);
            DMatrixRMaj e = new DMatrixRMaj(n, 1);
            observedBlock(raw, observed, soo, e, sxo);
            DMatrixRMaj w = new DMatrixRMaj(n, 1);
            assertTrue(CommonOps_DDRM.solve(soo, e, w), "Σ_OO is invertible");
            DMatrixRMaj x = new DMatrixRMaj(d, 1);
            CommonOps_DDRM.mult(sxo, w, x);
            for (int i = 0; i < d; i++) {
                x.add(i, 0, mean[i]);
            }
            DMatrixRMaj y = new DMatrixRMaj(basis.numCols, 1);
            CommonOps_DDRM.multTransA(basis, x, y);
            return y.data;
        }
    }
}
