package io.vigil.flink;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the embedded job ({@link LocalFlink}) keeps its checkpoints, with which state backend, under which fixed
 * job id, and the completed checkpoint it resumes from. Built by {@link StateDirectory} for {@code vigil run};
 * {@link #fresh} for a throw-away directory.
 *
 * @param checkpoints the checkpoint directory (Flink adds {@code <job id>/chk-N} below it)
 * @param backend the keyed-state backend
 * @param jobId the fixed job id (32 hex digits), or empty for a random one
 * @param resumeFrom the completed checkpoint ({@code chk-N} directory) to resume from, or empty to start afresh
 * @param rocksDbMemory managed (off-heap) memory of the embedded TaskManager for RocksDB's cache and write buffers
 *     (used with {@link Backend#ROCKSDB} only)
 */
public record LocalState(
        Path checkpoints, Backend backend, Optional<String> jobId, Optional<Path> resumeFrom, long rocksDbMemory) {
    /** Managed memory for RocksDB unless {@code --rocksdb-memory} says otherwise (see {@link LocalFlink}). */
    public static final long DEFAULT_ROCKSDB_MEMORY = 1L << 30;

    /** Smallest managed memory for RocksDB accepted: below it RocksDB's cache holds too little to be of use. */
    public static final long MIN_ROCKSDB_MEMORY = 64L << 20;

    /** The state with {@link #DEFAULT_ROCKSDB_MEMORY}. */
    public LocalState(Path checkpoints, Backend backend, Optional<String> jobId, Optional<Path> resumeFrom) {
        this(checkpoints, backend, jobId, resumeFrom, DEFAULT_ROCKSDB_MEMORY);
    }

    /** This state with {@code bytes} of managed memory for RocksDB. */
    public LocalState withRocksDbMemory(long bytes) {
        return new LocalState(checkpoints, backend, jobId, resumeFrom, bytes);
    }

    /** The keyed-state backends of the embedded job. */
    public enum Backend {
        /** Objects on the JVM heap, written whole at each checkpoint: fastest, bounded by the heap. */
        HASHMAP,
        /** Flink's embedded RocksDB on local disk with incremental checkpoints: state larger than the heap. */
        ROCKSDB;

        /** The name on the command line and in Flink's {@code state.backend.type}. */
        public String cliName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The backend of a command-line name.
         *
         * @throws IllegalArgumentException naming the accepted values
         */
        public static Backend fromCliName(String name) {
            for (Backend b : values()) {
                if (b.cliName().equals(name)) {
                    return b;
                }
            }
            throw new IllegalArgumentException("expected hashmap or rocksdb, got '" + name + "'");
        }
    }

    /** Validates. */
    public LocalState {
        Objects.requireNonNull(checkpoints, "checkpoints");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(resumeFrom, "resumeFrom");
        if (rocksDbMemory < MIN_ROCKSDB_MEMORY) {
            throw new IllegalArgumentException("RocksDB memory must be at least " + (MIN_ROCKSDB_MEMORY >> 20)
                    + " MiB, got " + rocksDbMemory + " bytes");
        }
    }

    /** Checkpoints in {@code directory} with the heap backend, a random job id and nothing to resume. */
    public static LocalState fresh(Path directory) {
        return new LocalState(directory, Backend.HASHMAP, Optional.empty(), Optional.empty());
    }
}
