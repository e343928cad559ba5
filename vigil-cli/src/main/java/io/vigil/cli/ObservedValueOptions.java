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
        try {
            if (missing != null) {
                b.missing(missing);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--missing: " + e.getMessage(), e);
        }
        try {
            if (channelLags != null) {
                b.lags(ObservationPattern.parseLags(channelLags));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--channel-lag: " + e.getMessage(), e);
        }
        try {
            if (droppedChannels != null) {
                droppedChannels.forEach(b::drop);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--drop-channel: " + e.getMessage(), e);
        }
        return b;
    }

    /** Whether a channel lag or a dropped channel was given: options about channels. */
    public boolean namesChannels() {
        return channelLags != null || droppedChannels != null;
    }
}
