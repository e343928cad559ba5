package io.vigil.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * One in-process run of the CLI, as a user types it ({@link VigilCli#commandLine()}: every command, the shared failure
 * handling and exit codes), with stdout and stderr captured: the runner every CLI test uses.
 *
 * @param exit the exit code (0 success, 1 failure, 2 usage error)
 * @param out what the command printed on stdout
 * @param err what it printed on stderr
 */
public record Run(int exit, String out, String err) {
    /** Runs {@code vigil args…}. */
    public static Run of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = VigilCli.commandLine()
                .setOut(new PrintWriter(out))
                .setErr(new PrintWriter(err))
                .execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** Runs {@code vigil args…}. */
    public static Run of(List<String> args) {
        return of(args.toArray(String[]::new));
    }

    /** This run, after checking that it succeeded (the failure message holds its stderr). */
    public Run ok() {
        if (exit != 0) {
            throw new AssertionError("vigil exited with " + exit + ": " + err);
        }
        return this;
    }
}
