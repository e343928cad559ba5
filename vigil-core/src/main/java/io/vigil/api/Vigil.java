package io.vigil.api;

import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.model.Projection;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Vigil embedded in a program: a trained model ready to decide series early (thesis ch. 5), one {@link VigilSession}
 * per series. {@link #load} reads a model file written by {@code vigil train} (or {@link VigilTrainer}) and decides at
 * the operating point the model stores — the τ, rule, classifier and estimator chosen and certified on cross-fitted
 * training replays — exactly as {@code vigil evaluate} and {@code vigil run} do without flags ({@link
 * DecisionOverrides}); {@link #of(VigilModel, DecisionOverrides)} overrides parts of it.
 *
 * <p>Immutable and thread-safe: share one instance between threads and open a session per series on each.
 *
 * <pre>{@code
 * Vigil vigil = Vigil.load(Path.of("cbf.model"));
 * VigilSession series = vigil.newSession();
 * for (double x : values) {
 *     Optional<EarlyDecision> d = series.observe(x);
 *     if (d.isPresent()) { System.out.println(d.get().label()); break; }
 * }
 * }</pre>
 */
public final class Vigil {
    private final VigilModel model;
    private final DecisionParams params;
    private final EarlyClassifier classifier;

    private Vigil(VigilModel model, DecisionParams params) {
        this.model = Objects.requireNonNull(model, "model");
        if (!model.projection().isLinear()) {
            throw new IllegalArgumentException(Projection.NON_LINEAR);
        }
        this.params = Objects.requireNonNull(params, "params");
        this.classifier = EarlyClassifier.of(model, params);
    }

    /**
     * Loads and validates a model file and decides at its operating point.
     *
     * @throws IOException when the file cannot be read or is not a valid model (the message names the file and why)
     * @throws IllegalArgumentException when the model holds no early-decision sections (kernel LDG), or is a window
     *     model (those watch streams: {@link io.vigil.model.WindowModels})
     */
    public static Vigil load(Path modelFile) throws IOException {
        VigilModel model = ModelFile.standard().load(modelFile);
        WindowModels.requireSeriesModel(model, modelFile.toString());
        return of(model);
    }

    /** A model, deciding at its operating point (the defaults for a model without one). */
    public static Vigil of(VigilModel model) {
        return of(model, DecisionOverrides.none());
    }

    /** A model with parts of its operating point overridden ({@link DecisionOverrides#resolve}). */
    public static Vigil of(VigilModel model, DecisionOverrides overrides) {
        return new Vigil(model, overrides.resolve(model));
    }

    /** A model deciding with exactly these parameters. */
    public static Vigil of(VigilModel model, DecisionParams params) {
        return new Vigil(model, params);
    }

    /**
     * A new series, with nothing observed. The session is confined to one thread at a time (it owns the series'
     * state and scratch space); open one per concurrent series.
     */
    public VigilSession newSession() {
        return new VigilSession(this, classifier.newWorkspace());
    }

    /**
     * A group of sessions that share one scratch workspace ({@link SessionGroup}): for many series decided on one
     * thread, e.g. the overlapping windows of a watched key or every key of a stream operator, whose sessions then
     * hold only their series' state.
     */
    public SessionGroup newSessionGroup() {
        return new SessionGroup(this);
    }

    /** The model. */
    public VigilModel model() {
        return model;
    }

    /** The decision parameters in force (resolved from the model's operating point and the overrides). */
    public DecisionParams params() {
        return params;
    }

    /** The early classifier the sessions decide with. */
    public EarlyClassifier classifier() {
        return classifier;
    }

    /** Class labels, index = {@link EarlyDecision#classIndex()}. */
    public List<String> classNames() {
        return classifier.classNames();
    }

    /** Channels C of a series. */
    public int channels() {
        return classifier.channels();
    }

    /** Samples per channel d. */
    public int seriesLength() {
        return classifier.seriesLength();
    }

    /** Whether decisions at {@link #params()}'s τ are certified for this model. */
    public boolean certified() {
        return classifier.thresholds().certified();
    }

    /**
     * A warning when the model was calibrated for another complete-series estimator than the one these decisions use
     * (they are then not certified), else empty.
     */
    public Optional<String> warning() {
        return DecisionOverrides.otherEstimatorWarning(model, params, "the model");
    }
}
