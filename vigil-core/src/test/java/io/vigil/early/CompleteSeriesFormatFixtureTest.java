package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the {@code complete_series} section's version 1 (dense LDLᵀ factors, written before the low-rank form
 * existed): a SyntheticControl model written by that release is kept under {@code src/test/resources/models/} with
 * query series and the early decisions (t, label) it made for the joint and the GMM estimator at τ = 0.9. It must
 * keep loading and deciding exactly the same. Regenerate only on purpose ({@link FixtureWriter}).
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

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = CompleteSeriesFormatFixtureTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource " + name + " is missing");
            }
            return in.readAllBytes();
        }
    }
}
