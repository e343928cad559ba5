package io.vigil.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the benchmark's dashboard client takes from each event: lags of decisions seen first, and of the update. */
class WatchedDashboardTest {
    @Test
    void eachDecisionRowCountsOnceAndEachUpdateGivesItsOldestNewRecord() throws Exception {
        WatchedDashboard.Lags lags = WatchedDashboard.Lags.create();
        Set<String> seen = new HashSet<>();
        WatchedDashboard.record(
                "{\"decisions\":[{\"series\":\"b\",\"status\":\"decided\",\"emitted_at\":900},"
                        + "{\"series\":\"a\",\"status\":\"decided\",\"emitted_at\":800}],\"oldest_new_emitted_at\":700}",
                1_000,
                seen,
                lags);
        WatchedDashboard.record(
                "{\"decisions\":[{\"series\":\"c\",\"status\":\"decided\",\"emitted_at\":1100},"
                        + "{\"series\":\"b\",\"status\":\"decided\",\"emitted_at\":900}],\"oldest_new_emitted_at\":1100}",
                1_250,
                seen,
                lags);
        WatchedDashboard.record("{\"decisions\":[],\"oldest_new_emitted_at\":null}", 1_500, seen, lags);
        assertEquals(List.of(100L, 200L, 150L), lags.perDecision(), "b and a once, then c");
        assertEquals(List.of(300L, 150L), lags.worstPerEvent(), "an update without new records gives none");
    }
}
