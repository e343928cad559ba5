package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
