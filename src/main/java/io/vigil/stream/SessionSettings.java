package io.vigil.stream;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How a stream job treats the arrival pattern of one series.
 *
 * @param reorderWindow how many samples ahead of the next expected t a sample may arrive and still be held
 *     back until the gap fills (1..{@link #MAX_REORDER_WINDOW}); a sample further ahead is dead-lettered
 * @param idleTimeout how long a series may receive nothing before it expires: an undecided series emits an
 *     {@code abandoned} record, samples still buffered are dead-lettered, and its state is cleared
 */
public record SessionSettings(int reorderWindow, Duration idleTimeout) implements Serializable {
    /** Largest reorder window: buffered samples cost memory per series, 64 bounds it. */
    public static final int MAX_REORDER_WINDOW = 64;

    /** Default reorder window: tolerates the reordering that retries within a Kafka partition produce. */
    public static final int DEFAULT_REORDER_WINDOW = 32;

    /** Default idle timeout. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

    /** Validates. */
    public SessionSettings {
        if (reorderWindow < 1 || reorderWindow > MAX_REORDER_WINDOW) {
            throw new IllegalArgumentException(
                    "reorder window must be in 1.." + MAX_REORDER_WINDOW + ", got " + reorderWindow);
        }
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idleTimeout);
        }
    }

    /** Window 32, idle timeout 10 minutes. */
    public static SessionSettings defaults() {
        return new SessionSettings(DEFAULT_REORDER_WINDOW, DEFAULT_IDLE_TIMEOUT);
    }
}
