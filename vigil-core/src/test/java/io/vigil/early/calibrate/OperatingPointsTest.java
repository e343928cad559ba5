package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OperatingPointsTest {
    /**
     * One curve on 100 series at thresholds 0.5 and 0.9: 20 and 0 disagreements, 70 and 95 correct, mean t/d 0.1 and
     * 0.6. τ = 0.5 is certified at the first threshold (20 of 100 at α = 0.5), τ = 0.95 only at the second
     * (0.95^100 = 0.006 ≤ δ). By hand: HM 0.788 vs 0.563; average cost at A = 0.01: 0.301 vs 0.056; at A = 1: 0.4 vs
     * 0.65.
     */
    private static final CalibrationSection SECTION = new CalibrationSection(
            2,
            1L,
            0.1,
            new double[0],
            new double[] {0.5, 0.9},
            List.of(new CalibrationSection.Curve(
                    DecisionRule.SET,
                    ClassifierKind.LOCAL_QDA,
                    SetKind.NB_QUADRATIC,
                    EstimatorType.JOINT,
                    100,
                    new int[] {20, 0},
                    new int[] {70, 95},
                    new double[] {10, 60},
                    new int[] {20, 0})),
            new double[0],
            new double[0],
            new double[0],
            Optional.empty(),
            Guarantee.PAC,
            Selection.NONE,
            1);

    private static final double[] TAUS = {0.5, 0.95};

    private static CalibrationParams params(CalibrationParams.Objective o, double delayCost) {
        return CalibrationParams.defaults(1L).withObjective(o, Double.NaN, delayCost);
    }

    @Test
    void costObjectiveWeighsMisclassificationAgainstDelay() {
        CalibrationSection.OperatingPoint cheapDelay = OperatingPoints.choose(
                        SECTION, params(CalibrationParams.Objective.COST, 0.01), TAUS)
                .orElseThrow();
        assertEquals(0.95, cheapDelay.tau());
        assertEquals("cost", cheapDelay.objective());
        assertEquals(0.01, cheapDelay.delayCost());
        assertTrue(cheapDelay.certified());
        assertEquals(
                0.5,
                OperatingPoints.choose(SECTION, params(CalibrationParams.Objective.COST, 1.0), TAUS)
                        .orElseThrow()
                        .tau());
        CalibrationSection.OperatingPoint hm = OperatingPoints.choose(
                        SECTION, params(CalibrationParams.Objective.HM, Double.NaN), TAUS)
                .orElseThrow();
        assertEquals(0.5, hm.tau());
        assertEquals(2 * 0.7 * 0.9 / 1.6, hm.harmonicMean(), 1e-12);
        assertTrue(Double.isNaN(hm.delayCost()));
        assertEquals(0.3 + 0.01 * 0.1, OperatingPoints.averageCost(0.7, 0.1, 0.01), 1e-15);
    }

    /**
     * Five series cannot certify τ 0.99 or 0.999 under pac (0.99^5 = 0.95 > δ = 0.1), so every candidate decides at
     * t = d. The two curves differ only in their replays' accuracy at the least conservative threshold (1 vs 5 of 5
     * correct), which these points never use: all candidates tie and the larger τ of the first curve is chosen.
     */
    @Test
    void uncertifiedCandidatesTieWhateverTheirEarlyAccuracy() {
        CalibrationSection none = new CalibrationSection(
                2,
                1L,
                0.1,
                new double[0],
                new double[] {0.5},
                List.of(curve(DecisionRule.SET, 1), curve(DecisionRule.PROBABILITY, 5)),
                new double[0],
                new double[0],
                new double[0],
                Optional.empty(),
                Guarantee.PAC,
                Selection.NONE,
                1);
        double[] taus = {0.99, 0.999};
        for (CalibrationParams p : List.of(
                params(CalibrationParams.Objective.COST, 0.5), params(CalibrationParams.Objective.HM, Double.NaN))) {
            CalibrationSection.OperatingPoint chosen =
                    OperatingPoints.choose(none, p, taus).orElseThrow();
            assertFalse(chosen.certified());
            assertEquals(0.999, chosen.tau(), p.objective().cliName());
            assertEquals(DecisionRule.SET, chosen.rule(), p.objective().cliName());
        }
    }

    private static CalibrationSection.Curve curve(DecisionRule rule, int correct) {
        return new CalibrationSection.Curve(
                rule,
                ClassifierKind.LOCAL_QDA,
                SetKind.NB_QUADRATIC,
                EstimatorType.JOINT,
                5,
                new int[] {0},
                new int[] {correct},
                new double[] {1},
                new int[] {0});
    }

    /** K counts every (curve, τ) the objective looks at: all τ of the grid, or the target alone. */
    @Test
    void candidatesAreCurvesTimesTheTausLookedAt() {
        CalibrationParams hm = CalibrationParams.defaults(1L).withObjective(CalibrationParams.Objective.HM, Double.NaN);
        assertEquals(6 * 12, OperatingPoints.candidates(6, hm, new double[12]));
        assertEquals(6, OperatingPoints.candidates(6, CalibrationParams.defaults(1L), new double[12]));
    }

    @Test
    void costNeedsADelayCost() {
        assertThrows(IllegalArgumentException.class, () -> params(CalibrationParams.Objective.COST, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> params(CalibrationParams.Objective.COST, -1));
    }
}
