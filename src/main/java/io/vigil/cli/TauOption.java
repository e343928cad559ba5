package io.vigil.cli;

import picocli.CommandLine.Option;

/**
 * The single τ of the stream commands ({@code vigil run}, {@code vigil demo}); {@code vigil evaluate} takes a
 * list instead. Declared once so both commands document and default it alike. Unset, the model's stored operating
 * point decides (see {@link DecisionOptions#resolve}).
 */
public final class TauOption {
    @Option(
            names = "--tau",
            paramLabel = "T",
            description = "Required probability that the early label matches the complete-series label (default: "
                    + "the model's operating point, chosen by vigil train on cross-fitted training replays; 0.9 for "
                    + "models without one).")
    Double tau;
}
