package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The paired t-test mark: degenerate spreads and a hand-computed case on each side of 5 %. */
class PairedTestTest {
    @Test
    void equalSamplesNeverDifferAndAConstantNonZeroShiftAlwaysDoes() {
        double[] a = {0.8, 0.7, 0.9};
        assertFalse(PairedTest.differs(a, a.clone()));
        assertTrue(PairedTest.differs(a, new double[] {0.7, 0.6, 0.8}));
    }

    /**
     * Differences {1, 2, 3, 4}: mean 2.5, sd 1.291, t = 3.873 on 3 df, two-sided p = 0.030 → differ. Differences
     * {1, −1, 2, 0}: mean 0.5, sd 1.291, t = 0.775, p = 0.495 → not.
     */
    @Test
    void handComputedCasesFallOnEachSideOfFivePercent() {
        double[] zero = {0, 0, 0, 0};
        assertTrue(PairedTest.differs(new double[] {1, 2, 3, 4}, zero));
        assertFalse(PairedTest.differs(new double[] {1, -1, 2, 0}, zero));
    }

    @Test
    void samplesOfDifferentLengthsOrOneValueAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> PairedTest.differs(new double[] {1}, new double[] {2}));
        assertThrows(IllegalArgumentException.class, () -> PairedTest.differs(new double[] {1, 2}, new double[] {2}));
    }
}
