package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.early.Decision;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.PatternReplay;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SubsetState;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The tracker with a multichannel model: values of any channel and t in any order, missing values never
 * conditioned on, the series decided early, on all its values, on its end record or at idle expiry — always as the
 * offline {@link PatternReplay} of the same values decides it; duplicates, unknown channels and t &gt; d
 * dead-lettered; no gap dead letters; sessions written and read back mid-series decide the same.
 */
class AnyOrderTrackerTest {
    private static final long TAG = 7L;
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));

    private final EarlyClassifier classifier = MultiChannelFixtures.classifier(DecisionParams.defaults());
    private final SeriesTracker tracker = new SeriesTracker(classifier, SETTINGS, "model-id", TAG);
    private final SeriesTracker.Workspace ws = tracker.newWorkspace();
    private final SeriesTrackerTest.Recorder out = new SeriesTrackerTest.Recorder();

    private SeriesSession feed(SeriesSession s, List<SampleEvent> events) {
        SeriesSession cur = s;
        for (SampleEvent e : events) {
            cur = tracker.onSample(cur, e, 5L, out, ws);
        }
        return cur;
    }

    /** What the offline replay of the first {@code n} values of the pattern, in the same order, decides. */
    private Decision offline(int i, ObservationPattern pattern, int n) {
        return offline(classifier, i, pattern, n);
    }

    /** As {@link #offline(int, ObservationPattern, int)} with another classifier. */
    private static Decision offline(EarlyClassifier classifier, int i, ObservationPattern pattern, int n) {
        Decision d = Decision.withReliability();
        SubsetState state = classifier.newSubsetState();
        int[] order = MultiChannelFixtures.order(i, pattern);
        PatternReplay.decide(
                classifier,
                state,
                MultiChannelFixtures.TEST.series(i),
                java.util.Arrays.copyOf(order, Math.min(n, order.length)),
                classifier.newWorkspace(),
                d);
        return d;
    }

    private void assertSameAs(Decision want, DecisionRecord r, String what) {
        assertSameAs(classifier, want, r, what);
    }

    private static void assertSameAs(EarlyClassifier classifier, Decision want, DecisionRecord r, String what) {
        assertEquals(classifier.classNames().get(want.label()), r.label, what);
        assertEquals(want.position(), r.t, what + ": latest position");
        assertEquals(want.time() + 1, r.triggerT, what + ": trigger t");
        assertEquals(classifier.model().channelNames().get(want.channel()), r.triggerChannel, what);
        assertEquals(want.observedFraction(), r.observedFraction, what);
        assertEquals(want.reliability(), r.reliability, 1e-12, what);
        assertEquals(384, r.length);
    }

    @ParameterizedTest
    @EnumSource(EstimatorType.class)
    void missingValuesInShuffledOrderThenTheEndRecordDecideAsOffline(EstimatorType estimator) {
        EarlyClassifier classifier =
                MultiChannelFixtures.classifier(DecisionParams.defaults().withEstimator(estimator));
        SeriesTracker tracker = new SeriesTracker(classifier, SETTINGS, "model-id", TAG);
        SeriesTracker.Workspace ws = tracker.newWorkspace();
        int incomplete = 0;
        int early = 0;
        // All observed values, and only the first 12 of them (the end record then comes before the rule decides).
        for (int cut : new int[] {Integer.MAX_VALUE, 12}) {
            for (int i = 0; i < MultiChannelFixtures.TEST.size(); i++) {
                out.decisions.clear();
                List<SampleEvent> values = MultiChannelFixtures.events(i, MultiChannelFixtures.PATTERN, 0, false);
                values = values.subList(0, Math.min(cut, values.size()));
                SeriesSession s = null;
                for (SampleEvent e : values) {
                    s = tracker.onSample(s, e, 5L, out, ws);
                }
                String id = MultiChannelFixtures.id(i);
                assertNull(tracker.onSample(s, MultiChannelFixtures.end(id, 999), 5L, out, ws), "ended");
                assertEquals(1, out.decisions.size(), "one record for series " + i);
                DecisionRecord r = out.decisions.get(0);
                assertEquals(DecisionRecord.DECIDED, r.status);
                assertSameAs(
                        classifier,
                        offline(classifier, i, MultiChannelFixtures.PATTERN, cut),
                        r,
                        estimator.id() + ", series " + i + ", cut " + cut);
                if (r.complete) {
                    assertTrue(r.early || r.t == 384, "series " + i + " decided by the rule: early or on all values");
                } else {
                    assertEquals(
                            values.size() / 384.0,
                            r.observedFraction,
                            "series " + i + " decided incomplete on all its values");
                    assertEquals(
                            values.stream()
                                    .mapToInt(e -> (e.t - 1) * 3 + e.channel + 1)
                                    .max()
                                    .getAsInt(),
                            r.t,
                            "t: the latest position observed");
                    assertFalse(r.early);
                }
                incomplete += r.complete ? 0 : 1;
                early += r.early ? 1 : 0;
            }
        }
        assertTrue(out.deadLetters.isEmpty(), "nothing dead-lettered: " + out.deadLetters);
        assertTrue(early > 0, "some series decided early");
        assertTrue(incomplete > 0, "some series ended undecided and were decided incomplete");
    }

    @Test
    void everyValueInAnyOrderEndsTheSeriesWithoutAnEndRecord() {
        ObservationPattern shuffled =
                ObservationPattern.builder().shuffled(true).seed(3).build();
        DecisionParams strict = DecisionParams.defaults().withTau(0.999);
        SeriesTracker t = new SeriesTracker(MultiChannelFixtures.classifier(strict), SETTINGS, "m", TAG);
        SeriesTracker.Workspace w = t.newWorkspace();
        SeriesSession s = null;
        for (SampleEvent e : MultiChannelFixtures.events(2, shuffled, 0, false)) {
            s = t.onSample(s, e, 0L, out, w);
        }
        assertNull(s, "all 384 values seen: the series is finished");
        assertEquals(1, out.decisions.size());
        assertTrue(out.decisions.get(0).complete);
    }

    @Test
    void duplicatesUnknownChannelsAndTBeyondDAreDeadLetteredAndNoGapIsEver() {
        String id = MultiChannelFixtures.id(0);
        SeriesSession s = feed(
                null,
                List.of(
                        MultiChannelFixtures.event(id, 100, 2, 0.5, 1),
                        MultiChannelFixtures.event(id, 3, 1, 0.1, 2),
                        MultiChannelFixtures.event(id, 100, 2, 0.6, 3), // duplicate
                        MultiChannelFixtures.event(id, 3, 3, 0.1, 4), // channel 3 of 3
                        MultiChannelFixtures.event(id, 3, 0, 0.1, 5).channel(-1, "nope"),
                        MultiChannelFixtures.event(id, 129, 0, 0.1, 6)));
        assertNotNull(s);
        assertEquals(2, s.consumed(), "two values kept");
        assertEquals(
                List.of("duplicate", "unknown_channel", "unknown_channel", "t_beyond_length"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        assertTrue(out.deadLetters.get(1).detail.contains("its channels are"), out.deadLetters.get(1).detail);
        // By name: the model's channel names work as well as indices.
        String name = classifier.model().channelNames().get(1);
        s = tracker.onSample(s, MultiChannelFixtures.event(id, 4, 0, 0.2, 7).channel(-1, name), 5L, out, ws);
        assertEquals(3, s.consumed());
        assertTrue(s.observed().seen(3 * 3 + 1), "t = 4 of channel " + name + " is value 3·C + 1");
        // Expiry long after: no gap letters, one incomplete decision from the three values.
        assertNull(tracker.onIdle(s, id, 5L + SETTINGS.idleTimeout().toMillis(), out, ws));
        assertEquals(4, out.deadLetters.size());
        assertEquals(1, out.decisions.size());
        DecisionRecord r = out.decisions.get(0);
        assertFalse(r.complete);
        assertEquals(DecisionRecord.DECIDED, r.status);
        assertEquals(4, r.triggerT);
        assertEquals(name, r.triggerChannel);
        assertEquals(3 / 384.0, r.observedFraction);
        assertEquals(99 * 3 + 2 + 1, r.t, "t: the latest position observed, t = 100 of channel 2");
    }

    @Test
    void aSessionWrittenAndReadBackMidSeriesDecidesTheSame() throws IOException {
        for (int i = 0; i < 6; i++) {
            List<SampleEvent> events = MultiChannelFixtures.events(i, MultiChannelFixtures.PATTERN, 0, true);
            out.decisions.clear();
            feed(null, events);
            DecisionRecord straight = out.decisions.get(0);
            out.decisions.clear();
            int cut = 20;
            SeriesSession s = feed(null, events.subList(0, cut));
            if (s == null || s.phase() != SeriesSession.Phase.COLLECTING) {
                continue;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            s.writeTo(new DataOutputStream(bytes));
            assertEquals(bytes.size(), s.serializedSizeBytes());
            assertEquals(
                    SeriesSession.anyOrderSizeBytes(384, false) - 12 * (384 - cut),
                    bytes.size(),
                    "the bound keeps all 384 values, 12 bytes each; " + cut + " are kept here");
            assertEquals(SeriesSession.FORMAT_VERSION_ANY_ORDER, bytes.toByteArray()[0]);
            SeriesSession back = SeriesSession.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            assertTrue(back.contentEquals(s));
            feed(back, events.subList(cut, events.size()));
            assertEquals(1, out.decisions.size());
            DecisionRecord resumed = out.decisions.get(0);
            assertEquals(straight.label, resumed.label, "series " + i);
            assertEquals(straight.t, resumed.t);
            assertEquals(straight.triggerT, resumed.triggerT);
            assertEquals(straight.reliability, resumed.reliability, 1e-9);
        }
    }

    @Test
    void aDecidedMarkerIsSmallAndStillRecognisesDuplicates() {
        SeriesTracker eager = new SeriesTracker(
                MultiChannelFixtures.classifier(DecisionParams.defaults().withTau(0.5)), SETTINGS, "m", TAG);
        SeriesTracker.Workspace w = eager.newWorkspace();
        SeriesSession s = null;
        List<SampleEvent> events = MultiChannelFixtures.events(0, ObservationPattern.complete(), 0, false);
        int k = 0;
        while (out.decisions.isEmpty()) {
            s = eager.onSample(s, events.get(k++), 0L, out, w);
        }
        assertNotNull(s, "decided early");
        assertEquals(SeriesSession.Phase.DECIDED, s.phase());
        assertEquals(SeriesSession.FIXED_BYTES + 4 + 8 * 6, s.serializedSizeBytes(), "marker: 384 arrival bits");
        assertEquals(SeriesSession.anyOrderSizeBytes(384, true), s.serializedSizeBytes());
        s = eager.onSample(s, events.get(0), 0L, out, w);
        assertEquals("duplicate", out.deadLetters.get(0).reason);
        for (int j = k; j < events.size(); j++) {
            s = eager.onSample(s, events.get(j), 0L, out, w);
        }
        assertNull(s, "the marker ends with the last value");
        assertEquals(1, out.decisions.size());
    }

    @Test
    void aUnivariateSeriesEndsOnItsEndRecordWithTheLabelItWouldGetNow() {
        EarlyClassifier uni = StreamFixtures.classifier();
        SeriesTracker t = new SeriesTracker(uni, SETTINGS, "m", TAG);
        SeriesTracker.Workspace w = t.newWorkspace();
        List<SampleEvent> events = StreamFixtures.events(4, 0);
        SeriesSession s = null;
        for (SampleEvent e : events.subList(0, 10)) {
            s = t.onSample(s, e, 0L, out, w);
        }
        s = t.onSample(s, events.get(11), 0L, out, w); // waits for t = 11, which never comes
        assertNotNull(s);
        assertTrue(out.decisions.isEmpty(), "undecided after 10 samples");
        SeriesSession copy = s.copy();
        assertNull(t.onSample(s, MultiChannelFixtures.end(StreamFixtures.id(4), 99), 0L, out, w));
        assertEquals(
                List.of("gap_unfilled"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        DecisionRecord r = out.decisions.get(0);
        assertFalse(r.complete);
        assertFalse(r.early);
        assertEquals(DecisionRecord.DECIDED, r.status);
        assertEquals(10, r.t);
        assertEquals(10, r.triggerT);
        assertEquals("0", r.triggerChannel);
        // The label is what the series would get now, as at the end of a bounded input.
        out.decisions.clear();
        t.onEndOfInput(copy, StreamFixtures.id(4), 0L, out, w);
        assertEquals(out.decisions.get(0).label, r.label);
        assertEquals(out.decisions.get(0).reliability, r.reliability);
    }

    @Test
    void withAnyOrderAUnivariateSeriesWithMissingSamplesDecidesAsOfflineWithoutGapLetters() {
        EarlyClassifier uni = StreamFixtures.classifier();
        SeriesTracker t = new SeriesTracker(uni, SETTINGS.withAnyOrder(true), "m", TAG);
        SeriesTracker.Workspace w = t.newWorkspace();
        ObservationPattern gaps =
                ObservationPattern.builder().missing(0.5).shuffled(true).seed(2).build();
        SubsetState state = uni.newSubsetState();
        Decision want = Decision.withReliability();
        for (int i = 0; i < 10; i++) {
            out.decisions.clear();
            String id = StreamFixtures.id(i);
            double[] x = StreamFixtures.TEST.series(i);
            int[] order = gaps.order(id, 1, x.length);
            SeriesSession s = null;
            for (int j : order) {
                s = t.onSample(s, StreamFixtures.event(id, j + 1, x[j], j), 0L, out, w);
            }
            if (s != null) {
                t.onSample(s, MultiChannelFixtures.end(id, 999), 0L, out, w);
            }
            PatternReplay.decide(uni, state, x, order, uni.newWorkspace(), want);
            assertEquals(1, out.decisions.size(), id);
            DecisionRecord r = out.decisions.get(0);
            assertEquals(uni.classNames().get(want.label()), r.label, id);
            assertEquals(want.position(), r.t, id);
            assertEquals(want.time() + 1, r.triggerT, id);
        }
        assertTrue(out.deadLetters.isEmpty(), "no gap dead letters: " + out.deadLetters);
        // A prefix session (restored from a job without --any-order) restarts rather than failing.
        SeriesTracker prefixOnly = new SeriesTracker(uni, SETTINGS, "m", TAG);
        SeriesSession prefix =
                prefixOnly.onSample(null, StreamFixtures.events(0, 0).get(0), 0L, out, prefixOnly.newWorkspace());
        SeriesSession restarted = t.onSample(prefix, StreamFixtures.events(0, 0).get(1), 0L, out, w);
        assertTrue(restarted.isAnyOrder());
        assertEquals(1, out.restarts);
    }
}
