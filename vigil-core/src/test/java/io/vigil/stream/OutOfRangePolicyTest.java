package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.early.EarlyClassifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the tracker does with extreme values and with failures: the {@code --out-of-range} policies and the one
 * {@code "status":"error"} record that ends a series whose processing failed.
 */
class OutOfRangePolicyTest {
    private static final long TAG = 42L;
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));

    private final EarlyClassifier classifier = StreamFixtures.classifier();
    private final SeriesTracker tracker = new SeriesTracker(classifier, SETTINGS, "model-id", TAG);
    private final SeriesTracker.Workspace ws = tracker.newWorkspace();
    private final SeriesTrackerTest.Recorder out = new SeriesTrackerTest.Recorder();

    /**
     * The default policy rejects ±1e308 before it reaches the arithmetic: dead-lettered as out_of_range, the prefix
     * series goes on in any order with that value missing and still ends at its d-th sample with one record that
     * counts the rejected samples.
     */
    @Test
    void theDefaultPolicyRejectsExtremeValuesAndTheSeriesGoesOnWithThemMissing() {
        List<SampleEvent> events = new ArrayList<>(StreamFixtures.events(7, 0));
        events.set(1, StreamFixtures.event(StreamFixtures.id(7), 2, -1e308, 1));
        events.set(4, StreamFixtures.event(StreamFixtures.id(7), 5, 1e308, 4));
        SeriesSession s = null;
        for (SampleEvent e : events) {
            s = tracker.onSample(s, e, 0L, out, ws);
        }
        assertNull(s, "the series ended at its d-th sample");
        assertEquals(
                List.of("out_of_range", "out_of_range"),
                out.deadLetters.stream().map(d -> d.reason).toList());
        assertEquals(1, out.decisions.size(), out.decisions.toString());
        DecisionRecord r = out.decisions.get(0);
        assertEquals(DecisionRecord.DECIDED, r.status);
        assertEquals(2, r.outOfRangeSamples);
        assertTrue(r.outOfRange);
        assertTrue(r.reliability >= 0.0 && r.reliability <= 1.0, r.toString());
    }

    @Test
    void aFailureWhileProcessingEndsTheSeriesWithOneErrorRecord() {
        // A session stamped with this model's tag but holding state of another shape (d = 10): observe() refuses it.
        SeriesSession misfit = SeriesSession.start(TAG, new io.vigil.gauss.SeriesState(10, 2, 1));
        List<SampleEvent> events = StreamFixtures.events(0, 0);
        SeriesSession marker = tracker.onSample(misfit, events.get(0), 0L, out, ws);
        assertEquals(1, out.deadLetters.size());
        DeadLetter d = out.deadLetters.get(0);
        assertEquals("processing_error", d.reason);
        assertTrue(d.detail.contains("IllegalArgumentException"), d.detail);
        assertEquals(1, out.decisions.size());
        DecisionRecord error = out.decisions.get(0);
        assertEquals(DecisionRecord.ERROR, error.status);
        assertTrue(error.error.contains("IllegalArgumentException"), error.error);
        assertTrue(new String(StreamJson.decision(error), java.nio.charset.StandardCharsets.UTF_8)
                .contains("\"status\":\"error\""));
        SeriesSession s = marker;
        for (SampleEvent e : events.subList(1, events.size())) {
            s = tracker.onSample(s, e, 0L, out, ws);
        }
        assertNull(s, "the marker ends at t = d");
        assertEquals(1, out.decisions.size(), "the rest of the series is ignored: " + out.decisions);
        assertEquals(1, out.deadLetters.size());
        assertNotNull(tracker.onSample(null, events.get(0), 0L, out, ws), "a new series starts with the next t = 1");
    }

    /** Clip feeds the bound to the classifier: the series decides as usual and its record counts the sample. */
    @Test
    void clipUsesTheBoundAndCountsTheSample() {
        SeriesTracker clip = new SeriesTracker(classifier, SETTINGS.withOutOfRange(OutOfRangePolicy.CLIP), "m", TAG);
        List<SampleEvent> events = new ArrayList<>(StreamFixtures.events(7, 0));
        events.set(2, StreamFixtures.event(StreamFixtures.id(7), 3, 1e308, 2));
        SeriesSession s = null;
        for (SampleEvent e : events) {
            s = clip.onSample(s, e, 0L, out, ws);
        }
        assertNull(s);
        assertTrue(out.deadLetters.isEmpty(), out.deadLetters.toString());
        assertEquals(1, out.decisions.size());
        assertEquals(1, out.decisions.get(0).outOfRangeSamples);
        assertTrue(Double.isFinite(out.decisions.get(0).reliability));
    }
}
