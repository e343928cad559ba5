package io.vigil.evaluate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.TrainOptions;
import io.vigil.api.VigilTrainer;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.EarlyFixtures;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The notes a trained model gets about its calibration, checked against the section they describe. */
class CalibrationNotesTest {
    @Test
    void aModelWithoutCalibrationGetsNoNotes() {
        VigilModel m = EarlyFixtures.CBF_MODEL.toBuilder()
                .removeSection(CalibrationSection.NAME)
                .build();
        assertEquals(List.of(), CalibrationNotes.afterTraining(m));
    }

    @Test
    void theNotesNameWhatTheSectionCannotCertify() {
        VigilModel m = VigilTrainer.train(
                SyntheticData.generate(SyntheticKind.CBF, 30, 10, 5L).train(),
                TrainOptions.builder()
                        .selection(TrainParams.builder()
                                .gamma(0.3)
                                .dims(4)
                                .neighbors(6)
                                .qdaNeighbors(6)
                                .build())
                        .calibrationHoldout(0.3)
                        .created(Instant.EPOCH)
                        .build(),
                Progress.none());
        CalibrationSection c = m.section(CalibrationSection.class).orElseThrow();
        List<String> expected = new ArrayList<>();
        CalibrationNotes.uncertifiedTarget(m, c).ifPresent(expected::add);
        List<Double> taus = CalibrationSummary.uncertified(c);
        if (expected.isEmpty() && !taus.isEmpty()) {
            expected.add("warning: with " + m.trainSize() + " training series the default rule cannot certify tau = "
                    + taus + " (" + c.guarantee().cliName() + ", delta = " + c.delta() + ", selection "
                    + c.selection().cliName() + " of " + c.candidates() + " candidates); those are decided at t = d"
                    + " and reported \"certified\": false");
        }
        if (c.guarantee() == Guarantee.EXPECTED) {
            expected.add(CalibrationNotes.drawLine(c));
            expected.add(CalibrationNotes.expectedLine());
        }
        assertTrue(!expected.isEmpty(), "the small CBF fixture leaves something uncertified");
        assertEquals(expected, CalibrationNotes.afterTraining(m));
    }
}
