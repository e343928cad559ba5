package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which model decides a series across swaps, and when a model is dropped. */
class LiveModelsTest {
    private static final long A = 11;
    private static final long B = 22;
    private static final long C = 33;
    private static final long OLD = 99;

    @Test
    void seriesKeepTheirModelAndNewSeriesStartUnderTheCurrentOne() {
        LiveModels<String> m = new LiveModels<>("A", A);
        m.started(A);
        m.started(A);
        LiveModels.Swap<String> s = m.swapTo("B", B);
        assertTrue(s.changed());
        assertEquals("A", s.kept());
        assertNull(s.dropped());
        assertEquals("B", m.current());
        assertEquals("A", m.forTag(A), "a series of A stays with A");
        assertEquals("B", m.forTag(B));
        assertEquals("B", m.forTag(OLD), "a session of a model that is not live goes to the current one");
        assertEquals(2, m.liveCount());
        assertEquals(2, m.series(A));
        m.started(B);
        assertEquals(1, m.series(B));
        assertFalse(m.ended(A));
        assertTrue(m.ended(A), "A is dropped with its last series");
        assertEquals(1, m.liveCount());
        assertNull(m.previous());
        assertEquals("B", m.forTag(A), "after the drop a stray session of A goes to B");
        assertEquals(1, m.series(B));
    }

    @Test
    void aModelWithoutSeriesIsNotKeptAtTheSwap() {
        LiveModels<String> m = new LiveModels<>("A", A);
        m.started(A);
        m.ended(A);
        LiveModels.Swap<String> s = m.swapTo("B", B);
        assertNull(s.kept());
        assertEquals(1, m.liveCount());
    }

    @Test
    void aThirdModelDropsTheOldestAndItsSeriesGoToTheNewest() {
        LiveModels<String> m = new LiveModels<>("A", A);
        m.started(A);
        m.swapTo("B", B);
        m.started(B);
        LiveModels.Swap<String> s = m.swapTo("C", C);
        assertEquals("A", s.dropped());
        assertEquals(1, s.droppedSeries());
        assertEquals("B", s.kept());
        assertEquals(LiveModels.MAX_LIVE, m.liveCount());
        assertEquals("C", m.forTag(A), "A's series is replayed under the newest model");
        assertEquals("B", m.forTag(B));
        m.ended(A); // the replay hands it over: ended under A (not live: ignored) ...
        m.started(C); // ... started under C
        assertEquals(1, m.series(C));
        assertEquals(1, m.series(B));
    }

    @Test
    void theCurrentModelAgainChangesNothingAndThePreviousOneComesBackWithItsSeries() {
        LiveModels<String> m = new LiveModels<>("A", A);
        m.started(A);
        assertFalse(m.swapTo("A again", A).changed());
        assertEquals("A", m.current());
        m.swapTo("B", B);
        m.started(B);
        LiveModels.Swap<String> back = m.swapTo("A", A);
        assertTrue(back.changed());
        assertNull(back.dropped(), "going back to A drops nothing");
        assertEquals("A", m.current());
        assertEquals(1, m.series(A));
        assertEquals("B", m.forTag(B));
        assertEquals(1, m.series(B));
    }

    @Test
    void restoredStateKeepsThePreviousModelOnlyWhileItHasSeries() {
        LiveModels<String> kept = LiveModels.restored("B", B, 3, "A", A, 2);
        assertEquals(2, kept.liveCount());
        assertEquals("A", kept.forTag(A));
        assertEquals(2, kept.series(A));
        LiveModels<String> gone = LiveModels.restored("B", B, 3, "A", A, 0);
        assertEquals(1, gone.liveCount());
        assertEquals("B", gone.forTag(A));
        assertEquals(1, LiveModels.restored("B", B, 0, null, 0, 0).liveCount());
    }
}
