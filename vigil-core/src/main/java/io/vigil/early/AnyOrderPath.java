package io.vigil.early;

import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.model.VigilModel;

/**
 * The any-order path of an {@link EarlyClassifier} (docs/method.md §7): values of a C-channel series at (t, channel)
 * in any order, conditioned on through the model's {@link SubsetConditioner} (thesis eq. 5.19 or 5.20 on the
 * observed index set), decided by the classifier's rule at its thresholds. While the values arrive as a time-major
 * prefix they are handed to the prefix path, so they are decided exactly as a prefix is. The conditioner is built on
 * first use; everything per series lives in its {@link SubsetState}, everything per thread in the caller's workspace.
 */
final class AnyOrderPath {
    private final EarlyClassifier owner;
    private final ThresholdRule rule;
    private final ClassifierPart classifier;
    private final VigilModel model;
    private final DecisionParams params;
    private final int length;
    private final int channels;
    private final int stride;
    private final int thresholdIndex;
    private final int gridSize;

    /** The any-order conditioner, built on first use ({@link #conditioner()}); null until then. */
    private volatile SubsetConditioner conditioner;

    AnyOrderPath(EarlyClassifier owner, ThresholdRule rule, ClassifierPart classifier) {
        this.owner = owner;
        this.rule = rule;
        this.classifier = classifier;
        this.model = owner.model();
        this.params = owner.params();
        this.length = owner.length();
        this.channels = owner.channels();
        this.stride = owner.stride();
        this.thresholdIndex = owner.thresholds().index();
        this.gridSize = owner.thresholds().gridSize();
    }

    /** See {@link EarlyClassifier#subsetConditioner()}. */
    SubsetConditioner conditioner() {
        SubsetConditioner c = conditioner;
        if (c == null) {
            synchronized (this) {
                c = conditioner;
                if (c == null) {
                    c = CompleteSeriesModels.conditioner(model, params.estimator());
                    conditioner = c;
                }
            }
        }
        return c;
    }

    /** See {@link EarlyClassifier#observeAt}. */
    boolean observeAt(
            SubsetState state, int t, int channel, double rawValue, EarlyClassifier.Workspace ws, Decision decision) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            return owner.observe(state.prefix(), rawValue, ws, decision);
        }
        int n = conditionAt(state, index, rawValue);
        decision.at(state.lastIndex(), channels, n, state.latestPosition(), length);
        if (!DecisionStride.checks(n, stride, length)) {
            decision.set(Decision.NO_DECISION, Double.NaN);
            return false;
        }
        formSubset(state, ws);
        if (n == length) {
            decision.set(classifier.labelAt(ws.discriminants, ws.mean), 1.0);
            return true;
        }
        rule.prepareSubset(ws.rule, conditioner, state, ws.mean, ws.discriminants);
        int label = rule.decideAt(ws.rule, thresholdIndex);
        double reliability = Double.NaN;
        if (label != Decision.NO_DECISION && decision.computesReliability()) {
            reliability = rule.reliability(ws.rule);
        }
        decision.set(label, reliability);
        return label != Decision.NO_DECISION;
    }

    /** See {@link EarlyClassifier#scoreAt}. */
    void scoreAt(
            SubsetState state, int t, int channel, double rawValue, EarlyClassifier.Workspace ws, SampleScore out) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            owner.score(state.prefix(), rawValue, ws, out);
            return;
        }
        int n = conditionAt(state, index, rawValue);
        if (!DecisionStride.checks(n, stride, length)) {
            out.set(Decision.NO_DECISION, -1);
            return;
        }
        formSubset(state, ws);
        if (n == length) {
            out.set(classifier.labelAt(ws.discriminants, ws.mean), gridSize);
            return;
        }
        rule.prepareSubset(ws.rule, conditioner, state, ws.mean, ws.discriminants);
        out.set(rule.guess(ws.rule), rule.scoreIndex(ws.rule));
    }

    /** See {@link EarlyClassifier#condition}. */
    void condition(SubsetState state, int t, int channel, double rawValue) {
        int index = checkedIndex(state, t, channel, rawValue);
        if (deferAt(state, index, rawValue)) {
            SeriesState prefix = state.prefix();
            int i = prefix.time();
            owner.estimator().update(prefix, owner.standardized(i, rawValue));
            return;
        }
        conditionAt(state, index, rawValue);
    }

    /** See {@link EarlyClassifier#decideIncomplete}. */
    void decideIncomplete(SubsetState state, EarlyClassifier.Workspace ws, Decision decision) {
        SubsetConditioner c = conditioner();
        int n = state.observedCount();
        decision.at(state.lastIndex(), channels, n, state.latestPosition(), length);
        boolean prefix = state.onPrefix();
        if (prefix && n == 0) {
            c.conditionalMean(state, ws.mean); // nothing observed: the prior mean Bᵀx̄ of either form
            classifier.formAround(ws);
        } else if (prefix) {
            owner.form(state.prefix(), -1, ws);
        } else {
            formSubset(state, ws);
        }
        int label = classifier.labelAt(ws.discriminants, ws.mean);
        if (n == length) {
            decision.set(label, 1.0);
            return;
        }
        double reliability = Double.NaN;
        if (decision.computesReliability()) {
            if (prefix && n > 0) {
                rule.prepare(ws.rule, owner.estimator(), state.prefix(), ws.mean, ws.discriminants);
            } else {
                rule.prepareSubset(ws.rule, c, state, ws.mean, ws.discriminants);
            }
            if (rule.guess(ws.rule) != label) {
                reliability = 0.0;
            } else if (rule.decideAt(ws.rule, thresholdIndex) != Decision.NO_DECISION) {
                reliability = rule.reliability(ws.rule);
            } else {
                reliability = rule.reliabilityBelowTau(ws.rule);
            }
        }
        decision.set(label, reliability);
    }

    /**
     * When the (checked) value at time-major {@code index} continues the time-major prefix the state is still on,
     * records it there without conditioning the factor form: the caller then decides on the attached prefix state,
     * exactly as the prefix path ({@link EarlyClassifier#observe}) does, so a complete time-major arrival costs what a
     * prefix costs and decides what it decides. Returns whether it did.
     */
    private boolean deferAt(SubsetState state, int index, double rawValue) {
        if (!state.onPrefix() || index != state.observedCount()) {
            return false;
        }
        conditioner().defer(state, index, owner.standardized(index, rawValue));
        return true;
    }

    /** Standardises the (checked) value and conditions the state on it; returns the observed count. */
    private int conditionAt(SubsetState state, int index, double rawValue) {
        conditioner().observe(state, index, owner.standardized(index, rawValue));
        return state.observedCount();
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

    /** m_y = E[Y | observed] and the discriminants around it into the workspace. */
    private void formSubset(SubsetState state, EarlyClassifier.Workspace ws) {
        conditioner.conditionalMean(state, ws.mean);
        classifier.formSubset(state, ws);
    }
}
