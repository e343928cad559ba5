package io.vigil.cli;

import io.vigil.early.DecisionParams;
import picocli.CommandLine.Option;

/**
 * The single τ of the stream commands ({@code vigil run}, {@code vigil demo}); {@code vigil evaluate} takes a
 * list instead. Declared once so both commands document and default it alike.
 */
public final class TauOption {
    @Option(
            names = "--tau",
            paramLabel = "T",
            defaultValue = "" + DecisionParams.DEFAULT_TAU,
            description = "Required probability that the early label matches the complete-series label "
                    + "(default: ${DEFAULT-VALUE}).")
    double tau;
}
