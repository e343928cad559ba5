package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.experiment.TeaserComparison.Point;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TeaserComparisonTest {
    /**
     * Every point of the certified curve is what evaluating the model {@code vigil train --target-reliability τ} writes
     * gives on the test split, on a dense grid where neighbouring τ share a threshold (each such threshold is evaluated
     * once) as on single τ values evaluated on their own.
     */
    @Test
    void everyCurvePointIsTheModelTrainWritesForItsTau() {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 45, 30, 5L);
        List<Double> taus = new ArrayList<>();
        for (int k = 50; k <= 99; k += 7) {
            taus.add(k / 100.0);
        }
        taus.add(0.51);
        TeaserComparison.Row row = TeaserComparison.run(data, taus, 3L, Progress.none());
        assertEquals(taus.size(), row.curve().size());
        CalibrationParams defaults = CalibrationParams.defaults(3L);
        List<ReliabilityExperiment.Trained> trained = ReliabilityExperiment.trainEach(
                data.train(),
                3L,
                taus.stream()
                        .map(t -> defaults.withObjective(CalibrationParams.Objective.EARLIEST_AT_RELIABILITY, t))
                        .toList());
        int shared = 0;
        for (int k = 0; k < taus.size(); k++) {
            double tau = taus.get(k);
            ReliabilityExperiment.Trained m = trained.get(k);
            DecisionParams p = m.operatingPoint();
            EarlyEvaluation.TauResult alone = EarlyEvaluation.run(
                            "CBF", m.model(), null, data.test(), List.of(p.tau()), p, Progress.none())
                    .taus()
                    .get(0);
            Point point = row.curve().get(k);
            assertEquals(tau, point.tau());
            assertEquals(alone.certified(), point.certified(), "τ = " + tau);
            assertEquals(alone.accuracy(), point.accuracy(), 0.0, "τ = " + tau);
            assertEquals(alone.meanFraction(), point.earliness(), 0.0, "τ = " + tau);
            for (int j = 0; j < k; j++) {
                Point other = row.curve().get(j);
                shared += other.accuracy() == point.accuracy() && other.earliness() == point.earliness() ? 1 : 0;
            }
        }
        assertTrue(shared > 0, "some τ of the grid share a threshold, so the shared evaluation is exercised");
    }

    /**
     * Under {@code expected} every curve point is certified at least where pac certifies it (conformal risk control
     * needs fewer series; U = 0.5 loosens it further), and the default operating point is the model {@code vigil train
     * --guarantee expected --crc-draw 0.5} writes.
     */
    @Test
    void theExpectedCurveCertifiesWherePacDoes() {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 45, 30, 5L);
        List<Double> taus = List.of(0.6, 0.8, 0.9, 0.95);
        TeaserComparison.Row pac = TeaserComparison.run(data, taus, 3L, Progress.none());
        TeaserComparison.Row expected = TeaserComparison.run(data, taus, 3L, Guarantee.EXPECTED, 0.5, Progress.none());
        for (int k = 0; k < taus.size(); k++) {
            assertTrue(
                    !pac.curve().get(k).certified() || expected.curve().get(k).certified(), "τ = " + taus.get(k));
        }
        ReliabilityExperiment.Trained op = ReliabilityExperiment.trainEach(
                        data.train(),
                        3L,
                        List.of(CalibrationParams.defaults(3L)
                                .withGuarantee(
                                        Guarantee.EXPECTED, CalibrationParams.defaultSelection(Guarantee.EXPECTED))
                                .withCrcDraw(0.5)))
                .get(0);
        EarlyEvaluation.TauResult alone = EarlyEvaluation.run(
                        "CBF",
                        op.model(),
                        null,
                        data.test(),
                        List.of(op.operatingPoint().tau()),
                        op.operatingPoint(),
                        Progress.none())
                .taus()
                .get(0);
        assertEquals(alone.accuracy(), expected.operatingPoint().accuracy(), 0.0);
        assertEquals(alone.meanFraction(), expected.operatingPoint().earliness(), 0.0);
    }
}
