package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.Vigil;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A window spec's validation, its bound ⌈D / S⌉ and its check against the model that decides the windows. */
class WindowSpecTest {
    private static WindowSpec spec(int d, int s, List<String> events, String bg) {
        return new WindowSpec(d, s, events, bg, RearmPolicy.WINDOWS_CLOSED, 0, 0, Double.NaN);
    }

    @Test
    void theBoundIsTheCeilingOfDOverS() {
        assertEquals(20, spec(200, 10, List.of("a"), "bg").maxOpenWindows());
        assertEquals(19, spec(128, 7, List.of("a"), "bg").maxOpenWindows());
        assertEquals(1, spec(128, 128, List.of("a"), "bg").maxOpenWindows());
        assertEquals(128, spec(128, 1, List.of("a"), "bg").maxOpenWindows());
    }

    @Test
    void badSpecsAreRefusedNamingWhy() {
        assertMessage("stride S must be in 1..D", () -> spec(128, 0, List.of("a"), "bg"));
        assertMessage("stride S must be in 1..D", () -> spec(128, 129, List.of("a"), "bg"));
        assertMessage("window length D must be ≥ 1", () -> spec(0, 1, List.of("a"), "bg"));
        assertMessage("at least one event label", () -> spec(128, 8, List.of(), "bg"));
        assertMessage("is also an event label", () -> spec(128, 8, List.of("a", "bg"), "bg"));
        assertMessage("repeat", () -> spec(128, 8, List.of("a", "a"), "bg"));
        assertMessage(
                "timeouts must be ≥ 0", () -> spec(128, 8, List.of("a"), "bg").withTimeout(-1, 0));
        assertMessage("sampling rate", () -> spec(128, 8, List.of("a"), "bg").withSamplingRate(0));
    }

    @Test
    void aSpecIsCheckedAgainstTheModel() {
        Vigil v = WatchFixtures.cbf();
        WindowSpec s = WindowSpec.of(v, 16, "1");
        assertEquals(List.of("2", "3"), s.eventLabels());
        assertEquals(128, s.length());
        assertMessage(
                "differs from the model's series length",
                () -> new KeyWatcher(v, spec(100, 10, List.of("2"), "1"), "k", new WatchListener() {}));
        assertMessage("is not one of the model's classes", () -> spec(128, 8, List.of("4"), "1")
                .check(v));
        assertMessage("is not one of the model's classes", () -> WindowSpec.of(v, 8, "quiet"));
    }

    @Test
    void backgroundSubClassesOfTheSectionAreSilent() {
        Vigil v = WatchFixtures.cbf();
        io.vigil.model.WindowSection section = new io.vigil.model.WindowSection(
                16, "1", 50.0, "immediate", new io.vigil.model.WindowLabelling(true, 1, List.of("3")));
        WindowSpec s = WindowSpec.of(v, section);
        assertEquals(List.of("2"), s.eventLabels());
        assertEquals("1", s.backgroundLabel());
        assertEquals(RearmPolicy.IMMEDIATE, s.rearm());
        // Windows labelled "3" (class index 2) raise nothing: the sub-class ends silently; "2" (index 1) alarms.
        CompleteWindows.Labels labels = new CompleteWindows.Labels(new long[] {1, 17, 33}, new int[] {2, 2, 1});
        List<AlarmEvent> alarms = CompleteWindows.alarms(v.model(), s, "k", labels);
        assertEquals(1, alarms.size(), alarms.toString());
        assertEquals("2", alarms.get(0).label());
        assertEquals(33, alarms.get(0).eventStart());
    }

    private static void assertMessage(String part, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
