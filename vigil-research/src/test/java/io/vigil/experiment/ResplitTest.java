package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResplitTest {
    @Test
    void allocationIsProportionalSumsUpAndKeepsEveryClass() {
        assertArrayEquals(new int[] {10, 10, 10}, Resplit.allocation(new int[] {310, 310, 310}, 30));
        // Diatom-like: 16 of 322 with a rare class — largest remainder, then at least one each.
        int[] alloc = Resplit.allocation(new int[] {12, 100, 100, 110}, 16);
        assertEquals(16, Arrays.stream(alloc).sum());
        assertTrue(Arrays.stream(alloc).allMatch(a -> a >= 1), Arrays.toString(alloc));
        int[] tiny = Resplit.allocation(new int[] {1, 1, 50}, 3);
        assertArrayEquals(new int[] {1, 1, 1}, tiny);
        assertThrows(IllegalArgumentException.class, () -> Resplit.allocation(new int[] {5, 5, 5}, 2));
        assertThrows(IllegalArgumentException.class, () -> Resplit.allocation(new int[] {5, 5}, 10));
    }

    @Test
    void splitsAreDisjointCompleteSeededAndKeepSizes() {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 30, 90, 1);
        Dataset merged = Resplit.merge(tt.train(), tt.test());
        assertEquals(120, merged.size());
        assertEquals(tt.test().labelOf(0), merged.labelOf(30));
        int[][] a = Resplit.split(merged, 30, 11);
        int[][] b = Resplit.split(merged, 30, 11);
        int[][] c = Resplit.split(merged, 30, 12);
        assertArrayEquals(a[0], b[0]);
        assertNotEquals(Arrays.toString(a[0]), Arrays.toString(c[0]));
        assertEquals(30, a[0].length);
        assertEquals(90, a[1].length);
        boolean[] seen = new boolean[120];
        for (int[] part : a) {
            for (int i : part) {
                assertTrue(!seen[i], "index " + i + " twice");
                seen[i] = true;
            }
        }
        assertArrayEquals(new int[] {10, 10, 10}, merged.subset(a[0]).classCounts());
    }

    @Test
    void reportComparesWithTheThesisAndFlagsLargeShortfalls() {
        Table33Experiment.SplitResult s1 = split(0, 0.90);
        Table33Experiment.SplitResult s2 = split(1, 0.92);
        Table33Experiment.DatasetResult cbf =
                new Table33Experiment.DatasetResult("CBF", 3, 30, 900, 128, List.of(s1, s2));
        Table33Experiment.DatasetResult beef =
                new Table33Experiment.DatasetResult("Beef", 5, 30, 30, 470, List.of(split(0, 0.50), split(1, 0.52)));
        Table33Report r = new Table33Report(Table33Experiment.DimsMode.G_MINUS_1, List.of(cbf, beef), Map.of());
        assertEquals(91.0, cbf.meanPercent(), 1e-9);
        assertEquals(Math.sqrt(2), cbf.stdPercent(), 1e-9);
        assertEquals(1.0, cbf.standardErrorPercent(), 1e-9);
        assertEquals((88.3 + 87.7) / 2, r.thesisMean(), 1e-9);
        assertEquals((91.0 + 51.0) / 2, r.vigilMeanOverThesisDatasets(), 1e-9);
        assertEquals(List.of("Beef"), r.belowThesis());
        assertTrue(
                r.markdown().contains("| CBF | 3 | 30 | 900 | 128 | 91.0 ± 1.4 | 1.00 | 88.3 | +2.7 | +2.7 | 89.3 |"),
                r.markdown());
        assertTrue(r.markdown().contains("NOT met"));
        Table33Report cv = new Table33Report(Table33Experiment.DimsMode.CV, List.of(cbf), Map.of());
        assertEquals(88.8, cv.thesisMean(), 1e-9);
        assertEquals(25, ThesisTable33.datasets().size());
        assertEquals(
                "Sony II",
                ThesisTable33.row("SonyAIBORobotSurface2").orElseThrow().thesisName());
    }

    private static Table33Experiment.SplitResult split(int i, double acc) {
        return new Table33Experiment.SplitResult(i, i, acc, acc, acc, acc, 1.0, 0.5, 2, 4, 4);
    }
}
