package io.vigil.research;

import io.vigil.flink.LocalState;
import io.vigil.flink.cli.StateOptions;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The state options of the benchmarks that run the stream job ({@code bench stream}, {@code bench scale}), declared
 * once ({@code @Mixin BenchStateOptions state;}): the keyed-state backend and RocksDB's memory, checked as {@code
 * vigil run} checks them.
 */
public final class BenchStateOptions {
    @Option(
            names = "--state-backend",
            defaultValue = "hashmap",
            description = "hashmap or rocksdb (default: ${DEFAULT-VALUE})")
    String backend;

    @Option(names = "--rocksdb-memory", paramLabel = "SIZE", description = StateOptions.ROCKSDB_MEMORY_HELP)
    String rocksDbMemory;

    /** The state backend; a usage error naming the option when unknown. */
    LocalState.Backend backend(CommandLine cl) {
        try {
            return LocalState.Backend.fromCliName(backend);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--state-backend: " + e.getMessage(), e);
        }
    }

    /** Bytes of RocksDB's managed memory ({@link StateOptions#rocksDbMemory(CommandLine, String, LocalState.Backend)}). */
    long rocksDbMemory(CommandLine cl) {
        return StateOptions.rocksDbMemory(cl, rocksDbMemory, backend(cl));
    }
}
