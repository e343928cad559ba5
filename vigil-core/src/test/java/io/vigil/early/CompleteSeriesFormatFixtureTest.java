package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
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
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Guards the {@code complete_series} section's version 1 (dense LDLᵀ factors, written before the low-rank form
 * existed): a SyntheticControl model written by that release is kept under {@code src/test/resources/models/} with
 * query series and the early decisions (t, label) it made for the joint and the GMM estimator at τ = 0.9. It must
 * keep loading and deciding exactly the same. Regenerate only on purpose ({@code -Dvigil.writeFixtures=true}).
 */
class CompleteSeriesFormatFixtureTest {
    private static final String MODEL = "/models/synthetic-control-complete-series-v1.json";
    private static final String QUERIES = "/models/synthetic-control-complete-series-v1-queries.tsv";

    @Test
    void versionOneSectionStillLoadsAndDecidesAsRecorded() throws IOException {
        VigilModel model = ModelFile.standard().read(resource(MODEL), MODEL);
        CompleteSeriesSection section =
                model.section(CompleteSeriesSection.class).orElseThrow();
        assertEquals(List.of(EstimatorType.JOINT, EstimatorType.GMM), section.available());
        List<String> lines =
                new String(resource(QUERIES), StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.size() >= 10);
        int[][] recorded = new int[lines.size()][];
        double[][] series = new double[lines.size()][];
        for (int i = 0; i < lines.size(); i++) {
            String[] f = lines.get(i).split("\t");
            recorded[i] = new int[] {
                Integer.parseInt(f[0]), Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3])
            };
            series[i] = new double[f.length - 4];
            for (int t = 0; t < series[i].length; t++) {
                series[i][t] = Double.parseDouble(f[4 + t]);
            }
        }
        int[][] now = decisions(model, series);
        for (int i = 0; i < series.length; i++) {
            assertArrayEquals(recorded[i], now[i], "query " + i + ": joint (t, label), gmm (t, label)");
        }
    }

    /** Per query: joint t, joint label, gmm t, gmm label (τ = 0.9, default set, local QDA). */
    static int[][] decisions(VigilModel model, double[][] series) {
        int[][] out = new int[series.length][4];
        List<String> names = model.classNames();
        int[] dummy = new int[series.length];
        Dataset queries = Dataset.of(model.datasetName(), series, dummy, names);
        EstimatorType[] types = {EstimatorType.JOINT, EstimatorType.GMM};
        for (int e = 0; e < types.length; e++) {
            EarlyClassifier c =
                    EarlyClassifier.of(model, DecisionParams.defaults().withEstimator(types[e]));
            List<SeriesDecision> ds = EarlyReplay.replay(c, queries);
            for (int i = 0; i < series.length; i++) {
                out[i][2 * e] = ds.get(i).t();
                out[i][2 * e + 1] = ds.get(i).label();
            }
        }
        return out;
    }

    @Test
    @EnabledIfSystemProperty(named = "vigil.writeFixtures", matches = "true")
    void writeFixture() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 30, 12, 2025);
        Dataset train = data.train();
        TrainParams p = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(2)
                .qdaNeighbors(2)
                .seed(7)
                .build();
        VigilModel model = Trainer.train(train, p, Instant.parse("2025-06-01T00:00:00Z"), Progress.none());
        model = EarlyModelTrainer.addSections(model, train, EarlyModelTrainer.Params.defaults());
        Path dir = Path.of(System.getProperty("vigil.module.dir", "."), "src/test/resources/models");
        Files.createDirectories(dir);
        ModelFile.standard().save(model, dir.resolve("synthetic-control-complete-series-v1.json"));
        Dataset test = data.test();
        double[][] series = new double[test.size()][];
        for (int i = 0; i < test.size(); i++) {
            series[i] = test.series(i);
        }
        int[][] d = decisions(model, series);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < series.length; i++) {
            StringBuilder b = new StringBuilder();
            b.append(d[i][0])
                    .append('\t')
                    .append(d[i][1])
                    .append('\t')
                    .append(d[i][2])
                    .append('\t')
                    .append(d[i][3]);
            for (double v : series[i]) {
                b.append('\t').append(String.format(Locale.ROOT, "%s", v));
            }
            lines.add(b.toString());
        }
        Files.write(dir.resolve("synthetic-control-complete-series-v1-queries.tsv"), lines, StandardCharsets.UTF_8);
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = CompleteSeriesFormatFixtureTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource " + name + " is missing");
            }
            return in.readAllBytes();
        }
    }
}
