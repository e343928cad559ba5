package io.vigil.early.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Calibration under an observation pattern: the held-out series are replayed as the pattern observes them, so the
 * replay counts differ from those of complete series, and the section records the pattern its certificate is for.
 */
class PatternCalibrationTest {
    @Test
    void theReplaysFollowThePatternAndTheSectionRecordsIt() {
        VigilModel model = EarlyFixtures.MultiChannel.MODEL;
        Dataset train = EarlyFixtures.MultiChannel.DATA.train();
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.3).lag(2, 4).seed(1).build();
        CalibrationParams complete = CalibrationParams.defaults(1).withFoldsAndDelta(3, 0.1);
        CalibrationParams patterned = complete.withPattern(pattern);
        CalibrationSection a = section(model, train, complete);
        CalibrationSection b = section(model, train, patterned);
        assertEquals(ObservationPattern.complete(), a.pattern());
        assertEquals(pattern, b.pattern());
        assertEquals(a.curves().size(), b.curves().size());
        boolean differs = false;
        for (int c = 0; c < a.curves().size(); c++) {
            differs |= !Arrays.equals(
                    a.curves().get(c).fractionSum(), b.curves().get(c).fractionSum());
        }
        assertTrue(differs, "the replays under the pattern stop elsewhere than on complete series");
        assertThrows(
                IllegalArgumentException.class,
                () -> CrossFitCalibrator.calibrateEach(
                        model,
                        train,
                        EarlyModelTrainer.Params.defaults(),
                        List.of(complete, patterned),
                        Optional.empty(),
                        Progress.none()));
    }

    private static CalibrationSection section(VigilModel model, Dataset train, CalibrationParams p) {
        return CrossFitCalibrator.calibrate(model, train, EarlyModelTrainer.Params.defaults(), p, Progress.none())
                .section(CalibrationSection.class)
                .orElseThrow();
    }
}
