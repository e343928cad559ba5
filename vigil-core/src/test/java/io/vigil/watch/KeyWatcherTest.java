package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.EarlyDecision;
import io.vigil.api.Vigil;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The per-key watch runtime on streams made of generated CBF test series back to back, with class "1" (cylinder) as
 * the background: every window is decided as a fresh session on its slice would decide it, open windows stay within
 * ⌈D / S⌉, timeouts close windows, bad values change nothing, and alarms follow the re-arm policy.
 */
class KeyWatcherTest {
    private static final int D = 128;

    private static WindowSpec spec(Vigil v, int stride) {
        return WindowSpec.of(v, stride, "1");
    }

    @Test
    void everyWindowIsDecidedAsAFreshSessionOnItsSlice() {
        Vigil v = WatchFixtures.cbf();
        double[][] x =
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 10, 1));
        assertWindowsAsFresh(v, spec(v, 16), x);
    }

    @Test
    void multichannelWindowsAreDecidedAsFreshSessions() {
        Vigil v = WatchFixtures.multi();
        double[][] x = WatchFixtures.concat(
                WatchFixtures.MULTI.test(), WatchFixtures.shuffled(WatchFixtures.MULTI.test(), 5, 2));
        assertWindowsAsFresh(v, spec(v, 32), x);
    }

    private static void assertWindowsAsFresh(Vigil v, WindowSpec spec, double[][] x) {
        WatchReplay.Result r = WatchReplay.run(v, spec, "k", x);
        Map<Long, WindowDecision> byStart = new HashMap<>();
        for (WindowDecision d : r.windows()) {
            assertEquals(null, byStart.put(d.windowStart(), d), "one decision per window");
        }
        int n = x[0].length;
        int early = 0;
        for (long start = 1; start <= n; start += spec.stride()) {
            Optional<EarlyDecision> want = WatchFixtures.fresh(v, x, start);
            WindowDecision got = byStart.get(start);
            if (want.isEmpty()) {
                assertEquals(
                        null,
                        got,
                        "a window the recording ends inside before a decision is discarded undecided: " + start);
                continue;
            }
            assertEquals(want.get().label(), got.label(), "window " + start);
            assertEquals(want.get().t(), got.t(), "window " + start);
            assertEquals(start + (want.get().t() - 1) / v.channels(), got.trigger(), "window " + start);
            assertEquals(!got.label().equals("1"), got.event());
            early += got.early() ? 1 : 0;
        }
        assertTrue(early > 0, "some windows are decided early");
    }

    @Test
    void openWindowsNeverExceedTheCeilingOfDOverS() {
        Vigil v = WatchFixtures.cbf();
        double[][] x =
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 4, 3));
        for (int stride : new int[] {1, 7, 50, 128}) {
            WindowSpec s = spec(v, stride);
            WatchReplay.Result r = WatchReplay.run(v, s, "k", x);
            assertTrue(
                    r.maxOpenWindows() <= s.maxOpenWindows(),
                    "S=" + stride + ": " + r.maxOpenWindows() + " open > ⌈D/S⌉ = " + s.maxOpenWindows());
            assertTrue(r.maxOpenWindows() >= 1);
        }
        // with sample jumps and values arriving late, the ring still bounds the windows
        WindowSpec s = spec(v, 7);
        KeyWatcher w = new KeyWatcher(v, s, "k", new WatchListener() {});
        int max = 0;
        long sample = 1;
        for (int i = 0; i < 2000; i++) {
            sample += (i % 97 == 0) ? 40 : 1;
            w.observe(0, sample, KeyWatcher.NO_TIME, x[0][i % x[0].length]);
            int j = i % 97;
            if (j >= 1 && j <= 15) { // a value skipped by the last jump arrives late, maybe still in a window
                w.observe(0, sample - 20 - 2L * j, KeyWatcher.NO_TIME, 0.1);
            }
            max = Math.max(max, w.openWindows());
        }
        assertTrue(max <= s.maxOpenWindows(), max + " open > " + s.maxOpenWindows());
    }

    @Test
    void aJumpBeyondTheTimeoutDiscardsTheOpenWindowsAndRestartsTheGrid() {
        Vigil v = WatchFixtures.cbf();
        List<WindowDecision> seen = new ArrayList<>();
        KeyWatcher w = new KeyWatcher(v, spec(v, 16).withTimeout(50, 0), "k", collect(seen));
        double[] x = WatchFixtures.CBF.test().series(0);
        for (int i = 1; i <= 40; i++) {
            w.observe(0, i, KeyWatcher.NO_TIME, x[i - 1]);
        }
        int before = seen.size();
        assertTrue(w.openWindows() > 0);
        w.observe(0, 91, KeyWatcher.NO_TIME, 0.0); // a jump of 51 > 50
        assertEquals(1, w.timeouts());
        assertEquals(before, seen.size(), "discarded windows are not decided");
        assertEquals(1, w.openWindows(), "the grid restarts at the sample that arrived");
        w.observe(0, 92, KeyWatcher.NO_TIME, 0.0);
        w.observe(0, 90, KeyWatcher.NO_TIME, 0.0); // before the restart: late
        assertEquals(1, w.lateValues());
        w.observe(0, 140, KeyWatcher.NO_TIME, 0.0); // a jump of 48: within the timeout, windows stay
        assertEquals(1, w.timeouts());
        // 91 + 3·16 = 139 ≤ 140: windows at 91, 107, 123, 139 (91's still covers 140)
        assertEquals(4, w.windowsOpened() - 3);
    }

    @Test
    void aTimeStampGapOrASilentKeyDiscardsTheOpenWindows() {
        Vigil v = WatchFixtures.cbf();
        KeyWatcher w = new KeyWatcher(v, spec(v, 16).withTimeout(0, 1000), "k", new WatchListener() {});
        double[] x = WatchFixtures.CBF.test().series(1);
        for (int i = 1; i <= 30; i++) {
            w.observe(0, i, 20L * i, x[i - 1]);
        }
        assertTrue(w.openWindows() > 0);
        assertFalse(w.expire(20L * 30 + 1000), "exactly the timeout is not beyond it");
        assertTrue(w.expire(20L * 30 + 1001));
        assertEquals(0, w.openWindows());
        w.observe(0, 31, 20L * 31, x[30]);
        assertEquals(1, w.openWindows());
        w.observe(0, 32, 20L * 31 + 5000, x[31]); // 5 s after the last value
        assertEquals(2, w.timeouts());
        assertEquals(1, w.openWindows());
    }

    @Test
    void badValuesAreRefusedBeforeChangingAnything() {
        Vigil v = WatchFixtures.cbf();
        double[][] x = WatchFixtures.concat(WatchFixtures.CBF.test(), 0, 1, 2);
        WindowSpec s = spec(v, 32);
        List<WindowDecision> seen = new ArrayList<>();
        KeyWatcher w = new KeyWatcher(v, s, "pump-7", collect(seen));
        for (int i = 1; i <= x[0].length; i++) {
            w.observe(0, x[0][i - 1]);
            if (i == 50) {
                IllegalArgumentException dup =
                        assertThrows(IllegalArgumentException.class, () -> w.observe(0, 50, KeyWatcher.NO_TIME, 1.0));
                assertTrue(
                        dup.getMessage().contains("pump-7") && dup.getMessage().contains("already observed"));
                assertThrows(IllegalArgumentException.class, () -> w.observe(1, 0.5));
                assertThrows(IllegalArgumentException.class, () -> w.observe(0, 51, KeyWatcher.NO_TIME, 1 / 0.0));
                assertThrows(IllegalArgumentException.class, () -> w.observe(0, 0, KeyWatcher.NO_TIME, 1.0));
            }
        }
        w.close();
        assertEquals(WatchReplay.run(v, s, "pump-7", x).windows(), seen);
    }

    @Test
    void withStrideDEveryEventWindowIsItsOwnAlarmUnlessRefractory() {
        Vigil v = WatchFixtures.cbf();
        int[] bell = WatchFixtures.ofClass(WatchFixtures.CBF.test(), 1, 3);
        int[] cyl = WatchFixtures.ofClass(WatchFixtures.CBF.test(), 0, 2);
        double[][] x = WatchFixtures.concat(WatchFixtures.CBF.test(), cyl[0], bell[0], bell[1], bell[2], cyl[1]);
        WindowSpec s = spec(v, D);
        WatchReplay.Result closed = WatchReplay.run(v, s, "k", x);
        long events = closed.windows().stream().filter(WindowDecision::event).count();
        assertTrue(events >= 2, "the bells are decided as events: " + closed.windows());
        assertEquals(events, closed.alarms().size(), "windows that do not overlap never merge");
        assertEquals(
                closed.alarms(),
                WatchReplay.run(v, s.withRearm(RearmPolicy.IMMEDIATE), "k", x).alarms());
        List<AlarmEvent> refractory = WatchReplay.run(v, s.withRearm(RearmPolicy.refractory(10L * D)), "k", x)
                .alarms();
        assertEquals(
                closed.windows().stream()
                        .filter(WindowDecision::event)
                        .map(WindowDecision::label)
                        .distinct()
                        .count(),
                refractory.size(),
                "one alarm per class within the refractory period");
        for (AlarmEvent a : closed.alarms()) {
            assertEquals(a.windowStart(), a.eventStart());
            assertEquals(a.trigger() - a.eventStart(), a.delaySamples());
            assertTrue(Double.isNaN(a.delayMs()), "no time stamps, no sampling rate");
        }
        AlarmEvent first =
                WatchReplay.run(v, s.withSamplingRate(50), "k", x).alarms().get(0);
        assertEquals(first.delaySamples() * 20.0, first.delayMs(), 1e-9);
    }

    @Test
    void overlappingWindowsOfAnEventMergeIntoOneAlarm() {
        Vigil v = WatchFixtures.cbf();
        int[] bell = WatchFixtures.ofClass(WatchFixtures.CBF.test(), 1, 2);
        int[] cyl = WatchFixtures.ofClass(WatchFixtures.CBF.test(), 0, 6);
        double[][] x = WatchFixtures.concat(
                WatchFixtures.CBF.test(), cyl[0], cyl[1], bell[0], cyl[2], cyl[3], bell[1], cyl[4], cyl[5]);
        WindowSpec s = spec(v, 16);
        WatchReplay.Result closed = WatchReplay.run(v, s, "k", x);
        WatchReplay.Result immediate = WatchReplay.run(v, s.withRearm(RearmPolicy.IMMEDIATE), "k", x);
        assertEquals(closed.windows(), immediate.windows(), "the policy changes alarms only");
        long events = closed.windows().stream().filter(WindowDecision::event).count();
        assertTrue(closed.alarms().size() < events, "overlapping event windows merge");
        assertTrue(closed.alarms().size() <= immediate.alarms().size());
        for (AlarmEvent a : closed.alarms()) {
            assertTrue(closed.windows().stream()
                    .anyMatch(d -> d.event()
                            && d.label().equals(a.label())
                            && d.windowStart() == a.eventStart()
                            && d.trigger() == a.trigger()));
        }
    }

    @Test
    void arrivalOrderPerChannelIsTheSampleIndex() {
        Vigil v = WatchFixtures.multi();
        double[][] x = WatchFixtures.concat(WatchFixtures.MULTI.test(), 0, 1, 2);
        WindowSpec s = spec(v, 32);
        List<WindowDecision> seen = new ArrayList<>();
        KeyWatcher w = new KeyWatcher(v, s, "k", collect(seen));
        for (int i = 0; i < x[0].length; i++) {
            for (int c = 0; c < x.length; c++) {
                w.observe(c, x[c][i]);
            }
        }
        w.close();
        assertEquals(WatchReplay.run(v, s, "k", x).windows(), seen);
        assertFalse(seen.isEmpty());
    }

    @Test
    void delaysInMillisecondsComeFromTheTimeStamps() {
        Vigil v = WatchFixtures.cbf();
        int[] bell = WatchFixtures.ofClass(WatchFixtures.CBF.test(), 1, 2);
        double[][] x = WatchFixtures.concat(WatchFixtures.CBF.test(), bell[0], bell[1]);
        List<AlarmEvent> alarms = new ArrayList<>();
        KeyWatcher w = new KeyWatcher(v, spec(v, D).withSamplingRate(1), "k", new WatchListener() {
            @Override
            public void alarm(AlarmEvent alarm) {
                alarms.add(alarm);
            }
        });
        for (int i = 1; i <= x[0].length; i++) {
            w.observeSample(new double[] {x[0][i - 1]}, 1000L + 3L * i * i); // irregular time stamps
        }
        assertFalse(alarms.isEmpty());
        for (AlarmEvent a : alarms) {
            long start = a.eventStart();
            long trigger = a.trigger();
            assertEquals(3.0 * (trigger * trigger - start * start), a.delayMs(), 0.0, "time stamps, not the rate");
        }
    }

    private static WatchListener collect(List<WindowDecision> into) {
        return new WatchListener() {
            @Override
            public void window(WindowDecision decision) {
                into.add(decision);
            }
        };
    }
}
