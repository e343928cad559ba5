package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bucket on a manual clock: exact waits, so the tests are deterministic. */
class TokenBucketTest {
    /** A clock the test advances by hand. */
    private static final class ManualClock {
        long now = 1_000_000L;
    }

    @Test
    void burstPassesThenEventsAreSpacedAtTheRate() {
        ManualClock clock = new ManualClock();
        TokenBucket bucket = new TokenBucket(100, 5, () -> clock.now);
        for (int i = 0; i < 5; i++) {
            assertEquals(0, bucket.reserve(), "burst token " + i);
        }
        assertEquals(10_000_000L, bucket.reserve(), "6th event waits one interval (10 ms at 100/s)");
        assertEquals(20_000_000L, bucket.reserve(), "7th waits two: reservations queue up");
    }

    /** Waiting exactly as told, n events take (n - capacity) / rate seconds: the long-run rate is exact. */
    @Test
    void longRunRateIsExact() {
        ManualClock clock = new ManualClock();
        long start = clock.now;
        TokenBucket bucket = new TokenBucket(250, 10, () -> clock.now);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            long wait = bucket.reserve();
            clock.now += wait;
        }
        double seconds = (clock.now - start) / 1e9;
        assertEquals((n - 10) / 250.0, seconds, 1e-6, "elapsed for " + n + " events");
    }

    @Test
    void idleTimeRefillsOnlyUpToCapacity() {
        ManualClock clock = new ManualClock();
        TokenBucket bucket = new TokenBucket(1000, 3, () -> clock.now);
        for (int i = 0; i < 3; i++) {
            bucket.reserve();
        }
        clock.now += 60_000_000_000L; // a minute idle is worth 60,000 tokens, but the bucket holds 3
        for (int i = 0; i < 3; i++) {
            assertEquals(0, bucket.reserve());
        }
        assertEquals(1_000_000L, bucket.reserve());
    }

    @Test
    void acquireSleepsOnTheRealClock() {
        TokenBucket bucket = new TokenBucket(200, 1, System::nanoTime);
        long t0 = System.nanoTime();
        for (int i = 0; i < 21; i++) {
            bucket.acquire();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(seconds >= 0.1 - 1e-3, "20 waits of 5 ms took only " + seconds + " s");
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(0, 1, System::nanoTime));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(Double.NaN, 1, System::nanoTime));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucket(10, 0.5, System::nanoTime));
        assertThrows(
                IllegalArgumentException.class, () -> new TokenBucket(Double.POSITIVE_INFINITY, 1, System::nanoTime));
    }
}
