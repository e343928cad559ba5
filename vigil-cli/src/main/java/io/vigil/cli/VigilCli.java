package io.vigil.cli;

import io.vigil.flink.cli.CommandLines;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code java -jar vigil.jar}: dispatches to one subcommand per capability. Exit codes are
 * a contract: 0 success, 2 usage error (picocli's own), 1 failure with a one-line reason on stderr.
 */
@Command(
        name = "vigil",
        mixinStandardHelpOptions = true,
        versionProvider = VigilVersion.class,
        description = "Reliable early classification of time series: train, classify, evaluate, stream.",
        subcommands = {CommandLine.HelpCommand.class})
public final class VigilCli implements Runnable {
    /** Exit code for a failure that is not a usage error. */
    public static final int EXIT_FAILURE = CommandLines.EXIT_FAILURE;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw CommandLines.usageError(spec, "a command is required (see vigil --help)");
    }

    /** Builds the command line with every subcommand registered; tests call this to run commands in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new VigilCli());
        for (Object sub : Subcommands.all()) {
            cl.addSubcommand(sub);
        }
        cl.setExecutionExceptionHandler(CommandLines::onFailure);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
