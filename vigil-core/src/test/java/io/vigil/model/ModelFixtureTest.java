package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the model-file format (docs/data-and-training.md, "Model files"): a model written by format version 1 is kept under
 * {@code src/test/resources/models/} together with query series and the labels it predicted when written.
 * It must keep loading and predicting exactly those labels. Regenerate only on purpose ({@link
 * io.vigil.early.FixtureWriter}, docs/getting-started.md), and keep the old file as a new fixture.
 */
class ModelFixtureTest {
    private static final String MODEL = "/models/cbf-format1.json";
    private static final String QUERIES = "/models/cbf-format1-queries.tsv";

    @Test
    void formatOneFixtureStillLoadsAndPredictsTheRecordedLabels() throws IOException {
        byte[] bytes = resource(MODEL);
        VigilModel model = ModelFile.standard().read(bytes, MODEL);
        assertEquals("CBF", model.datasetName());
        assertEquals(List.of("1", "2", "3"), model.classNames());
        assertEquals(128, model.length());
        assertEquals(1, model.channels(), "a file written before channels loads as one channel");
        assertEquals(128, model.seriesLength());
        Knn knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        LocalQda.Workspace ws = model.localQda().newWorkspace();
        double[] y = new double[model.dims()];
        List<String> lines =
                new String(resource(QUERIES), StandardCharsets.UTF_8).lines().toList();
        assertEquals(20, lines.size());
        for (String line : lines) {
            String[] f = line.split("\t");
            double[] series = new double[f.length - 3];
            for (int t = 0; t < series.length; t++) {
                series[t] = Double.parseDouble(f[3 + t]);
            }
            model.project(series, y);
            assertEquals(f[0], model.classNames().get(model.localQda().predict(y, ws)), "local QDA");
            assertEquals(f[1], model.classNames().get(knn.predict(y, 3)), "3-NN");
            assertEquals(f[2], model.classNames().get(knn.predict(y, 1)), "1-NN");
        }
        assertArrayEquals(
                bytes,
                ModelFile.standard().toBytes(model),
                "the format-1 writer no longer reproduces a format-1 file byte for byte");
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = ModelFixtureTest.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("test resource " + name + " is missing");
            }
            return in.readAllBytes();
        }
    }
}
