package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The thesis's §5.5 claim on real data, when the UCR copy is present ({@code -Dvigil.ucr=DIR}): with the joint
 * Gaussian the empirical reliability reaches τ for every τ of the thesis's list, on SyntheticControl (G = 6).
 */
class UcrEarlyEvaluationTest {
    @Test
    void syntheticControlReliabilityReachesTau() throws IOException {
        Path dir = Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir.toAbsolutePath() + "; skipping");
        TrainTest tt = DatasetFiles.resolve(dir, "SyntheticControl").load(ReadOptions.DEFAULT);
        VigilModel m = Trainer.train(tt.train(), TrainParams.defaults(), Instant.EPOCH, Progress.none());
        m = EarlyModelTrainer.addSections(m, tt.train(), EarlyModelTrainer.Params.defaults());
        List<Double> taus = List.of(0.001, 0.1, 0.25, 0.9);
        EarlyEvaluation.Result r = EarlyEvaluation.run(
                "SyntheticControl", m, null, tt.test(), taus, DecisionParams.defaults(), Progress.none());
        assertEquals(300, r.testSize());
        for (EarlyEvaluation.TauResult t : r.taus()) {
            assertTrue(t.reliability() >= t.tau(), "τ = " + t.tau() + ": reliability " + t.reliability());
            assertTrue(t.decidedEarly() > 0, "τ = " + t.tau() + ": some series decided early");
        }
        // Larger τ waits at least as long on average (nested sets).
        for (int i = 1; i < taus.size(); i++) {
            assertTrue(r.taus().get(i).meanT() >= r.taus().get(i - 1).meanT());
        }
    }
}
