package io.vigil.flink;

import io.vigil.watch.RearmPolicy;
import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@code vigil run --watch} watches its keys beside what the window model records (docs/watch.md): the re-arm
 * policy (null: the model's {@code window.rearm}), how long a key may be silent before its open windows close, and
 * the flood guard.
 *
 * @param rearm {@code windows-closed}, {@code immediate} or {@code refractory:N}, or null for the model's
 * @param idleTimeout a key silent this long (processing time), or a gap this long between its values' {@code ts},
 *     has its open windows closed undecided
 * @param maxAlarmsPerMinute at most this many alarms per key per minute of stream time are written; the excess is
 *     dead-lettered as {@code alarm_flood}; 0 = no guard
 */
public record WatchSettings(String rearm, Duration idleTimeout, int maxAlarmsPerMinute) implements Serializable {
    /** Default flood guard: far above what one key's events can raise (one alarm per window length at most). */
    public static final int DEFAULT_MAX_ALARMS_PER_MINUTE = 30;

    /** Validates. */
    public WatchSettings {
        if (rearm != null) {
            RearmPolicy.parse(rearm);
        }
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idleTimeout);
        }
        if (maxAlarmsPerMinute < 0) {
            throw new IllegalArgumentException(
                    "--max-alarms-per-minute must be ≥ 0 (0 = no flood guard), got " + maxAlarmsPerMinute);
        }
    }

    /** The model's re-arm policy, the series mode's default idle timeout and the default flood guard. */
    public static WatchSettings defaults() {
        return new WatchSettings(
                null, io.vigil.stream.SessionSettings.DEFAULT_IDLE_TIMEOUT, DEFAULT_MAX_ALARMS_PER_MINUTE);
    }
}
