package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.util.Progress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GridReplayTest {
    /**
     * Decisions read off one replay at every grid threshold are those of replaying the rule at the certified
     * threshold, for each rule and classifier, certified τ and not, under both guarantees of one cross-fit.
     */
    @Test
    void readsOffTheDecisionsOfAReplayAtTheCertifiedThreshold() {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 40, 60, 2L);
        CalibrationParams base = CalibrationParams.defaults(2L);
        List<ReliabilityExperiment.Trained> trained = ReliabilityExperiment.trainEach(
                data.train(),
                2L,
                List.of(
                        base.withGuarantee(Guarantee.PAC, Selection.BONFERRONI),
                        base.withGuarantee(Guarantee.EXPECTED, Selection.SPLIT)));
        int certified = 0;
        int uncertified = 0;
        for (ReliabilityExperiment.Trained t : trained) {
            VigilModel model = t.model();
            for (DecisionRule rule : DecisionRule.values()) {
                ClassifierKind kind = rule == DecisionRule.SET ? ClassifierKind.LOCAL_QDA : ClassifierKind.KNN;
                DecisionParams p = new DecisionParams(
                        0.5, t.operatingPoint().set(), t.operatingPoint().estimator(), kind, null, rule);
                GridReplay replay = GridReplay.run(model, p, data.test());
                for (double tau : List.of(0.02, 0.5, 0.8, 0.9, 0.95, 0.99)) {
                    DecisionThresholds th = DecisionThresholds.of(model, p.withTau(tau));
                    EarlyEvaluation.Result e =
                            EarlyEvaluation.run("CBF", model, null, data.test(), List.of(tau), p, Progress.none());
                    assertEquals(GuaranteeExperiment.Point.of(e.taus().get(0)), replay.at(th), rule + " at τ = " + tau);
                    assertEquals(e.fullAccuracy(), replay.fullAccuracy(), 1e-12);
                    certified += th.certified() ? 1 : 0;
                    uncertified += th.certified() ? 0 : 1;
                }
            }
        }
        assertTrue(certified > 0 && uncertified > 0, certified + " certified, " + uncertified + " not");
    }

    /**
     * Under an observation pattern (values missing at random, arrival shuffled), calibrated for it, with either
     * complete-series estimator: the decisions read off one replay are those of evaluating the same pattern at the
     * certified threshold — early, or where the values run out, at E[x | observed], when τ is not certified or the
     * rule never decides.
     */
    @ParameterizedTest
    @EnumSource(EstimatorType.class)
    void underAPatternReadsOffTheDecisionsOfEvaluatingThatPattern(EstimatorType estimator) {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 40, 60, 3L);
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).shuffled(true).seed(5).build();
        CalibrationParams cp = CalibrationParams.defaults(3L)
                .withGuarantee(Guarantee.PAC, Selection.FIXED)
                .withEstimator(estimator)
                .withPattern(pattern);
        ReliabilityExperiment.Trained t =
                ReliabilityExperiment.trainEach(data.train(), 3L, List.of(cp)).get(0);
        VigilModel model = t.model();
        DecisionParams p = t.operatingPoint().withTau(0.5);
        GridReplay replay = GridReplay.run(model, p, data.test(), pattern, "CBF/test/");
        int certified = 0;
        int uncertified = 0;
        for (double tau : List.of(0.02, 0.5, 0.8, 0.9, 0.99)) {
            DecisionThresholds th = DecisionThresholds.of(model, p.withTau(tau));
            EarlyEvaluation.Result e =
                    EarlyEvaluation.run("CBF", model, null, data.test(), List.of(tau), p, pattern, Progress.none());
            assertEquals(GuaranteeExperiment.Point.of(e.taus().get(0)), replay.at(th), estimator + " at τ = " + tau);
            certified += th.certified() ? 1 : 0;
            uncertified += th.certified() ? 0 : 1;
        }
        assertTrue(certified > 0 && uncertified > 0, certified + " certified, " + uncertified + " not");
    }
}
