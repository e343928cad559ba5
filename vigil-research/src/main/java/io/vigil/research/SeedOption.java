package io.vigil.research;

import picocli.CommandLine.Option;

/**
 * {@code --seed} of the bench and experiment commands ({@code @Mixin SeedOption seed;}), declared once so that it has
 * one default and one help text everywhere.
 */
final class SeedOption {
    @Option(
            names = "--seed",
            defaultValue = "1",
            paramLabel = "S",
            description = "Seed of every random draw (generated data, splits, folds; default: ${DEFAULT-VALUE}).")
    long value;
}
