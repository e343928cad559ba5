package io.vigil.flink.cli;

import io.vigil.util.Failures;
import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The failure handling every Vigil command shares: exit codes 0 success, 2 usage error (picocli's own), 1 failure
 * with a one-line reason on stderr ({@code VIGIL_DEBUG=1} adds the stack trace).
 */
public final class CommandLines {
    /** Exit code for a failure that is not a usage error. */
    public static final int EXIT_FAILURE = 1;

    private CommandLines() {}

    /**
     * A command line for one command alone, with the shared failure handling: what {@code flink run} executes,
     * where the other subcommands (and their dependencies) are not on the class path.
     */
    public static CommandLine standalone(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler(CommandLines::onFailure);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    /** Prints "vigil COMMAND: reason" for a failure and returns {@link #EXIT_FAILURE}. */
    public static int onFailure(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        err.println("vigil " + cl.getCommandName() + ": " + Failures.describe(e));
        if (System.getenv("VIGIL_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
        return EXIT_FAILURE;
    }

    /**
     * Runs a step that parses or checks what the user gave: an {@link IllegalArgumentException} it throws becomes a
     * usage error (exit 2) carrying its message, so every command reports bad values one way.
     *
     * @return the step's value
     */
    public static <T> T usage(CommandLine.Model.CommandSpec spec, Supplier<T> step) {
        return usage(spec, "", step);
    }

    /** As {@link #usage(CommandLine.Model.CommandSpec, Supplier)}, the message led by the option ("--length: …"). */
    public static <T> T usage(CommandLine.Model.CommandSpec spec, String option, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            String message = option.isEmpty() ? e.getMessage() : option + ": " + e.getMessage();
            throw new CommandLine.ParameterException(spec.commandLine(), message, e);
        }
    }

    /** As {@link #usage(CommandLine.Model.CommandSpec, Supplier)} for a step that only checks. */
    public static void check(CommandLine.Model.CommandSpec spec, Runnable step) {
        check(spec, "", step);
    }

    /** As {@link #check(CommandLine.Model.CommandSpec, Runnable)}, the message led by {@code option}. */
    public static void check(CommandLine.Model.CommandSpec spec, String option, Runnable step) {
        usage(spec, option, () -> {
            step.run();
            return null;
        });
    }

    /** A usage error (exit 2) with this message. */
    public static CommandLine.ParameterException usageError(CommandLine.Model.CommandSpec spec, String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
