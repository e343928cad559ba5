package io.vigil.cli;

import io.vigil.flink.cli.RunCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The list of {@code vigil} subcommands: the product's, one line per command, then those of every
 * {@link CommandProvider} on the class path (the research module's {@code experiment} and {@code bench}).
 */
final class Subcommands {
    private Subcommands() {}

    static List<Object> all() {
        List<Object> all = new ArrayList<>(List.of(
                new GenerateCommand(),
                new ImportCommand(),
                new TrainCommand(),
                new ClassifyCommand(),
                new EvaluateCommand(),
                new InspectCommand(),
                new BrokerCommand(),
                new ReplayCommand(),
                new RunCommand(),
                new PublishModelCommand(),
                new DemoCommand()));
        for (CommandProvider provider : ServiceLoader.load(CommandProvider.class)) {
            all.addAll(provider.commands());
        }
        return all;
    }
}
