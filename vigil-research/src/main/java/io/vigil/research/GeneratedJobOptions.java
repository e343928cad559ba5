package io.vigil.research;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options the benchmarks that run the stream job on generated data ({@code bench stream}, {@code bench scale})
 * share, declared once ({@code @Mixin GeneratedJobOptions job;}): topic partitions, Flink parallelism, training series,
 * the generator's seed and JSON output.
 */
public final class GeneratedJobOptions {
    @Option(names = "--partitions", defaultValue = "2", description = "topic partitions (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--parallelism", defaultValue = "2", description = "Flink parallelism (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(names = "--train", defaultValue = "100", description = "training series (default: ${DEFAULT-VALUE})")
    int train;

    @Mixin
    SeedOption seed;

    @Mixin
    JsonOption json;
}
