package io.vigil.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Without a console, long work reports plain lines no more often than the interval; short work stays silent. */
class ProgressTest {
    @Test
    void plainLinesComeOnlyAfterTheIntervalAndSayHowFarAndHowLong() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Progress p = Progress.plain("calibrate CBF", 30, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        for (int i = 0; i < 12; i++) {
            p.step();
        }
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "nothing within the first interval");
        long later = System.nanoTime() + Progress.PLAIN_INTERVAL.toNanos() + 5_000_000_000L;
        assertTrue(p.maybePrint(later));
        assertFalse(p.maybePrint(later + 1_000_000_000L), "at most one line per interval");
        String line = bytes.toString(StandardCharsets.UTF_8).strip();
        assertTrue(line.startsWith("vigil: calibrate CBF 40% (12/30), 0 min 3"), line);
        p.extendBy(10);
        assertTrue(p.maybePrint(later + Progress.PLAIN_INTERVAL.toNanos()));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("30% (12/40)"), bytes.toString());
    }

    @Test
    void disabledProgressPrintsNothing() {
        Progress none = Progress.bar("x", 10, false);
        none.step();
        none.extendBy(3);
        none.close();
        assertTrue(none == Progress.none());
    }
}
