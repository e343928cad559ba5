package io.vigil.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;

/**
 * Renders {@code docs/cli-reference.md}: the {@code --help} text of {@code vigil} and every subcommand, in command
 * order, at a fixed width and without colour so the file depends on the code alone, never on the terminal. The
 * build runs it into {@code target/cli-reference.md}; {@code CliReferenceTest} fails when the committed copy differs.
 */
public final class CliReference {
    /** Usage-help width of the reference, independent of any terminal or {@code picocli.usage.width}. */
    static final int WIDTH = 110;

    private static final String WIDTH_PROPERTY = "picocli.usage.width";

    /** The command that rewrites the committed reference; stale-file messages print it. */
    public static final String REFRESH_COMMAND = "mvn -B -q process-classes -Dcli-reference.out=docs/cli-reference.md";

    private CliReference() {}

    /**
     * The whole reference as Markdown, lines separated by {@code \n}. picocli lets the {@code picocli.usage.width}
     * system property override any width set in code, so it is cleared while rendering and restored after.
     */
    public static synchronized String render() {
        String width = System.clearProperty(WIDTH_PROPERTY);
        try {
            return renderAtFixedWidth();
        } finally {
            if (width != null) {
                System.setProperty(WIDTH_PROPERTY, width);
            }
        }
    }

    private static String renderAtFixedWidth() {
        CommandLine root = VigilCli.commandLine();
        root.setUsageHelpAutoWidth(false);
        root.setUsageHelpWidth(WIDTH);
        List<CommandLine> commands = new ArrayList<>();
        collect(root, commands, Collections.newSetFromMap(new IdentityHashMap<>()));
        StringBuilder md = new StringBuilder();
        md.append("# CLI reference\n\n")
                .append("Every `vigil` command's `--help`, generated from the code by `io.vigil.cli.CliReference`")
                .append(" when Maven builds; do not edit.\n")
                .append("`CliReferenceTest` fails when this file is stale; refresh it with `")
                .append(REFRESH_COMMAND)
                .append("`.\nBack to the [README](../README.md).\n\n");
        for (CommandLine c : commands) {
            String name = c.getCommandSpec().qualifiedName();
            md.append("- [")
                    .append(name)
                    .append("](#")
                    .append(name.replace(' ', '-'))
                    .append(")\n");
        }
        for (CommandLine c : commands) {
            md.append("\n## ")
                    .append(c.getCommandSpec().qualifiedName())
                    .append("\n\n```text\n")
                    .append(usage(c))
                    .append("```\n");
        }
        return md.toString();
    }

    /** Writes {@link #render()} to the file named by the only argument, creating its directory. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: CliReference OUTPUT.md");
        }
        Path out = Path.of(args[0]);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, render(), StandardCharsets.UTF_8);
    }

    private static void collect(CommandLine cl, List<CommandLine> out, Set<CommandLine> seen) {
        if (!seen.add(cl) || cl.getCommand() instanceof CommandLine.HelpCommand) {
            return;
        }
        out.add(cl);
        for (CommandLine sub : cl.getSubcommands().values()) {
            collect(sub, out, seen);
        }
    }

    private static String usage(CommandLine cl) {
        StringBuilder text = new StringBuilder();
        for (String line : cl.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\\R", -1)) {
            text.append(line.stripTrailing()).append('\n');
        }
        String s = text.toString();
        while (s.endsWith("\n\n")) {
            s = s.substring(0, s.length() - 1);
        }
        return s;
    }
}
