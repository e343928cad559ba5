package io.vigil.cli;

import io.vigil.data.ObservationPattern;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Which values of a series are observed: missing at random, channels arriving late, channels dropped ({@link
 * ObservationPattern}). Part of {@link ObservationOptions} ({@code evaluate}, {@code train}, {@code replay}) and of
 * {@code bench stream}, which orders and seeds the values its own way.
 */
public final class ObservedValueOptions {
    @Option(
            names = "--missing",
            paramLabel = "P",
            description =
                    "Each value is missing at random with probability P in [0, 1), drawn per series (default: 0).")
    Double missing;

    @Option(
            names = "--channel-lag",
            paramLabel = "C:K[,C:K...]",
            description = "Channel C (0-based index) arrives K steps late; several as C:K,C:K.")
    String channelLags;

    @Option(
            names = "--drop-channel",
            split = ",",
            paramLabel = "C",
            description = "Channel C (0-based index) is never observed; repeat or comma-separate for several.")
    List<Integer> droppedChannels;

    /**
     * A pattern builder with these options and {@code seed}: complete when none is given.
     *
     * @throws IllegalArgumentException naming the option on a bad value (callers turn it into a usage error)
     */
    public ObservationPattern.Builder builder(long seed) {
        ObservationPattern.Builder b = ObservationPattern.builder().seed(seed);
        if (missing != null) {
            named("--missing", () -> b.missing(missing));
        }
        if (channelLags != null) {
            named("--channel-lag", () -> b.lags(ObservationPattern.parseLags(channelLags)));
        }
        if (droppedChannels != null) {
            named("--drop-channel", () -> droppedChannels.forEach(b::drop));
        }
        return b;
    }

    /** Runs {@code step}, an {@link IllegalArgumentException} it throws led by the option's name. */
    private static void named(String option, Runnable step) {
        try {
            step.run();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
        }
    }

    /** Whether a channel lag or a dropped channel was given: options about channels. */
    public boolean namesChannels() {
        return channelLags != null || droppedChannels != null;
    }
}
