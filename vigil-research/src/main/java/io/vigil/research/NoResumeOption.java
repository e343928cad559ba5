package io.vigil.research;

import picocli.CommandLine.Option;

/**
 * {@code --no-resume} of the experiments that keep finished parts under {@code --out DIR/cache} ({@code @Mixin
 * NoResumeOption resume;}), declared once.
 */
final class NoResumeOption {
    @Option(
            names = "--no-resume",
            description = "Recompute every split, dataset or timing instead of reusing the ones an earlier run with "
                    + "the same settings and data kept under --out DIR/cache (so an interrupted run resumes by "
                    + "default).")
    boolean value;
}
