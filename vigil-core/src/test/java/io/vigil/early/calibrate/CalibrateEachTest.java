package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** One cross-fit certified under several variants gives the very sections of separate calibrations. */
class CalibrateEachTest {
    private static final TrainTest DATA = SyntheticData.generate(SyntheticKind.CBF, 45, 3, 5L);

    private static TrainParams fixed(int dims) {
        return TrainParams.builder()
                .protocol(SelectionProtocol.GIVEN)
                .gamma(0.3)
                .dims(dims)
                .neighbors(5)
                .qdaNeighbors(5)
                .build();
    }

    private static VigilModel trained() {
        return trained(fixed(2));
    }

    private static VigilModel trained(TrainParams p) {
        VigilModel m = Trainer.train(DATA.train(), p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        return EarlyModelTrainer.addSections(m, DATA.train(), EarlyModelTrainer.Params.defaults());
    }

    @Test
    void eachVariantEqualsItsOwnCalibration() {
        VigilModel model = trained();
        CalibrationParams base = CalibrationParams.defaults(3L).withFoldsAndDelta(5, 0.1);
        List<CalibrationParams> variants = new ArrayList<>();
        for (Selection s : List.of(Selection.BONFERRONI, Selection.SPLIT, Selection.NONE)) {
            for (Guarantee g : Guarantee.values()) {
                variants.add(base.withGuarantee(g, s));
            }
        }
        variants.add(base.withObjective(CalibrationParams.Objective.EARLIEST_AT_RELIABILITY, 0.8)
                .withDelta(0.2));
        List<VigilModel> each = CrossFitCalibrator.calibrateEach(
                model, DATA.train(), EarlyModelTrainer.Params.defaults(), variants, Progress.none());
        assertEquals(variants.size(), each.size());
        for (int i = 0; i < variants.size(); i++) {
            CalibrationSection alone = CrossFitCalibrator.calibrate(
                            model, DATA.train(), EarlyModelTrainer.Params.defaults(), variants.get(i), Progress.none())
                    .section(CalibrationSection.class)
                    .orElseThrow();
            assertEquals(alone, each.get(i).section(CalibrationSection.class).orElseThrow(), "variant " + i);
        }
        assertNotEquals(
                each.get(0).section(CalibrationSection.class).orElseThrow(),
                each.get(1).section(CalibrationSection.class).orElseThrow(),
                "pac and expected certify differently");
    }

    /**
     * Re-selecting inside the folds trains each fold with the given training parameters, not the full model's choice:
     * with parameters that fix ℓ = 1, a model of ℓ = 2 calibrates exactly as a model trained at ℓ = 1 that reuses its
     * own.
     */
    @Test
    void reselectionTrainsEveryFoldWithTheGivenParameters() {
        List<CalibrationParams> variants =
                List.of(CalibrationParams.defaults(3L).withFoldsAndDelta(5, 0.1));
        CalibrationSection reselected = CrossFitCalibrator.calibrateEach(
                        trained(),
                        DATA.train(),
                        EarlyModelTrainer.Params.defaults(),
                        variants,
                        Optional.of(fixed(1)),
                        Progress.none())
                .get(0)
                .section(CalibrationSection.class)
                .orElseThrow();
        CalibrationSection reused = CrossFitCalibrator.calibrateEach(
                        trained(fixed(1)), DATA.train(), EarlyModelTrainer.Params.defaults(), variants, Progress.none())
                .get(0)
                .section(CalibrationSection.class)
                .orElseThrow();
        CalibrationSection own = CrossFitCalibrator.calibrateEach(
                        trained(), DATA.train(), EarlyModelTrainer.Params.defaults(), variants, Progress.none())
                .get(0)
                .section(CalibrationSection.class)
                .orElseThrow();
        assertEquals(reused, reselected);
        assertNotEquals(own, reselected);
    }

    @Test
    void variantsThatReplayDifferentlyAreRejected() {
        CalibrationParams base = CalibrationParams.defaults(3L).withFoldsAndDelta(5, 0.1);
        List<CalibrationParams> variants = List.of(base, base.withFoldsAndDelta(4, 0.1));
        assertThrows(
                IllegalArgumentException.class,
                () -> CrossFitCalibrator.calibrateEach(
                        trained(), DATA.train(), EarlyModelTrainer.Params.defaults(), variants, Progress.none()));
    }
}
