package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.evaluate.Evaluation;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Trains and classifies the real GunPoint split when the UCR copy is present ({@code -Dvigil.ucr=DIR}). */
class UcrGunPointTest {
    @Test
    void gunPointStandardSplitReachesASaneAccuracy() throws IOException {
        Path dir = Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir.toAbsolutePath() + "; skipping");
        TrainTest tt = DatasetFiles.resolve(dir, "GunPoint").load(ReadOptions.DEFAULT);
        VigilModel m = Trainer.train(tt.train(), TrainParams.defaults(), Instant.EPOCH, Progress.none());
        VigilModel back = ModelFile.standard().read(ModelFile.standard().toBytes(m), "gunpoint");
        Evaluation e = Evaluation.of(back, tt.test());
        assertEquals(150, e.testSize());
        // The thesis reports 73–88 % for LDG + 3-NN on random GunPoint re-splits (Tables 3.3/3.4); 1-NN on
        // the raw series gets ~91 %. Anything below 75 % on the standard split means selection broke.
        assertTrue(e.accuracy3nn() >= 0.75 && e.accuracy3nn() <= 1.0, "3-NN accuracy " + e.accuracy3nn());
        assertTrue(e.accuracyLocalQda() >= 0.7, "local QDA accuracy " + e.accuracyLocalQda());
    }
}
