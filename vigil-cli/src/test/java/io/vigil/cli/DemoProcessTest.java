package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil demo} as a user starts it, in its own JVM: with the embedded cluster started while the model trains it
 * still streams one decision per series, equal to the offline evaluation's, reports where its time went, logs no
 * WARN or ERROR line, and leaves nothing in its temp directory.
 */
class DemoProcessTest {
    /** A cold JVM training, starting Kafka and Flink on a loaded 2-core machine: generous but bounded. */
    private static final long TIMEOUT_S = 300;

    @Test
    void demoDecidesEverySeriesOnceWithoutWarnings(@TempDir Path dir) throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        CliProcess c = CliProcess.start(
                dir,
                tmp,
                List.of("demo", "--train-size", "40", "--series", "60", "--rate", "5000", "--print", "0", "--json"));
        try {
            assertTrue(c.process().waitFor(TIMEOUT_S, TimeUnit.SECONDS), "the demo ended within " + TIMEOUT_S + " s");
            String err = c.err();
            assertEquals(0, c.process().exitValue(), err);
            List<String> lines = Files.readAllLines(c.out());
            assertEquals(1, lines.size(), "one JSON object on stdout: " + lines);
            JsonNode j = new ObjectMapper().readTree(lines.get(0));
            assertEquals(60, j.get("series").asInt());
            assertEquals(0, j.get("missing").asInt(), lines.get(0));
            assertEquals(0, j.get("duplicates").asInt(), lines.get(0));
            assertTrue(j.get("matches_evaluate").asBoolean(), lines.get(0));
            List<String> moments = new ArrayList<>();
            j.get("timeline_s").fieldNames().forEachRemaining(moments::add);
            for (String m : List.of(
                    "data ready",
                    "broker ready",
                    "cluster ready",
                    "trained",
                    "job submitted",
                    "replay started",
                    "first decision",
                    "last decision",
                    "job ended",
                    "stopped")) {
                assertTrue(moments.contains(m), m + " in " + moments);
            }
            assertTrue(
                    j.get("timeline_s").get("first decision").asDouble()
                            >= j.get("timeline_s").get("replay started").asDouble(),
                    lines.get(0));
            List<String> logged = c.err()
                    .lines()
                    .filter(l -> l.contains(" WARN ") || l.contains(" ERROR "))
                    .toList();
            assertEquals(List.of(), logged, "no WARN or ERROR lines");
            try (var left = Files.list(tmp)) {
                assertEquals(List.of(), left.toList(), "the temp directory is empty after the demo");
            }
        } finally {
            c.process().destroyForcibly();
        }
    }

    /**
     * {@code vigil demo --kind watch} stopped by SIGTERM while alarms flow leaves nothing in its temp directory: the
     * job is cancelled before the broker's and the cluster's directories are removed.
     */
    @Test
    void watchDemoStoppedBySigtermLeavesNothingBehind(@TempDir Path dir) throws Exception {
        stoppedBySigtermLeavesNothingBehind(
                dir, List.of("demo", "--kind", "watch", "--rate", "300", "--json"), " trigger ");
    }

    /** The series demo, stopped by SIGTERM while decisions flow, likewise (its job is cancelled first too). */
    @Test
    void seriesDemoStoppedBySigtermLeavesNothingBehind(@TempDir Path dir) throws Exception {
        stoppedBySigtermLeavesNothingBehind(
                dir, List.of("demo", "--train-size", "40", "--series", "2000", "--rate", "300", "--json"), " at t=");
    }

    private static void stoppedBySigtermLeavesNothingBehind(Path dir, List<String> args, String running)
            throws Exception {
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        CliProcess c = CliProcess.start(dir, tmp, args);
        try {
            c.awaitErr(running, TIMEOUT_S);
            try (var during = Files.list(tmp)) {
                assertTrue(during.findAny().isPresent(), "the broker and the cluster work in the temp directory");
            }
            c.process().destroy();
            assertTrue(c.process().waitFor(120, TimeUnit.SECONDS), "the demo ended after SIGTERM");
            try (var left = Files.list(tmp)) {
                assertEquals(List.of(), left.toList(), "the temp directory is empty after SIGTERM: " + c.err());
            }
        } finally {
            c.process().destroyForcibly();
        }
    }
}
