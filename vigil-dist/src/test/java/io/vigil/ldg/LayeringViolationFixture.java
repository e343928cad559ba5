package io.vigil.ldg;

import io.vigil.cli.VigilCli;
import picocli.CommandLine;

/**
 * Breaks the layering on purpose, for {@code io.vigil.ArchitectureTest}: an algorithm-package class that depends on
 * the CLI and on picocli. Test code only; never imported by production classes.
 */
public final class LayeringViolationFixture {
    private LayeringViolationFixture() {}

    /** Uses both forbidden dependencies. */
    public static CommandLine commandLine() {
        return VigilCli.commandLine();
    }
}
