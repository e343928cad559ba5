package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.ObservationPattern;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.cli.Json;
import io.vigil.kafka.SeriesId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchCommandTest {
    static Run run(String... args) {
        return Run.of(args);
    }

    @Test
    void ldgFitJsonIsOneObjectWithTheMeasurements() throws Exception {
        Run r = run("bench", "ldg-fit", "--n", "20", "--d", "50", "--classes", "3", "--repeat", "2", "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("ldg-fit", j.get("benchmark").asText());
        assertEquals("kernel", j.get("form").asText());
        assertEquals(19, j.get("rank").asInt(), "centred rank n − 1");
        assertEquals(2, j.get("seconds").size());
        assertTrue(j.get("min_seconds").asDouble() > 0);
        assertTrue(j.get("min_seconds").asDouble() <= j.get("median_seconds").asDouble());
        assertTrue(j.get("peak_heap_bytes").asLong() > 0);
    }

    @Test
    void ldgFitTableAndForcedPrimalForm() {
        Run r = run("bench", "ldg-fit", "--n", "30", "--d", "8", "--repeat", "1", "--form", "primal");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("fit_s_min") && r.out().contains("primal"), r.out());
    }

    @Test
    void ldgCvJson() throws Exception {
        Run r = run(
                "bench",
                "ldg-cv",
                "--n",
                "24",
                "--d",
                "10",
                "--classes",
                "3",
                "--folds",
                "0",
                "--threads",
                "1",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("loo", j.get("scheme").asText());
        assertEquals(24, j.get("folds").asInt());
        assertEquals(24 * 6, j.get("fits").asInt());
    }

    @Test
    void usageErrorsExitTwoAndFailuresExitOne() {
        assertEquals(2, run("bench").exit());
        Run bad = run("bench", "ldg-fit", "--neighbors", "0");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("neighbors must be >= 1"), bad.err());
        assertEquals(2, run("bench", "ldg-cv", "--folds", "1").exit());
        Run fail = run("bench", "ldg-fit", "--n", "3", "--d", "4", "--classes", "5", "--repeat", "1");
        assertEquals(1, fail.exit());
        assertTrue(fail.err().startsWith("vigil ldg-fit: "), fail.err());
        assertEquals(0, run("bench", "ldg-fit", "--help").exit());
        assertEquals(0, run("bench", "--help").exit());
    }

    @Test
    void scaleJsonCountsEverySeriesAndReportsSaneFigures() throws Exception {
        Run r = run(
                "bench",
                "scale",
                "--series",
                "20,200",
                "--length",
                "32",
                "--samples",
                "8",
                "--train",
                "30",
                "--checkpoint-interval",
                "200ms",
                "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("scale", j.get("benchmark").asText());
        assertEquals(32, j.get("length").asInt());
        assertEquals(8, j.get("samples_per_series").asInt());
        assertEquals("hashmap", j.get("state_backend").asText());
        assertTrue(j.get("rocksdb_memory_bytes").isNull(), "RocksDB memory is not used by the hashmap backend");
        assertTrue(j.get("state_bytes_model_max").asLong() > 0);
        assertEquals(2, j.get("runs").size());
        // The reference (20 in flight) reads about as many samples as the 200-series run: waves of 20 new series of
        // d = 32 samples each (round(1,600 / 640) = 3), every series to its end and its one decision.
        JsonNode reference = j.get("runs").get(0);
        assertEquals(20, reference.get("series").asInt());
        assertEquals(3, reference.get("waves").asInt());
        assertEquals(32, reference.get("samples_per_series").asInt());
        assertEquals(3 * 20 * 32, reference.get("samples").asLong());
        assertEquals(
                3 * 20,
                reference.get("decided_early").asLong()
                        + reference.get("decided_complete").asLong(),
                reference.toString());
        assertEquals(0, reference.get("undecided").asLong(), reference.toString());
        JsonNode run = j.get("runs").get(1);
        assertEquals(1, run.get("waves").asInt());
        assertEquals(8, run.get("samples_per_series").asInt());
        assertEquals(200, run.get("series").asInt());
        assertEquals(200 * 8, run.get("samples").asLong());
        assertTrue(run.get("produce_samples_per_s").asDouble() > 0, run.toString());
        assertTrue(run.get("samples_per_s").asDouble() > 0, run.toString());
        long inFlight = run.get("series_in_flight").asLong();
        assertTrue(inFlight >= 0 && inFlight <= 200, run.toString());
        assertTrue(run.get("checkpoints").asInt() >= 0
                && run.get("failed_checkpoints").asLong() >= 0);
        assertTrue(run.get("checkpoint_ms_max_while_reading").asLong()
                <= run.get("checkpoint_ms_max").asLong());
        assertTrue(run.get("checkpoint_bytes_max").asLong()
                >= run.get("checkpoint_increment_bytes_max").asLong());
        double perSeries = run.get("state_bytes_per_series").asDouble();
        assertTrue(perSeries == -1 || perSeries > 0, run.toString());
        assertTrue(run.get("peak_heap_bytes").asLong() > 0);
        // Every series ends with exactly one record: decided early (8 < d) or undecided at the end of the input.
        assertEquals(0, run.get("decided_complete").asLong(), run.toString());
        assertEquals(
                200, run.get("decided_early").asLong() + run.get("undecided").asLong(), run.toString());
        assertEquals(
                run.get("samples_per_s").asDouble()
                        / reference.get("samples_per_s").asDouble(),
                j.get("throughput_ratio").asDouble(),
                1e-9);
    }

    @Test
    void scaleUsageErrorsExitTwo() {
        assertEquals(
                2, run("bench", "scale", "--length", "32", "--samples", "33").exit());
        assertEquals(2, run("bench", "scale", "--state-backend", "memory").exit());
        assertEquals(2, run("bench", "scale", "--series", "0").exit());
        assertEquals(2, run("bench", "scale", "--tau", "1").exit());
        // --rocksdb-memory is validated as `vigil run` validates it (RunCommandTest has the full list).
        Run heap = run("bench", "scale", "--rocksdb-memory", "2g");
        assertEquals(2, heap.exit());
        assertTrue(heap.err().contains("--rocksdb-memory is for --state-backend rocksdb"), heap.err());
        Run small = run("bench", "scale", "--state-backend", "rocksdb", "--rocksdb-memory", "1m");
        assertEquals(2, small.exit());
        assertTrue(small.err().contains("--rocksdb-memory must be at least 64m, got '1m'"), small.err());
    }

    @Test
    void scaleWithRocksDbSaysWhichManagedMemoryItUsed() {
        Run r = run(
                "bench",
                "scale",
                "--series",
                "50",
                "--length",
                "32",
                "--samples",
                "4",
                "--train",
                "30",
                "--state-backend",
                "rocksdb",
                "--rocksdb-memory",
                "96m");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("rocksdb (96 MiB managed memory)"), r.out());
        assertTrue(r.err().contains("rocksdb (96 MiB managed memory) backend"), r.err());
    }

    /**
     * {@code bench stream --dashboard}: a warm-up run, then alternating runs without and with the metrics endpoint and
     * the dashboard, reported run by run and as medians, with how late the dashboard's client saw decisions.
     */
    @Test
    void streamWithTheDashboardAlternatesRunsAndMeasuresTheDashboardLag() throws Exception {
        Run r = run(
                "bench",
                "stream",
                "--series",
                "150",
                "--train",
                "40",
                "--latency-seconds",
                "1",
                "--dashboard",
                "--repeat",
                "1",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals(1, j.get("repeat").asInt());
        assertEquals("metrics+dashboard", j.get("observed").asText());
        assertEquals(1, j.get("vigil_runs_samples_per_s").size());
        assertEquals(1, j.get("observed_runs_samples_per_s").size());
        assertEquals(
                j.get("vigil_runs_samples_per_s").get(0).asDouble(),
                j.get("vigil_samples_per_s").asDouble());
        assertEquals(
                j.get("observed_runs_samples_per_s").get(0).asDouble(),
                j.get("dashboard_samples_per_s").asDouble(),
                "the runs with metrics also had the dashboard on");
        assertEquals(
                j.get("dashboard_samples_per_s").asDouble(),
                j.get("vigil_with_metrics_samples_per_s").asDouble());
        assertTrue(j.get("warm_up_samples_per_s").asDouble() > 0);
        assertTrue(j.get("dashboard_lag_decisions").asInt() > 0, r.out());
        assertTrue(j.get("dashboard_lag_p50_ms").asDouble()
                <= j.get("dashboard_lag_p99_ms").asDouble());
        assertTrue(j.get("dashboard_lag_p99_ms").asDouble()
                <= j.get("dashboard_lag_max_ms").asDouble());
        assertTrue(j.get("dashboard_update_lag_max_ms").asDouble() >= 0, r.out());
    }

    @Test
    void streamRefusesNoRepeats() {
        assertEquals(2, run("bench", "stream", "--repeat", "0").exit());
    }

    /**
     * {@code bench stream} on the streams users run: three channels per series, values shuffled per series, RocksDB.
     * Every run of (c) decides each published series exactly once, and the JSON says what ran.
     */
    @Test
    void streamWithSeveralChannelsShuffledOnRocksDbDecidesEverySeriesOnce() throws Exception {
        Run r = run(
                "bench",
                "stream",
                "--kind",
                "multi-cbf",
                "--shuffle",
                "--state-backend",
                "rocksdb",
                "--series",
                "12",
                "--train",
                "30",
                "--latency-seconds",
                "1",
                "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals("multi-cbf", j.get("kind").asText());
        assertEquals(3, j.get("channels").asInt());
        assertEquals(128, j.get("length").asInt());
        assertEquals(12, j.get("series").asInt());
        assertEquals(12 * 3 * 128, j.get("samples").asLong(), "one record per value");
        assertTrue(j.get("shuffle").asBoolean());
        assertTrue(j.get("pattern").get("shuffled").asBoolean());
        assertEquals(1, j.get("pattern").get("seed").asLong(), "shuffled with --seed");
        assertTrue(j.get("any_order").asBoolean());
        assertEquals("rocksdb", j.get("state_backend").asText());
        assertEquals(1L << 30, j.get("rocksdb_memory_bytes").asLong());
        assertEquals(64L << 20, j.get("any_order_cache_bytes").asLong());
        // The warm-up run and one pair without and with the metrics endpoint: each decided all 12 series once.
        assertEquals(List.of(12L, 12L, 12L), longs(j.get("decided_series_per_run")), r.out());
        assertEquals(0, j.get("dead_letters").asLong(), r.out());
        assertTrue(j.get("latency_decisions").asInt() > 0, r.out());
        assertTrue(
                j.get("state_bytes_max").asLong() > j.get("state_bytes_decided").asLong(), r.out());
    }

    @Test
    void streamUsageErrorsExitTwoWithOneLine() {
        Run cache = run("bench", "stream", "--any-order-cache", "128m");
        assertEquals(2, cache.exit());
        assertTrue(
                cache.err()
                        .startsWith("--any-order-cache is for series observed in any order: --kind multi-cbf or "
                                + "--shuffle"),
                cache.err());
        Run backend = run("bench", "stream", "--state-backend", "memory");
        assertEquals(2, backend.exit());
        assertTrue(backend.err().startsWith("--state-backend: "), backend.err());
        Run memory = run("bench", "stream", "--rocksdb-memory", "2g");
        assertEquals(2, memory.exit());
        assertTrue(memory.err().startsWith("--rocksdb-memory is for --state-backend rocksdb"), memory.err());
        Run train = run("bench", "stream", "--kind", "multi-cbf", "--train", "2");
        assertEquals(2, train.exit());
        assertTrue(train.err().startsWith("--train must be at least 3"), train.err());
        assertEquals(
                2,
                run("bench", "stream", "--kind", "multi-cbf", "--any-order-cache", "lots")
                        .exit());
    }

    /**
     * {@code bench stream} under the patterns users' streams have: a fifth of the values missing at random, shuffled.
     * The values sent are exactly those {@code vigil replay} would send, each series that lost values ends with its
     * end record, and every run of (c) still decides each series exactly once.
     */
    @Test
    void streamWithMissingValuesShuffledDecidesEverySeriesOnce() throws Exception {
        JsonNode j = streamJson("--kind", "multi-cbf", "--missing", "0.2", "--shuffle");
        ObservationPattern pattern =
                ObservationPattern.builder().seed(1).missing(0.2).shuffled(true).build();
        assertEquals(valuesSent(pattern), j.get("values_sent").asLong());
        assertEquals(12 * 3 * 128, j.get("values_complete").asLong());
        assertTrue(j.get("values_sent").asLong() < 0.9 * 12 * 3 * 128, j.toString());
        assertEquals(12, j.get("end_records").asLong(), "every series lost values");
        assertEquals(
                j.get("values_sent").asLong() + j.get("end_records").asLong(),
                j.get("samples").asLong(),
                "records in the topic");
        JsonNode p = j.get("pattern");
        assertEquals(0.2, p.get("missing").asDouble());
        assertTrue(p.get("shuffled").asBoolean());
        assertEquals(1, p.get("seed").asLong(), "drawn with --seed");
        assertEquals(0, p.get("channel_lags").size());
        assertEquals(0, p.get("dropped_channels").size());
        assertTrue(j.get("shuffle").asBoolean());
        assertTrue(j.get("any_order").asBoolean());
    }

    /** A channel two steps late and another never sent: each series ends on its end record and is decided once. */
    @Test
    void streamWithALateAndADroppedChannelDecidesEverySeriesOnce() throws Exception {
        JsonNode j = streamJson("--kind", "multi-cbf", "--channel-lag", "1:2", "--drop-channel", "2");
        assertEquals(12 * 2 * 128, j.get("values_sent").asLong(), "channels 0 and 1, every value");
        assertEquals(12 * 3 * 128, j.get("values_complete").asLong());
        assertEquals(12, j.get("end_records").asLong());
        JsonNode p = j.get("pattern");
        assertEquals(0.0, p.get("missing").asDouble());
        assertEquals(2, p.get("channel_lags").get("1").asInt());
        assertEquals(List.of(2L), longs(p.get("dropped_channels")));
        assertFalse(p.get("shuffled").asBoolean());
        assertFalse(j.get("shuffle").asBoolean());
    }

    /**
     * A small {@code bench stream} on the heap with {@code args}; asserts that it ran the 12 series of three channels
     * and that its warm-up run and one pair decided each of them exactly once, and returns its JSON.
     */
    private static JsonNode streamJson(String... args) throws Exception {
        List<String> all = new ArrayList<>(
                List.of("bench", "stream", "--series", "12", "--train", "30", "--latency-seconds", "1", "--json"));
        all.addAll(List.of(args));
        Run r = run(all.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), r.out());
        JsonNode j = Json.mapper().readTree(r.out());
        assertEquals(3, j.get("channels").asInt());
        assertEquals(12, j.get("series").asInt());
        assertEquals(List.of(12L, 12L, 12L), longs(j.get("decided_series_per_run")), r.out());
        assertEquals(0, j.get("dead_letters").asLong(), r.out());
        assertTrue(j.get("latency_decisions").asInt() > 0, r.out());
        return j;
    }

    /** Values of the 12 multi-cbf test series that {@code pattern} observes, drawn per series id. */
    private static long valuesSent(ObservationPattern pattern) {
        String name = SyntheticData.generate(SyntheticKind.MULTI_CBF, 3, 1, 1, true)
                .test()
                .name();
        long n = 0;
        for (int i = 0; i < 12; i++) {
            n += pattern.order(new SeriesId(name, "test", i, 0).toString(), 3, 3 * 128).length;
        }
        return n;
    }

    @Test
    void streamPatternUsageErrorsExitTwoWithOneLine() {
        assertUsage("--missing: missing probability must be in [0, 1), got 1.0", "--missing", "1");
        assertUsage("--missing: missing probability must be in [0, 1), got -0.1", "--missing", "-0.1");
        assertUsage(
                "--channel-lag: channel 3 is not a channel of the data (channels 0..2)",
                "--kind",
                "multi-cbf",
                "--channel-lag",
                "3:1");
        assertUsage("--channel-lag: channel lag '1' is not C:K", "--kind", "multi-cbf", "--channel-lag", "1");
        assertUsage(
                "--drop-channel: channel 5 is not a channel of the data (channels 0..2)",
                "--kind",
                "multi-cbf",
                "--drop-channel",
                "5");
        assertUsage(
                "--drop-channel: dropping every channel of the data (channels 0..2) leaves nothing to observe",
                "--kind",
                "multi-cbf",
                "--drop-channel",
                "0,1,2");
        assertUsage(
                "--channel-lag and --drop-channel need several channels; --kind cbf has one (use --kind multi-cbf)",
                "--channel-lag",
                "0:2");
        assertUsage(
                "--channel-lag and --drop-channel need several channels; --kind two-patterns has one",
                "--kind",
                "two-patterns",
                "--drop-channel",
                "0");
    }

    /** {@code bench stream args} exits 2 and its first line of stderr starts with {@code message}. */
    private static void assertUsage(String message, String... args) {
        List<String> all = new ArrayList<>(List.of("bench", "stream"));
        all.addAll(List.of(args));
        Run r = run(all.toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().lines().findFirst().orElse("").startsWith(message), r.err());
    }

    private static List<Long> longs(JsonNode array) {
        List<Long> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asLong()));
        return values;
    }
}
