package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.reliability.SetKind;
import io.vigil.reliability.probability.StoppingBoundary;
import org.junit.jupiter.api.Test;

/** The automatic fold count and the validation of K. */
class CalibrationParamsTest {
    @Test
    void autoFoldsAreTenUntilTheRefitsGetCostly() {
        assertEquals(10, CalibrationParams.autoFolds(30, 128), "CBF-sized");
        assertEquals(10, CalibrationParams.autoFolds(1000, 1000), "n²·d = 1e9 exactly is not above the limit");
        assertEquals(10, CalibrationParams.autoFolds(300, 5000));
        assertEquals(5, CalibrationParams.autoFolds(300, 20_000), "the long-series case n = 300, d = 20,000");
        assertEquals(5, CalibrationParams.autoFolds(8926, 96), "many short series count as much as few long ones");
    }

    @Test
    void defaultsAskForAutomaticFoldsAndAnExplicitKIsKept() {
        CalibrationParams auto = CalibrationParams.defaults(1L);
        assertEquals(CalibrationParams.AUTO_FOLDS, auto.folds());
        assertEquals(5, auto.foldsFor(300, 20_000));
        assertEquals(10, auto.foldsFor(300, 5000));
        CalibrationParams seven = auto.withFoldsAndDelta(7, 0.1);
        assertEquals(7, seven.foldsFor(300, 20_000));
        assertEquals(7, seven.foldsFor(30, 128));
    }

    /**
     * The default operating point is the earliest certified at reliability 0.9, pac, certified for the default rule
     * alone — the correction both guarantees get unless told otherwise.
     */
    @Test
    void defaultObjectiveIsTheEarliestDecisionCertifiedAtReliabilityNinety() {
        CalibrationParams d = CalibrationParams.defaults(1L);
        assertEquals(CalibrationParams.Objective.EARLIEST_AT_RELIABILITY, d.objective());
        assertEquals(0.9, d.targetReliability());
        assertEquals(io.vigil.reliability.risk.Guarantee.PAC, d.guarantee());
        assertEquals(io.vigil.reliability.risk.Selection.FIXED, d.selection());
        assertEquals(
                io.vigil.reliability.risk.Selection.FIXED,
                CalibrationParams.defaultSelection(io.vigil.reliability.risk.Guarantee.PAC));
        assertEquals(
                io.vigil.reliability.risk.Selection.FIXED,
                CalibrationParams.defaultSelection(io.vigil.reliability.risk.Guarantee.EXPECTED));
    }

    @Test
    void oneFoldIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CalibrationParams.defaults(1L)
                .withFoldsAndDelta(1, 0.1));
        assertEquals("cross-fitting needs at least 2 folds, got 1", e.getMessage());
    }

    /**
     * The default grid reaches from 10⁻¹² to 0.9995 in 64 steps and keeps the older grid's 54 thresholds from 0.02, so
     * a replay at the new grid decides at every older threshold as before.
     */
    @Test
    void defaultGridReachesDownToPracticallyAPointAndKeepsTheOlderThresholds() {
        double[] t = CalibrationParams.defaultThresholds();
        assertEquals(64, t.length);
        assertEquals(1e-12, t[0]);
        assertEquals(0.9995, t[63]);
        assertEquals(0.02, t[10]);
        for (int j = 1; j < t.length; j++) {
            assertTrue(t[j] > t[j - 1], "ascending at " + j);
        }
        for (int j = 0; j < 49; j++) {
            assertEquals((j + 1) / 50.0, t[10 + j], "older threshold " + j);
        }
    }

    /**
     * Every set's radius is finite, positive and strictly increasing along the whole grid for ℓ = 1..64, so the
     * rules stay monotone in λ down to 10⁻¹², and the probability rule's stopping boundary tabulates there.
     */
    @Test
    void radiiIncreaseAlongTheWholeGridInEveryDimension() {
        double[] t = CalibrationParams.defaultThresholds();
        for (SetKind kind : SetKind.values()) {
            for (int ell = 1; ell <= 64; ell++) {
                double previous = 0;
                for (double lambda : t) {
                    double r = kind.radius(ell, lambda);
                    assertTrue(
                            Double.isFinite(r) && r > previous,
                            kind + " ℓ=" + ell + " λ=" + lambda + ": r=" + r + " after " + previous);
                    previous = r;
                }
            }
        }
        assertEquals(1e-12, StoppingBoundary.of(1e-12, 128).lambda());
    }
}
