package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * Merging and re-arming on hand-made window decisions (D = 10): which decision raises the alarm, its event start,
 * trigger and delay, and when each policy lets the same class alarm again.
 */
class AlarmMergerTest {
    private static final int D = 10;

    /** An event decision of class {@code c} ("A" = 1, "B" = 2) for the window starting at {@code start}. */
    private static WindowDecision d(int c, long start, long trigger) {
        return new WindowDecision(
                "k", c == 1 ? "A" : "B", c, true, start, D, trigger, 5, true, true, 0.95, 0.9, true, "pac");
    }

    @Test
    void overlappingDecisionsOfOneClassAreOneAlarm() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.WINDOWS_CLOSED);
        AlarmEvent a = m.offer(d(1, 6, 12), 240.0);
        assertNotNull(a);
        assertEquals("A", a.label());
        assertEquals(6, a.eventStart());
        assertEquals(12, a.trigger());
        assertEquals(6, a.delaySamples());
        assertEquals(240.0, a.delayMs());
        assertEquals(6, a.windowStart());
        assertEquals("pac", a.guarantee());
        // windows 1..10 (decided later than the one that fired), 11..20 and 16..25 overlap the group's span
        assertNull(m.offer(d(1, 1, 13), Double.NaN));
        assertNull(m.offer(d(1, 11, 14), Double.NaN));
        assertNull(m.offer(d(1, 16, 19), Double.NaN)); // overlaps 11..20, which joined: the span grew to 1..25
        assertEquals(1, m.alarms());
        assertEquals(3, m.merged());
        // another class overlapping in time is its own alarm
        assertNotNull(m.offer(d(2, 6, 13), Double.NaN));
        assertEquals(2, m.alarms());
    }

    @Test
    void windowsClosedMergesUntilTheEventsWindowsHaveClosed() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.WINDOWS_CLOSED);
        assertNotNull(m.offer(d(1, 1, 8), Double.NaN)); // span 1..10
        // a window starting after the span while one starting ≤ 10 is still open: not armed, merged
        assertNull(m.offer(d(1, 21, 26), Double.NaN)); // span now 1..30
        m.release(31); // every window starting ≤ 30 has closed
        assertEquals(0, m.openGroups());
        AlarmEvent again = m.offer(d(1, 36, 40), Double.NaN);
        assertNotNull(again);
        assertEquals(36, again.eventStart());
        assertEquals(2, m.alarms());
    }

    @Test
    void releaseKeepsGroupsAWindowCanStillOverlap() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.WINDOWS_CLOSED);
        m.offer(d(1, 1, 8), Double.NaN); // span 1..10
        m.release(10); // the window starting at 10 is still open: it overlaps the span
        assertEquals(1, m.openGroups());
        assertNull(m.offer(d(1, 10, 15), Double.NaN));
        m.release(20); // span 1..19: still open windows start at 20 → closed
        assertEquals(0, m.openGroups());
    }

    @Test
    void immediateRaisesANewAlarmForTheFirstDecisionThatDoesNotOverlap() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.IMMEDIATE);
        assertNotNull(m.offer(d(1, 1, 8), Double.NaN));
        assertNull(m.offer(d(1, 6, 12), Double.NaN)); // overlaps: merged, span 1..15
        AlarmEvent second = m.offer(d(1, 16, 20), Double.NaN); // does not overlap 1..15
        assertNotNull(second);
        assertEquals(16, second.eventStart());
        // a late decision overlapping the first group joins it, not the second
        assertNull(m.offer(d(1, 11, 21), Double.NaN));
        assertEquals(2, m.alarms());
    }

    @Test
    void refractoryWaitsNSamplesAfterTheTrigger() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.refractory(30));
        assertNotNull(m.offer(d(1, 1, 8), Double.NaN)); // trigger 8: armed again from sample 38
        assertNull(m.offer(d(1, 16, 20), Double.NaN)); // not overlapping, within 30 samples: merged
        m.release(100); // all windows closed
        assertNull(m.offer(d(1, 31, 37), Double.NaN)); // no group open, still refractory: dropped
        assertEquals(1, m.dropped());
        AlarmEvent again = m.offer(d(1, 41, 45), Double.NaN);
        assertNotNull(again);
        assertEquals(45, again.trigger());
        assertEquals(2, m.alarms());
    }

    @Test
    void backgroundDecisionsAreRefused() {
        AlarmMerger m = new AlarmMerger("k", 3, RearmPolicy.IMMEDIATE);
        WindowDecision bg = new WindowDecision("k", "bg", 0, false, 1, D, 3, 3, true, true, 1, 0.9, true, "pac");
        assertThrows(IllegalArgumentException.class, () -> m.offer(bg, Double.NaN));
    }

    @Test
    void policiesParseAndPrintTheirTextForm() {
        assertEquals(RearmPolicy.WINDOWS_CLOSED, RearmPolicy.parse("windows-closed"));
        assertEquals(RearmPolicy.IMMEDIATE, RearmPolicy.parse("immediate"));
        assertEquals(RearmPolicy.refractory(25), RearmPolicy.parse("refractory:25"));
        assertEquals("refractory:25", RearmPolicy.refractory(25).toString());
        assertThrows(IllegalArgumentException.class, () -> RearmPolicy.parse("refractory:0"));
        assertThrows(IllegalArgumentException.class, () -> RearmPolicy.parse("later"));
        assertThrows(IllegalArgumentException.class, () -> RearmPolicy.refractory(0));
    }
}
