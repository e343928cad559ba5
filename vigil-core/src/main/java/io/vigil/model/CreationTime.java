package io.vigil.model;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * The creation time written into model files: {@code SOURCE_DATE_EPOCH} (seconds since the Unix epoch,
 * see reproducible-builds.org) when that environment variable is set, else the clock's current time, in
 * whole seconds UTC — so a fixed {@code SOURCE_DATE_EPOCH} (or an injected fixed {@link Clock}) makes
 * model files byte-identical across runs.
 */
public final class CreationTime {
    /** The environment variable of the reproducible-builds.org convention. */
    public static final String SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH";

    private CreationTime() {}

    /** {@link #resolve(Map, Clock)} with the process environment and the system UTC clock. */
    public static Instant now() {
        return resolve(System.getenv(), Clock.systemUTC());
    }

    /**
     * The creation time.
     *
     * @param env environment variables (only {@value #SOURCE_DATE_EPOCH} is read)
     * @param clock used when the variable is absent or empty
     * @throws IllegalArgumentException when the variable is set but not a non-negative integer
     */
    public static Instant resolve(Map<String, String> env, Clock clock) {
        String epoch = env.get(SOURCE_DATE_EPOCH);
        if (epoch != null && !epoch.isBlank()) {
            long seconds;
            try {
                seconds = Long.parseLong(epoch.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        SOURCE_DATE_EPOCH + " must be an integer number of seconds, got '" + epoch + "'", e);
            }
            if (seconds < 0) {
                throw new IllegalArgumentException(SOURCE_DATE_EPOCH + " must be ≥ 0, got " + seconds);
            }
            return Instant.ofEpochSecond(seconds);
        }
        return clock.instant().truncatedTo(ChronoUnit.SECONDS);
    }
}
