package io.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OperatorUnits#bounds} against hand computations (docs/watch.md, "What the certificate covers"). */
class OperatorUnitsTest {
    @Test
    void boundsOverRecordingsMatchAHandComputation() {
        List<OperatorUnits.Measure> m = List.of(
                new OperatorUnits.Measure(1, 2, 4, 4),
                new OperatorUnits.Measure(2, 2, 2, 1),
                new OperatorUnits.Measure(1, 0, 2, 2));
        OperatorUnits.Bounds b = OperatorUnits.bounds(m, 0.1);
        // rates 2, 1, 0 per hour: mean 1, s = 1; t(0.9; 2) = 1.885618 → 1 + 1.885618/√3 = 2.088662, above the pooled
        // Poisson bound χ²(0.9; 10)/2 / 4 h = 15.98718/8 = 1.998398.
        assertEquals(3, b.recordings());
        assertEquals(4, b.hours(), 1e-12);
        assertEquals(1, b.extraPerHour(), 1e-12);
        assertEquals(2.0886621079, b.extraPerHourUpper(), 1e-6);
        // fractions 1, 0.5, 1: mean 5/6, s = 0.288675 → 5/6 − 1.885618·0.288675/√3 = 0.519064, below the pooled
        // Clopper–Pearson bound of 7 of 8 windows (Beta(7, 2) at 0.1: x⁷(8 − 7x) = 0.1 → 0.593755).
        assertEquals(8, b.eventWindows());
        assertEquals(3, b.eventRecordings());
        assertEquals(5.0 / 6, b.agreement(), 1e-12);
        assertEquals(0.5190636528, b.agreementLower(), 1e-6);
    }

    @Test
    void withoutOverDispersionThePoissonAndClopperPearsonBoundsHold() {
        List<OperatorUnits.Measure> m =
                List.of(new OperatorUnits.Measure(1, 0, 5, 5), new OperatorUnits.Measure(1, 0, 5, 5));
        OperatorUnits.Bounds b = OperatorUnits.bounds(m, 0.1);
        // no extra alarm in 2 h: the t-bound is 0, the Poisson bound χ²(0.9; 2)/2 / 2 h = 4.605170/4 = 1.151293.
        assertEquals(0, b.extraPerHour(), 0);
        assertEquals(1.1512925465, b.extraPerHourUpper(), 1e-6);
        // 10 of 10 windows agree: the t-bound is 1, Clopper–Pearson 0.1^(1/10) = 0.794328.
        assertEquals(1, b.agreement(), 0);
        assertEquals(Math.pow(0.1, 0.1), b.agreementLower(), 1e-9);
    }

    @Test
    void oneRecordingGivesNoBound() {
        OperatorUnits.Bounds b = OperatorUnits.bounds(List.of(new OperatorUnits.Measure(1, 3, 2, 1)), 0.1);
        assertEquals(3, b.extraPerHour(), 0);
        assertTrue(Double.isNaN(b.extraPerHourUpper()));
        assertTrue(Double.isNaN(b.agreementLower()));
        assertThrows(IllegalArgumentException.class, () -> OperatorUnits.bounds(List.of(), 1.5));
    }
}
