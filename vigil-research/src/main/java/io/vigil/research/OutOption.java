package io.vigil.research;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --out DIR}, the experiments' output directory ({@code @Mixin OutOption out;}), declared once. */
final class OutOption {
    @Option(
            names = "--out",
            required = true,
            paramLabel = "DIR",
            description = "Output directory: where the report is written.")
    Path value;
}
