package io.vigil.early;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.ClassGaussianSearch;
import io.vigil.classify.qda.ClassGaussians;
import io.vigil.classify.qda.LocalQda;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.GaussianMixtureEstimator;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.DiagonalQuadraticDiscriminants;
import io.vigil.reliability.Discriminants;
import io.vigil.reliability.LinearDiscriminants;
import io.vigil.reliability.PointClassifier;
import io.vigil.reliability.probability.ClassProbability;
import java.util.List;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * Reliable early classification of one series at a time, sample by sample (thesis ch. 5): each sample updates
 * the per-series {@link SeriesState} (innovations form, docs/method.md §3.1), which gives the conditional mean
 * m_y and covariance R_y(t) of the unseen complete series in LDG space (§5.4); the τ-set A is built from them
 * (§5.2); the classifier's discriminants are formed (local QDA: class Gaussians found around m_y, §5.6.1;
 * linear SVM: fixed); and class c is announced only when f_c − f_h ≥ 0 on all of A for every h (§5.3,
 * guess-and-check, exact min/max). At t = d the set is the single point Bᵀx and the announced class is the
 * classifier's complete-series label, so every series ends with exactly one decision. Beyond d = 1,000 samples the
 * moments, discriminants and rule are formed only every {@link DecisionStride} samples (the state is updated at
 * every sample), so a series costs at most 1,000 rule evaluations whatever its length.
 *
 * <p><b>Any order.</b> {@link #observeAt} takes one value at (t, channel) of a C-channel series in any order, with
 * values that never come never conditioned on: the moments are those of the complete series given the observed index
 * set (thesis eq. 5.19 on it, or the per-class mixture 5.20 with the {@code gmm} estimator, {@link
 * SubsetConditioner}, each Gaussian the model's reduced to {@link SubsetConditioner#DEFAULT_RANK} directions), the
 * rule and the calibrated thresholds are the same, and {@link #decideIncomplete} labels a series that ended
 * incomplete by the classifier at E[Y | observed]. It keeps its own per-series {@link SubsetState}; the prefix path
 * above is untouched by it, and serves it while the values arrive as a time-major prefix (they are then decided
 * exactly as {@link #observe} decides them), so only values after the first one out of that order are decided on the
 * reduced Gaussian(s). Calibration replays under a pattern ({@link #scoreAt})
 * take the same route, so the certificate is for what the stream runs.
 *
 * <p>Immutable and thread-safe; the per-series {@link SeriesState}, the per-thread {@link Workspace} and the
 * caller's {@link Decision} are the only mutable parts, so a stream job keeps one state per key and one workspace
 * per operator instance. {@link #observe} allocates nothing, except, with local QDA, the series' {@link
 * ClassGaussianSearch}, kept in the state's typed accelerator slot the first time it is observed after creation or
 * deserialisation: it makes the per-sample refit of the class Gaussians around m_y (thesis §5.6.1) cheaper and
 * stays exact (see {@link LocalQda#searches}; with the joint estimator ≈ 13 KB per series for n = 1,000, G = 10,
 * ℓ = 30, backed by one shared table of 8·d·n bytes per classifier; with the GMM estimator ≈ 22 KB).
 */
public final class EarlyClassifier {
    /** k of {@link ClassifierKind#KNN}: the thesis's 3-NN (§3.4). */
    static final int KNN_K = 3;

    /**
     * Most doubles of the table of Cholesky factors of R_y(t) the probability rule precomputes for the joint
     * estimator (d·ℓ(ℓ+1)/2 ≤ 2²⁴, 128 MB; d = 1,024, ℓ = 30 needs 3.8 MB); beyond it each sample factors R_y(t).
     */
    static final long MAX_FACTOR_TABLE_DOUBLES = 1L << 24;

    /** The label of a {@link Decision} while the decision must wait. */
    public static final int NO_DECISION = Decision.NO_DECISION;

    /** Absolute tolerance of the uncalibrated reliability bisection on τ: three decimals are what a report shows. */
    static final double RELIABILITY_TOLERANCE = ThresholdRule.RELIABILITY_TOLERANCE;

    private final VigilModel model;
    private final DecisionParams params;
    private final CompleteSeriesEstimator estimator;
    private final Standardizer standardizer;
    private final DecisionThresholds thresholds;
    private final ThresholdRule rule;
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

    private final int classOfInterest;
    private final int length;
    /** Samples between two evaluations of the rule ({@link DecisionStride}). */
    private final int stride;

    private final int dims;
    private final int numClasses;
    /** Channels C of the model; the input vector is time-major, value (t, c) at t·C + c. */
    private final int channels;

    /** The any-order conditioner, built on first use ({@link #subsetConditioner}); null until then. */
    private volatile SubsetConditioner conditioner;

    private EarlyClassifier(
            VigilModel model,
            DecisionParams params,
            CompleteSeriesEstimator estimator,
            boolean screened,
            double[] replayGrid) {
        this.model = model;
        this.params = params;
        this.estimator = estimator;
        this.standardizer = model.standardizer().orElse(null);
        this.length = model.length();
        this.stride = DecisionStride.of(length);
        this.dims = model.dims();
        this.numClasses = model.numClasses();
        this.channels = model.channels();
        this.thresholds = replayGrid == null
                ? DecisionThresholds.of(model, params)
                : DecisionThresholds.forReplay(model, params, replayGrid);
        if (params.classifier() == ClassifierKind.LOCAL_QDA) {
            this.localQda = model.localQda();
            this.linear = null;
            this.knn = null;
        } else if (params.classifier() == ClassifierKind.KNN) {
            if (params.rule() != DecisionRule.PROBABILITY) {
                throw new IllegalArgumentException("--classifier knn has no discriminant functions for the set rule "
                        + "to bound; use --rule probability (or --classifier local-qda / linear-svm)");
            }
            this.localQda = null;
            this.linear = null;
            this.knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        } else {
            LinearSvmSection svm = model.section(LinearSvmSection.class)
                    .orElseThrow(() -> new IllegalArgumentException("the model has no linear_svm section; retrain it "
                            + "with this Vigil's `vigil train` to use --classifier linear-svm"));
            this.localQda = null;
            this.linear = svm.discriminants();
            this.knn = null;
        }
        if (localQda == null) {
            this.searches = null;
        } else if (screened && estimator instanceof JointGaussianEstimator joint) {
            // The joint estimator's m_y moves by known steps p_t = (BᵀL)[:, t] (docs/method.md §3.1).
            DMatrixRMaj p = joint.model().projectedFactor();
            double[][] gains = new double[length][dims];
            for (int t = 0; t < length; t++) {
                for (int k = 0; k < dims; k++) {
                    gains[t][k] = p.get(k, t);
                }
            }
            this.searches = localQda.searches(gains);
        } else {
            this.searches = localQda.searches(null);
        }
        if (params.classOfInterest() == null) {
            this.classOfInterest = -1;
        } else {
            int c = model.classNames().indexOf(params.classOfInterest());
            if (c < 0) {
                throw new IllegalArgumentException("class of interest '" + params.classOfInterest()
                        + "' is not a class of the model; classes: " + model.classNames());
            }
            this.classOfInterest = c;
        }
        PointClassifier points = knn == null ? null : y -> knn.predict(y, KNN_K);
        double[] factors = null;
        if (params.rule() == DecisionRule.PROBABILITY && estimator instanceof JointGaussianEstimator joint) {
            factors = factorTable(joint, length, dims);
        }
        this.rule = new ThresholdRule(params, thresholds, dims, numClasses, classOfInterest, length, points, factors);
    }

    /**
     * The early classifier for a model with a {@code complete_series} section.
     *
     * @throws IllegalArgumentException when the model lacks the section or the estimator / classifier the
     *     parameters ask for, or the class of interest is not one of its classes
     */
    public static EarlyClassifier of(VigilModel model, DecisionParams params) {
        return of(model, params, true);
    }

    /**
     * As {@link #of(VigilModel, DecisionParams)}; with {@code screened} false, local QDA with the joint estimator
     * keeps a neighbour cache instead of the dot-product screening (for tests that compare the two; decisions are
     * identical).
     */
    static EarlyClassifier of(VigilModel model, DecisionParams params, boolean screened) {
        return of(model, params, screened, null);
    }

    /**
     * An early classifier for replays that score every threshold of {@code grid} at once ({@link #score}); its
     * {@link #observe} decides at the grid's first threshold. Cross-fitted calibration uses it.
     */
    public static EarlyClassifier forReplay(VigilModel model, DecisionParams params, double[] grid) {
        return of(model, params, true, Objects.requireNonNull(grid, "grid"));
    }

    /**
     * As {@link #forReplay(VigilModel, DecisionParams, double[])} with the model's complete-series estimator already
     * built ({@link #estimator}), so replays of several rules and classifiers on one model share it instead of
     * rebuilding the LDLᵀ generators and R_y table each time (seconds at d = 20,000).
     *
     * @throws IllegalArgumentException when the parameters ask for another estimator than {@code shared} is, or the
     *     estimator's shape (d, ℓ) differs from the model's
     */
    public static EarlyClassifier forReplay(
            VigilModel model, DecisionParams params, double[] grid, CompleteSeriesEstimator shared) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(grid, "grid");
        if (params.estimator() != shared.type()) {
            throw new IllegalArgumentException("a shared " + shared.type().id() + " estimator serves only --estimator "
                    + shared.type().id() + ", not " + params.estimator().id());
        }
        if (shared.length() != model.length() || shared.reducedDimension() != model.dims()) {
            throw new IllegalArgumentException("the estimator has d = " + shared.length() + ", ℓ = "
                    + shared.reducedDimension() + " but the model d = " + model.length() + ", ℓ = " + model.dims());
        }
        return new EarlyClassifier(model, params, shared, true, grid);
    }

    /**
     * A model's complete-series estimator of the given type (thesis §5.4: the joint Gaussian 5.19 or the per-class
     * mixture 5.20, projected on the LDG basis).
     *
     * @throws IllegalArgumentException when the model has no complete_series section or not that estimator
     */
    public static CompleteSeriesEstimator estimator(VigilModel model, EstimatorType type) {
        Objects.requireNonNull(type, "type");
        if (type == EstimatorType.JOINT) {
            return jointEstimator(model);
        }
        CompleteSeriesSection section = completeSeries(model);
        if (section.mixture() == null) {
            throw missing(section, EstimatorType.GMM);
        }
        return GaussianMixtureEstimator.of(section.mixtureWeights(), section.mixture(), model.basis());
    }

    public static JointGaussianEstimator jointEstimator(VigilModel model) {
        CompleteSeriesSection section = completeSeries(model);
        return JointGaussianEstimator.of(
                section.jointGaussian().orElseThrow(() -> missing(section, EstimatorType.JOINT)), model.basis());
    }

    private static CompleteSeriesSection completeSeries(VigilModel model) {
        return model.section(CompleteSeriesSection.class)
                .orElseThrow(() -> new IllegalArgumentException("the model has no complete_series section (the "
                        + "Gaussian of the complete series, thesis §5.4) and cannot decide early; retrain it with "
                        + "this Vigil's `vigil train`"));
    }

    private static EarlyClassifier of(VigilModel model, DecisionParams params, boolean screened, double[] grid) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(params, "params");
        return new EarlyClassifier(model, params, estimator(model, params.estimator()), screened, grid);
    }

    private static IllegalArgumentException missing(CompleteSeriesSection section, EstimatorType wanted) {
        return new IllegalArgumentException("the model's complete_series section holds only "
                + section.available().stream().map(EstimatorType::id).toList() + ", not the " + wanted.id()
                + " estimator; retrain with `vigil train --estimator " + wanted.id() + "` (or both)");
    }

    /** The model. */
    public VigilModel model() {
        return model;
    }

    /** The decision parameters. */
    public DecisionParams params() {
        return params;
    }

    /** The threshold the rule decides at for the announced τ, and whether τ is certified. */
    public DecisionThresholds thresholds() {
        return thresholds;
    }

    /** Values per series C·d (the series length d when univariate): the length of the model's input vector. */
    public int length() {
        return length;
    }

    /** Channels C. */
    public int channels() {
        return channels;
    }

    /** Samples per channel d = {@link #length()} / C. */
    public int seriesLength() {
        return length / channels;
    }

    /** Samples between two evaluations of the rule: {@link DecisionStride#of} the length. */
    public int stride() {
        return stride;
    }

    /** LDG dimension ℓ. */
    public int reducedDimension() {
        return dims;
    }

    /** Number of classes G. */
    public int numClasses() {
        return numClasses;
    }

    /** Class labels, index = class index. */
    public List<String> classNames() {
        return model.classNames();
    }

    /** The model's fingerprint. */
    public String fingerprint() {
        return model.fingerprint();
    }

    /** The complete-series estimator. */
    public CompleteSeriesEstimator estimator() {
        return estimator;
    }

    /** A fresh per-series state (t = 0). */
    public SeriesState newState() {
        return estimator.newState();
    }

    /** Scratch for one thread. */
    public Workspace newWorkspace() {
        return new Workspace();
    }

    /**
     * Feeds sample x_{t+1} of a series and decides (thesis §5.3.4 guess-and-check, or §5.7 for a class of
     * interest).
     *
     * @param state the series' state, holding t &lt; d samples; advanced by one
     * @param rawValue the sample as it arrives (before the model's standardisation), finite
     * @param ws this thread's workspace
     * @param decision receives the announced class or {@link #NO_DECISION} — always {@code NO_DECISION} between
     *     two {@link #stride() stride} points, never when the sample completes the series — and, if it was made {@link Decision#withReliability()}, the largest τ at
     *     which the label is reliable
     * @return {@code decision.decided()}
     * @throws IllegalArgumentException when the value is not finite or the state belongs to another shape
     * @throws IllegalStateException when the state already holds d samples
     */
    public boolean observe(SeriesState state, double rawValue, Workspace ws, Decision decision) {
        boolean checks = advance(state, rawValue, ws);
        decision.at(state.time() - 1, channels, state.time(), state.time(), length);
        if (!checks) {
            decision.set(NO_DECISION, Double.NaN);
            return false;
        }
        Discriminants f = ws.discriminants;
        if (state.isComplete()) {
            decision.set(labelAt(f, ws.mean), 1.0);
            return true;
        }
        rule.prepare(ws.rule, estimator, state, ws.mean, f);
        int label = rule.decideAt(ws.rule, thresholds.index());
        double reliability = Double.NaN;
        if (label != NO_DECISION && decision.computesReliability()) {
            reliability = rule.reliability(ws.rule);
        }
        decision.set(label, reliability);
        return label != NO_DECISION;
    }

    /**
     * Feeds the next sample like {@link #observe} and, instead of deciding at the announced τ, reports the largest
     * index of {@link DecisionThresholds#grid()} at which the rule decides and the label it would announce (the
     * complete-series label, at index = grid size, when the sample completes the series; index −1 between two
     * {@link #stride() stride} points). Cross-fitted replays use it to get every threshold's decision from one pass.
     */
    public void score(SeriesState state, double rawValue, Workspace ws, SampleScore out) {
        score(state, rawValue, ws, out, -1);
    }

    /**
     * As {@link #score(SeriesState, double, Workspace, SampleScore)} for a replay that already knows the rule decided
     * at every index up to {@code reached}: the index reported is exact when above {@code reached} and at most {@code
     * reached} otherwise, which the probability rule settles with fewer points (its thresholds up to {@code reached}
     * are not evaluated).
     */
    public void score(SeriesState state, double rawValue, Workspace ws, SampleScore out, int reached) {
        if (!advance(state, rawValue, ws)) {
            out.set(NO_DECISION, -1);
            return;
        }
        Discriminants f = ws.discriminants;
        if (state.isComplete()) {
            out.set(labelAt(f, ws.mean), thresholds.gridSize());
            return;
        }
        rule.prepare(ws.rule, estimator, state, ws.mean, f);
        out.set(rule.guess(ws.rule), rule.scoreIndex(ws.rule, reached));
    }

    /**
     * Standardises and feeds the sample; at a stride point also updates m_y and forms the discriminants around it in
     * the workspace (null for k-NN, which labels points instead).
     *
     * @return whether the sample is a stride point
     */
    private boolean advance(SeriesState state, double rawValue, Workspace ws) {
        if (!Double.isFinite(rawValue)) {
            throw new IllegalArgumentException("sample " + (state.time() + 1) + " is " + rawValue);
        }
        int t = state.time();
        double v = standardized(t, rawValue);
        estimator.update(state, v);
        if (!DecisionStride.checks(t + 1, stride, length)) {
            return false;
        }
        // Between stride points m_y moved by several steps: the search is told the step is unknown and recomputes.
        form(state, stride == 1 ? t : -1, ws);
        return true;
    }

    /**
     * Updates m_y from the state and forms the discriminants around it in the workspace.
     *
     * @param step the index of the sample m_y moved by since the last call for this state, or −1 when unknown
     */
    private void form(SeriesState state, int step, Workspace ws) {
        estimator.conditionalMean(state, ws.mean);
        if (searches == null) {
            ws.discriminants = linear;
            return;
        }
        search(state).find(ws.mean, step, state.innovation(0, state.time() - 1), ws.qda, ws.gaussians);
        ws.discriminants = quadraticFromClassGaussians(ws);
    }

    /**
     * The label a series would get now and how reliable it is, without feeding a sample: for a series that ends
     * undecided (the end of a bounded input). At t = d it is the complete-series label with reliability 1; before,
     * the rule's candidate label at the current conditional moments (argmax_g f_g(m_y), the 3-NN label, or the class
     * of interest) and the largest τ at which the rule announces that label now (thesis §5.7) — exactly what {@link
     * #observe} reports when the rule decides at the announced τ, and below τ when it does not (0 when the label is
     * reliable at no reported τ of a calibrated model). Evaluated at the current t even between two {@link #stride()
     * stride} points. Allocates nothing beyond what {@link #observe} does.
     *
     * @param state a series' state holding 1 ≤ t ≤ d samples; not advanced (local QDA's search in it is updated)
     * @param decision receives the label and the reliability (made {@link Decision#withReliability()} to read it)
     * @throws IllegalArgumentException when the state holds no sample yet
     */
    public void current(SeriesState state, Workspace ws, Decision decision) {
        if (state.time() == 0) {
            throw new IllegalArgumentException("a series with no sample has no label yet");
        }
        form(state, -1, ws);
        if (state.isComplete()) {
            decision.set(labelAt(ws.discriminants, ws.mean), 1.0);
            return;
        }
        rule.prepare(ws.rule, estimator, state, ws.mean, ws.discriminants);
        if (rule.decideAt(ws.rule, thresholds.index()) != NO_DECISION) {
            decision.set(rule.guess(ws.rule), rule.reliability(ws.rule));
        } else {
            decision.set(rule.guess(ws.rule), rule.reliabilityBelowTau(ws.rule));
        }
    }

    /**
     * A fresh per-series state for observation in any order ({@link #observeAt}): nothing observed. The univariate
     * prefix path ({@link #newState}, {@link #observe}) is separate and unchanged; this one conditions on whatever
     * set of values has arrived (thesis eq. 5.19 on the observed index set, {@link SubsetConditioner}).
     */
    public SubsetState newSubsetState() {
        SubsetState s = subsetConditioner().newState();
        s.attachPrefix(newState());
        return s;
    }

    /** Back to nothing observed, allocation-free (a state of this classifier's shape). */
    public void resetSubsetState(SubsetState state) {
        subsetConditioner().reset(state);
    }

    /**
     * The any-order conditioner of the model's complete-series model on its LDG basis — the joint Gaussian (eq. 5.19)
     * or, with the {@code gmm} estimator, the per-class mixture (eq. 5.20) — each Gaussian's factor reduced to {@link
     * SubsetConditioner#DEFAULT_RANK} directions, built on first use (O(G·D·r·(r + ℓ)) once per classifier), so
     * classifiers that only see prefixes never pay for it.
     */
    public SubsetConditioner subsetConditioner() {
        SubsetConditioner c = conditioner;
        if (c == null) {
            synchronized (this) {
                c = conditioner;
                if (c == null) {
                    CompleteSeriesSection section = completeSeries(model);
                    if (params.estimator() == EstimatorType.GMM) {
                        if (section.mixture() == null) {
                            throw missing(section, EstimatorType.GMM);
                        }
                        c = SubsetConditioner.mixture(
                                section.mixtureWeights(),
                                section.mixture(),
                                model.basis(),
                                SubsetConditioner.DEFAULT_RANK);
                    } else {
                        SeriesGaussian g =
                                section.jointGaussian().orElseThrow(() -> missing(section, EstimatorType.JOINT));
                        c = SubsetConditioner.of(g, model.basis());
                    }
                    conditioner = c;
                }
            }
        }
        return c;
    }

    /**
     * Observes the value of channel {@code channel} at time {@code t} of a series, in any order, and decides by the
     * same rule, at the same calibrated thresholds, as {@link #observe}: the conditional moments are E[Y | observed]
     * and Cov(Y | observed) over the values seen so far, the calibrated inflation κ is taken at the observed count
     * |O| of the C·d values (as at t of a prefix), and the rule is evaluated every {@link #stride()} values. When
     * the value completes the series the announced class is the complete-series label. The decision records (t,
     * channel) and the fraction observed. Allocates nothing beyond what {@link #observe} does.
     *
     * @param state the series' any-order state ({@link #newSubsetState})
     * @param t 0-based time index, 0..d−1
     * @param channel 0-based channel index, 0..C−1
     * @param rawValue the value as it arrives (before the model's standardisation), finite
     * @return {@code decision.decided()}
     * @throws IllegalArgumentException when (t, channel) is outside the series or already observed, or the value is
     *     not finite
     */
    public boolean observeAt(SubsetState state, int t, int channel, double rawValue, Workspace ws, Decision decision) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            return observe(state.prefix(), rawValue, ws, decision);
        }
        int n = conditionAt(state, index, rawValue);
        decision.at(state.lastIndex(), channels, n, state.latestPosition(), length);
        if (!DecisionStride.checks(n, stride, length)) {
            decision.set(NO_DECISION, Double.NaN);
            return false;
        }
        formSubset(state, ws);
        if (n == length) {
            decision.set(labelAt(ws.discriminants, ws.mean), 1.0);
            return true;
        }
        rule.prepareSubset(ws.rule, conditioner, state, ws.mean, ws.discriminants);
        int label = rule.decideAt(ws.rule, thresholds.index());
        double reliability = Double.NaN;
        if (label != NO_DECISION && decision.computesReliability()) {
            reliability = rule.reliability(ws.rule);
        }
        decision.set(label, reliability);
        return label != NO_DECISION;
    }

    /**
     * Observes a value like {@link #observeAt} and scores it like {@link #score}: the largest index of {@link
     * DecisionThresholds#grid()} at which the rule decides and its label (index = grid size with the complete-series
     * label when the value completes the series, −1 between two stride points). For calibration replays under an
     * observation pattern.
     */
    public void scoreAt(SubsetState state, int t, int channel, double rawValue, Workspace ws, SampleScore out) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            score(state.prefix(), rawValue, ws, out);
            return;
        }
        int n = conditionAt(state, index, rawValue);
        if (!DecisionStride.checks(n, stride, length)) {
            out.set(NO_DECISION, -1);
            return;
        }
        formSubset(state, ws);
        if (n == length) {
            out.set(labelAt(ws.discriminants, ws.mean), thresholds.gridSize());
            return;
        }
        rule.prepareSubset(ws.rule, conditioner, state, ws.mean, ws.discriminants);
        out.set(rule.guess(ws.rule), rule.scoreIndex(ws.rule));
    }

    /**
     * Conditions the state on one value without deciding: for rebuilding a series' state from its stored values
     * (after a restore, or under a new model) in their arrival order, where the decisions were already taken.
     *
     * @throws IllegalArgumentException as {@link #observeAt}
     */
    public void condition(SubsetState state, int t, int channel, double rawValue) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            SeriesState prefix = state.prefix();
            int i = prefix.time();
            estimator.update(prefix, standardized(i, rawValue));
            return;
        }
        conditionAt(state, index, rawValue);
    }

    /**
     * Decides a series that ended incomplete (an end record, idle expiry, the end of a replay with values missing)
     * by the complete-series rule applied to E[x | observed]: the classifier's label at m_y = E[Y | observed]. The
     * reliability is what the rule gives that label now (1 when every value was observed; below τ when the rule
     * would not announce it; 0 when the label is not the rule's candidate, e.g. not the class of interest). The
     * decision's (t, channel) is the last value observed. Evaluated whatever the stride; the state is not changed.
     *
     * @param decision receives the label (always a class) and, made {@link Decision#withReliability()}, the
     *     reliability
     */
    public void decideIncomplete(SubsetState state, Workspace ws, Decision decision) {
        SubsetConditioner c = subsetConditioner();
        int n = state.observedCount();
        decision.at(state.lastIndex(), channels, n, state.latestPosition(), length);
        boolean prefix = state.onPrefix();
        if (prefix && n == 0) {
            c.conditionalMean(state, ws.mean); // nothing observed: the prior mean Bᵀx̄ of either form
            formAround(ws);
        } else if (prefix) {
            form(state.prefix(), -1, ws);
        } else {
            formSubset(state, ws);
        }
        int label = labelAt(ws.discriminants, ws.mean);
        if (n == length) {
            decision.set(label, 1.0);
            return;
        }
        double reliability = Double.NaN;
        if (decision.computesReliability()) {
            if (prefix && n > 0) {
                rule.prepare(ws.rule, estimator, state.prefix(), ws.mean, ws.discriminants);
            } else {
                rule.prepareSubset(ws.rule, c, state, ws.mean, ws.discriminants);
            }
            if (rule.guess(ws.rule) != label) {
                reliability = 0.0;
            } else if (rule.decideAt(ws.rule, thresholds.index()) != NO_DECISION) {
                reliability = rule.reliability(ws.rule);
            } else {
                reliability = rule.reliabilityBelowTau(ws.rule);
            }
        }
        decision.set(label, reliability);
    }

    /**
     * When the (checked) value at time-major {@code index} continues the time-major prefix the state is still on,
     * records it there without conditioning the factor form: the caller then decides on the attached prefix state, exactly as
     * the prefix path ({@link #observe}) does, so a complete time-major arrival costs what a prefix costs and decides
     * what it decides. Returns whether it did.
     */
    private boolean deferAt(SubsetState state, int index, double rawValue) {
        if (!state.onPrefix() || index != state.observedCount()) {
            return false;
        }
        subsetConditioner().defer(state, index, standardized(index, rawValue));
        return true;
    }

    /** Standardises the (checked) value and conditions the state on it; returns the observed count. */
    private int conditionAt(SubsetState state, int index, double rawValue) {
        subsetConditioner().observe(state, index, standardized(index, rawValue));
        return state.observedCount();
    }

    /** The value at time-major index {@code index} on the scale the model was fitted on (as is without standardiser). */
    private double standardized(int index, double rawValue) {
        return standardizer == null ? rawValue : standardizer.apply(index, rawValue);
    }

    /** The time-major index of (t, channel), checked to be in the series, not yet observed, with a finite value. */
    private int checkedIndex(SubsetState state, int t, int channel, double rawValue) {
        int d = length / channels;
        if (t < 0 || t >= d || channel < 0 || channel >= channels) {
            throw new IllegalArgumentException("(t, channel) = (" + t + ", " + channel + ") is outside the series' " + d
                    + " samples × " + channels + " channels");
        }
        int index = t * channels + channel;
        if (state.isObserved(index)) {
            throw new IllegalArgumentException("(t, channel) = (" + t + ", " + channel + ") was already observed");
        }
        if (!Double.isFinite(rawValue)) {
            throw new IllegalArgumentException("value at (t, channel) = (" + t + ", " + channel + ") is " + rawValue);
        }
        return index;
    }

    /**
     * m_y = E[Y | observed] and the discriminants around it into the workspace (local QDA by the series' anchor
     * cache: the full search's Gaussians, bit for bit, with most distances certified instead of computed).
     */
    private void formSubset(SubsetState state, Workspace ws) {
        conditioner.conditionalMean(state, ws.mean);
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
    private void formAround(Workspace ws) {
        if (localQda == null) {
            ws.discriminants = linear;
            return;
        }
        localQda.classGaussians(ws.mean, ws.qda, ws.gaussians);
        ws.discriminants = quadraticFromClassGaussians(ws);
    }

    /**
     * The classifier's label for a complete series: argmax_g f_g(Bᵀs(x)) with the same discriminants
     * {@link #observe} uses at t = d.
     *
     * @param series length d, raw values
     */
    public int completeLabel(double[] series, Workspace ws) {
        model.project(series, ws.mean);
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

    private Discriminants quadraticFromClassGaussians(Workspace ws) {
        ClassGaussians g = ws.gaussians;
        for (int c = 0; c < numClasses; c++) {
            ws.quadratic.setClass(c, g.mean(c), g.variance(c), g.logPrior(c));
        }
        return ws.quadratic;
    }

    /**
     * The lower Cholesky factors of R_y(t), t = 1..d−1, packed one after another: R_y(t) of the joint estimator does
     * not depend on the observed values (docs/method.md §3.1), so the probability rule factors it once per model
     * instead of once per sample. Null when the table would exceed {@link #MAX_FACTOR_TABLE_DOUBLES}.
     */
    private static double[] factorTable(JointGaussianEstimator joint, int d, int ell) {
        int size = SymmetricPacked.size(ell);
        if ((long) d * size > MAX_FACTOR_TABLE_DOUBLES) {
            return null;
        }
        double[] table = new double[d * size];
        double[] packed = new double[size];
        for (int t = 1; t < d; t++) {
            joint.model().conditionalCovariance(t, packed);
            ClassProbability.choleskyPacked(packed, 0, table, (t - 1) * size, ell);
        }
        return table;
    }

    /** The classifier's label at y: argmax_g f_g(y), or the 3-NN vote. */
    private int labelAt(Discriminants f, double[] y) {
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

    /**
     * Scratch buffers of one thread: conditional moments, the rule's sets and probability estimator, and local
     * QDA's neighbour search. Not thread-safe.
     */
    public final class Workspace {
        private final double[] mean = new double[dims];
        private final ThresholdRule.Scratch rule = EarlyClassifier.this.rule.newScratch();
        private final LocalQda.Workspace qda = localQda == null ? null : localQda.newWorkspace();
        private final ClassGaussians gaussians = localQda == null ? null : localQda.newClassGaussians();
        private final DiagonalQuadraticDiscriminants quadratic = new DiagonalQuadraticDiscriminants(numClasses, dims);
        /** The discriminants formed at the last stride point. */
        private Discriminants discriminants;

        private Workspace() {}

        /**
         * The conditional mean m_y at the last {@link EarlyClassifier#stride() stride} point observed (a view; do not
         * modify).
         */
        public double[] conditionalMean() {
            return mean;
        }
    }
}
