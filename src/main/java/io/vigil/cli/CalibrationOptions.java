package io.vigil.cli;

import io.vigil.early.calibrate.CalibrationParams;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}'s options for cross-fitted calibration (method notes §5): how many folds, the confidence δ of
 * the certified reliability, and how the stored operating point is chosen.
 */
public final class CalibrationOptions {
    @Option(
            names = "--objective",
            paramLabel = "hm|earliest-at-reliability",
            defaultValue = "hm",
            description = "How the stored operating point is chosen on cross-fitted training replays: the largest "
                    + "harmonic mean of accuracy and earliness, or the earliest decisions certified at "
                    + "--target-reliability (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(
            names = "--target-reliability",
            paramLabel = "R",
            description = "Reliability R in (0, 1) the earliest-at-reliability objective must certify.")
    Double targetReliability;

    @Option(
            names = "--calibration-folds",
            paramLabel = "K",
            defaultValue = "10",
            description = "Folds of the cross-fitted calibration (capped by the smallest class; default: "
                    + "${DEFAULT-VALUE}).")
    int folds;

    @Option(
            names = "--delta",
            paramLabel = "D",
            defaultValue = "0.1",
            description = "Risk-control confidence: an announced tau is certified when the rate of early labels "
                    + "differing from the complete-series label is at most 1 - tau with probability 1 - D "
                    + "(default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(
            names = "--no-calibration",
            description = "Skip cross-fitted calibration: tau is used as the threshold itself, uncertified (as "
                    + "models of earlier Vigil versions).")
    boolean skip;

    /** Whether to calibrate. */
    boolean enabled() {
        return !skip;
    }

    /**
     * The parameters.
     *
     * @throws IllegalArgumentException on a value out of range (callers turn it into a usage error)
     */
    CalibrationParams params(long seed) {
        CalibrationParams.Objective o = CalibrationParams.Objective.fromCliName(objective);
        if (o == CalibrationParams.Objective.EARLIEST_AT_RELIABILITY && targetReliability == null) {
            throw new IllegalArgumentException("--objective earliest-at-reliability needs --target-reliability R");
        }
        if (o == CalibrationParams.Objective.HM && targetReliability != null) {
            throw new IllegalArgumentException(
                    "--target-reliability only applies to --objective " + "earliest-at-reliability");
        }
        return CalibrationParams.defaults(seed)
                .withFoldsAndDelta(folds, delta)
                .withObjective(o, targetReliability == null ? Double.NaN : targetReliability);
    }
}
