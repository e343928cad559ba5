package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.ldg.Ldg;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * ItalyPowerDemand re-split 1 (as {@code vigil experiment guarantee} draws it) once selected ℓ = d = 24 above the rank
 * 23 of its z-normalised training series; it trains with the defaults when the UCR copy is present ({@code
 * -Dvigil.ucr=DIR}).
 */
class UcrItalyPowerDemandRankTest {
    @Test
    void resplitOneTrainsWithAnEllWithinTheRank() throws IOException {
        Path dir = Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
        Assumptions.assumeTrue(Files.isDirectory(dir), "UCR data not found at " + dir.toAbsolutePath() + "; skipping");
        TrainTest tt = DatasetFiles.resolve(dir, "ItalyPowerDemand").load(ReadOptions.DEFAULT);
        Dataset merged = Resplit.merge(tt.train(), tt.test());
        long seed = Table33Experiment.splitSeed(1, 1);
        Dataset train = merged.subset(Resplit.split(merged, tt.train().size(), seed)[0]);
        int rank = Ldg.spanRank(train.rows());
        assertTrue(rank < train.length(), "z-normalised: rank " + rank + " below d " + train.length());
        VigilModel m = Trainer.train(train, TrainParams.builder().seed(seed).build(), Instant.EPOCH, Progress.none());
        assertTrue(m.dims() <= rank, "ℓ " + m.dims() + " within the rank " + rank);
    }
}
