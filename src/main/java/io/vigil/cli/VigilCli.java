package io.vigil.cli;

import io.vigil.util.Failures;
import java.io.PrintWriter;
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
    public static final int EXIT_FAILURE = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (see vigil --help)");
    }

    /** Builds the command line with every subcommand registered; tests call this to run commands in-process. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new VigilCli());
        for (Object sub : Subcommands.all()) {
            cl.addSubcommand(sub);
        }
        cl.setExecutionExceptionHandler(VigilCli::onFailure);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    /**
     * A command line for one command alone, with the same failure handling: what {@code flink run} executes,
     * where the other subcommands (and their dependencies) are not on the class path.
     */
    public static CommandLine standalone(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler(VigilCli::onFailure);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    private static int onFailure(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        err.println("vigil " + cl.getCommandName() + ": " + Failures.describe(e));
        if (System.getenv("VIGIL_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
        return EXIT_FAILURE;
    }

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }
}
