package io.vigil.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PercentilesTest {
    @Test
    void nearestRankIsAnObservedValueAtCeilPn() {
        List<Integer> v = new ArrayList<>();
        for (int i = 100; i >= 1; i--) {
            v.add(i);
        }
        assertEquals(50.0, Percentiles.nearestRank(v, 0.50));
        assertEquals(99.0, Percentiles.nearestRank(v, 0.99));
        assertEquals(100.0, Percentiles.nearestRank(v, 1.0));
        assertEquals(1.0, Percentiles.nearestRank(v, 0.001));
        assertEquals(2.0, Percentiles.nearestRank(List.of(1.0, 2.0, 3.0), 0.5));
        assertEquals(7.0, Percentiles.nearestRank(List.of(7L), 0.99));
        assertTrue(Double.isNaN(Percentiles.nearestRank(List.of(), 0.5)));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.nearestRank(v, 0.0));
    }
}
