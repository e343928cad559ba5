package io.vigil.flink.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The single τ of the stream commands ({@code vigil run}, {@code vigil demo}); {@code vigil evaluate} takes a
 * list instead. Declared once so both commands document and default it alike. Unset, the model's stored operating
 * point decides (see {@link DecisionOptions#resolve}). The experiments' {@code --taus} lists are checked here too.
 */
public final class TauOption {
    @Option(
            names = "--tau",
            paramLabel = "T",
            description = "Required probability that the early label matches the complete-series label (default: "
                    + "the model's operating point, chosen by vigil train on cross-fitted training replays; 0.9 for "
                    + "models without one).")
    public Double tau;

    /**
     * Rejects a {@code --taus} list (the experiments' several τ) with a value outside (0, 1), naming the value.
     *
     * @throws CommandLine.ParameterException on the first such value
     */
    public static void checkTaus(CommandLine.Model.CommandSpec spec, List<Double> taus) {
        for (double t : taus) {
            if (!(t > 0 && t < 1)) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--taus values must lie in (0, 1), got " + t);
            }
        }
    }
}
