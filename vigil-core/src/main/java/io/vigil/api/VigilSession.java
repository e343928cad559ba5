package io.vigil.api;

import io.vigil.early.Decision;
import io.vigil.early.EarlyClassifier;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetState;
import java.util.Optional;

/**
 * One series being decided: it owns the series' state, the scratch space and the decision, takes the values as they
 * arrive and announces the class once — the first time the reliable early rule decides (thesis §5.3) — and never
 * again. {@link #end()} decides a series that stops before that. Decisions are those of {@code vigil evaluate} for the
 * same model, parameters and arrival order, value for value.
 *
 * <p><b>Arrival.</b> {@link #observe(double)} takes the next value of the time-major stream (for C channels: t = 1
 * channel 0..C−1, then t = 2, …); a {@code NaN} there is a missing value, never conditioned on. {@link #observe(int,
 * int, double)} takes the value of one channel at one t in any order. While values arrive in time-major order the
 * session runs the prefix recursion ({@link EarlyClassifier#observe}, allocation-free); the first value out of that
 * order, or the first missing one, moves it to conditioning on the observed index set ({@link
 * EarlyClassifier#observeAt}, thesis eq. 5.19), which for a multichannel model builds the model's any-order
 * conditioner once.
 *
 * <p><b>Threads.</b> Not thread-safe: confine a session to one thread at a time (hand it over with the usual
 * happens-before, e.g. through a queue); open one session per concurrent series from the shared, thread-safe {@link
 * Vigil}. Sessions of one {@link SessionGroup} share their scratch workspace and so all belong to the group's one
 * thread. {@link #reset()} starts a new series reusing the session's memory.
 */
public final class VigilSession {
    private final Vigil vigil;
    private final EarlyClassifier classifier;
    private final EarlyClassifier.Workspace workspace;
    private final Decision decision = Decision.withReliability();
    private final int channels;
    private final int length;
    /** The prefix recursion's state while the values arrive in time-major order. */
    private final SeriesState prefix;
    /** The time-major prefix's raw values, to condition the any-order state on when the session leaves that order. */
    private final double[] prefixValues;
    /** The any-order state, made the first time a value arrives out of time-major order or goes missing; kept by reset. */
    private SubsetState subsetState;
    /** Whether the series is conditioned in any order ({@link #subsetState}) rather than as a prefix. */
    private boolean inAnyOrder;
    /** Values observed in time-major order so far (while not {@link #inAnyOrder}). */
    private int consumed;
    /** The time-major index {@link #observe(double)} takes next: one after the highest index given or skipped. */
    private int cursor;

    private EarlyDecision result;

    /** A session deciding with {@code workspace} as its scratch (its own, or its {@link SessionGroup}'s). */
    VigilSession(Vigil vigil, EarlyClassifier.Workspace workspace) {
        this.vigil = vigil;
        this.classifier = vigil.classifier();
        this.workspace = workspace;
        this.channels = classifier.channels();
        this.length = classifier.length();
        this.prefix = classifier.newState();
        this.prefixValues = new double[length];
    }

    /**
     * The next value of the time-major stream; {@code NaN} marks it missing.
     *
     * @return the decision the first time the rule announces a class, else empty (always empty after it)
     * @throws IllegalArgumentException when the value is infinite
     * @throws IllegalStateException when the series already has all C·d values
     */
    public Optional<EarlyDecision> observe(double value) {
        if (cursor >= length) {
            throw new IllegalStateException("the series already has all " + length + " values");
        }
        int index = cursor;
        return observeIndex(index, value);
    }

    /**
     * The value of {@code channel} at time {@code t}, in any order; {@code NaN} marks it missing.
     *
     * @param channel 0-based channel, 0..C−1 (as a sample record's {@code channel})
     * @param t 1-based time, 1..d (as a sample record's {@code t})
     * @return the decision the first time the rule announces a class, else empty (always empty after it)
     * @throws IllegalArgumentException when (channel, t) is outside the series or was already observed, or the value is
     *     infinite
     */
    public Optional<EarlyDecision> observe(int channel, int t, double value) {
        if (channel < 0 || channel >= channels) {
            throw new IllegalArgumentException(
                    "channel " + channel + " is not a channel of the model (0.." + (channels - 1) + ")");
        }
        if (t < 1 || t > length / channels) {
            throw new IllegalArgumentException("t=" + t + " is outside the series (1.." + length / channels + ")");
        }
        return observeIndex((t - 1) * channels + channel, value);
    }

    private Optional<EarlyDecision> observeIndex(int index, double value) {
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException(
                    "value at t=" + (index / channels + 1) + ", channel " + index % channels + " is " + value);
        }
        if (!inAnyOrder && index < consumed) {
            throw new IllegalArgumentException(
                    "t=" + (index / channels + 1) + ", channel " + index % channels + " was already observed");
        }
        cursor = Math.max(cursor, index + 1);
        if (result != null) {
            return Optional.empty();
        }
        if (Double.isNaN(value)) {
            anyOrder(); // a missing value is never conditioned on, so what follows is no longer a prefix
            return Optional.empty();
        }
        boolean decided;
        if (!inAnyOrder && index == consumed) {
            prefixValues[consumed++] = value;
            decided = classifier.observe(prefix, value, workspace, decision);
        } else {
            decided = classifier.observeAt(anyOrder(), index / channels, index % channels, value, workspace, decision);
        }
        if (!decided) {
            return Optional.empty();
        }
        result = decision(decision.observed() < length, true);
        return Optional.of(result);
    }

    /**
     * The series ended: its decision if it never got one — the classifier's label at E[x | observed], the complete
     * series' conditional mean given the values observed ({@link EarlyClassifier#decideIncomplete}), as {@code vigil
     * evaluate} decides a series whose observed values run out — else empty. The session is then done; {@link
     * #reset()} starts a new series.
     */
    public Optional<EarlyDecision> end() {
        if (result != null) {
            return Optional.empty();
        }
        classifier.decideIncomplete(anyOrder(), workspace, decision);
        result = decision(false, decision.observed() == length);
        return Optional.of(result);
    }

    /** The series' decision once it was announced (by {@link #observe} or {@link #end}), else empty. */
    public Optional<EarlyDecision> decision() {
        return Optional.ofNullable(result);
    }

    /** Whether the series has had its decision. */
    public boolean isDecided() {
        return result != null;
    }

    /** A new series with nothing observed, reusing this session's memory. */
    public void reset() {
        prefix.reset();
        if (inAnyOrder) {
            classifier.resetSubsetState(subsetState);
        }
        inAnyOrder = false;
        consumed = 0;
        cursor = 0;
        result = null;
    }

    /** The vigil this session decides with. */
    public Vigil vigil() {
        return vigil;
    }

    /**
     * The any-order state, made on first need from the time-major prefix observed so far (conditioned on without
     * deciding: the rule did not decide on it).
     */
    private SubsetState anyOrder() {
        if (!inAnyOrder) {
            if (subsetState == null) {
                subsetState = classifier.newSubsetState();
            }
            for (int i = 0; i < consumed; i++) {
                classifier.condition(subsetState, i / channels, i % channels, prefixValues[i]);
            }
            inAnyOrder = true;
        }
        return subsetState;
    }

    private EarlyDecision decision(boolean early, boolean complete) {
        int label = decision.label();
        return new EarlyDecision(
                vigil.classNames().get(label),
                label,
                decision.position(),
                length,
                decision.observed(),
                early,
                complete,
                decision.reliability(),
                vigil.params().tau(),
                vigil.certified());
    }
}
