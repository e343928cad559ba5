package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.SessionGroup;
import io.vigil.api.Vigil;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Windows whose sessions share one workspace ({@link SessionGroup}: per key, or one for several keys watched on one
 * thread, as the stream operator does) against windows with a workspace each: the same window decisions — label,
 * start, trigger, t, reliability, every field — and the same alarms, bit for bit (the workspace is scratch that every
 * call overwrites before reading, so no tolerance is needed). On a univariate model, a multichannel one, and one
 * whose local QDA searches its large classes by k-d trees.
 */
class SharedSessionsTest {
    /** Decisions and alarms of one key. */
    private record Seen(List<WindowDecision> windows, List<AlarmEvent> alarms) implements WatchListener {
        Seen() {
            this(new ArrayList<>(), new ArrayList<>());
        }

        @Override
        public void window(WindowDecision d) {
            windows.add(d);
        }

        @Override
        public void alarm(AlarmEvent a) {
            alarms.add(a);
        }
    }

    @Test
    void univariate() {
        Vigil v = WatchFixtures.cbf();
        assertSame(
                v,
                WindowSpec.of(v, 8, "1"),
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 12, 1)),
                WatchFixtures.concat(
                        WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 12, 2)));
    }

    @Test
    void multichannel() {
        Vigil v = WatchFixtures.multi();
        assertSame(
                v,
                WindowSpec.of(v, 16, "1"),
                WatchFixtures.concat(
                        WatchFixtures.MULTI.test(), WatchFixtures.shuffled(WatchFixtures.MULTI.test(), 8, 3)),
                WatchFixtures.concat(
                        WatchFixtures.MULTI.test(), WatchFixtures.shuffled(WatchFixtures.MULTI.test(), 8, 4)));
    }

    @Test
    void kdTreeSearches() {
        Vigil v = WatchFixtures.large();
        assertSame(
                v,
                WindowSpec.of(v, 8, "1"),
                WatchFixtures.concat(
                        WatchFixtures.LARGE.test(), WatchFixtures.shuffled(WatchFixtures.LARGE.test(), 12, 5)),
                WatchFixtures.concat(
                        WatchFixtures.LARGE.test(), WatchFixtures.shuffled(WatchFixtures.LARGE.test(), 12, 6)));
    }

    @Test
    void aGroupOfAnotherModelIsRefused() {
        Vigil v = WatchFixtures.cbf();
        Vigil other = WatchFixtures.multi();
        assertThrows(
                IllegalArgumentException.class,
                () -> new KeyWatcher(v, WindowSpec.of(v, 8, "1"), "k", new Seen(), other.newSessionGroup()));
    }

    /**
     * Two keys fed value by value in turn, time-major per key: once with one group for both (the operator's
     * sharing), once with a workspace per window; decisions and alarms must be equal.
     */
    private static void assertSame(Vigil v, WindowSpec spec, double[][] a, double[][] b) {
        SessionGroup group = v.newSessionGroup();
        Seen sharedA = new Seen();
        Seen sharedB = new Seen();
        Seen ownA = new Seen();
        Seen ownB = new Seen();
        KeyWatcher[] watchers = {
            new KeyWatcher(v, spec, "a", sharedA, group),
            new KeyWatcher(v, spec, "b", sharedB, group),
            new KeyWatcher(v, spec, "a", ownA, null),
            new KeyWatcher(v, spec, "b", ownB, null)
        };
        double[][][] streams = {a, b, a, b};
        int n = Math.min(a[0].length, b[0].length);
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < a.length; c++) {
                for (int w = 0; w < watchers.length; w++) {
                    watchers[w].observe(c, i + 1, KeyWatcher.NO_TIME, streams[w][c][i]);
                }
            }
        }
        assertFalse(ownA.windows().isEmpty());
        assertTrue(ownA.windows().stream().anyMatch(WindowDecision::early), "some windows decide early");
        assertEquals(ownA.windows(), sharedA.windows());
        assertEquals(ownB.windows(), sharedB.windows());
        assertEquals(ownA.alarms(), sharedA.alarms());
        assertEquals(ownB.alarms(), sharedB.alarms());
    }
}
