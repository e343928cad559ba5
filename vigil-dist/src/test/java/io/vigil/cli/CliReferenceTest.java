package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The committed {@code docs/cli-reference.md} is what the code generates now, for every command. */
class CliReferenceTest {
    private static final Path COMMITTED = Path.of("docs", "cli-reference.md");

    @Test
    void committedReferenceIsCurrent() throws IOException {
        String expected = CliReference.render();
        String committed = Files.readString(COMMITTED, StandardCharsets.UTF_8);
        if (!committed.equals(expected)) {
            fail(COMMITTED + " is stale (" + firstDifference(committed, expected) + "); refresh it with: "
                    + CliReference.REFRESH_COMMAND);
        }
    }

    @Test
    void everyCommandHasASectionWithItsHelp() {
        String reference = CliReference.render();
        CommandLine run = VigilCli.commandLine().getSubcommands().get("run");
        assertTrue(
                reference.contains("\n## vigil run\n\n```text\nUsage: vigil run "),
                "the run section starts with its usage line");
        run.getCommandSpec().options().forEach(o -> assertTrue(reference.contains(o.longestName()), o.longestName()));
        assertEquals(countCommands(VigilCli.commandLine()), count(reference, "\n## vigil"));
    }

    @Test
    void renderingIgnoresTheTerminalWidth() {
        String before = CliReference.render();
        String saved = System.getProperty("picocli.usage.width");
        System.setProperty("picocli.usage.width", "60");
        try {
            assertEquals(before, CliReference.render());
        } finally {
            if (saved == null) {
                System.clearProperty("picocli.usage.width");
            } else {
                System.setProperty("picocli.usage.width", saved);
            }
        }
    }

    private static int countCommands(CommandLine cl) {
        int n = 1;
        for (var e : cl.getSubcommands().entrySet()) {
            if (!e.getKey().equals("help")) {
                n += countCommands(e.getValue());
            }
        }
        return n;
    }

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    private static String firstDifference(String committed, String expected) {
        String[] a = committed.split("\n", -1);
        String[] b = expected.split("\n", -1);
        for (int i = 0; i < Math.min(a.length, b.length); i++) {
            if (!a[i].equals(b[i])) {
                return "line " + (i + 1) + ": has '" + a[i] + "', the code gives '" + b[i] + "'";
            }
        }
        return "it has " + a.length + " lines, the code gives " + b.length;
    }
}
