package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProvenanceTest {
    private static final double[][] ROWS = {{1, 2}, {3, 4}, {5, 6}};

    @Test
    void fingerprintIdentifiesTheSetOfLabelledSeries() {
        String base = DataFingerprint.of(Dataset.of("a", ROWS, new String[] {"x", "y", "x"}));
        assertTrue(base.matches("sha256:[0-9a-f]{64}"), base);
        // Row order and dataset name do not matter.
        assertEquals(base, DataFingerprint.of(Dataset.of("b", new double[][] {{5, 6}, {1, 2}, {3, 4}}, new String[] {
            "x", "x", "y"
        })));
        // A label, or one bit of one value, does.
        assertNotEquals(base, DataFingerprint.of(Dataset.of("a", ROWS, new String[] {"x", "y", "y"})));
        double[][] nudged = {{1, 2}, {3, Math.nextUp(4.0)}, {5, 6}};
        assertNotEquals(base, DataFingerprint.of(Dataset.of("a", nudged, new String[] {"x", "y", "x"})));
        // Label text is hashed verbatim: "1" and "1.0" differ even where both parse to the same number.
        assertNotEquals(
                DataFingerprint.of(Dataset.of("a", ROWS, new String[] {"1", "2", "1"})),
                DataFingerprint.of(Dataset.of("a", ROWS, new String[] {"1.0", "2", "1.0"})));
    }

    @Test
    void creationTimeHonoursSourceDateEpochElseTheClock() {
        Clock clock = Clock.fixed(Instant.parse("2024-02-03T04:05:06.789Z"), ZoneOffset.UTC);
        assertEquals(Instant.parse("2024-02-03T04:05:06Z"), CreationTime.resolve(Map.of(), clock));
        assertEquals(
                Instant.parse("2023-11-14T22:13:20Z"),
                CreationTime.resolve(Map.of(CreationTime.SOURCE_DATE_EPOCH, "1700000000"), clock));
        assertEquals(
                Instant.parse("2024-02-03T04:05:06Z"),
                CreationTime.resolve(Map.of(CreationTime.SOURCE_DATE_EPOCH, " "), clock));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> CreationTime.resolve(Map.of(CreationTime.SOURCE_DATE_EPOCH, "yesterday"), clock));
        assertTrue(e.getMessage().contains("SOURCE_DATE_EPOCH"), e.getMessage());
    }
}
