package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.qda.LocalQda;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Table54ExperimentTest {
    private static final TrainTest DATA = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 30, 8, 11);

    @Test
    void thesisRowsAreFoundUnderTheArchiveNamesOldAndNew() {
        ThesisTable54.Row sc = ThesisTable54.row("SyntheticControl").orElseThrow();
        assertEquals(new ThesisTable54.Row("Synthetic Control", "SyntheticControl", 60, 7, 9, 1), sc);
        assertEquals(Optional.of(sc), ThesisTable54.row("synthetic_control"));
        assertEquals(Optional.of(sc), ThesisTable54.row("syntheticcontrol"));
        assertEquals(15, ThesisTable54.datasets().size());
        assertEquals(1024, ThesisTable54.row("StarLightCurves").orElseThrow().length());
        assertEquals(
                6107,
                ThesisTable54.row("NonInvasiveFatalECG_Thorax1").orElseThrow().rawMillis());
        assertEquals(Optional.empty(), ThesisTable54.row("CBF"));
        assertEquals(9.0, sc.speedUp());
    }

    @Test
    void theModelWithoutReductionIsLocalQdaOnTheRawSamples() {
        VigilModel raw = Trainer.trainWithoutReduction(
                DATA.train(), TrainParams.builder().build(), Instant.EPOCH, Progress.none());
        int d = DATA.train().length();
        assertEquals(d, raw.dims());
        assertTrue(sameMatrix(raw.basis().data, d), "B = I");
        assertArrayEquals(DATA.train().rows()[3], raw.trainingPoints()[3]);
        assertTrue(raw.selection().cvAccuracy() > 0.5, "local QDA's k was scored: " + raw.selection());
        VigilModel withGaussian = EarlyModelTrainer.addSections(raw, DATA.train(), EarlyModelTrainer.Params.defaults());
        EarlyClassifier early = EarlyClassifier.of(withGaussian, DecisionParams.defaults());
        LocalQda qda = LocalQda.fit(
                DATA.train().rows(), DATA.train().classIndices(), DATA.train().numClasses(), raw.qdaNeighbors());
        EarlyClassifier.Workspace ws = early.newWorkspace();
        LocalQda.Workspace qws = qda.newWorkspace();
        for (double[] x : DATA.test().rows()) {
            assertEquals(qda.predict(x, qws), early.completeLabel(x, ws), "raw-space label = local QDA on x");
        }
        assertThrows(
                IllegalArgumentException.class,
                () -> Trainer.trainWithoutReduction(
                        DATA.train(),
                        TrainParams.builder()
                                .reducer(io.vigil.select.Reducer.KERNEL_LDG)
                                .build(),
                        Instant.EPOCH,
                        Progress.none()));
    }

    private static boolean sameMatrix(double[] data, int d) {
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                if (data[i * d + j] != (i == j ? 1.0 : 0.0)) {
                    return false;
                }
            }
        }
        return true;
    }

    @Test
    void bothClassifiersAreTimedAtTheFirstSampleAndCached(@TempDir Path dir) {
        Table54Experiment.Config config = new Table54Experiment.Config(0.9, 3, 2, 0, 1);
        SplitCache cache = SplitCache.at(dir.resolve("cache"), true);
        Table54Experiment.Row row =
                Table54Experiment.run("SyntheticControl", false, DATA, config, Progress.none(), cache);
        assertEquals(60, row.raw().dims());
        assertTrue(row.ldg().dims() < 60, "ℓ by CV is below d: " + row.ldg());
        for (Table54Experiment.Timing t : List.of(row.raw(), row.ldg())) {
            assertEquals(3, t.timedSeries());
            assertTrue(t.medianMillis() > 0 && t.meanMillis() > 0 && t.fitSeconds() > 0, t.toString());
            assertTrue(t.decidedAtT1() >= 0 && t.decidedAtT1() <= 1, t.toString());
            assertEquals(Optional.empty(), t.skipped());
            assertEquals(t, Table54Experiment.parse(List.of(Table54Experiment.HEADER, Table54Experiment.format(t))));
        }
        Table54Experiment.Row again =
                Table54Experiment.run("SyntheticControl", false, DATA, config, Progress.none(), cache);
        assertEquals(row, again);
        assertEquals(2, cache.reused());
        Table54Experiment.Row generated =
                Table54Experiment.run("SyntheticControl", true, DATA, config, Progress.none(), cache);
        assertEquals(2, cache.reused(), "generated data is kept apart from the archive's");
        assertEquals("SyntheticControl (generated)", generated.label());
    }

    @Test
    void aSampleSpaceTooLargeForTheHeapIsSkippedWithTheReason() {
        assertEquals(Optional.empty(), Table54Experiment.tooLargeForHeap(60, 1L << 30));
        String why = Table54Experiment.tooLargeForHeap(1024, 4_000_000_000L).orElseThrow();
        assertTrue(why.contains("d = 1024 needs 4.3 GB") && why.contains("raise -Xmx"), why);
        Table54Experiment.Timing skipped = Table54Experiment.Timing.skipped(Table54Experiment.RAW, 1024, why);
        Table54Experiment.Timing ldg = new Table54Experiment.Timing(
                Table54Experiment.LDG, 26, 8, 0.9, 50, 0.02, 0.03, 0.1, 4.0, Optional.empty());
        Table54Experiment.Row row = new Table54Experiment.Row("StarLightCurves", false, 1024, 1000, 8236, skipped, ldg);
        assertTrue(Double.isNaN(row.speedUp()));
        Table54Report report = new Table54Report(List.of(row), Map.of("k", "v"));
        String md = report.markdown();
        assertTrue(md.contains("| StarLightCurves | 1024 | 26 | 26 | not timed | 15,697 | "), md);
        assertTrue(md.contains("StarLightCurves, without LDG: not timed, the sample-space R_y table"), md);
        assertEquals(2, row.timedAt(), "d = 1024 is evaluated every 2 samples");
        assertTrue(
                md.contains("StarLightCurves: d > 1,000, where Vigil evaluates the rule every 2 samples; timed at"
                        + " t = 2"),
                md);
        assertEquals(1, Table54Experiment.firstCheck(1000));
        String csv = report.csv();
        assertTrue(csv.contains(",\"the sample-space R_y table for d = 1024 needs 4.3 GB"), csv);
        assertFalse(md.contains("generated"), md);
    }
}
