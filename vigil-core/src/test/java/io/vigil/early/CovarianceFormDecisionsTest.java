package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.SetKind;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The dense and the low-rank covariance forms are the same Gaussians: on data where both fit, every
 * early decision (t and label) must be identical, for both estimators, several τ and set kinds — after a save →
 * load round trip of each model, so the file format is covered too.
 */
class CovarianceFormDecisionsTest {
    private static final double[] TAUS = {0.1, 0.5, 0.9};
    private static final SetKind[] SETS = {SetKind.NB_QUADRATIC, SetKind.GAUSSIAN};

    @Test
    void generatedCbfDecidesIdenticallyWithEitherForm() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 45, 40, 13L);
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(5)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        assertSameDecisions(data, p);
    }

    @Test
    void ucrGunPointDecidesIdenticallyWithEitherForm() throws IOException {
        Path dir = Path.of(System.getProperty("vigil.ucr", "../shared/ucr"));
        Assumptions.assumeTrue(
                Files.isDirectory(dir.resolve("GunPoint")),
                "UCR GunPoint not found under " + dir.toAbsolutePath() + " (set -Dvigil.ucr=DIR); skipping");
        TrainTest data = DatasetFiles.resolve(dir, "GunPoint").load(ReadOptions.DEFAULT);
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        assertSameDecisions(data, p);
    }

    private static void assertSameDecisions(TrainTest data, TrainParams p) throws IOException {
        Dataset train = data.train();
        VigilModel base = Trainer.train(train, p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        VigilModel dense = roundTrip(EarlyModelTrainer.addSections(
                base, train, EarlyModelTrainer.Params.defaults().withCovariance(CovarianceForm.DENSE)));
        VigilModel low = roundTrip(EarlyModelTrainer.addSections(
                base, train, EarlyModelTrainer.Params.defaults().withCovariance(CovarianceForm.LOW_RANK)));
        CompleteSeriesSection ds = dense.section(CompleteSeriesSection.class).orElseThrow();
        CompleteSeriesSection ls = low.section(CompleteSeriesSection.class).orElseThrow();
        assertEquals(CovarianceForm.DENSE, ds.joint().form());
        assertEquals(CovarianceForm.LOW_RANK, ls.joint().form());
        for (SeriesGaussian g : ls.mixture()) {
            assertEquals(CovarianceForm.LOW_RANK, g.form());
        }
        Dataset test = Dataset.of(train.name(), data.test().rows(), data.test().classIndices(), base.classNames());
        int early = 0;
        int total = 0;
        for (EstimatorType e : EstimatorType.values()) {
            for (SetKind set : SETS) {
                for (double tau : TAUS) {
                    DecisionParams dp = DecisionParams.defaults()
                            .withEstimator(e)
                            .withSet(set)
                            .withTau(tau);
                    List<SeriesDecision> a = EarlyReplay.replay(EarlyClassifier.of(dense, dp), test);
                    List<SeriesDecision> b = EarlyReplay.replay(EarlyClassifier.of(low, dp), test);
                    assertEquals(summary(a), summary(b), e.id() + ", " + set + ", τ = " + tau);
                    for (SeriesDecision s : a) {
                        early += s.early() ? 1 : 0;
                        total++;
                    }
                }
            }
        }
        // Not a vacuous comparison: many decisions come before t = d.
        assertTrue(early > total / 4, early + " of " + total + " decisions early");
    }

    private static List<String> summary(List<SeriesDecision> ds) {
        List<String> out = new ArrayList<>();
        for (SeriesDecision s : ds) {
            out.add(s.index() + ":" + s.t() + ":" + s.label());
        }
        return out;
    }

    private static VigilModel roundTrip(VigilModel m) throws IOException {
        ModelFile f = ModelFile.standard();
        return f.read(f.toBytes(m), "round trip");
    }
}
