package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SeriesTracker} after a model upgrade: restored sessions of another model or estimator are replayed under the
 * new one, kept as decided markers, or discarded when they cannot be replayed (format 1).
 */
class SeriesTrackerUpgradeTest {
    private static final long TAG = 42L;
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));

    private final EarlyClassifier classifier = StreamFixtures.classifier();
    private final SeriesTracker tracker = new SeriesTracker(classifier, SETTINGS, "model-id", TAG);
    private final SeriesTracker.Workspace ws = tracker.newWorkspace();
    private final SeriesTrackerTest.Recorder out = new SeriesTrackerTest.Recorder();

    private SeriesSession feed(SeriesSession s, List<SampleEvent> events) {
        SeriesSession cur = s;
        for (SampleEvent e : events) {
            cur = tracker.onSample(cur, e, 0L, out, ws);
        }
        return cur;
    }

    @Test
    void endOfInputReplaysAnUndecidedSessionOfAnotherModelFirst() {
        SeriesTracker old = strictTracker();
        List<SampleEvent> events = StreamFixtures.events(5, 0);
        SeriesSession s = feed(old, old.newWorkspace(), null, events.subList(0, 2));
        assertTrue(out.decisions.isEmpty());
        tracker.onEndOfInput(s, StreamFixtures.id(5), 0L, out, ws);
        assertEquals(1, out.decisions.size());
        assertEquals(DecisionRecord.UNDECIDED, out.decisions.get(0).status);
        assertEquals("model-id", out.decisions.get(0).model, "replayed under this tracker's model");
        assertEquals(2, out.decisions.get(0).t);
    }

    /** A tracker of the same model file with τ = 0.99: another tag, later decisions than {@link #tracker}. */
    private static SeriesTracker strictTracker() {
        EarlyClassifier strict = EarlyClassifier.of(EarlyFixtures.CBF_MODEL, StreamFixtures.PARAMS.withTau(0.99));
        return new SeriesTracker(strict, SETTINGS, "strict-model", TAG + 1);
    }

    /** Feeds {@code events} to {@code tr} (workspace {@code w}), starting from {@code s}. */
    private SeriesSession feed(SeriesTracker tr, SeriesTracker.Workspace w, SeriesSession s, List<SampleEvent> events) {
        SeriesSession cur = s;
        for (SampleEvent e : events) {
            cur = tr.onSample(cur, e, 0L, out, w);
        }
        return cur;
    }

    /**
     * A model upgrade at every possible cut of every test series: the series gets exactly one decision, and when it
     * was undecided at the upgrade it is the new model's offline decision (label and t), whether the new model
     * would have decided before the cut (emitted at once from the replayed prefix) or after it.
     */
    @Test
    void upgradeReplaysTheUndecidedPrefixUnderTheNewModel() throws IOException {
        SeriesTracker old = strictTracker();
        SeriesTracker.Workspace oldWs = old.newWorkspace();
        List<SeriesDecision> before = EarlyReplay.replay(old.classifier(), StreamFixtures.TEST);
        List<SeriesDecision> after = StreamFixtures.offlineDecisions();
        int replayedEarlier = 0;
        int checked = 0;
        for (int i = 0; i < StreamFixtures.TEST.size(); i += 3) {
            List<SampleEvent> events = StreamFixtures.events(i, 0);
            for (int cut = 1; cut < events.size(); cut += 7) {
                out.decisions.clear();
                SeriesSession s = feed(old, oldWs, null, events.subList(0, cut));
                boolean decidedBefore = before.get(i).t() <= cut;
                SeriesSession restored = SeriesTrackerTest.roundTrip(s);
                assertNull(feed(tracker, ws, restored, events.subList(cut, events.size())), "ends at t = d");
                assertEquals(1, out.decisions.size(), "one decision, series " + i + " cut " + cut);
                DecisionRecord r = out.decisions.get(0);
                SeriesDecision expected = decidedBefore ? before.get(i) : after.get(i);
                assertEquals(decidedBefore ? "strict-model" : "model-id", r.model, "series " + i + " cut " + cut);
                assertEquals(expected.t(), r.t, "series " + i + " cut " + cut);
                assertEquals(classifier.classNames().get(expected.label()), r.label);
                if (!decidedBefore && after.get(i).t() <= cut) {
                    replayedEarlier++;
                }
                checked++;
            }
        }
        assertTrue(replayedEarlier > 0, "some cuts fall after the new model's decision time: " + replayedEarlier);
        assertTrue(checked > 100, "cuts checked: " + checked);
    }

    @Test
    void anUpgradedSessionKeepsItsBufferedSamplesAndExpiresWithTheLastSampleTime() {
        SeriesTracker old = strictTracker();
        List<SampleEvent> events = StreamFixtures.events(5, 0);
        SeriesSession s = feed(old, old.newWorkspace(), null, events.subList(0, 3));
        s = old.onSample(s, events.get(4), 0L, out, old.newWorkspace()); // t = 5 waits for t = 4
        assertEquals(1, s.bufferedCount());
        assertEquals(events.get(2).timestamp, s.lastSampleTime());
        assertNull(tracker.onIdle(s, StreamFixtures.id(5), Long.MAX_VALUE / 2, out, ws));
        assertEquals(1, out.decisions.size());
        DecisionRecord abandoned = out.decisions.get(0);
        assertEquals(DecisionRecord.ABANDONED, abandoned.status);
        assertEquals("model-id", abandoned.model, "replayed under the new model before it expired");
        assertEquals(3, abandoned.t);
        assertEquals(events.get(2).timestamp, abandoned.sampleTime, "the last sample's time, not 0");
        assertEquals(
                List.of("gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
    }

    @Test
    void aDecidedMarkerOfAnotherModelIsKeptAndGivesNoSecondDecision() {
        SeriesTracker old = strictTracker();
        List<SampleEvent> events = StreamFixtures.events(0, 0);
        int decidedAt =
                EarlyReplay.replay(old.classifier(), StreamFixtures.TEST).get(0).t();
        SeriesSession s = feed(old, old.newWorkspace(), null, events.subList(0, decidedAt));
        assertEquals(SeriesSession.Phase.DECIDED, s.phase());
        assertEquals(1, out.decisions.size());
        SeriesSession next = tracker.onSample(s, events.get(decidedAt), 0L, out, ws);
        assertEquals(TAG, next.modelTag());
        assertEquals(decidedAt + 1, next.consumed());
        assertNull(feed(next, events.subList(decidedAt + 1, events.size())));
        assertEquals(1, out.decisions.size(), "no second decision after the upgrade");
        assertTrue(out.deadLetters.isEmpty());
    }

    @Test
    void aFormatOneSessionOfAnotherModelIsDiscardedAndTheSeriesRestarts() throws IOException {
        SeriesTracker old = strictTracker();
        SeriesSession v2 =
                feed(old, old.newWorkspace(), null, StreamFixtures.events(3, 0).subList(0, 2));
        SeriesSession v1 = formatOne(v2);
        assertFalse(v1.hasPrefix());
        SeriesSession s = tracker.onSample(v1, StreamFixtures.events(3, 0).get(0), 0L, out, ws);
        assertEquals(1, out.restarts);
        assertEquals(TAG, s.modelTag());
        assertEquals(1, s.consumed());
    }

    @Test
    void sessionsOfAnotherModelThatCannotBeReplayedExpireAsTheyAre() throws IOException {
        SeriesTracker old = strictTracker();
        SeriesTracker.Workspace oldWs = old.newWorkspace();
        List<SampleEvent> events = StreamFixtures.events(4, 0);
        SeriesSession v2 = feed(old, oldWs, null, events.subList(0, 2));
        v2 = old.onSample(v2, events.get(3), 0L, out, oldWs); // t = 4 waits for t = 3
        SeriesSession v1 = formatOne(v2);
        v1.buffer(v2.bufferedSamples()[0]);
        assertNull(tracker.onIdle(v1, StreamFixtures.id(4), Long.MAX_VALUE / 2, out, ws));
        assertEquals(
                List.of(DecisionRecord.ABANDONED),
                out.decisions.stream().map(r -> r.status).toList());
        assertEquals(2, out.decisions.get(0).t);
        assertEquals(
                List.of("gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
    }

    /** {@code collecting} as format 1 wrote it (no sample time, no prefix, nothing buffered), read back. */
    private static SeriesSession formatOne(SeriesSession collecting) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream o = new DataOutputStream(bytes);
        o.writeByte(1);
        o.writeLong(collecting.modelTag());
        o.writeByte(0);
        o.writeInt(collecting.consumed());
        o.writeInt(collecting.highest());
        o.writeLong(collecting.lastActivity());
        o.writeLong(collecting.timerAt());
        collecting.state().writeTo(o);
        o.writeInt(0);
        return SeriesSession.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }
}
