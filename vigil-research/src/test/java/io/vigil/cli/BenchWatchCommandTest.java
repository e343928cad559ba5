package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.flink.cli.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil bench watch} run small: a window model trained on generated two-channel recordings (cached in a
 * temporary directory), three keys through the watch job on the loopback broker and an embedded cluster; the JSON
 * object carries the contract's fields, every value was read and none dead-lettered, and the open windows never
 * exceeded ⌈D/S⌉ per key.
 */
class BenchWatchCommandTest {
    @TempDir
    Path cache;

    @Test
    void smallRunPrintsOneJsonObjectWithTheContractFields() throws Exception {
        Run r = Run.of(
                "bench",
                "watch",
                "--keys",
                "3",
                "--channels",
                "2",
                "--window",
                "40",
                "--stride",
                "10",
                "--samples",
                "300",
                "--recording-length",
                "1000",
                "--no-calibration",
                "--latency-seconds",
                "2",
                "--cache",
                cache.toString(),
                "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode j = Json.mapper().readTree(r.out());
        for (String f : List.of("values_per_s", "open_windows", "alarms", "latency_ms_p50", "latency_ms_p99")) {
            assertTrue(j.has(f), f + " in " + r.out());
        }
        assertTrue(j.get("values_per_s").asDouble() > 0, r.out());
        assertTrue(j.get("alarms").isIntegralNumber() && j.get("alarms").asLong() >= 0, r.out());
        assertEquals(3L * 300 * 2, j.get("values").asLong());
        assertEquals(0, j.get("dead_letters").asLong(), r.out());
        assertEquals(4, j.get("max_open_windows_per_key").asInt());
        assertTrue(j.get("open_windows_max").asLong() <= 3 * 4, r.out());
        assertTrue(j.get("windows_decided").asLong() > 0, r.out());
        assertEquals(false, j.get("model_cached").asBoolean());
        try (var files = Files.list(cache)) {
            assertEquals(1, files.count(), "the trained model is cached");
        }
    }

    @Test
    void badShapesAreUsageErrors() {
        Run r = Run.of("bench", "watch", "--window", "20", "--stride", "30");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("S ≤ D"), r.err());
    }
}
