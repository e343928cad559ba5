package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GuaranteeStatisticsTest {
    /**
     * One value per cluster is the ordinary standard error: values 1 and 3, sample SD √2, SE √2/√2 = 1. Two clusters
     * of two equal values each (sums 2 and 6) have the same mean and the same SE: pairs of one cluster add no
     * information, where treating the four values as independent would give √(4/3)/2 = 0.577.
     */
    @Test
    void clusteredStandardErrorsByHand() {
        assertEquals(1.0, GuaranteeStatistics.clusteredSe(new double[] {1, 3}, new int[] {1, 1}), 1e-12);
        assertEquals(1.0, GuaranteeStatistics.clusteredSe(new double[] {2, 6}, new int[] {2, 2}), 1e-12);
        assertEquals(1.0, GuaranteeStatistics.clusteredSe(new double[] {2, 0, 6}, new int[] {2, 0, 2}), 1e-12);
        assertTrue(Double.isNaN(GuaranteeStatistics.clusteredSe(new double[] {2}, new int[] {2})));
        assertThrows(IllegalArgumentException.class, () -> GuaranteeStatistics.clusteredSe(new double[1], new int[2]));
    }

    /**
     * By hand (exact binomial sums): on 30 series at τ 0.9 the check fires at ≤ 23 reliable (P(Bin(30, 0.9) ≤ 23) =
     * 0.026 < 0.05, ≤ 24 is not), so against a true 0.85 its power is P(Bin(30, 0.85) ≤ 23) = 0.1526; on 100 series at
     * τ 0.8, ≤ 72 and P(Bin(100, 0.75) ≤ 72) = 0.2776. Tolerance 1e-9: Hipparchus's regularised beta is accurate to
     * about 1e-14 here.
     */
    @Test
    void powerAgainstAFivePointShortfallByHand() {
        assertEquals(0.1525809607628007, GuaranteeStatistics.power(30, 0.9), 1e-9);
        assertEquals(0.27761948688466126, GuaranteeStatistics.power(100, 0.8), 1e-9);
        assertEquals(0.0, GuaranteeStatistics.power(1, 0.9));
        assertThrows(IllegalArgumentException.class, () -> GuaranteeStatistics.power(30, 0.04));
    }
}
