package io.vigil.early;

import io.vigil.classify.qda.ClassGaussianSearch;
import io.vigil.classify.qda.ClassGaussians;
import io.vigil.classify.qda.LocalQda;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.ldg.Standardizer;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.DiagonalQuadraticDiscriminants;
import io.vigil.reliability.Discriminants;
import java.util.List;
import java.util.Objects;

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

    /** See {@link CompleteSeriesModels#MAX_FACTOR_TABLE_DOUBLES}. */
    static final long MAX_FACTOR_TABLE_DOUBLES = CompleteSeriesModels.MAX_FACTOR_TABLE_DOUBLES;

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
    /** The classifier whose discriminants the rule bounds (local QDA, linear SVM) or whose labels it counts (3-NN). */
    private final ClassifierPart classifier;
    /** Observation in any order ({@link #observeAt}). */
    private final AnyOrderPath anyOrder;

    private final int classOfInterest;
    private final int length;
    /** Samples between two evaluations of the rule ({@link DecisionStride}). */
    private final int stride;

    private final int dims;
    private final int numClasses;
    /** Channels C of the model; the input vector is time-major, value (t, c) at t·C + c. */
    private final int channels;

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
        this.classifier = ClassifierPart.of(model, params, estimator, screened);
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
        double[] factors = null;
        if (params.rule() == DecisionRule.PROBABILITY && estimator instanceof JointGaussianEstimator joint) {
            factors = CompleteSeriesModels.factorTable(joint, length, dims);
        }
        this.rule = new ThresholdRule(
                params, thresholds, dims, numClasses, classOfInterest, length, classifier.points(), factors);
        this.anyOrder = new AnyOrderPath(this, rule, classifier);
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
        return CompleteSeriesModels.estimator(model, type);
    }

    /**
     * The model's joint-Gaussian estimator (thesis eq. 5.19 projected on the LDG basis).
     *
     * @throws IllegalArgumentException when the model has no complete_series section or no joint Gaussian in it
     */
    public static JointGaussianEstimator jointEstimator(VigilModel model) {
        return CompleteSeriesModels.jointEstimator(model);
    }

    private static EarlyClassifier of(VigilModel model, DecisionParams params, boolean screened, double[] grid) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(params, "params");
        return new EarlyClassifier(model, params, estimator(model, params.estimator()), screened, grid);
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
    void form(SeriesState state, int step, Workspace ws) {
        estimator.conditionalMean(state, ws.mean);
        classifier.formPrefix(state, step, ws);
    }

    /**
     * Feeds the next sample without deciding: standardises it and updates the conditional Gaussian only, so a
     * fixed-prefix decision reads {@link #current} once the prefix is in (no rule is evaluated on the way).
     *
     * @throws IllegalArgumentException when the value is not finite
     * @throws IllegalStateException when the state already holds d samples
     */
    public void feed(SeriesState state, double rawValue) {
        if (!Double.isFinite(rawValue)) {
            throw new IllegalArgumentException("sample " + (state.time() + 1) + " is " + rawValue);
        }
        estimator.update(state, standardized(state.time(), rawValue));
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
        SubsetState s = anyOrder.conditioner().newState();
        s.attachPrefix(newState());
        return s;
    }

    /** Back to nothing observed, allocation-free (a state of this classifier's shape). */
    public void resetSubsetState(SubsetState state) {
        anyOrder.conditioner().reset(state);
    }

    /**
     * The any-order conditioner of the model's complete-series model on its LDG basis — the joint Gaussian (eq. 5.19)
     * or, with the {@code gmm} estimator, the per-class mixture (eq. 5.20) — each Gaussian's factor reduced to {@link
     * SubsetConditioner#DEFAULT_RANK} directions, built on first use (O(G·D·r·(r + ℓ)) once per classifier), so
     * classifiers that only see prefixes never pay for it.
     */
    public SubsetConditioner subsetConditioner() {
        return anyOrder.conditioner();
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
        return anyOrder.observeAt(state, t, channel, rawValue, ws, decision);
    }

    /**
     * Observes a value like {@link #observeAt} and scores it like {@link #score}: the largest index of {@link
     * DecisionThresholds#grid()} at which the rule decides and its label (index = grid size with the complete-series
     * label when the value completes the series, −1 between two stride points). For calibration replays under an
     * observation pattern.
     */
    public void scoreAt(SubsetState state, int t, int channel, double rawValue, Workspace ws, SampleScore out) {
        anyOrder.scoreAt(state, t, channel, rawValue, ws, out);
    }

    /**
     * Conditions the state on one value without deciding: for rebuilding a series' state from its stored values
     * (after a restore, or under a new model) in their arrival order, where the decisions were already taken.
     *
     * @throws IllegalArgumentException as {@link #observeAt}
     */
    public void condition(SubsetState state, int t, int channel, double rawValue) {
        anyOrder.condition(state, t, channel, rawValue);
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
        anyOrder.decideIncomplete(state, ws, decision);
    }

    /** The value at time-major index {@code index} on the scale the model was fitted on (as is without standardiser). */
    double standardized(int index, double rawValue) {
        return standardizer == null ? rawValue : standardizer.apply(index, rawValue);
    }

    /**
     * The classifier's label for a complete series: argmax_g f_g(Bᵀs(x)) with the same discriminants
     * {@link #observe} uses at t = d.
     *
     * @param series length d, raw values
     */
    public int completeLabel(double[] series, Workspace ws) {
        model.project(series, ws.mean);
        return classifier.completeLabel(ws);
    }

    /** The search kept in the state, or null (for tests of the accelerator's life cycle). */
    ClassGaussianSearch searchOf(SeriesState state) {
        return classifier.searchOf(state);
    }

    /** The classifier's label at y: argmax_g f_g(y), or the 3-NN vote. */
    private int labelAt(Discriminants f, double[] y) {
        return classifier.labelAt(f, y);
    }

    /**
     * Scratch buffers of one thread: conditional moments, the rule's sets and probability estimator, and local
     * QDA's neighbour search. Not thread-safe.
     */
    public final class Workspace {
        final double[] mean = new double[dims];
        final ThresholdRule.Scratch rule = EarlyClassifier.this.rule.newScratch();
        final LocalQda.Workspace qda = classifier.newQdaWorkspace();
        final ClassGaussians gaussians = classifier.newClassGaussians();
        final DiagonalQuadraticDiscriminants quadratic = new DiagonalQuadraticDiscriminants(numClasses, dims);
        /** The discriminants formed at the last stride point. */
        Discriminants discriminants;

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
