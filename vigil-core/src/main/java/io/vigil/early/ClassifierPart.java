package io.vigil.early;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.ClassGaussianSearch;
import io.vigil.classify.qda.ClassGaussians;
import io.vigil.classify.qda.LocalQda;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetState;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.Discriminants;
import io.vigil.reliability.LinearDiscriminants;
import io.vigil.reliability.PointClassifier;
import org.ejml.data.DMatrixRMaj;

/**
 * The classifier inside the reliable rule of an {@link EarlyClassifier} (thesis §5.6.1, docs/method.md §3.4): forms
 * the discriminants the rule bounds around the conditional mean m_y held in a {@link EarlyClassifier.Workspace} — local
 * QDA's class Gaussians found around m_y by the series' own search, the linear SVM's fixed discriminants — or, for
 * 3-NN, labels points. Immutable; each series' search lives in its state's accelerator slot, the results in the
 * caller's workspace.
 */
final class ClassifierPart {
    /** k of {@link ClassifierKind#KNN}: the thesis's 3-NN (§3.4). */
    static final int KNN_K = EarlyClassifier.KNN_K;

    private final LocalQda localQda;
    /** Local QDA's searches for new series (null for the linear SVM); see {@link LocalQda#searches}. */
    private final ClassGaussianSearch.Factory searches;
    /** Where each series' search is kept; owned by this classifier, so a state only hands back its own. */
    private final SeriesState.Slot<ClassGaussianSearch> searchSlot = new SeriesState.Slot<>("local QDA search");
    /**
     * Where each any-order series keeps its local-QDA search: an {@link io.vigil.classify.qda.AnchorCache}, whose
     * certificates (bounds about each class centroid from the class's last fully searched query) hold for a query
     * that moves in any direction (m_y after a value in any order) and which returns exactly the full search's
     * Gaussians.
     */
    private final SeriesState.Slot<ClassGaussianSearch> subsetSearchSlot =
            new SeriesState.Slot<>("local QDA search, any order");

    private final LinearDiscriminants linear;
    /** 3-NN in LDG space (only for {@link ClassifierKind#KNN}); labels points for the probability rule. */
    private final Knn knn;

    private final int numClasses;

    private ClassifierPart(
            LocalQda localQda,
            ClassGaussianSearch.Factory searches,
            LinearDiscriminants linear,
            Knn knn,
            int numClasses) {
        this.localQda = localQda;
        this.searches = searches;
        this.linear = linear;
        this.knn = knn;
        this.numClasses = numClasses;
    }

    /**
     * The classifier {@code params} ask for, from the model.
     *
     * @param screened with local QDA, whether the searches are {@link LocalQda#searches}'s (k-d trees in low
     *     dimension, dot-product screening by the known steps of m_y with the joint estimator) or, false, neighbour
     *     caches (for tests that compare the two; decisions are identical)
     * @throws IllegalArgumentException when 3-NN is asked for with the set rule, or the linear SVM from a model without
     *     its section
     */
    static ClassifierPart of(
            VigilModel model, DecisionParams params, CompleteSeriesEstimator estimator, boolean screened) {
        LocalQda localQda = null;
        LinearDiscriminants linear = null;
        Knn knn = null;
        if (params.classifier() == ClassifierKind.LOCAL_QDA) {
            localQda = model.localQda();
        } else if (params.classifier() == ClassifierKind.KNN) {
            if (params.rule() != DecisionRule.PROBABILITY) {
                throw new IllegalArgumentException("--classifier knn has no discriminant functions for the set rule "
                        + "to bound; use --rule probability (or --classifier local-qda / linear-svm)");
            }
            knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        } else {
            LinearSvmSection svm = model.section(LinearSvmSection.class)
                    .orElseThrow(() -> new IllegalArgumentException("the model has no linear_svm section; retrain it "
                            + "with this Vigil's `vigil train` to use --classifier linear-svm"));
            linear = svm.discriminants();
        }
        ClassGaussianSearch.Factory searches;
        if (localQda == null) {
            searches = null;
        } else if (!screened) {
            searches = localQda::newNeighborCache;
        } else if (estimator instanceof JointGaussianEstimator joint) {
            // The joint estimator's m_y moves by known steps p_t = (BᵀL)[:, t] (docs/method.md §3.1).
            int length = model.length();
            int dims = model.dims();
            DMatrixRMaj p = joint.model().projectedFactor();
            double[][] gains = new double[length][dims];
            for (int t = 0; t < length; t++) {
                for (int k = 0; k < dims; k++) {
                    gains[t][k] = p.get(k, t);
                }
            }
            searches = localQda.searches(gains);
        } else {
            searches = localQda.searches(null);
        }
        return new ClassifierPart(localQda, searches, linear, knn, model.numClasses());
    }

    /** The classifier by its labels at points, for the probability rule without discriminants (3-NN); else null. */
    PointClassifier points() {
        return knn == null ? null : y -> knn.predict(y, KNN_K);
    }

    LocalQda.Workspace newQdaWorkspace() {
        return localQda == null ? null : localQda.newWorkspace();
    }

    ClassGaussians newClassGaussians() {
        return localQda == null ? null : localQda.newClassGaussians();
    }

    /**
     * Forms the discriminants around the prefix series' m_y (already in the workspace): local QDA by the series'
     * search, which reuses the previous sample's work.
     *
     * @param step the index of the sample m_y moved by since the last call for this state, or −1 when unknown
     */
    void formPrefix(SeriesState state, int step, EarlyClassifier.Workspace ws) {
        if (searches == null) {
            ws.discriminants = linear;
            return;
        }
        search(state).find(ws.mean, step, state.innovation(0, state.time() - 1), ws.qda, ws.gaussians);
        ws.discriminants = quadraticFromClassGaussians(ws);
    }

    /**
     * Forms the discriminants around an any-order series' m_y = E[Y | observed] (already in the workspace): local QDA
     * by the series' anchor cache — the full search's Gaussians, bit for bit, with most distances certified instead
     * of computed.
     */
    void formSubset(SubsetState state, EarlyClassifier.Workspace ws) {
        if (localQda == null) {
            ws.discriminants = linear;
            return;
        }
        ClassGaussianSearch search = state.accelerator(subsetSearchSlot);
        if (search == null) {
            search = localQda.newAnchorCache();
            state.attach(subsetSearchSlot, search);
        }
        search.find(ws.mean, -1, 0.0, ws.qda, ws.gaussians);
        ws.discriminants = quadraticFromClassGaussians(ws);
    }

    /** The discriminants around the m_y in the workspace (local QDA by a full search). */
    void formAround(EarlyClassifier.Workspace ws) {
        if (localQda == null) {
            ws.discriminants = linear;
            return;
        }
        localQda.classGaussians(ws.mean, ws.qda, ws.gaussians);
        ws.discriminants = quadraticFromClassGaussians(ws);
    }

    /** The classifier's label at the point Bᵀs(x) in the workspace's mean, by a full search. */
    int completeLabel(EarlyClassifier.Workspace ws) {
        if (localQda == null) {
            return labelAt(linear, ws.mean);
        }
        localQda.classGaussians(ws.mean, ws.qda, ws.gaussians);
        return argmax(quadraticFromClassGaussians(ws), ws.mean);
    }

    /**
     * The local-QDA search kept in the series' state, created on first use and after the state was deserialised or
     * copied, which drops it. It validates itself against the query and the step it is given, so a reset, restored
     * or reused state only costs one recomputation.
     */
    private ClassGaussianSearch search(SeriesState state) {
        ClassGaussianSearch s = state.accelerator(searchSlot);
        if (s == null) {
            s = searches.newSearch();
            state.attach(searchSlot, s);
        }
        return s;
    }

    /** The search kept in the state, or null (for tests of the accelerator's life cycle). */
    ClassGaussianSearch searchOf(SeriesState state) {
        return state.accelerator(searchSlot);
    }

    private Discriminants quadraticFromClassGaussians(EarlyClassifier.Workspace ws) {
        ClassGaussians g = ws.gaussians;
        for (int c = 0; c < numClasses; c++) {
            ws.quadratic.setClass(c, g.mean(c), g.variance(c), g.logPrior(c));
        }
        return ws.quadratic;
    }

    /** The classifier's label at y: argmax_g f_g(y), or the 3-NN vote. */
    int labelAt(Discriminants f, double[] y) {
        return knn != null ? knn.predict(y, KNN_K) : argmax(f, y);
    }

    private int argmax(Discriminants f, double[] y) {
        int best = 0;
        double bestValue = f.value(0, y);
        for (int g = 1; g < numClasses; g++) {
            double v = f.value(g, y);
            if (v > bestValue) {
                best = g;
                bestValue = v;
            }
        }
        return best;
    }
}
