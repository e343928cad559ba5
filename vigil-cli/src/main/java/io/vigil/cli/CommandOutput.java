package io.vigil.cli;

import io.vigil.flink.cli.Json;
import java.io.PrintWriter;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;

/**
 * How every command prints its result, so none builds JSON by hand: with {@code --json} the command's result record
 * as one line written by Jackson ({@link Json}), else the command's text renderer.
 */
final class CommandOutput {
    private CommandOutput() {}

    /** Prints {@code result} as one JSON line when {@code json}, else what {@code text} writes; returns exit code 0. */
    static int print(CommandSpec spec, boolean json, Object result, Consumer<PrintWriter> text) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(result));
        } else {
            text.accept(out);
        }
        out.flush();
        return 0;
    }

    /** As {@link #print(CommandSpec, boolean, Object, Consumer)} for a result whose text is one line. */
    static int print(CommandSpec spec, boolean json, Object result, String line) {
        return print(spec, json, result, out -> out.println(line));
    }
}
