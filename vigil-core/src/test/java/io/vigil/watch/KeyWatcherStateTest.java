package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.Vigil;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A watcher restored from a checkpoint (through its serialised form) continues exactly as the uninterrupted one:
 * same window decisions and same alarms after the restore, at checkpoints taken anywhere in the stream, for a
 * univariate stream and for a three-channel one with values missing (windows conditioning in any order).
 */
class KeyWatcherStateTest {
    @Test
    void aRestoredWatcherContinuesAsTheUninterruptedOne() throws IOException {
        Vigil v = WatchFixtures.cbf();
        double[][] x =
                WatchFixtures.concat(WatchFixtures.CBF.test(), WatchFixtures.shuffled(WatchFixtures.CBF.test(), 6, 5));
        assertRestoresExactly(v, WindowSpec.of(v, 16, "1"), x, new int[] {1, 77, 300, 301, 555});
    }

    @Test
    void multichannelWithMissingValuesRestoresExactly() throws IOException {
        Vigil v = WatchFixtures.multi();
        double[][] x = WatchFixtures.concat(
                WatchFixtures.MULTI.test(), WatchFixtures.shuffled(WatchFixtures.MULTI.test(), 4, 6));
        for (int i = 0; i < x[0].length; i += 7) {
            x[i % 3][i] = Double.NaN;
        }
        assertRestoresExactly(
                v, WindowSpec.of(v, 32, "1").withRearm(RearmPolicy.refractory(100)), x, new int[] {50, 129, 260, 400});
    }

    @Test
    void aStateOfAnotherShapeIsRefused() {
        Vigil v = WatchFixtures.cbf();
        KeyWatcher w = new KeyWatcher(v, WindowSpec.of(v, 16, "1"), "k", new WatchListener() {});
        w.observe(0, 0.5);
        KeyWatcherState s = w.snapshot();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> KeyWatcher.restore(v, WindowSpec.of(v, 32, "1"), "k", new WatchListener() {}, s));
        assertTrue(e.getMessage().contains("does not fit"), e.getMessage());
    }

    private static void assertRestoresExactly(Vigil v, WindowSpec spec, double[][] x, int[] checkpoints)
            throws IOException {
        Recorder whole = new Recorder();
        KeyWatcher w = new KeyWatcher(v, spec, "k", whole);
        feed(w, x, 0, x[0].length);
        w.close();
        for (int at : checkpoints) {
            Recorder before = new Recorder();
            KeyWatcher first = new KeyWatcher(v, spec, "k", before);
            feed(first, x, 0, at);
            KeyWatcherState state = roundTrip(first.snapshot());
            Recorder after = new Recorder();
            KeyWatcher second = KeyWatcher.restore(v, spec, "k", after, state);
            assertEquals(first.openWindows(), second.openWindows());
            feed(second, x, at, x[0].length);
            second.close();
            List<Object> joined = new ArrayList<>(before.events);
            joined.addAll(after.events);
            assertEquals(whole.events, joined, "restored at sample " + at);
            assertEquals(w.merger().alarms(), second.merger().alarms());
            assertEquals(w.windowsOpened(), second.windowsOpened());
        }
        assertTrue(whole.events.stream().anyMatch(e -> e instanceof AlarmEvent), "the stream raises alarms");
    }

    private static void feed(KeyWatcher w, double[][] x, int from, int to) {
        for (int i = from; i < to; i++) {
            for (int c = 0; c < x.length; c++) {
                w.observe(c, i + 1L, 1000L + 20L * i, x[c][i]);
            }
        }
    }

    private static KeyWatcherState roundTrip(KeyWatcherState s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        s.writeTo(new DataOutputStream(bytes));
        return KeyWatcherState.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
    }

    /** Window decisions and alarms, in order. */
    private static final class Recorder implements WatchListener {
        final List<Object> events = new ArrayList<>();

        @Override
        public void window(WindowDecision decision) {
            events.add(decision);
        }

        @Override
        public void alarm(AlarmEvent alarm) {
            events.add(alarm);
        }
    }
}
