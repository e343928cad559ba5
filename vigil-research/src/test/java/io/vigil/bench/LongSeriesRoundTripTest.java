package io.vigil.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import io.vigil.early.SeriesDecision;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The train → save → load → early-decision round trip on long generated series (up to d = 20,000). The d = 20,000 run is tagged
 * {@code slow} (≈ 20–30 s and ≈ 1 GB of heap; {@code mvn verify -Pall-tests}); its figures come from {@code vigil
 * bench long-series}, this test only checks that every part works at that size. Nothing here is timed.
 */
class LongSeriesRoundTripTest {
    @TempDir
    Path dir;

    @Test
    void shortRoundTripUsesTheLowRankFormAndDecidesEverySeries() throws IOException {
        check(LongSeriesBenchmark.run(60, 1500, 2, 6, DecisionParams.defaults(), 3L, dir), 60, 1500);
    }

    @Test
    @Tag("slow")
    void twentyThousandSamplesTrainSaveLoadAndDecide() throws IOException {
        LongSeriesBenchmark.Result r = LongSeriesBenchmark.run(
                300, 20_000, 2, 10, DecisionParams.defaults().withEstimator(EstimatorType.GMM), 1L, dir);
        check(r, 300, 20_000);
        assertTrue(r.fileBytes() <= 200L * 1000 * 1000, "model file " + r.fileBytes() + " bytes");
    }

    private void check(LongSeriesBenchmark.Result r, int n, int d) throws IOException {
        assertEquals(CovarianceForm.LOW_RANK, r.jointForm(), "auto picks the low-rank form for n ≪ d");
        assertEquals(n - 1, r.jointRank(), "rank of n centred series");
        assertTrue(
                r.partBytes().get("sections.complete_series.joint") > 8L * d * (n - 1),
                r.partBytes().toString());
        assertTrue(r.partBytes().get("sections.complete_series.joint") < 8L * d * n * 2, "O(n·d), not d²");
        for (SeriesDecision s : r.decisions()) {
            assertTrue(s.t() >= 1 && s.t() <= d, "decision time " + s.t());
        }
        assertTrue(r.completeAccuracy() >= 0.8, "complete-series accuracy " + r.completeAccuracy());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.count(), "the temporary model file is removed");
        }
    }
}
