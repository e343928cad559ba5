package io.vigil.stream;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.early.Decision;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.RangeGuard;
import io.vigil.gauss.SeriesState;
import java.util.List;
import java.util.Objects;

/**
 * The per-series logic of the stream job, one call per sample: orders samples by t within a bounded reorder
 * window, rejects what cannot be used (t &gt; d, duplicates, gaps beyond the window) with a reason, feeds the
 * samples in order to {@link EarlyClassifier#observe} until it announces a class, then keeps only a marker until
 * t = d. It knows nothing of Flink: the keyed function stores the {@link SeriesSession} it returns and turns
 * {@link Output} calls into records; tests call it directly.
 *
 * <p>Rules, in order, for a sample of series S (t resolved as the record's t, or the highest t seen + 1 when the
 * record has none):
 *
 * <ol>
 *   <li>no session for S: a new series starts (whatever t is; a t &gt; 1 waits for the earlier samples);
 *   <li>a session from another model or estimator (restored state after a model upgrade): an undecided series'
 *       stored prefix x(1:t) is replayed under this model first, sample by sample as if it had just arrived, so
 *       the series gets its one decision from this model ({@link Output#replayedUnderNewModel}); a decided
 *       series keeps its marker (it has had its decision); a session without a prefix (written by format
 *       version 1) is discarded and S starts afresh ({@link Output#restartedIncompatible});
 *   <li>t &gt; d: {@link DeadLetterReason#T_BEYOND_LENGTH};
 *   <li>t already consumed or buffered: {@link DeadLetterReason#DUPLICATE} (ignored idempotently);
 *   <li>t beyond the window after the next expected t: {@link DeadLetterReason#GAP_BEYOND_BUFFER};
 *   <li>t is next: consumed, then every buffered successor; otherwise buffered.
 * </ol>
 *
 * An unexpected failure while processing a sample (e.g. restored state that does not fit the model) dead-letters
 * the sample with {@link DeadLetterReason#PROCESSING_ERROR} and ends the series with one {@link
 * DecisionRecord#ERROR} record naming the reason instead of failing the job; its later samples are ignored up to t =
 * d as after a decision.
 *
 * A consumed sample updates the classifier state while no decision is out; the first decision is emitted once.
 * With the range guard on ({@link SessionSettings#rangeGuard}), a sample beyond ±K standard deviations of the
 * training series at its t marks the session, the record the series gets carries {@code out_of_range} and counts it
 * in {@code out_of_range_samples}, and {@link SessionSettings#outOfRange} says what the classifier sees of it: under
 * {@link OutOfRangePolicy#REJECT} (the default) the sample is dead-lettered as {@link DeadLetterReason#OUT_OF_RANGE}
 * and an undecided prefix series goes on observed in any order ({@link AnyOrderTracking}) with that value missing —
 * it still ends at its d-th sample; under {@link OutOfRangePolicy#CLIP} the classifier sees the nearer bound.
 * At t = d the series is finished and its session is dropped, so a later t = 1 starts a new series. A series
 * ends otherwise at its idle timeout ({@link #onIdle}) or when a bounded input ends ({@link #onEndOfInput}).
 */
public final class SeriesTracker {
    /** Receives what one call produced. */
    public interface Output {
        /** A decision, an abandoned notice or an error record. */
        void decision(DecisionRecord record);
        /** A sample that was not used. */
        void deadLetter(DeadLetter letter);

        /** A restored session from another model or estimator was discarded (it kept no prefix to replay). */
        default void restartedIncompatible(SeriesSession discarded) {}

        /** A restored undecided session from another model had its prefix replayed under this tracker's model. */
        default void replayedUnderNewModel(SeriesSession restored) {}

        /**
         * A consumed sample of an undecided series lay outside the training range ({@link RangeGuard}); the series'
         * record will be marked {@code out_of_range}.
         */
        default void outOfRange(String series, int t, double value) {}

        /** Ending a series at the end of input failed; it got an abandoned notice instead of its label. */
        default void endOfInputFailed(String series, RuntimeException failure) {}
    }

    private final EarlyClassifier classifier;
    private final SessionSettings settings;
    private final String modelId;
    private final long modelTag;
    private final int length;
    private final List<String> labels;
    private final double tau;
    /** Whether {@link #tau} is certified for this model and rule, and under which guarantee. */
    private final boolean certified;

    private final String guarantee;

    /** δ of a {@code pac} certificate of {@link #tau}, else NaN. */
    private final double delta;
    /** The range guard, or null when off. */
    private final RangeGuard guard;

    /** Channels C of the model; C &gt; 1 observes series in any order. */
    private final int channels;

    private final List<String> channelNames;
    /** Whether series are observed in any order ({@link ObservedValues}) rather than as a prefix. */
    private final boolean anyOrder;

    /** The any-order half: values at (t, channel) in any order. */
    private final AnyOrderTracking anyOrderPath;

    /**
     * A tracker for one classifier.
     *
     * @param modelId the id written in decisions (content hash of the model file)
     * @param modelTag the tag sessions are stamped with; a session with another tag is not resumed
     */
    public SeriesTracker(EarlyClassifier classifier, SessionSettings settings, String modelId, long modelTag) {
        this.classifier = Objects.requireNonNull(classifier, "classifier");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.modelId = Objects.requireNonNull(modelId, "modelId");
        this.modelTag = modelTag;
        this.length = classifier.length();
        this.labels = classifier.classNames();
        this.tau = classifier.params().tau();
        this.certified = classifier.thresholds().certified();
        this.guarantee = classifier.thresholds().guarantee();
        this.delta = classifier.thresholds().delta();
        this.guard = settings.rangeGuardOn() ? RangeGuard.of(classifier.model(), settings.rangeGuard()) : null;
        this.channels = classifier.channels();
        this.channelNames = classifier.model().channelNames();
        this.anyOrder = channels > 1 || settings.anyOrder();
        this.anyOrderPath = new AnyOrderTracking(this, guard, modelId, modelTag);
    }

    /** The classifier. */
    public EarlyClassifier classifier() {
        return classifier;
    }

    /** The settings. */
    public SessionSettings settings() {
        return settings;
    }

    /** The session tag of this tracker's model and estimator. */
    public long modelTag() {
        return modelTag;
    }

    /**
     * Processes one accepted sample.
     *
     * @param session the series' session, or null when it has none
     * @param e the sample ({@link SampleEvent#isAccepted()})
     * @param now processing time (epoch ms)
     * @param ws this thread's classifier workspace
     * @return the session to keep, or null when the series has finished (state to clear)
     */
    public SeriesSession onSample(SeriesSession session, SampleEvent e, long now, Output out, Workspace ws) {
        if (!e.isAccepted()) {
            throw new IllegalArgumentException("sample was rejected by the decoder: " + e);
        }
        try {
            return process(session, e, now, out, ws);
        } catch (RuntimeException failure) {
            // One series must not stop the job, nor vanish: the sample is dead-lettered with the cause, the series
            // ends with one error record, and a marker ignores the rest of it up to t = d.
            String reason = failure.getClass().getSimpleName() + ": " + failure.getMessage();
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.PROCESSING_ERROR,
                    reason + "; the series ended with an error record",
                    e.t,
                    now));
            int consumed = session == null ? 0 : session.consumed();
            long sampleTime = session == null ? e.timestamp : session.lastSampleTime();
            int beyond = session == null ? 0 : safeCount(session);
            if (guard != null && e.t > 0 && e.t <= guard.length() && guard.outside(e.t, e.value)) {
                beyond++;
                reason += " (after the value " + e.value + " beyond the range guard; --out-of-range reject or clip "
                        + "keeps such values out of the arithmetic)";
            }
            out.decision(DecisionRecord.error(e.series, reason, consumed, length, tau, modelId, now, sampleTime)
                    .outOfRange(session != null && session.outOfRange())
                    .outOfRangeSamples(beyond)
                    .certificate(certified, guarantee, tau, delta));
            return errorMarker(session, e, now);
        }
    }

    /**
     * The decided marker that ignores the rest of a series that ended with an error record, or null when the failing
     * sample was its last (or the marker cannot be built).
     */
    private SeriesSession errorMarker(SeriesSession session, SampleEvent e, long now) {
        try {
            int t = Math.max(e.t, session == null ? 0 : session.consumed());
            if (t >= (anyOrder ? classifier.seriesLength() : length)) {
                return null;
            }
            SeriesSession marker;
            if (anyOrder) {
                marker = SeriesSession.startAnyOrder(modelTag, length);
                if (session != null
                        && session.isAnyOrder()
                        && session.observed().length() == length) {
                    marker = session.copy().adopt(modelTag, null);
                }
            } else {
                marker = SeriesSession.start(modelTag, classifier.newState());
                marker.consumedUpTo(t);
                marker.seen(t);
            }
            marker.touch(now);
            marker.decided();
            return marker;
        } catch (RuntimeException again) {
            return null;
        }
    }

    private SeriesSession process(SeriesSession session, SampleEvent e, long now, Output out, Workspace ws) {
        if (e.end) {
            if (session == null) {
                return null;
            }
            end(session, e.series, now, out, ws, Ending.RECORD);
            return null;
        }
        int channel = channelOf(e);
        if (channel < 0) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.UNKNOWN_CHANNEL,
                    "channel " + (e.channelName != null ? "'" + e.channelName + "'" : e.channel)
                            + " is not a channel of the model; its channels are " + channelNames,
                    e.t,
                    now));
            return session;
        }
        if (anyOrder) {
            return anyOrderPath.process(session, e, channel, now, out, ws);
        }
        SeriesSession s = session;
        if (s != null && s.modelTag() != modelTag) {
            s = adopt(s, e.series, now, out, ws);
        }
        if (s != null && s.isAnyOrder()) {
            if (s.observed().length() == length) {
                // a prefix series that went on in any order after a rejected value
                return anyOrderPath.process(s, e, channel, now, out, ws);
            }
            out.restartedIncompatible(s); // an any-order session restored into a job that now observes prefixes
            s = null;
        }
        if (s == null) {
            s = SeriesSession.start(modelTag, classifier.newState());
        }
        s.touch(now);
        int t = e.t > 0 ? e.t : s.highest() + 1;
        if (t > length) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.T_BEYOND_LENGTH,
                    "t=" + t + " but the model's series length d is " + length,
                    t,
                    now));
            return keepOrDrop(s);
        }
        if (t <= s.consumed() || s.isBuffered(t)) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.DUPLICATE,
                    "t=" + t + " was already received (series consumed up to t=" + s.consumed() + ")",
                    t,
                    now));
            return keepOrDrop(s);
        }
        int window = settings.reorderWindow();
        if (t > s.consumed() + window) {
            out.deadLetter(DeadLetter.of(
                    e,
                    DeadLetterReason.GAP_BEYOND_BUFFER,
                    "t=" + t + " is " + (t - s.consumed() - 1) + " ahead of the next expected t=" + (s.consumed() + 1)
                            + "; the reorder window holds " + window,
                    t,
                    now));
            return keepOrDrop(s);
        }
        s.seen(t);
        if (t != s.consumed() + 1) {
            s.buffer(BufferedSample.of(e, t));
            return s;
        }
        if (rejects(s, t, e.value)) {
            out.deadLetter(
                    DeadLetter.of(e, DeadLetterReason.OUT_OF_RANGE, AnyOrderTracking.rejection(t, e.value), t, now));
            return anyOrderPath.divert(s, e.series, t, e.value, e.timestamp, now, out, ws);
        }
        consume(s, e.series, t, e.value, e.timestamp, now, out, ws);
        BufferedSample next;
        while (s.consumed() < length && (next = s.takeBuffered(s.consumed() + 1)) != null) {
            if (rejects(s, next.t(), next.value())) {
                out.deadLetter(DeadLetter.of(
                        e.series,
                        next,
                        DeadLetterReason.OUT_OF_RANGE,
                        AnyOrderTracking.rejection(next.t(), next.value()),
                        now));
                return anyOrderPath.divert(s, e.series, next.t(), next.value(), next.timestamp(), now, out, ws);
            }
            consume(s, e.series, next.t(), next.value(), next.timestamp(), now, out, ws);
        }
        return s.consumed() == length ? null : s;
    }

    /** Whether x(t) of an undecided prefix series is rejected ({@link OutOfRangePolicy#REJECT}). */
    private boolean rejects(SeriesSession s, int t, double value) {
        return s.phase() == SeriesSession.Phase.COLLECTING
                && settings.outOfRange() == OutOfRangePolicy.REJECT
                && guard != null
                && guard.outside(t, value);
    }

    /** {@link #outOfRangeSamples}, 0 when the session cannot say (it is what just failed). */
    private int safeCount(SeriesSession s) {
        try {
            return outOfRangeSamples(s);
        } catch (RuntimeException failure) {
            return 0;
        }
    }

    /** How many samples the series' record counts as beyond the range guard. */
    private int outOfRangeSamples(SeriesSession s) {
        if (guard == null) {
            return 0;
        }
        if (s.isAnyOrder()) {
            return anyOrderPath.outOfRangeSamples(s.observed());
        }
        int n = 0;
        if (s.hasPrefix()) {
            for (int t = 1; t <= s.consumed(); t++) {
                if (guard.outside(t, s.prefixValue(t))) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * A restored session of another model under this tracker's model (rule 2): replays the prefix, emitting the
     * decision this model takes on it, if any (stamped with the last sample's event time before the upgrade).
     *
     * @return the adopted session, or null when it could not be adopted (format 1, or the prefix reaches this
     *     model's d and the series is complete)
     */
    SeriesSession adopt(SeriesSession old, String series, long now, Output out, Workspace ws) {
        if (old.phase() == SeriesSession.Phase.DECIDED) {
            return old.consumed() >= length ? null : old.adopt(modelTag, null);
        }
        if (old.isAnyOrder() != anyOrder || (anyOrder && old.observed().length() != length)) {
            out.restartedIncompatible(old);
            return null;
        }
        if (anyOrder) {
            SeriesSession s = old.adopt(modelTag, null);
            anyOrderPath.redecide(s, series, now, out, ws);
            out.replayedUnderNewModel(old);
            return s.consumed() == length ? null : s;
        }
        if (!old.hasPrefix()) {
            out.restartedIncompatible(old);
            return null;
        }
        SeriesSession s = old.adopt(modelTag, classifier.newState());
        int replay = Math.min(old.consumed(), length);
        for (int t = 1; t <= replay; t++) {
            consume(s, series, t, old.prefixValue(t), old.lastSampleTime(), now, out, ws);
        }
        out.replayedUnderNewModel(old);
        return s.consumed() == length ? null : s;
    }

    /** A session with nothing consumed and nothing buffered is not worth keeping. */
    private static SeriesSession keepOrDrop(SeriesSession s) {
        return s.consumed() == 0 && s.bufferedCount() == 0 ? null : s;
    }

    private void consume(
            SeriesSession s, String series, int t, double value, long sampleTime, long now, Output out, Workspace ws) {
        s.consumedUpTo(t);
        if (s.phase() != SeriesSession.Phase.COLLECTING) {
            return;
        }
        s.record(t, value, sampleTime);
        if (guard != null && guard.outside(t, value)) {
            s.markOutOfRange();
            out.outOfRange(series, t, value);
        }
        SeriesState state = s.state();
        Decision d = ws.decision;
        double seen = guard != null && settings.outOfRange() == OutOfRangePolicy.CLIP ? guard.clip(t, value) : value;
        classifier.observe(state, seen, ws.classifier, d);
        if (state.time() != t) {
            throw new IllegalStateException("classifier state at t=" + state.time() + " after consuming t=" + t);
        }
        if (d.decided()) {
            out.decision(DecisionRecord.decided(
                            series, labels.get(d.label()), t, length, tau, d.reliability(), modelId, now, sampleTime)
                    .outOfRange(s.outOfRange())
                    .outOfRangeSamples(outOfRangeSamples(s))
                    .certificate(certified, guarantee, tau, delta));
            s.decided();
        }
    }

    /**
     * The 0-based channel a sample names: its index, its name looked up in the model's channel names, or 0 when it
     * names none; −1 when the model has no such channel.
     */
    private int channelOf(SampleEvent e) {
        if (e.channelName != null) {
            return channelNames.indexOf(e.channelName);
        }
        if (e.channel < 0) {
            return 0;
        }
        return e.channel < channels ? e.channel : -1;
    }

    /** When a session must expire if nothing else arrives (epoch ms). */
    public long expiryTime(SeriesSession s) {
        return s.lastActivity() + settings.idleTimeout().toMillis();
    }

    /**
     * Handles the expiry timer of a series.
     *
     * @return the session, still alive, when a sample arrived since the timer was set (re-arm it at {@link
     *     #expiryTime}); null when the series expired: an undecided series that had begun emits an abandoned
     *     notice, buffered samples are dead-lettered ({@link DeadLetterReason#LATE_SAMPLE} when t = 1 never
     *     arrived, else {@link DeadLetterReason#GAP_UNFILLED}); the state is to be cleared
     */
    public SeriesSession onIdle(SeriesSession session, String series, long now, Output out, Workspace ws) {
        if (now < expiryTime(session)) {
            return session;
        }
        end(session, series, now, out, ws, Ending.IDLE);
        return null;
    }

    /**
     * Ends a series because a bounded input ended (its state is to be cleared): an undecided series that had begun
     * emits one {@link DecisionRecord#undecided} record — t = samples consumed, the label it would get now and that
     * label's reliability ({@link EarlyClassifier#current}); buffered samples are dead-lettered as at expiry ({@link
     * DeadLetterReason#GAP_UNFILLED}, or {@link DeadLetterReason#LATE_SAMPLE} when t = 1 never arrived); a series
     * decided earlier emits nothing more. A restored undecided session of another model is replayed under this one
     * first (it may decide on its prefix); one that cannot be replayed (format 1) gets an abandoned notice.
     */
    public void onEndOfInput(SeriesSession session, String series, long now, Output out, Workspace ws) {
        try {
            end(session, series, now, out, ws, Ending.INPUT);
        } catch (RuntimeException failure) {
            // As in onSample: one series must not fail the job; its end is reported instead of a label.
            out.endOfInputFailed(series, failure);
            out.decision(abandoned(session, series, now));
        }
    }

    /** Why a series ends before all its values were consumed. */
    private enum Ending {
        /** Its idle timeout passed. */
        IDLE,
        /** The bounded input ended. */
        INPUT,
        /** Its end record arrived. */
        RECORD
    }

    /**
     * The end of a series at expiry, at the end of a bounded input, or on its end record. A univariate series ends
     * as it always has at expiry (abandoned) and at the end of input (undecided); on an end record it gets a decision
     * with {@code complete: false} from the label it would get now ({@link EarlyClassifier#current}). A series
     * observed in any order is labelled by the complete-series rule on E[x | observed] ({@link
     * EarlyClassifier#decideIncomplete}): a decision with {@code complete: false}, or at the end of input an undecided
     * record. A series decided earlier emits nothing more.
     */
    private void end(SeriesSession session, String series, long now, Output out, Workspace ws, Ending ending) {
        SeriesSession s = session;
        if (s.modelTag() != modelTag
                && s.phase() == SeriesSession.Phase.COLLECTING
                && (s.hasPrefix() || s.isAnyOrder())) {
            s = adopt(s, series, now, out, ws); // the new model may decide on the values before the series ends
            if (s == null) {
                return; // decided on them, or the series was complete or incompatible under this model
            }
        }
        // A decided marker or a format-1 session of another model ends as it is (buffered samples included).
        boolean begun = s.consumed() > 0;
        String why =
                switch (ending) {
                    case INPUT -> "the input ended";
                    case IDLE -> "series expired";
                    case RECORD -> "the series' end record arrived";
                };
        for (BufferedSample b : s.bufferedSamples()) {
            if (begun) {
                out.deadLetter(DeadLetter.of(
                        series,
                        b,
                        DeadLetterReason.GAP_UNFILLED,
                        why + " waiting for t=" + (s.consumed() + 1)
                                + (ending == Ending.IDLE ? " (idle " + settings.idleTimeout() + ")" : ""),
                        now));
            } else {
                out.deadLetter(DeadLetter.of(
                        series,
                        b,
                        DeadLetterReason.LATE_SAMPLE,
                        "t=1 of this series never arrived "
                                + switch (ending) {
                                    case INPUT -> "before the input ended";
                                    case IDLE -> "within the idle timeout " + settings.idleTimeout();
                                    case RECORD -> "before its end record";
                                }
                                + " (a sample after its series completed or expired?)",
                        now));
            }
        }
        if (!begun || s.phase() != SeriesSession.Phase.COLLECTING) {
            return;
        }
        Decision d = ws.decision;
        if (s.modelTag() != modelTag || (s.isAnyOrder() && anyOrderPath.nothingUsable(s.observed()))) {
            out.decision(abandoned(s, series, now)); // no state of this model, or every value it got was rejected
        } else if (s.isAnyOrder()) {
            classifier.decideIncomplete(anyOrderPath.subsetOf(s), ws.classifier, d);
            DecisionRecord r = ending == Ending.INPUT
                    ? undecided(s, series, d, d.position(), now)
                    : decided(s, series, d, d.position(), now);
            out.decision(r.at(d.time() + 1, channelNames.get(d.channel()), d.observedFraction())
                    .incomplete()
                    .outOfRange(s.outOfRange())
                    .outOfRangeSamples(outOfRangeSamples(s))
                    .certificate(certified, guarantee, tau, delta));
        } else if (ending == Ending.INPUT) {
            classifier.current(s.state(), ws.classifier, d);
            out.decision(undecided(s, series, d, s.consumed(), now)
                    .outOfRange(s.outOfRange())
                    .outOfRangeSamples(outOfRangeSamples(s))
                    .certificate(certified, guarantee, tau, delta));
        } else if (ending == Ending.RECORD) {
            classifier.current(s.state(), ws.classifier, d);
            out.decision(decided(s, series, d, s.consumed(), now)
                    .at(s.consumed(), channelNames.get(0), (double) s.consumed() / length)
                    .incomplete()
                    .outOfRange(s.outOfRange())
                    .outOfRangeSamples(outOfRangeSamples(s))
                    .certificate(certified, guarantee, tau, delta));
        } else {
            out.decision(abandoned(s, series, now));
        }
    }

    /**
     * A decided record at t (the samples consumed of a prefix, the latest position of values in any order): the
     * end-of-series decisions of incomplete series.
     */
    private DecisionRecord decided(SeriesSession s, String series, Decision d, int t, long now) {
        return DecisionRecord.decided(
                series, labels.get(d.label()), t, length, tau, d.reliability(), modelId, now, s.lastSampleTime());
    }

    private DecisionRecord undecided(SeriesSession s, String series, Decision d, int t, long now) {
        return DecisionRecord.undecided(
                series, labels.get(d.label()), t, length, tau, d.reliability(), modelId, now, s.lastSampleTime());
    }

    private DecisionRecord abandoned(SeriesSession s, String series, long now) {
        return DecisionRecord.abandoned(series, s.consumed(), length, tau, modelId, now, s.lastSampleTime())
                .outOfRange(s.outOfRange())
                .outOfRangeSamples(outOfRangeSamples(s))
                .certificate(certified, guarantee, tau, delta);
    }

    /**
     * Estimated heap bytes of a collecting any-order session's conditioned state and kept values at their largest
     * ({@link AnyOrderTracking#conditionedStateBytes}); what {@link ConditionedStates} charges per series.
     */
    long conditionedStateBytes() {
        return anyOrderPath.conditionedStateBytes();
    }

    /** Scratch of one thread (one operator instance): the classifier's workspace and the decision storage. */
    public Workspace newWorkspace() {
        return new Workspace(classifier);
    }

    /** Per-thread scratch for {@link #onSample}; see {@link #newWorkspace()}. Not thread-safe. */
    public static final class Workspace {
        final EarlyClassifier.Workspace classifier;
        final Decision decision = Decision.withReliability();

        private Workspace(EarlyClassifier c) {
            this.classifier = c.newWorkspace();
        }
    }
}
