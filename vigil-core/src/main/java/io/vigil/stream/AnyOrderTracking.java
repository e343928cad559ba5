package io.vigil.stream;

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
 */
final class AnyOrderTracking {
    private final SeriesTracker owner;
    private final EarlyClassifier classifier;
    private final RangeGuard guard;
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
        v.add(index, e.value);
        s.consumedUpTo(v.count());
        s.seen(v.count());
        s.lastSampleTime(e.timestamp);
        if (state != null) {
            if (guard != null && guard.outside(index + 1, e.value)) {
                s.markOutOfRange();
                out.outOfRange(e.series, t, e.value);
            }
            Decision d = ws.decision;
            if (classifier.observeAt(state, t - 1, channel, e.value, ws.classifier, d)) {
                emitDecided(s, e.series, d, now, e.timestamp, out);
            }
        }
        return v.count() == length ? null : s;
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
                classifier.condition(state, j / channels, j % channels, v.valueAt(i));
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
            if (classifier.observeAt(state, j / channels, j % channels, v.valueAt(i), ws.classifier, d)) {
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
                .certificate(certified, guarantee, tau, delta));
        s.decided();
    }
}
