package io.vigil.research;

import picocli.CommandLine.Option;

/**
 * The synthetic training rows and LDG neighbour count the LDG benchmarks share ({@code bench ldg-fit}, {@code bench
 * sparse-ldg}, {@code bench ldg-cv}: {@code @Mixin BenchRowsOptions rows;}), declared once so they mean the same.
 */
final class BenchRowsOptions {
    @Option(names = "--n", defaultValue = "300", description = "training rows (default: ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--neighbors", defaultValue = "5", description = "LDG neighbours k (default: ${DEFAULT-VALUE})")
    int neighbors;
}
