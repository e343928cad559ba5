package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which values a pattern observes and in what order: seeded per series, interleaved by time, lags, drops, shuffle. */
class ObservationPatternTest {
    @Test
    void theCompletePatternIsTheTimeMajorPrefix() {
        int[] order = ObservationPattern.complete().order("a", 3, 12);
        int[] expected = new int[12];
        Arrays.setAll(expected, i -> i);
        assertArrayEquals(expected, order);
        assertTrue(ObservationPattern.complete().isComplete());
    }

    @Test
    void theSameSeriesAlwaysGetsTheSameValuesAndAnotherSeriesOthers() {
        ObservationPattern p =
                ObservationPattern.builder().missing(0.3).shuffled(true).seed(4).build();
        assertArrayEquals(p.order("GunPoint/test/3", 2, 200), p.order("GunPoint/test/3", 2, 200));
        assertFalse(Arrays.equals(p.order("GunPoint/test/3", 2, 200), p.order("GunPoint/test/4", 2, 200)));
        ObservationPattern other =
                ObservationPattern.builder().missing(0.3).shuffled(true).seed(5).build();
        assertFalse(Arrays.equals(p.order("GunPoint/test/3", 2, 200), other.order("GunPoint/test/3", 2, 200)));
    }

    @Test
    void valuesAreMissingAtTheRequestedRateIndependentlyOfOrderAndLags() {
        ObservationPattern plain =
                ObservationPattern.builder().missing(0.2).seed(1).build();
        ObservationPattern lagged = ObservationPattern.builder()
                .missing(0.2)
                .lag(0, 7)
                .shuffled(true)
                .seed(1)
                .build();
        int total = 0;
        for (int s = 0; s < 50; s++) {
            int[] a = plain.order("s" + s, 3, 300);
            int[] b = lagged.order("s" + s, 3, 300);
            total += a.length;
            int[] sortedB = b.clone();
            Arrays.sort(sortedB);
            assertArrayEquals(a, sortedB, "the same values observed whatever the order");
            assertTrue(isIncreasing(a), "without lags or shuffling, values arrive in time-major order");
        }
        double observed = total / (50.0 * 300);
        // 15,000 Bernoulli(0.8) draws: standard deviation 0.0033, so ±0.02 is six of them.
        assertEquals(0.8, observed, 0.02);
    }

    @Test
    void aLaggedChannelArrivesKStepsLateAndADroppedOneNever() {
        ObservationPattern p = ObservationPattern.builder().lag(1, 2).drop(2).build();
        // C = 3, d = 4: channel 0 at steps 0..3, channel 1 at steps 2..5, channel 2 never.
        int[] order = p.order("x", 3, 12);
        assertArrayEquals(new int[] {0, 3, 6, 1, 9, 4, 7, 10}, order);
        assertFalse(p.isComplete());
    }

    @Test
    void lagsParseFromTheCommandLineFormAndBadOnesAreNamed() {
        assertEquals(Map.of(1, 3, 2, 0), ObservationPattern.parseLags("1:3, 2:0"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ObservationPattern.parseLags("1:3,2"));
        assertTrue(e.getMessage().contains("'2'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ObservationPattern.parseLags("1:x"));
        assertThrows(IllegalArgumentException.class, () -> ObservationPattern.parseLags("1:2,1:3"));
        assertThrows(IllegalArgumentException.class, () -> ObservationPattern.builder()
                .missing(1.0));
        IllegalArgumentException c = assertThrows(
                IllegalArgumentException.class,
                () -> ObservationPattern.builder().drop(3).build().order("x", 3, 12));
        assertTrue(c.getMessage().contains("dropped channel 3"), c.getMessage());
    }

    private static boolean isIncreasing(int[] a) {
        for (int i = 1; i < a.length; i++) {
            if (a[i] <= a[i - 1]) {
                return false;
            }
        }
        return true;
    }
}
