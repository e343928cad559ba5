package io.vigil.cli;

import io.vigil.data.ObservationPattern;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * How series are observed in an offline replay ({@code evaluate}) or in the calibration replays of {@code train}:
 * values missing at random, channels arriving late, channels dropped, arrival shuffled ({@link ObservationPattern},
 * seeded per series by its id {@code DATASET/SPLIT/INDEX}, so {@code vigil replay} with the same options sends the
 * same values in the same order). Without any of them every value is observed in time order.
 */
public final class ObservationOptions {
    @Mixin
    ObservedValueOptions values;

    @Option(names = "--shuffle", description = "Observed values arrive in a random order (drawn per series).")
    boolean shuffle;

    @Option(
            names = "--pattern-seed",
            paramLabel = "S",
            defaultValue = "0",
            description = "Seed of the per-series draws of --missing and --shuffle (default: ${DEFAULT-VALUE}).")
    long patternSeed;

    /**
     * The pattern these options describe ({@link ObservationPattern#complete()} when none is given).
     *
     * @throws IllegalArgumentException naming the option on a bad value (callers turn it into a usage error)
     */
    public ObservationPattern pattern() {
        return values.builder(patternSeed).shuffled(shuffle).build();
    }

    /**
     * The options that give this pattern, each with a leading space ({@code ""} for the complete pattern), e.g. {@code
     * " --missing 0.2 --channel-lag 1:3 --drop-channel 2 --shuffle --pattern-seed 7"}: for the command lines reports
     * print.
     */
    public static String flags(ObservationPattern p) {
        if (p.isComplete()) {
            return "";
        }
        StringBuilder b = new StringBuilder();
        if (p.missing() > 0) {
            b.append(" --missing ").append(p.missing());
        }
        if (!p.lags().isEmpty()) {
            b.append(" --channel-lag ");
            p.lags().forEach((c, k) -> b.append(c).append(':').append(k).append(','));
            b.setLength(b.length() - 1);
        }
        for (int c : p.dropped()) {
            b.append(" --drop-channel ").append(c);
        }
        if (p.shuffled()) {
            b.append(" --shuffle");
        }
        return b.append(" --pattern-seed ").append(p.seed()).toString();
    }
}
