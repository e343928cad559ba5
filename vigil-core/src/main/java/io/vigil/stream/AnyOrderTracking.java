package io.vigil.stream;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.early.Decision;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.RangeGuard;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import java.util.List;

/**
 * The any-order half of a {@link SeriesTracker} (docs/method.md §7): values of a C-channel series at (t, channel) in
 * any order, kept in the session's {@link ObservedValues} and conditioned on through {@link
 * EarlyClassifier#observeAt} while undecided; the series is finished once all C·d values arrived. The rules shared
 * with prefixes (adopting a session of another model, ending a series) stay in the tracker.
 *
 * <p>Values are kept raw; what the classifier sees of a value beyond the range guard follows the {@link
 * OutOfRangePolicy}, applied again whenever the state is rebuilt: rejected values are kept (they count as arrived, so
 * the series still ends on its C·d-th value) but never conditioned on, clipped ones are conditioned on at the bound.
 * A series whose last value arrives while a rejected value left it incomplete is labelled as an incomplete series
 * ({@link EarlyClassifier#decideIncomplete}).
 */
final class AnyOrderTracking {
    private final SeriesTracker owner;
    private final EarlyClassifier classifier;
    private final RangeGuard guard;
    private final OutOfRangePolicy policy;
    private final String modelId;
    private final long modelTag;
    private final int length;
    private final int channels;
    private final int seriesLength;
    private final List<String> labels;
    private final List<String> channelNames;
    private final double tau;
    private final boolean certified;
    private final String guarantee;

    /** δ of a {@code pac} certificate of {@link #tau}, else NaN. */
    private final double delta;

    /** {@link #conditionedStateBytes}, once estimated (0 before). */
    private long stateBytes;

    AnyOrderTracking(SeriesTracker owner, RangeGuard guard, String modelId, long modelTag) {
        this.owner = owner;
        this.classifier = owner.classifier();
        this.guard = guard;
        this.policy = owner.settings().outOfRange();
        this.modelId = modelId;
        this.modelTag = modelTag;
        this.length = classifier.length();
        this.channels = classifier.channels();
        this.seriesLength = classifier.seriesLength();
        this.labels = classifier.classNames();
        this.channelNames = classifier.model().channelNames();
        this.tau = classifier.params().tau();
        this.certified = classifier.thresholds().certified();
        this.guarantee = classifier.thresholds().guarantee();
        this.delta = classifier.thresholds().delta();
    }

    /**
     * A value of a series observed in any order: t &gt; d and a (t, channel) already received are dead-lettered;
     * otherwise the value is kept and, while undecided, conditioned on ({@link EarlyClassifier#observeAt}). The series
     * is finished once all C·d values arrived.
     */
    SeriesSession process(
            SeriesSession session,
            SampleEvent e,
            int channel,
            long now,
            SeriesTracker.Output out,
            SeriesTracker.Workspace ws) {
        SeriesSession s = session;
        if (s != null && s.modelTag() != modelTag) {
            s = owner.adopt(s, e.series, now, out, ws);
        }
        if (s != null && !s.isAnyOrder()) {
            out.restartedIncompatible(s); // a prefix session restored into a job that now observes in any order
            s = null;
        }
        if (s == null) {
            s = SeriesSession.startAnyOrder(modelTag, length);
        }
        s.touch(now);
        ObservedValues v = s.observed();
        int t = e.t > 0 ? e.t : v.highestOn(channel, channels) + 1;
        if (t > seriesLength) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.T_BEYOND_LENGTH,
                    "t=" + t + " but the model's series length d is " + seriesLength,
                    t,
                    now));
            return s.consumed() == 0 ? null : s;
        }
        int index = (t - 1) * channels + channel;
        if (v.seen(index)) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.DUPLICATE,
                    "t=" + t + ", channel " + channelNames.get(channel) + " was already received (" + v.count() + " of "
                            + length + " values seen)",
                    t,
                    now));
            return s.consumed() == 0 ? null : s;
        }
        SubsetState state = s.phase() == SeriesSession.Phase.COLLECTING ? subsetOf(s) : null;
        if (state != null && rejects(index, e.value)) {
            out.deadLetter(DeadLetter.of(e, DeadLetterReason.OUT_OF_RANGE, rejection(t, e.value), t, now));
        }
        return accept(s, e.series, t, channel, e.value, e.timestamp, state, now, out, ws);
    }

    /**
     * Keeps a value that passed the checks and, while collecting ({@code state} non-null), conditions on it as the
     * policy says; emits the decision it triggers, or the incomplete-series decision when it is the last value but a
     * rejected one is missing.
     *
     * @return the session, or null once all C·d values arrived
     */
    SeriesSession accept(
            SeriesSession s,
            String series,
            int t,
            int channel,
            double value,
            long sampleTime,
            SubsetState state,
            long now,
            SeriesTracker.Output out,
            SeriesTracker.Workspace ws) {
        int index = (t - 1) * channels + channel;
        ObservedValues v = s.observed();
        v.add(index, value);
        s.consumedUpTo(v.count());
        s.seen(v.count());
        s.lastSampleTime(sampleTime);
        if (state != null) {
            if (guard != null && guard.outside(index + 1, value)) {
                s.markOutOfRange();
                out.outOfRange(series, t, value);
            }
            Decision d = ws.decision;
            if (!rejects(index, value)
                    && classifier.observeAt(state, t - 1, channel, effective(index, value), ws.classifier, d)) {
                emitDecided(s, series, d, now, sampleTime, out);
            } else if (v.count() == length) {
                classifier.decideIncomplete(state, ws.classifier, d);
                out.decision(DecisionRecord.decided(
                                series,
                                labels.get(d.label()),
                                d.position(),
                                length,
                                tau,
                                d.reliability(),
                                modelId,
                                now,
                                sampleTime)
                        .at(d.time() + 1, channelNames.get(d.channel()), d.observedFraction())
                        .incomplete()
                        .outOfRange(s.outOfRange())
                        .outOfRangeSamples(outOfRangeSamples(v))
                        .certificate(certified, guarantee, tau, delta));
                s.decided();
            }
        }
        return v.count() == length ? null : s;
    }

    /**
     * An undecided prefix series whose x(t) was rejected goes on observed in any order, x(t) missing (docs/method.md
     * §7): its prefix x(1:t−1), the rejected value (kept, never conditioned on) and its buffered samples move into an
     * any-order session, which decides on what arrives as an any-order series does and still ends at its d-th sample.
     *
     * @return the any-order session, or null when the series is complete
     */
    SeriesSession divert(
            SeriesSession s,
            String series,
            int t,
            double value,
            long sampleTime,
            long now,
            SeriesTracker.Output out,
            SeriesTracker.Workspace ws) {
        SeriesSession a = SeriesSession.startAnyOrder(modelTag, length);
        a.touch(now);
        if (s.outOfRange()) {
            a.markOutOfRange();
        }
        for (int i = 1; i < t; i++) {
            a.observed().add(i - 1, s.prefixValue(i));
        }
        a.consumedUpTo(a.observed().count());
        a.seen(a.observed().count());
        a.lastSampleTime(s.lastSampleTime());
        SeriesSession next = accept(a, series, t, 0, value, sampleTime, subsetOf(a), now, out, ws);
        for (BufferedSample b : s.bufferedSamples()) {
            if (next == null) {
                return null;
            }
            boolean collecting = next.phase() == SeriesSession.Phase.COLLECTING;
            if (collecting && rejects(b.t() - 1, b.value())) {
                out.deadLetter(DeadLetter.of(
                        series, b, DeadLetterReason.OUT_OF_RANGE, AnyOrderTracking.rejection(b.t(), b.value()), now));
            }
            next = accept(
                    next, series, b.t(), 0, b.value(), b.timestamp(), collecting ? subsetOf(next) : null, now, out, ws);
        }
        return next;
    }

    /** Whether the value at time-major index {@code index} is left out ({@link OutOfRangePolicy#REJECT}). */
    boolean rejects(int index, double value) {
        return guard != null && policy == OutOfRangePolicy.REJECT && guard.outside(index + 1, value);
    }

    /** The value the classifier sees: clipped to the guard under {@link OutOfRangePolicy#CLIP}, else as it came. */
    private double effective(int index, double value) {
        return guard != null && policy == OutOfRangePolicy.CLIP ? guard.clip(index + 1, value) : value;
    }

    /** The dead-letter detail of a rejected value. */
    static String rejection(int t, double value) {
        return "value " + value + " at t=" + t + " lies beyond the range guard (±K training standard deviations); "
                + "--out-of-range reject: the series goes on with this value missing";
    }

    /** Whether every kept value was rejected, so there is nothing to condition on (a series with no usable value). */
    boolean nothingUsable(ObservedValues v) {
        for (int i = 0; i < v.arrivals(); i++) {
            if (!rejects(v.indexAt(i), v.valueAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** How many kept values lie beyond the range guard (0 once decided, when no values are kept). */
    int outOfRangeSamples(ObservedValues v) {
        if (guard == null) {
            return 0;
        }
        int n = 0;
        for (int i = 0; i < v.arrivals(); i++) {
            if (guard.outside(v.indexAt(i) + 1, v.valueAt(i))) {
                n++;
            }
        }
        return n;
    }

    /**
     * The conditioned state of a collecting any-order session, rebuilt from its kept values in arrival order when
     * absent (after a restore, a copy, or under a new model).
     */
    SubsetState subsetOf(SeriesSession s) {
        ObservedValues v = s.observed();
        SubsetState state = v.subset();
        if (state == null) {
            state = classifier.newSubsetState();
            for (int i = 0; i < v.arrivals(); i++) {
                int j = v.indexAt(i);
                if (!rejects(j, v.valueAt(i))) {
                    classifier.condition(state, j / channels, j % channels, effective(j, v.valueAt(i)));
                }
            }
            v.subset(state);
        }
        return state;
    }

    /**
     * Estimated heap bytes of a collecting any-order session's conditioned state and kept values at their largest (D
     * values): the reduced Gaussians' q² + ℓq + ℓ² doubles and vectors each ({@link SubsetConditioner#stateDoubles}),
     * the prefix path's state, the time-major prefix and its working vector (D doubles each) and the kept values (12
     * bytes each); what {@link ConditionedStates} charges per series.
     */
    long conditionedStateBytes() {
        if (stateBytes == 0) {
            SubsetConditioner c = classifier.subsetConditioner();
            long l = c.reducedDimension();
            SeriesState prefixState = classifier.newState();
            long g = prefixState.components();
            stateBytes = Double.BYTES * c.stateDoubles()
                    + length / 8
                    + Double.BYTES * (g * (length + 2 * l + 1) + 2L * length)
                    + 12L * length
                    + 512;
        }
        return stateBytes;
    }

    /**
     * An undecided any-order session under this tracker's model (a model upgrade): its kept values go through the
     * new classifier in arrival order, which may decide on them (the record stamped with the last value's time).
     */
    void redecide(SeriesSession s, String series, long now, SeriesTracker.Output out, SeriesTracker.Workspace ws) {
        ObservedValues v = s.observed();
        if (s.phase() != SeriesSession.Phase.COLLECTING) {
            return;
        }
        SubsetState state = classifier.newSubsetState();
        v.subset(state);
        Decision d = ws.decision;
        for (int i = 0; i < v.arrivals(); i++) {
            int j = v.indexAt(i);
            if (guard != null && guard.outside(j + 1, v.valueAt(i))) {
                s.markOutOfRange();
            }
            if (rejects(j, v.valueAt(i))) {
                continue;
            }
            if (classifier.observeAt(state, j / channels, j % channels, effective(j, v.valueAt(i)), ws.classifier, d)) {
                emitDecided(s, series, d, now, s.lastSampleTime(), out);
                return;
            }
        }
    }

    /**
     * The decision record of an any-order series (with its triggering value) and the session marked decided; its t is
     * the position of the latest value observed ({@link Decision#position()}), as {@code vigil evaluate} reports it.
     */
    private void emitDecided(
            SeriesSession s, String series, Decision d, long now, long sampleTime, SeriesTracker.Output out) {
        out.decision(DecisionRecord.decided(
                        series,
                        labels.get(d.label()),
                        d.position(),
                        length,
                        tau,
                        d.reliability(),
                        modelId,
                        now,
                        sampleTime)
                .at(d.time() + 1, channelNames.get(d.channel()), d.observedFraction())
                .outOfRange(s.outOfRange())
                .outOfRangeSamples(outOfRangeSamples(s.observed()))
                .certificate(certified, guarantee, tau, delta));
        s.decided();
    }
}
