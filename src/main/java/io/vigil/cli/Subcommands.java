package io.vigil.cli;

import java.util.List;

/** The list of {@code vigil} subcommands, one line per command, kept apart so adding one touches one line. */
final class Subcommands {
    private Subcommands() {}

    static List<Object> all() {
        return List.of(
                new GenerateCommand(),
                new TrainCommand(),
                new ClassifyCommand(),
                new EvaluateCommand(),
                new InspectCommand(),
                new ExperimentCommand(),
                new BrokerCommand(),
                new ReplayCommand(),
                new RunCommand(),
                new PublishModelCommand(),
                new DemoCommand(),
                new BenchCommand());
    }
}
