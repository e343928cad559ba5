package io.vigil.research;

import picocli.CommandLine.Option;

/** {@code --json} of the bench and experiment commands ({@code @Mixin JsonOption json;}), declared once. */
final class JsonOption {
    @Option(names = "--json", description = "Print one JSON object on stdout instead of the table; no progress bar.")
    boolean value;
}
