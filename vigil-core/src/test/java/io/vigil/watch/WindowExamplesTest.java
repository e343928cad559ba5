package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.util.List;
import org.junit.jupiter.api.Test;

class WindowExamplesTest {
    /** Two channels; channel 0 holds the sample index, channel 1 its negation, so every window names its start. */
    private static WindowExamples.Source recording(int n, int[] starts, int[] ends, String[] labels) {
        double[][] v = new double[2][n];
        for (int i = 0; i < n; i++) {
            v[0][i] = i;
            v[1][i] = -i;
        }
        return new WindowExamples.Source("r", v, starts, ends, labels);
    }

    @Test
    void windowsAtEventStartsAreEventsAndTheRestOfTheGridIsBackground() {
        // n = 60, D = 10, S = 4 (tolerance 2): grid starts 0, 4, …, 48 (13 windows). Events start at 13 and 30;
        // grid windows within 2 of a start (12; 28, 32) are not background. The window starting at 16 (inside the
        // first event, late) and the one at 8 (straddling its start from before) are background.
        WindowExamples.Source src = recording(60, new int[] {13, 30}, new int[] {20, 41}, new String[] {"sit", "lie"});
        Dataset d = WindowExamples.build(
                "w", List.of(src), List.of("x", "y"), new WindowExamples.Params(10, 4, "bg", 1000, 1));
        assertEquals(List.of("bg", "lie", "sit"), d.classNames());
        assertEquals(2, d.channels());
        assertEquals(10, d.seriesLength());
        assertEquals(2 + 10, d.size());
        assertEquals("sit", d.labelOf(0));
        assertEquals(13.0, d.value(0, 0, 0));
        assertEquals(-22.0, d.value(0, 1, 9));
        assertEquals("lie", d.labelOf(1));
        assertEquals(30.0, d.value(1, 0, 0));
        java.util.Set<Double> backgroundStarts = new java.util.TreeSet<>();
        for (int i = 2; i < d.size(); i++) {
            assertEquals("bg", d.labelOf(i));
            backgroundStarts.add(d.value(i, 0, 0));
        }
        assertEquals(java.util.Set.of(0.0, 4.0, 8.0, 16.0, 20.0, 24.0, 36.0, 40.0, 44.0, 48.0), backgroundStarts);
    }

    /** The first-channel value of each window of {@code label}: its 0-based start. */
    private static java.util.Set<Double> startsOf(Dataset d, String label) {
        java.util.Set<Double> out = new java.util.TreeSet<>();
        for (int i = 0; i < d.size(); i++) {
            if (d.labelOf(i).equals(label)) {
                out.add(d.value(i, 0, 0));
            }
        }
        return out;
    }

    @Test
    void windowsNearAnEventAreLeftOutWhenExcluded() {
        // As above, excluding near windows: s in [start − 5, end] is left out, i.e. 8, 12, 16, 20 for the event at
        // 13..20 and 28, 32, 36, 40 for the one at 30..41. The window at 24 holds the second start in its second half.
        WindowExamples.Source src = recording(60, new int[] {13, 30}, new int[] {20, 41}, new String[] {"sit", "lie"});
        Dataset d = WindowExamples.build(
                "w", List.of(src), List.of("x", "y"), new WindowExamples.Params(10, 4, "bg", 1000, 1, true, 0, false));
        assertEquals(java.util.Set.of(0.0, 4.0, 24.0, 44.0, 48.0), startsOf(d, "bg"));
        assertEquals(java.util.Set.of(13.0), startsOf(d, "sit"));
        assertEquals(java.util.Set.of(30.0), startsOf(d, "lie"));
    }

    @Test
    void eventOffsetsGiveSeveralExamplesPerEventAndWidenTheirExclusion() {
        // K = 1: examples at start − 4, start, start + 4; grid windows within 4 + 2 of a start are not background.
        WindowExamples.Source src = recording(60, new int[] {13, 30}, new int[] {20, 41}, new String[] {"sit", "lie"});
        Dataset d = WindowExamples.build(
                "w", List.of(src), List.of("x", "y"), new WindowExamples.Params(10, 4, "bg", 1000, 1, false, 1, false));
        assertEquals(java.util.Set.of(9.0, 13.0, 17.0), startsOf(d, "sit"));
        assertEquals(java.util.Set.of(26.0, 30.0, 34.0), startsOf(d, "lie"));
        assertEquals(java.util.Set.of(0.0, 4.0, 20.0, 40.0, 44.0, 48.0), startsOf(d, "bg"));
    }

    @Test
    void backgroundSubClassesFollowTheLabelAtTheWindowsMiddle() {
        // Labelled background intervals walk 0..9 and sit-still 42..59; a window's class is the label at start + 5.
        double[][] v = recording(60, new int[0], new int[0], new String[0]).values();
        WindowExamples.Source src = new WindowExamples.Source(
                "r",
                v,
                new int[] {13, 30},
                new int[] {20, 41},
                new String[] {"sit", "lie"},
                new int[] {0, 42},
                new int[] {9, 59},
                new String[] {"walk", "still"});
        WindowExamples.Params p = new WindowExamples.Params(10, 4, "bg", 1000, 1, false, 0, true);
        Dataset d = WindowExamples.build("w", List.of(src), List.of("x", "y"), p);
        assertEquals(List.of("bg", "bg/still", "bg/walk", "lie", "sit"), d.classNames());
        assertEquals(java.util.Set.of(0.0, 4.0), startsOf(d, "bg/walk"));
        assertEquals(java.util.Set.of(40.0, 44.0, 48.0), startsOf(d, "bg/still"));
        assertEquals(java.util.Set.of(8.0, 16.0, 20.0, 24.0, 36.0), startsOf(d, "bg"));
        io.vigil.model.WindowLabelling l = RecordingWindows.labelling(d, p);
        assertEquals(List.of("bg/still", "bg/walk"), l.backgroundClasses());
        assertEquals(p, RecordingWindows.params(10, 4, "bg", 1000, 1, l));
    }

    @Test
    void backgroundIsCappedReproduciblyAndEventsNearTheEndAreSkipped() {
        WindowExamples.Source src = recording(200, new int[] {5, 195}, new int[] {9, 199}, new String[] {"a", "a"});
        WindowExamples.Params p = new WindowExamples.Params(10, 1, "bg", 7, 42);
        Dataset one = WindowExamples.build("w", List.of(src), List.of("x", "y"), p);
        Dataset two = WindowExamples.build("w", List.of(src), List.of("x", "y"), p);
        assertEquals(1 + 7, one.size());
        assertArrayEquals(one.rows(), two.rows());
        assertEquals(List.of("a", "bg"), one.classNames());
        assertArrayEquals(new int[] {1, 7}, one.classCounts());
    }

    @Test
    void defaultsAndErrors() {
        assertEquals(179, WindowExamples.defaultLength(new int[] {494, 74, 179, 120, 200}));
        assertEquals(10, WindowExamples.defaultStride(200));
        assertEquals(1, WindowExamples.defaultStride(15));
        assertThrows(IllegalArgumentException.class, () -> WindowExamples.defaultLength(new int[0]));
        WindowExamples.Source bgEvent = recording(50, new int[] {3}, new int[] {9}, new String[] {"bg"});
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> WindowExamples.build(
                        "w", List.of(bgEvent), List.of("x", "y"), new WindowExamples.Params(10, 2, "bg", 5, 1)));
        assertTrue(e.getMessage().contains("is the background label"), e.getMessage());
        IllegalArgumentException noRoom = assertThrows(
                IllegalArgumentException.class,
                () -> WindowExamples.build(
                        "w",
                        List.of(recording(12, new int[] {5}, new int[] {9}, new String[] {"a"})),
                        List.of("x", "y"),
                        new WindowExamples.Params(10, 2, "bg", 5, 1)));
        assertTrue(noRoom.getMessage().contains("no event leaves room"), noRoom.getMessage());
    }
}
