package io.vigil.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The demo's timeline: seconds since the process started, in the order first recorded, the first mark winning. */
class TimelineTest {
    @Test
    void marksAreSecondsSinceTheOriginInTheOrderFirstRecorded() {
        AtomicLong now = new AtomicLong(10_000);
        Timeline t = new Timeline(9_000, now::get);
        t.mark("trained");
        now.set(12_500);
        t.mark("cluster ready");
        t.mark("trained");
        t.mark("last decision", 14_250);
        Map<String, Double> s = t.seconds();
        assertEquals(List.of("trained", "cluster ready", "last decision"), List.copyOf(s.keySet()));
        assertEquals(1.0, s.get("trained"), "the first mark of a name wins");
        assertEquals(3.5, s.get("cluster ready"));
        assertEquals(5.25, s.get("last decision"));
        assertEquals("trained 1.0 s, cluster ready 3.5 s, last decision 5.3 s", t.line());
    }
}
