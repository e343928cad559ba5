package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.util.Failures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded cluster's restart bound and its temp directory (the listener check runs on a real process). */
class LocalFlinkTest {
    /** Attempts of the failing job (the MiniCluster runs in this JVM). */
    private static final AtomicInteger ATTEMPTS = new AtomicInteger();

    @TempDir
    Path base;

    @Test
    void aJobThatAlwaysFailsEndsWithItsCauseInsteadOfRestartingForever() {
        ATTEMPTS.set(0);
        Exception e = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            try (LocalFlink flink = LocalFlink.start(OptionalInt.empty())) {
                StreamExecutionEnvironment env = flink.environment();
                env.setParallelism(1);
                env.fromSequence(1, 3)
                        .map((Long x) -> {
                            ATTEMPTS.incrementAndGet();
                            if (x > 0) {
                                throw new IllegalStateException("always broken");
                            }
                            return x;
                        })
                        .returns(Long.class)
                        .sinkTo(new DiscardingSink<>());
                return assertThrows(Exception.class, () -> env.execute("always failing"));
            }
        });
        assertEquals("always broken", Failures.ownMessageOfRoot(e));
        assertEquals(LocalFlink.MAX_RESTARTS + 1, ATTEMPTS.get(), "the first attempt and MAX_RESTARTS restarts");
    }

    @Test
    void closeRemovesTheTempDirectoryAndStaleOnesOfDeadProcessesGoAtTheNextStart() throws Exception {
        Path dead = Files.createDirectories(base.resolve(LocalFlink.TEMP_PREFIX + (Long.MAX_VALUE / 2) + "-7/io/x"));
        Files.writeString(dead.resolve("left.jar"), "left by a process killed with SIGKILL");
        Path alive = Files.createDirectories(
                base.resolve(LocalFlink.TEMP_PREFIX + ProcessHandle.current().pid() + "-8"));
        Path other = Files.createDirectories(base.resolve("vigil-runner-notes"));
        LocalFlink.removeStale(base);
        assertFalse(Files.exists(base.resolve(LocalFlink.TEMP_PREFIX + (Long.MAX_VALUE / 2) + "-7")));
        assertTrue(Files.isDirectory(alive), "a live process' directory is kept");
        assertTrue(Files.isDirectory(other), "directories of other programs are kept");

        LocalFlink flink = LocalFlink.start(OptionalInt.empty());
        Path dir = flink.tempDirectory();
        assertTrue(dir.getFileName()
                .toString()
                .startsWith(LocalFlink.TEMP_PREFIX + ProcessHandle.current().pid()));
        Files.createDirectories(dir.resolve("io/minicluster_x"));
        flink.close();
        assertFalse(Files.exists(dir));
        assertThrows(IllegalStateException.class, flink::environment);
    }

    @Test
    void everyListenerIsConfiguredOnLoopback() {
        var c = LocalFlink.configuration(base, OptionalInt.empty(), LocalState.fresh(base));
        for (String key : new String[] {
            "rest.address",
            "rest.bind-address",
            "jobmanager.rpc.address",
            "jobmanager.bind-host",
            "taskmanager.host",
            "taskmanager.bind-host"
        }) {
            assertEquals(LocalFlink.LOOPBACK, c.toMap().get(key), key);
        }
        assertEquals("0", c.toMap().get("rest.bind-port"), "no fixed REST port without --web-ui");
        assertEquals(
                "8081",
                LocalFlink.configuration(base, OptionalInt.of(8081), LocalState.fresh(base))
                        .toMap()
                        .get("rest.bind-port"));
    }

    @Test
    void rocksDbGetsManagedMemoryForItsCacheAndTheHashMapBackendKeepsTheDefault() {
        var rocks = new LocalState(
                base, LocalState.Backend.ROCKSDB, java.util.Optional.empty(), java.util.Optional.empty());
        var c = LocalFlink.configuration(base, OptionalInt.empty(), rocks).toMap();
        assertEquals("rocksdb", c.get("state.backend.type"));
        assertEquals("true", c.get("execution.checkpointing.incremental"));
        assertEquals(
                new org.apache.flink.configuration.MemorySize(LocalState.DEFAULT_ROCKSDB_MEMORY),
                org.apache.flink.configuration.MemorySize.parse(c.get("taskmanager.memory.managed.size")));
        assertEquals(
                org.apache.flink.configuration.MemorySize.parse("3g"),
                org.apache.flink.configuration.MemorySize.parse(
                        LocalFlink.configuration(base, OptionalInt.empty(), rocks.withRocksDbMemory(3L << 30))
                                .toMap()
                                .get("taskmanager.memory.managed.size")));
        assertEquals("true", c.get("state.backend.rocksdb.use-bloom-filter"));
        assertEquals(
                java.util.List.of(org.rocksdb.CompressionType.NO_COMPRESSION),
                LocalFlink.configuration(base, OptionalInt.empty(), rocks)
                        .get(org.apache.flink.state.rocksdb.RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL));
        var heap = LocalFlink.configuration(base, OptionalInt.empty(), LocalState.fresh(base))
                .toMap();
        assertEquals(null, heap.get("taskmanager.memory.managed.size"));
        assertEquals(null, heap.get("state.backend.rocksdb.use-bloom-filter"));
    }

    /** A checkpoint held up by backpressure continues unaligned after a second, with either backend. */
    @Test
    void checkpointsHeldUpByBackpressureContinueUnaligned() {
        var c = LocalFlink.configuration(base, OptionalInt.empty(), LocalState.fresh(base));
        assertEquals(true, c.get(org.apache.flink.configuration.CheckpointingOptions.ENABLE_UNALIGNED));
        assertEquals(
                LocalFlink.ALIGNED_CHECKPOINT_TIMEOUT,
                c.get(org.apache.flink.configuration.CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT));
    }
}
