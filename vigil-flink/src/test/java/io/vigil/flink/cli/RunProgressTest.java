package io.vigil.flink.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.JobMetrics.Snapshot;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@link RunProgress}' lines from metric totals: progress, the mismatch rule, the summary in text and JSON. */
class RunProgressTest {
    private static final Snapshot RUNNING = new Snapshot(Map.of(
            JobMetrics.SAMPLES_IN,
            25_000L,
            JobMetrics.DECISIONS_EARLY,
            120L,
            JobMetrics.DECISIONS_COMPLETE,
            30L,
            JobMetrics.SERIES_ABANDONED,
            2L,
            JobMetrics.SERIES_IN_FLIGHT,
            1_500L,
            "deadLetters_duplicate",
            3L));

    @Test
    void progressLineCountsDecisionsInFlightRateAndDeadLetters() {
        Snapshot before = new Snapshot(Map.of(JobMetrics.SAMPLES_IN, 5_000L));
        assertEquals(
                "decisions 150 (early 120, at t = d 30, undecided 0), abandoned 2, series in flight 1,500,"
                        + " 2,000 samples/s, dead letters 3 (duplicate 3)",
                RunProgress.progressLine(RUNNING, before, 10));
    }

    @Test
    void mismatchNeedsMoreThanOnePercentOfEnoughSamples() {
        assertEquals(Optional.empty(), RunProgress.mismatch(counts(999, 999, 0), 32, 16), "too few samples");
        assertEquals(Optional.empty(), RunProgress.mismatch(counts(10_000, 60, 40), 32, 16), "exactly 1 %");
        assertEquals(Optional.empty(), RunProgress.mismatch(RUNNING, 32, 16), "other reasons do not count");
        String w = RunProgress.mismatch(counts(10_000, 7_500, 0), 32, 16).orElseThrow();
        assertTrue(w.contains("7,500 of 10,000 samples (75.0 %)") && w.contains("7,500 t_beyond_length"), w);
        assertTrue(w.contains("d = 32") && !w.contains("gap_beyond_buffer"), w);
        String g = RunProgress.mismatch(counts(10_000, 0, 101), 32, 16).orElseThrow();
        assertTrue(g.contains("101 gap_beyond_buffer") && g.contains("reorder window of 16"), g);
    }

    @Test
    void summaryAsTextAndAsOneJsonObject() throws Exception {
        Snapshot end = new Snapshot(Map.of(
                JobMetrics.SAMPLES_IN,
                4_000L,
                JobMetrics.DECISIONS_EARLY,
                20L,
                JobMetrics.DECISIONS_COMPLETE,
                5L,
                JobMetrics.DECISIONS_UNDECIDED,
                4L,
                JobMetrics.SERIES_ABANDONED,
                1L,
                "deadLetters_t_beyond_length",
                96L));
        RunProgress.Summary s = RunProgress.Summary.of(end, 4.25);
        assertEquals(
                "summary: decided early 20, at t = d 5, undecided 4, abandoned 1; 4,000 samples; dead letters 96"
                        + " (t_beyond_length 96); 4.3 s",
                s.text());
        JsonNode j = Json.mapper().readTree(s.json());
        assertEquals(20, j.get("decided_early").asLong());
        assertEquals(5, j.get("decided_complete").asLong());
        assertEquals(4, j.get("undecided").asLong());
        assertEquals(1, j.get("abandoned").asLong());
        assertEquals(96, j.get("dead_letters").get("t_beyond_length").asLong());
        assertEquals(0, j.get("dead_letters").get("duplicate").asLong());
        assertEquals(4_000, j.get("samples").asLong());
        assertEquals(4.25, j.get("seconds").asDouble());
    }

    private static Snapshot counts(long samples, long beyond, long gaps) {
        return new Snapshot(Map.of(
                JobMetrics.SAMPLES_IN,
                samples,
                "deadLetters_t_beyond_length",
                beyond,
                "deadLetters_gap_beyond_buffer",
                gaps));
    }
}
