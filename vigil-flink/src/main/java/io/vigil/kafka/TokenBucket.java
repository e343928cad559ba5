package io.vigil.kafka;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A token-bucket rate limiter: tokens accrue at {@code rate} per second up to {@code capacity}; each event takes
 * one. Taking a token from an empty bucket reserves it (the balance goes negative) and tells the caller how long
 * to wait, so over any long run the event rate converges to exactly {@code rate} while short bursts of up to
 * {@code capacity} events pass without waiting. Not thread-safe: one producer loop owns it.
 */
public final class TokenBucket {
    private static final double NANOS_PER_SECOND = 1e9;

    private final double tokensPerNano;
    private final double capacity;
    private final LongSupplier nanoClock;
    private double tokens;
    private long last;

    /**
     * A bucket that starts full.
     *
     * @param ratePerSecond sustained events per second, &gt; 0
     * @param capacity burst size in events, &ge; 1
     * @param nanoClock monotonic clock in nanoseconds ({@code System::nanoTime}; tests pass a manual clock)
     */
    public TokenBucket(double ratePerSecond, double capacity, LongSupplier nanoClock) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("rate must be a positive finite number, got " + ratePerSecond);
        }
        if (!(capacity >= 1) || Double.isInfinite(capacity)) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.tokensPerNano = ratePerSecond / NANOS_PER_SECOND;
        this.capacity = capacity;
        this.nanoClock = nanoClock;
        this.tokens = capacity;
        this.last = nanoClock.getAsLong();
    }

    /** A bucket on {@link System#nanoTime()} holding 10 ms of events (at least one): smooth, yet few sleeps. */
    public static TokenBucket perSecond(double ratePerSecond) {
        return new TokenBucket(ratePerSecond, Math.max(1, ratePerSecond / 100), System::nanoTime);
    }

    /**
     * Takes one token and returns how many nanoseconds the caller must wait before acting (0 when a token was
     * available).
     */
    public long reserve() {
        long now = nanoClock.getAsLong();
        tokens = Math.min(capacity, tokens + (now - last) * tokensPerNano);
        last = now;
        tokens -= 1;
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / tokensPerNano);
    }

    /** Takes one token, parking the calling thread until it is due. */
    public void acquire() {
        long wait = reserve();
        if (wait <= 0) {
            return;
        }
        long due = nanoClock.getAsLong() + wait;
        for (long left = wait; left > 0; left = due - nanoClock.getAsLong()) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
