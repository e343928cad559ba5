package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's {@code --help} prints cleanly: exit 0 and no picocli formatting warning (an unescaped '%' in a
 * description makes picocli warn on every help and usage error of that command).
 */
class HelpTextTest {
    @Test
    void everyCommandsHelpFormatsWithoutWarnings() {
        List<List<String>> paths = new ArrayList<>();
        collect(VigilCli.commandLine(), new ArrayList<>(), paths);
        for (List<String> path : paths) {
            List<String> args = new ArrayList<>(path);
            args.add("--help");
            CommandLine cl = VigilCli.commandLine();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(out));
            cl.setErr(new PrintWriter(err));
            java.io.PrintStream saved = System.err;
            java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
            System.setErr(new java.io.PrintStream(captured, true));
            int code;
            try {
                code = cl.execute(args.toArray(String[]::new));
            } finally {
                System.setErr(saved);
            }
            String all = err + captured.toString() + out;
            assertEquals(0, code, path + ": " + all);
            assertFalse(all.contains("picocli WARN"), path + ": " + all);
        }
    }

    private static void collect(CommandLine cl, List<String> prefix, List<List<String>> out) {
        for (var e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) {
                continue;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(e.getKey());
            out.add(path);
            collect(e.getValue(), path, out);
        }
    }
}
