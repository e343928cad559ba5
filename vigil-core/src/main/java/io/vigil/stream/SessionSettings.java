package io.vigil.stream;

import io.vigil.data.OutOfRangePolicy;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How a stream job treats the arrival pattern and the values of one series.
 *
 * @param reorderWindow how many samples ahead of the next expected t a sample may arrive and still be held
 *     back until the gap fills (1..{@link #MAX_REORDER_WINDOW}); a sample further ahead is dead-lettered
 * @param idleTimeout how long a series may receive nothing before it expires: an undecided series emits an
 *     {@code abandoned} record, samples still buffered are dead-lettered, and its state is cleared
 * @param rangeGuard K of the range guard: a consumed sample beyond ±K standard deviations of the training series at
 *     its t marks the series' record {@code out_of_range} ({@link io.vigil.early.RangeGuard}); {@link
 *     #RANGE_GUARD_OFF} for none
 * @param anyOrder whether univariate series too are observed in any order ({@link ObservedValues}: no reorder
 *     window, a value that never comes is never conditioned on, as for multichannel models), instead of as a prefix
 * @param anyOrderCache bytes per subtask for the conditioned states of undecided series observed in any order ({@link
 *     ConditionedStates}), so that a session read back from a serialising state backend is not rebuilt from its values
 *     at every record; 0 for none
 * @param outOfRange what a sample beyond the range guard does ({@link OutOfRangePolicy}; default reject: it is
 *     dead-lettered as {@code out_of_range} and the series goes on with that value missing); unused with the guard off
 */
public record SessionSettings(
        int reorderWindow,
        Duration idleTimeout,
        double rangeGuard,
        boolean anyOrder,
        long anyOrderCache,
        OutOfRangePolicy outOfRange)
        implements Serializable {
    /** Largest reorder window: buffered samples cost memory per series, 64 bounds it. */
    public static final int MAX_REORDER_WINDOW = 64;

    /** Default reorder window: tolerates the reordering that retries within a Kafka partition produce. */
    public static final int DEFAULT_REORDER_WINDOW = 32;

    /** Default idle timeout. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(10);

    /** {@link #rangeGuard} when no sample is checked against the training range. */
    public static final double RANGE_GUARD_OFF = Double.POSITIVE_INFINITY;

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
        if (!(rangeGuard > 0.0)) {
            throw new IllegalArgumentException("the range guard K must be positive (or off), got " + rangeGuard);
        }
        if (anyOrderCache < 0) {
            throw new IllegalArgumentException("the any-order cache must be ≥ 0 bytes, got " + anyOrderCache);
        }
        Objects.requireNonNull(outOfRange, "outOfRange");
    }

    /** The settings with the default out-of-range policy ({@link OutOfRangePolicy#DEFAULT}). */
    public SessionSettings(
            int reorderWindow, Duration idleTimeout, double rangeGuard, boolean anyOrder, long anyOrderCache) {
        this(reorderWindow, idleTimeout, rangeGuard, anyOrder, anyOrderCache, OutOfRangePolicy.DEFAULT);
    }

    /** The settings with the default any-order cache ({@link ConditionedStates#DEFAULT_BUDGET_BYTES}). */
    public SessionSettings(int reorderWindow, Duration idleTimeout, double rangeGuard, boolean anyOrder) {
        this(reorderWindow, idleTimeout, rangeGuard, anyOrder, ConditionedStates.DEFAULT_BUDGET_BYTES);
    }

    /** Univariate series observed as a prefix. */
    public SessionSettings(int reorderWindow, Duration idleTimeout, double rangeGuard) {
        this(reorderWindow, idleTimeout, rangeGuard, false);
    }

    /** The settings with the default range guard, K = {@value io.vigil.early.RangeGuard#DEFAULT_K}. */
    public SessionSettings(int reorderWindow, Duration idleTimeout) {
        this(reorderWindow, idleTimeout, io.vigil.early.RangeGuard.DEFAULT_K);
    }

    /** Window 32, idle timeout 10 minutes, range guard K = 8. */
    public static SessionSettings defaults() {
        return new SessionSettings(DEFAULT_REORDER_WINDOW, DEFAULT_IDLE_TIMEOUT);
    }

    /** These settings with another range guard K ({@link #RANGE_GUARD_OFF} for none). */
    public SessionSettings withRangeGuard(double k) {
        return new SessionSettings(reorderWindow, idleTimeout, k, anyOrder, anyOrderCache, outOfRange);
    }

    /** These settings with univariate series observed in any order ({@code true}) or as a prefix. */
    public SessionSettings withAnyOrder(boolean value) {
        return new SessionSettings(reorderWindow, idleTimeout, rangeGuard, value, anyOrderCache, outOfRange);
    }

    /** These settings with {@code bytes} per subtask for the any-order cache (0: none). */
    public SessionSettings withAnyOrderCache(long bytes) {
        return new SessionSettings(reorderWindow, idleTimeout, rangeGuard, anyOrder, bytes, outOfRange);
    }

    /** These settings with another out-of-range policy. */
    public SessionSettings withOutOfRange(OutOfRangePolicy policy) {
        return new SessionSettings(reorderWindow, idleTimeout, rangeGuard, anyOrder, anyOrderCache, policy);
    }

    /** Whether samples are checked against the training range. */
    public boolean rangeGuardOn() {
        return rangeGuard != RANGE_GUARD_OFF;
    }
}
