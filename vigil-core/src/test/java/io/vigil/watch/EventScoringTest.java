package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.watch.EventScoring.Kind;
import io.vigil.watch.EventScoring.ScoredRecording;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventScoringTest {
    // Exact ratios of small integers; 1e-12 only absorbs the last-bit rounding of the divisions.
    private static final double EPS = 1e-12;

    private static RecordingEvent ev(String rec, int start, int end, String label) {
        return new RecordingEvent(rec, start, end, label);
    }

    /**
     * Two recordings of half an hour at 50 Hz. Classes a and b are scored, "walk" is background.
     *
     * <pre>
     * r1: A1 a 100..199, B1 b 300..349, A2 a 500..599 (missed), W walk 700..799
     *     a@150 dup (after a@120), a@120 true (delay 20, 0.2), b@310 true (10, 0.2), a@320 false (label b event),
     *     a@400 false (outside), b@750 false (inside background)
     * r2: B2 b 1000..1099, A3 a 2000..2049, B3 b 3000..3099
     *     b@1090 true (90, 0.9), b@2010 false (inside a event), a@2040 true (40, 0.8), a@3050 false (confuses B3)
     * a: 3 events, 2 detected, 3 false, 1 duplicate -> R 2/3, P 2/5, F1 1/2
     * b: 3 events, 2 detected, 2 false              -> R 2/3, P 2/4, F1 4/7
     * macro F1 (1/2 + 4/7)/2 = 15/28, P 0.45, R 2/3; 5 false alarms in 1 h; delays 10,20,40,90 (nearest rank:
     * median 20, p90 90), fractions 0.2,0.2,0.8,0.9 (median 0.2, p90 0.9), seconds /50.
     * </pre>
     */
    private static List<ScoredRecording> handExample() {
        ScoredRecording r1 = new ScoredRecording(
                "r1",
                List.of(
                        ev("r1", 100, 199, "a"),
                        ev("r1", 300, 349, "b"),
                        ev("r1", 500, 599, "a"),
                        ev("r1", 700, 799, "walk")),
                List.of(
                        Alarm.at("r1", "a", 150),
                        Alarm.at("r1", "a", 120),
                        Alarm.at("r1", "b", 310),
                        Alarm.at("r1", "a", 320),
                        Alarm.at("r1", "a", 400),
                        Alarm.at("r1", "b", 750)),
                0.5,
                50);
        ScoredRecording r2 = new ScoredRecording(
                "r2",
                List.of(ev("r2", 1000, 1099, "b"), ev("r2", 2000, 2049, "a"), ev("r2", 3000, 3099, "b")),
                List.of(
                        Alarm.at("r2", "b", 1090),
                        Alarm.at("r2", "b", 2010),
                        Alarm.at("r2", "a", 2040),
                        Alarm.at("r2", "a", 3050)),
                0.5,
                50);
        return List.of(r1, r2);
    }

    @Test
    void scoresTrueDuplicateFalseAndMissedEventsAsComputedByHand() {
        EventScoringResult s = EventScoring.score(handExample(), List.of("a", "b"));
        EventScoringResult.ClassMetrics a = s.perClass().get("a");
        assertEquals(List.of(3L, 2L, 3L, 1L), List.of(a.events(), a.detected(), a.falseAlarms(), a.duplicates()));
        assertEquals(0.5, a.f1(), EPS);
        assertEquals(0.4, a.precision(), EPS);
        assertEquals(2.0 / 3, a.recall(), EPS);
        EventScoringResult.ClassMetrics b = s.perClass().get("b");
        assertEquals(4.0 / 7, b.f1(), EPS);
        assertEquals(0.5, b.precision(), EPS);
        assertEquals(2.0 / 3, b.recall(), EPS);
        assertEquals(List.of(3L, 2L, 2L, 0L), List.of(b.events(), b.detected(), b.falseAlarms(), b.duplicates()));
        assertEquals(Set.of("a", "b"), s.perClass().keySet());
        assertEquals(15.0 / 28, s.macro().f1(), EPS);
        assertEquals(0.45, s.macro().precision(), EPS);
        assertEquals(2.0 / 3, s.macro().recall(), EPS);
        assertEquals(5.0, s.falseAlarmsPerHour(), EPS);
        assertEquals(1, s.duplicates());
        assertEquals(List.of(6L, 4L, 5L, 10L), List.of(s.eventCount(), s.detected(), s.falseAlarms(), s.alarms()));
        assertEquals(1.0, s.hours(), EPS);
        assertEquals(20.0, s.delay().medianSamples());
        assertEquals(90.0, s.delay().p90Samples());
        assertEquals(0.2, s.delay().medianFraction(), EPS);
        assertEquals(0.9, s.delay().p90Fraction(), EPS);
        assertEquals(0.4, s.delay().medianSeconds(), EPS);
        assertEquals(1.8, s.delay().p90Seconds(), EPS);
        assertEquals(Map.of("a", Map.of("a", 2L, "missed", 1L), "b", Map.of("b", 2L, "a", 1L)), s.confusion());
    }

    @Test
    void classifiesEachAlarmInTriggerOrder() {
        ScoredRecording r1 = handExample().get(0);
        List<Kind> kinds = EventScoring.outcomes(r1.events(), r1.alarms(), Set.of("a", "b")).stream()
                .map(EventScoring.Outcome::kind)
                .toList();
        // triggers sorted: 120 true, 150 dup, 310 true, 320 false, 400 false, 750 false
        assertEquals(
                List.of(
                        Kind.TRUE_DETECTION,
                        Kind.DUPLICATE,
                        Kind.TRUE_DETECTION,
                        Kind.FALSE_ALARM,
                        Kind.FALSE_ALARM,
                        Kind.FALSE_ALARM),
                kinds);
    }

    @Test
    void eventBoundsAreInclusive() {
        List<RecordingEvent> events = List.of(ev("k", 10, 20, "a"), ev("k", 30, 40, "a"));
        List<Kind> kinds = EventScoring.outcomes(
                        events,
                        List.of(
                                Alarm.at("k", "a", 9),
                                Alarm.at("k", "a", 20),
                                Alarm.at("k", "a", 30),
                                Alarm.at("k", "a", 41)),
                        Set.of("a"))
                .stream()
                .map(EventScoring.Outcome::kind)
                .toList();
        assertEquals(List.of(Kind.FALSE_ALARM, Kind.TRUE_DETECTION, Kind.TRUE_DETECTION, Kind.FALSE_ALARM), kinds);
    }

    @Test
    void noAlarmsGivesZeroScoresAndNullDelays() {
        ScoredRecording r = new ScoredRecording("k", List.of(ev("k", 1, 5, "a")), List.of(), 2.0, Double.NaN);
        EventScoringResult s = EventScoring.score(List.of(r), null);
        assertEquals(0, s.macro().f1());
        assertEquals(0.0, s.falseAlarmsPerHour());
        assertNull(s.delay().medianSamples());
        assertNull(s.delay().medianSeconds());
        assertEquals(Map.of("a", Map.of("missed", 1L)), s.confusion());
    }

    @Test
    void scoresARecordingSetWithItsHoursAndRates() {
        // 180,000 samples at 50 Hz = 1 h; one true detection (delay 5 of a 10-sample event), one false alarm.
        Recording r = new Recording("k", List.of("x"), new double[][] {new double[180_000]}, null, 50);
        RecordingSet set = new RecordingSet(List.of(r), List.of(ev("k", 100, 109, "a")), Map.of());
        EventScoringResult s = EventScoring.score(
                set, Map.of("k", List.of(Alarm.at("k", "a", 105), Alarm.at("k", "a", 5000))), List.of("a"));
        assertEquals(1.0, s.hours(), EPS);
        assertEquals(1.0, s.falseAlarmsPerHour(), EPS);
        assertEquals(0.5, s.delay().medianFraction(), EPS);
        assertEquals(0.1, s.delay().medianSeconds(), EPS);
        assertEquals(2.0 / 3, s.macro().f1(), EPS); // P 1/2, R 1
    }

    @Test
    void serialisesWithTheContractFieldNames() throws Exception {
        EventScoringResult s = EventScoring.score(handExample(), List.of("a", "b"));
        JsonNode root = new ObjectMapper().valueToTree(s.asReportEntry());
        JsonNode events = root.get("events");
        for (String f : List.of("f1", "precision", "recall")) {
            assertTrue(events.get("macro").has(f), f);
        }
        assertEquals(15.0 / 28, events.get("macro").get("f1").asDouble(), EPS);
        assertEquals(5.0, events.get("false_alarms_per_hour").asDouble(), EPS);
        assertEquals(1, events.get("duplicates").asInt());
        for (String f : List.of("median_samples", "p90_samples", "median_fraction", "p90_fraction")) {
            assertTrue(events.get("delay").has(f), f);
        }
        assertEquals(0.4, events.get("per_class").get("a").get("precision").asDouble(), EPS);
        assertEquals(1, events.get("confusion").get("b").get("a").asInt());
    }
}
