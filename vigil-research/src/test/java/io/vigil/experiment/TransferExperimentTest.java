package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The pieces of the transfer protocol: per-class draws and pooled PCA against its definition. */
class TransferExperimentTest {
    @Test
    void drawsExactlyMPerClassAndTestsOnTheRest() {
        String[] labels = new String[30];
        double[][] x = new double[30][3];
        for (int i = 0; i < 30; i++) {
            labels[i] = i < 10 ? "a" : "b";
        }
        Dataset ds = Dataset.of("d", x, labels);
        int[][] parts = TransferExperiment.drawPerClass(ds, 2, 9);
        assertEquals(4, parts[0].length);
        assertEquals(26, parts[1].length);
        assertEquals(2, Arrays.stream(parts[0]).filter(i -> i < 10).count());
        int[] all = IntStream.concat(Arrays.stream(parts[0]), Arrays.stream(parts[1]))
                .sorted()
                .toArray();
        assertTrue(Arrays.equals(IntStream.range(0, 30).toArray(), all), "a partition");
        assertTrue(Arrays.equals(parts[0], TransferExperiment.drawPerClass(ds, 2, 9)[0]), "seeded");
    }

    @Test
    void settingsAreValidated() {
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(0, 10, 1, new int[] {2}, 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 1, 1, new int[] {2}, 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 10, 1, new int[0], 1, false));
        assertThrows(
                IllegalArgumentException.class, () -> new TransferExperiment.Config(2, 10, 1, new int[] {2}, 0, false));
    }
}
