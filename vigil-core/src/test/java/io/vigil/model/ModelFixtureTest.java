package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
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
 * Guards the model-file format (docs/data-and-training.md, "Model files"): a model written by format version 1 is kept under
 * {@code src/test/resources/models/} together with query series and the labels it predicted when written.
 * It must keep loading and predicting exactly those labels. Regenerate only on purpose, with {@code mvn
 * test -Dtest=ModelFixtureTest -Dvigil.writeFixtures=true}, and keep the old file as a new fixture.
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

    @Test
    @EnabledIfSystemProperty(named = "vigil.writeFixtures", matches = "true")
    void writeFixture() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, 30, 20, 2024);
        Dataset train = data.train();
        VigilModel model = Trainer.train(
                train, TrainParams.builder().seed(7).build(), Instant.parse("2025-01-01T00:00:00Z"), Progress.none());
        Path dir = Path.of(System.getProperty("vigil.module.dir", "."), "src/test/resources/models");
        Files.createDirectories(dir);
        ModelFile.standard().save(model, dir.resolve("cbf-format1.json"));
        Knn knn = Knn.fit(model.trainingPoints(), model.trainingClasses(), model.numClasses());
        LocalQda.Workspace ws = model.localQda().newWorkspace();
        double[] y = new double[model.dims()];
        List<String> lines = new ArrayList<>();
        Dataset test = data.test();
        for (int i = 0; i < test.size(); i++) {
            double[] s = test.series(i);
            model.project(s, y);
            StringBuilder b = new StringBuilder();
            b.append(model.classNames().get(model.localQda().predict(y, ws))).append('\t');
            b.append(model.classNames().get(knn.predict(y, 3))).append('\t');
            b.append(model.classNames().get(knn.predict(y, 1)));
            for (double v : s) {
                b.append('\t').append(String.format(Locale.ROOT, "%s", v));
            }
            lines.add(b.toString());
        }
        Files.write(dir.resolve("cbf-format1-queries.tsv"), lines, StandardCharsets.UTF_8);
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
