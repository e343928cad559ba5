package io.vigil.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Holdout calibration certifies the deployed model on series it never saw: the deployed model does not change when the
 * held-out series are replaced by noise, the curves count exactly the held-out series, the share survives the model
 * file, and a training set too small to hold two series out is refused with the remedy.
 */
class HoldoutCalibrationTest {
    private static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 40, 10, 5L);

    private static TrainOptions options(double share) {
        return TrainOptions.builder()
                .selection(TrainParams.builder()
                        .gamma(0.3)
                        .dims(4)
                        .neighbors(6)
                        .qdaNeighbors(6)
                        .build())
                .calibrationHoldout(share)
                .created(Instant.EPOCH)
                .build();
    }

    @Test
    void theDeployedModelNeverSeesTheCalibrationSeries() {
        Dataset train = CBF.train();
        TrainOptions o = options(0.3);
        int[] held = Folds.stratifiedHoldout(
                train.classIndices(),
                train.numClasses(),
                0.3,
                o.calibration().orElseThrow().seed());
        assertEquals(12, held.length, "round(0.3 · n_c) of each of CBF's three classes");
        double[][] rows = train.rows();
        SplittableRandom noise = new SplittableRandom(9);
        for (int i : held) {
            for (int k = 0; k < rows[i].length; k++) {
                rows[i][k] = 50 * noise.nextGaussian();
            }
        }
        Dataset poisoned = Dataset.of(train.name(), rows, train.classIndices(), train.classNames());
        VigilModel clean = VigilTrainer.train(train, o, Progress.none());
        VigilModel dirty = VigilTrainer.train(poisoned, o, Progress.none());
        ModelFile file = ModelFile.standard();
        // Everything but the certificate is fitted on the other 28 series, so it is byte for byte the same.
        assertArrayEquals(
                file.toBytes(
                        clean.toBuilder().removeSection(CalibrationSection.NAME).build()),
                file.toBytes(
                        dirty.toBuilder().removeSection(CalibrationSection.NAME).build()));
        assertEquals(train.size() - held.length, clean.trainSize());
        CalibrationSection c = clean.section(CalibrationSection.class).orElseThrow();
        CalibrationSection d = dirty.section(CalibrationSection.class).orElseThrow();
        assertNotEquals(c, d, "the certificate is computed on the held-out series");
        assertTrue(c.isHoldout());
        assertEquals(0.3, c.holdout());
        c.curves().forEach(k -> assertEquals(held.length, k.series()));
    }

    @Test
    void theShareSurvivesTheModelFile() throws Exception {
        VigilModel m = VigilTrainer.train(CBF.train(), options(0.25), Progress.none());
        ModelFile file = ModelFile.standard();
        VigilModel back = file.read(file.toBytes(m), "memory");
        CalibrationSection c = back.section(CalibrationSection.class).orElseThrow();
        assertEquals(0.25, c.holdout());
        assertEquals(m.section(CalibrationSection.class).orElseThrow(), c);
        VigilModel crossFit = VigilTrainer.train(CBF.train(), options(0), Progress.none());
        CalibrationSection x = crossFit.section(CalibrationSection.class).orElseThrow();
        assertEquals(0, x.holdout());
        assertTrue(
                !new String(file.toBytes(crossFit), java.nio.charset.StandardCharsets.UTF_8).contains("\"holdout\""),
                "a cross-fitted file is written as before");
    }

    @Test
    void aSetTooSmallToHoldTwoSeriesOutIsRefused() {
        Dataset tiny = CBF.train().subset(new int[] {0, 1, 2, 3, 4, 5});
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> VigilTrainer.train(tiny, options(0.05), Progress.none()));
        assertTrue(e.getMessage().contains("--calibration cross-fit"), e.getMessage());
    }

    @Test
    void holdoutExcludesFoldReselectionAndNoCalibration() {
        assertThrows(
                IllegalArgumentException.class,
                () -> VigilTrainer.checkOptions(
                        options(0.3).toBuilder().reselectInFolds(true).build()));
        assertThrows(
                IllegalArgumentException.class,
                () -> VigilTrainer.checkOptions(
                        options(0.3).toBuilder().noCalibration().build()));
    }
}
