package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.qda.DotTracker;
import io.vigil.classify.qda.LocalQda;
import io.vigil.classify.qda.NeighborCache;
import io.vigil.data.Dataset;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesState;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EarlyClassifierTest {
    private static final Dataset TEST = EarlyFixtures.CBF.test();

    @ParameterizedTest
    @EnumSource(ClassifierKind.class)
    void atFullLengthTheRuleReturnsTheCompleteSeriesLabel(ClassifierKind kind) {
        for (EstimatorType est : EstimatorType.values()) {
            for (VigilModel model : List.of(EarlyFixtures.CBF_MODEL, EarlyFixtures.CBF_STANDARDIZED_MODEL)) {
                EarlyClassifier c = EarlyClassifier.of(
                        model,
                        DecisionParams.defaults()
                                .withClassifier(kind)
                                .withEstimator(est)
                                .withRule(ruleFor(kind)));
                EarlyClassifier.Workspace ws = c.newWorkspace();
                Decision d = Decision.withReliability();
                for (int i = 0; i < TEST.size(); i++) {
                    double[] x = TEST.series(i);
                    SeriesState s = c.newState();
                    int last = EarlyClassifier.NO_DECISION;
                    for (double v : x) {
                        c.observe(s, v, ws, d);
                        last = d.label();
                    }
                    assertTrue(s.isComplete());
                    assertEquals(c.completeLabel(x, ws), last, "series " + i + ", " + kind + ", " + est);
                    assertEquals(1.0, d.reliability(), "a complete series is reliable with probability 1");
                }
            }
        }
    }

    /**
     * {@link EarlyClassifier#current} against the rule: where {@code observe} decides, the same label and reliability;
     * while undecided, the candidate label with a reliability below τ; at t = d the complete-series label with
     * reliability 1. Asking does not change the decisions that follow.
     */
    @ParameterizedTest
    @EnumSource(ClassifierKind.class)
    void currentLabelAndReliabilityAgreeWithTheRule(ClassifierKind kind) {
        double tau = 0.9;
        for (VigilModel model : List.of(EarlyFixtures.CBF_MODEL, EarlyFixtures.CBF_STANDARDIZED_MODEL)) {
            EarlyClassifier c = EarlyClassifier.of(
                    model,
                    DecisionParams.defaults()
                            .withClassifier(kind)
                            .withRule(ruleFor(kind))
                            .withTau(tau));
            List<SeriesDecision> offline = EarlyReplay.replay(c, TEST);
            EarlyClassifier.Workspace ws = c.newWorkspace();
            Decision d = Decision.withReliability();
            Decision now = Decision.withReliability();
            int undecided = 0;
            for (int i = 0; i < TEST.size(); i += 10) {
                double[] x = TEST.series(i);
                SeriesState s = c.newState();
                int first = 0;
                for (int t = 1; t <= x.length; t++) {
                    c.observe(s, x[t - 1], ws, d);
                    c.current(s, ws, now);
                    String at = kind + ", series " + i + ", t = " + t;
                    if (t == x.length) {
                        assertEquals(c.completeLabel(x, ws), now.label(), at);
                        assertEquals(1.0, now.reliability(), at);
                    } else if (d.decided()) {
                        assertEquals(d.label(), now.label(), at);
                        assertEquals(d.reliability(), now.reliability(), 0.0, at);
                    } else {
                        assertTrue(now.reliability() >= 0.0 && now.reliability() < tau, at + ": " + now.reliability());
                        undecided++;
                    }
                    if (d.decided() && first == 0) {
                        first = t;
                    }
                }
                assertEquals(offline.get(i).t(), first, kind + ", series " + i + ": decisions unchanged by asking");
            }
            assertTrue(undecided > 0);
        }
        SeriesState empty = EarlyClassifier.of(EarlyFixtures.CBF_MODEL, DecisionParams.defaults())
                .newState();
        assertThrows(IllegalArgumentException.class, () -> EarlyClassifier.of(
                        EarlyFixtures.CBF_MODEL, DecisionParams.defaults())
                .current(empty, null, Decision.withReliability()));
    }

    @Test
    void completeLabelIsLocalQdaPrediction() {
        VigilModel model = EarlyFixtures.CBF_STANDARDIZED_MODEL;
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        EarlyClassifier.Workspace ws = c.newWorkspace();
        LocalQda qda = model.localQda();
        LocalQda.Workspace qws = qda.newWorkspace();
        double[] y = new double[model.dims()];
        for (int i = 0; i < TEST.size(); i++) {
            model.project(TEST.series(i), y);
            assertEquals(qda.predict(y, qws), c.completeLabel(TEST.series(i), ws), "series " + i);
        }
    }

    @Test
    void everySeriesGetsExactlyOneDecisionAndSomeAreEarly() {
        EarlyClassifier c = EarlyClassifier.of(
                EarlyFixtures.CBF_MODEL, DecisionParams.defaults().withTau(0.5));
        List<SeriesDecision> ds = EarlyReplay.replay(c, TEST);
        assertEquals(TEST.size(), ds.size());
        long early = ds.stream().filter(SeriesDecision::early).count();
        assertTrue(early > TEST.size() / 2, "CBF separates long before the end; early decisions: " + early);
        for (SeriesDecision d : ds) {
            assertTrue(d.t() >= 1 && d.t() <= TEST.length());
            assertEquals(d.early(), d.t() < TEST.length());
        }
    }

    @Test
    void largerTauNeverDecidesEarlier() {
        // The τ-sets are nested in τ (SetKind radii increase), so a decision at τ₂ > τ₁ implies one at τ₁.
        for (SetKind kind : SetKind.values()) {
            List<SeriesDecision> low =
                    EarlyReplay.replay(EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(kind, 0.25)), TEST);
            List<SeriesDecision> high =
                    EarlyReplay.replay(EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(kind, 0.9)), TEST);
            for (int i = 0; i < TEST.size(); i++) {
                assertTrue(high.get(i).t() >= low.get(i).t(), kind + " series " + i);
            }
        }
    }

    @Test
    void chebyshevNeverDecidesEarlierThanTheGaussianOrNaiveBayesSets() {
        // Chebyshev's radius² ℓ/(1−τ) bounds the χ²_ℓ τ-quantile (Markov's inequality), and it uses the same full R_y
        // as the Gaussian ellipsoid, so its set contains the Gaussian one: never earlier, by construction. Against
        // naive-Bayes quadratic (diagonal of R_y) there is no containment in general; the thesis (§5.5) observes it
        // on data, and this test checks it on CBF.
        for (double tau : new double[] {0.1, 0.5, 0.9}) {
            List<SeriesDecision> cheb = EarlyReplay.replay(
                    EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(SetKind.CHEBYSHEV, tau)), TEST);
            for (SetKind other : List.of(SetKind.GAUSSIAN, SetKind.NB_QUADRATIC)) {
                List<SeriesDecision> o =
                        EarlyReplay.replay(EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(other, tau)), TEST);
                for (int i = 0; i < TEST.size(); i++) {
                    assertTrue(
                            cheb.get(i).t() >= o.get(i).t(),
                            "τ = " + tau + ", series " + i + ": chebyshev at "
                                    + cheb.get(i).t() + ", " + other + " at "
                                    + o.get(i).t());
                }
            }
        }
    }

    @Test
    void reliabilityOfAnEarlyDecisionIsAtLeastTau() {
        double tau = 0.6;
        EarlyClassifier c = EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(SetKind.NB_QUADRATIC, tau));
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision d = Decision.withReliability();
        int checked = 0;
        for (int i = 0; i < TEST.size(); i++) {
            SeriesState s = c.newState();
            double[] x = TEST.series(i);
            int t = 0;
            while (!c.observe(s, x[t++], ws, d)) {
                // feed until the first decision
            }
            double r = d.reliability();
            // Bisection returns the last τ verified reliable, so it can sit up to one tolerance below τ.
            assertTrue(r >= tau - EarlyClassifier.RELIABILITY_TOLERANCE && r <= 1.0, "series " + i + ": " + r);
            checked++;
        }
        assertEquals(TEST.size(), checked);
    }

    @Test
    void classOfInterestModeAnnouncesOnlyThatClassEarly() {
        String label = EarlyFixtures.CBF_MODEL.classNames().get(1);
        EarlyClassifier c = EarlyClassifier.of(
                EarlyFixtures.CBF_MODEL, DecisionParams.defaults().withTau(0.5).withClassOfInterest(label));
        List<SeriesDecision> ds = EarlyReplay.replay(c, TEST);
        long early = 0;
        for (SeriesDecision d : ds) {
            if (d.early()) {
                assertEquals(1, d.label(), "only the class of interest may be announced early");
                early++;
            }
        }
        assertTrue(early > 0, "some series of class " + label + " are announced early");
        assertThrows(
                IllegalArgumentException.class,
                () -> EarlyClassifier.of(
                        EarlyFixtures.CBF_MODEL, DecisionParams.defaults().withClassOfInterest("no-such-class")));
    }

    /**
     * The local-QDA neighbour cache attached to the state (the fast path) must not change a single decision: a
     * replay whose state keeps its cache across samples and series (as {@link EarlyReplay} and a stream job do)
     * gives the same labels and times as one that drops the cache before every sample, which makes every
     * sample a full neighbour search.
     */
    @Test
    void neighborCacheGivesTheSameDecisionsAsAFullSearchEverySample() {
        VigilModel model = EarlyFixtures.CBF_LARGE_MODEL;
        Dataset test = EarlyFixtures.CBF_LARGE.test();
        assertEquals(
                model.numClasses(),
                model.localQda().newNeighborCache().boundedClasses(),
                "the fixture must be large enough for the cache to keep bounds for every class");
        for (SetKind kind : SetKind.values()) {
            for (double tau : new double[] {0.001, 0.5, 0.9}) {
                EarlyClassifier c = EarlyClassifier.of(model, params(kind, tau));
                List<SeriesDecision> cached = EarlyReplay.replay(c, test);
                EarlyClassifier.Workspace ws = c.newWorkspace();
                Decision d = Decision.labelOnly();
                SeriesState s = c.newState();
                for (int i = 0; i < test.size(); i++) {
                    double[] x = test.series(i);
                    s.reset();
                    int t = 0;
                    int label = EarlyClassifier.NO_DECISION;
                    while (label == EarlyClassifier.NO_DECISION) {
                        s = s.copy(); // a copy drops the accelerator: a full search at every sample
                        c.observe(s, x[t++], ws, d);
                        label = d.label();
                    }
                    String what = kind + ", τ = " + tau + ", series " + i;
                    assertEquals(cached.get(i).t(), t, what);
                    assertEquals(cached.get(i).label(), label, what);
                }
            }
        }
    }

    /**
     * The dot-product screening of the joint estimator (DotTracker) against the neighbour-cache path it
     * replaces, sample by sample: identical decisions and reliabilities (0.0 tolerance) on a plain and a
     * standardised model and on the fixture large enough for the cache, including states serialised and restored
     * mid-series, whose tracker is rebuilt.
     */
    @Test
    void dotScreeningGivesTheSameDecisionsAsTheNeighborCacheEverySample() throws IOException {
        for (VigilModel model :
                List.of(EarlyFixtures.CBF_STANDARDIZED_MODEL, EarlyFixtures.CBF_MODEL, EarlyFixtures.CBF_LARGE_MODEL)) {
            Dataset test = model == EarlyFixtures.CBF_LARGE_MODEL ? EarlyFixtures.CBF_LARGE.test() : TEST;
            for (double tau : new double[] {0.001, 0.9}) {
                DecisionParams p = params(SetKind.NB_QUADRATIC, tau);
                EarlyClassifier screened = EarlyClassifier.of(model, p);
                EarlyClassifier cached = EarlyClassifier.of(model, p, false);
                EarlyClassifier.Workspace ws1 = screened.newWorkspace();
                EarlyClassifier.Workspace ws2 = cached.newWorkspace();
                Decision d1 = Decision.withReliability();
                Decision d2 = Decision.withReliability();
                SeriesState s1 = screened.newState();
                SeriesState s2 = cached.newState();
                for (int i = 0; i < test.size(); i++) {
                    double[] x = test.series(i);
                    s1.reset(); // keeps the tracker of the previous series: it must notice
                    s2.reset();
                    for (int t = 0; t < x.length; t++) {
                        if (t == x.length / 3 && i % 2 == 0) {
                            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                            s1.writeTo(new DataOutputStream(bytes));
                            s1 = SeriesState.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
                        }
                        screened.observe(s1, x[t], ws1, d1);
                        cached.observe(s2, x[t], ws2, d2);
                        int a = d1.label();
                        int b = d2.label();
                        String what = "τ = " + tau + ", series " + i + ", t = " + t;
                        assertEquals(b, a, what);
                        if (a != EarlyClassifier.NO_DECISION) {
                            assertEquals(d2.reliability(), d1.reliability(), 0.0, what);
                        }
                    }
                    assertTrue(screened.searchOf(s1) instanceof DotTracker);
                    assertTrue(cached.searchOf(s2) instanceof NeighborCache);
                }
            }
        }
    }

    /**
     * Local QDA's k-d trees (TreeSearch, chosen for a model with ℓ ≤ 8 and a class of ≥ 256 points) against the
     * neighbour cache, sample by sample: identical decisions and reliabilities (0.0 tolerance), including states
     * serialised and restored mid-series and states reset for the next series.
     */
    @Test
    void treeSearchGivesTheSameDecisionsAsTheNeighborCacheEverySample() throws IOException {
        VigilModel model = EarlyFixtures.Trees.MODEL;
        Dataset test = EarlyFixtures.Trees.DATA.test();
        for (double tau : new double[] {0.001, 0.9}) {
            DecisionParams p = params(SetKind.NB_QUADRATIC, tau);
            EarlyClassifier trees = EarlyClassifier.of(model, p);
            EarlyClassifier cached = EarlyClassifier.of(model, p, false);
            EarlyClassifier.Workspace ws1 = trees.newWorkspace();
            EarlyClassifier.Workspace ws2 = cached.newWorkspace();
            Decision d1 = Decision.withReliability();
            Decision d2 = Decision.withReliability();
            SeriesState s1 = trees.newState();
            SeriesState s2 = cached.newState();
            int decided = 0;
            for (int i = 0; i < test.size(); i++) {
                double[] x = test.series(i);
                s1.reset();
                s2.reset();
                for (int t = 0; t < x.length; t++) {
                    if (t == x.length / 3 && i % 2 == 0) {
                        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                        s1.writeTo(new DataOutputStream(bytes));
                        s1 = SeriesState.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
                    }
                    trees.observe(s1, x[t], ws1, d1);
                    cached.observe(s2, x[t], ws2, d2);
                    String what = "τ = " + tau + ", series " + i + ", t = " + t;
                    assertEquals(d2.label(), d1.label(), what);
                    if (d1.label() != EarlyClassifier.NO_DECISION) {
                        decided++;
                        assertEquals(d2.reliability(), d1.reliability(), 0.0, what);
                    }
                }
                assertEquals("TreeSearch", trees.searchOf(s1).getClass().getSimpleName());
                assertTrue(cached.searchOf(s2) instanceof NeighborCache);
            }
            assertTrue(decided > 0);
        }
    }

    @Test
    void stateSerialisedMidSeriesGivesTheSameDecisions() throws IOException {
        EarlyClassifier c = EarlyClassifier.of(EarlyFixtures.CBF_MODEL, params(SetKind.NB_QUADRATIC, 0.9));
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision d = Decision.labelOnly();
        List<SeriesDecision> direct = EarlyReplay.replay(c, TEST);
        for (int i = 0; i < TEST.size(); i++) {
            double[] x = TEST.series(i);
            SeriesState s = c.newState();
            int cut = Math.max(1, direct.get(i).t() / 2);
            for (int t = 0; t < cut - 1; t++) {
                c.observe(s, x[t], ws, d);
                assertEquals(EarlyClassifier.NO_DECISION, d.label());
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            s.writeTo(new DataOutputStream(bytes));
            SeriesState restored = SeriesState.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            int t = cut - 1;
            int label = EarlyClassifier.NO_DECISION;
            while (label == EarlyClassifier.NO_DECISION) {
                c.observe(restored, x[t++], ws, d);
                label = d.label();
            }
            assertEquals(direct.get(i).t(), t, "series " + i);
            assertEquals(direct.get(i).label(), label, "series " + i);
        }
    }

    @Test
    void modelFileRoundTripKeepsTheSectionsAndTheDecisions() throws IOException {
        VigilModel m = EarlyFixtures.CBF_MODEL;
        ModelFile file = ModelFile.standard();
        VigilModel back = file.read(file.toBytes(m), "memory");
        assertEquals(m, back);
        assertTrue(back.section(CompleteSeriesSection.class).isPresent());
        for (ClassifierKind k : ClassifierKind.values()) {
            for (EstimatorType e : EstimatorType.values()) {
                DecisionParams p = DecisionParams.defaults()
                        .withClassifier(k)
                        .withEstimator(e)
                        .withRule(ruleFor(k));
                assertEquals(
                        EarlyReplay.replay(EarlyClassifier.of(m, p), TEST),
                        EarlyReplay.replay(EarlyClassifier.of(back, p), TEST),
                        k + ", " + e);
            }
        }
    }

    @Test
    void missingPartsAreClearErrors() {
        VigilModel bare = EarlyFixtures.CBF_MODEL.toBuilder()
                .removeSection(CompleteSeriesSection.NAME)
                .build();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> EarlyClassifier.of(bare, DecisionParams.defaults()));
        assertTrue(e.getMessage().contains("complete_series"), e.getMessage());
        EarlyClassifier c = EarlyClassifier.of(EarlyFixtures.CBF_MODEL, DecisionParams.defaults());
        SeriesState s = c.newState();
        IllegalArgumentException nan = assertThrows(
                IllegalArgumentException.class, () -> c.observe(s, Double.NaN, c.newWorkspace(), Decision.labelOnly()));
        assertTrue(nan.getMessage().contains("NaN"));
        assertEquals(0, s.time(), "a rejected sample leaves the state untouched");
        assertNotEquals(null, c.fingerprint());
    }

    /** The set rule where the classifier has discriminants; k-NN only works with the probability rule. */
    private static DecisionRule ruleFor(ClassifierKind k) {
        return k.hasDiscriminants() ? DecisionRule.SET : DecisionRule.PROBABILITY;
    }

    private static DecisionParams params(SetKind kind, double tau) {
        return DecisionParams.defaults().withSet(kind).withTau(tau);
    }
}
