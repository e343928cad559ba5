package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.data.Dataset;
import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesState;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The univariate prefix path must stay bit-identical while the data and the conditioning grow to several channels
 * and arbitrary observed subsets: every decision (t, label) and a hash of the bits of m_y after every sample, for
 * both estimators and two τ, equal what the code before multichannel support produced (recorded under {@code
 * src/test/resources/early/}). Regenerate only on purpose ({@link FixtureWriter}).
 */
class PrefixDecisionsRegressionTest {
    private static final String CBF = "/early/prefix-decisions-cbf.txt";
    private static final String GUNPOINT = "/early/prefix-decisions-gunpoint.txt";

    @Test
    void generatedCbfDecidesAsBefore() throws IOException {
        assertEquals(resource(CBF), decisions(cbf()));
    }

    @Test
    void ucrGunPointDecidesAsBefore() throws IOException {
        TrainTest data = gunPoint();
        Assumptions.assumeTrue(data != null, "UCR GunPoint not found (set -Dvigil.ucr=DIR); skipping");
        assertEquals(resource(GUNPOINT), decisions(data));
    }

    static TrainTest cbf() {
        return SyntheticData.generate(SyntheticKind.CBF, 40, 30, 26L);
    }

    static TrainTest gunPoint() throws IOException {
        return gunPoint(Path.of(System.getProperty("vigil.ucr", "../shared/ucr")));
    }

    /** UCR GunPoint from the archive directory {@code dir}, or null when it is not there. */
    static TrainTest gunPoint(Path dir) throws IOException {
        if (!Files.isDirectory(dir.resolve("GunPoint"))) {
            return null;
        }
        return DatasetFiles.resolve(dir, "GunPoint").load(ReadOptions.DEFAULT);
    }

    /** One line per (estimator, τ, series): estimator, τ, index, t, label, hash of m_y's bits after every sample. */
    static List<String> decisions(TrainTest data) {
        Dataset train = data.train();
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(8)
                .qdaNeighbors(8)
                .seed(5)
                .build();
        VigilModel base = Trainer.train(train, p, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        VigilModel model = EarlyModelTrainer.addSections(base, train, EarlyModelTrainer.Params.defaults());
        Dataset test = Dataset.of(train.name(), data.test().rows(), data.test().classIndices(), base.classNames());
        List<String> out = new ArrayList<>();
        for (EstimatorType e : EstimatorType.values()) {
            for (double tau : new double[] {0.5, 0.9}) {
                EarlyClassifier c = EarlyClassifier.of(
                        model, DecisionParams.defaults().withEstimator(e).withTau(tau));
                EarlyClassifier.Workspace ws = c.newWorkspace();
                Decision decision = Decision.labelOnly();
                SeriesState state = c.newState();
                for (int i = 0; i < test.size(); i++) {
                    double[] x = test.series(i);
                    state.reset();
                    long hash = 17;
                    int t = 0;
                    boolean decided = false;
                    while (!decided) {
                        decided = c.observe(state, x[t], ws, decision);
                        for (double m : ws.conditionalMean()) {
                            hash = hash * 31 + Double.doubleToLongBits(m);
                        }
                        t++;
                    }
                    out.add(e.id() + " " + tau + " " + i + " " + t + " " + decision.label() + " "
                            + Long.toHexString(hash));
                }
            }
        }
        return out;
    }

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = PrefixDecisionsRegressionTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException(name + " is missing; write it with FixtureWriter (docs/getting-started.md)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
