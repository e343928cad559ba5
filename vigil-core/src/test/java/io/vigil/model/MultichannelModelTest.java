package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.ldg.Standardizer;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A model of C channels: its input vector is the C·d values in the time-major layout, the file keeps the channel
 * names and states the layout, and without per-feature standardisation the channels are standardised one by one.
 */
class MultichannelModelTest {
    @Test
    void multichannelModelKeepsChannelsThroughTheFileAndClassifies() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.MULTI_CBF, 30, 30, 11L);
        Dataset train = data.train().withChannels(List.of("x", "y", "z"));
        VigilModel model = Trainer.train(
                train,
                TrainParams.builder()
                        .gamma(0.3)
                        .dims(4)
                        .neighbors(8)
                        .qdaNeighbors(8)
                        .build(),
                Instant.parse("2026-01-01T00:00:00Z"),
                Progress.none());
        assertEquals(3, model.channels());
        assertEquals(List.of("x", "y", "z"), model.channelNames());
        assertEquals(128, model.seriesLength());
        assertEquals(384, model.length());
        byte[] bytes = ModelFile.standard().toBytes(model);
        String json = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(json.contains("\"channels\"") && json.contains("time-major"), "layout documented in the file");
        VigilModel back = ModelFile.standard().read(bytes, "round trip");
        assertEquals(model.dataset(), back.dataset());
        LocalQda.Workspace ws = back.localQda().newWorkspace();
        double[] y = new double[back.dims()];
        int correct = 0;
        for (int i = 0; i < data.test().size(); i++) {
            back.project(data.test().series(i), y);
            correct += back.localQda().predict(y, ws) == data.test().classOf(i) ? 1 : 0;
        }
        assertTrue(correct >= 27, correct + " of 30 test series right");
    }

    @Test
    void segmentConstantBasisIsKeptThroughTheFileAndLeavesUnivariateFilesUnchanged() throws IOException {
        TrainTest data = SyntheticData.generate(SyntheticKind.MULTI_CBF, 30, 30, 11L);
        TrainParams fixed = TrainParams.builder()
                .gamma(0.3)
                .dims(4)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        VigilModel model = Trainer.train(
                data.train(),
                fixed.toBuilder().segments(16).build(),
                Instant.parse("2026-01-01T00:00:00Z"),
                Progress.none());
        assertEquals(16, model.projection().segments().getAsInt());
        var b = model.basis();
        // 128 samples in 16 segments of 8: within a segment every channel's row of B repeats
        for (int c = 0; c < 3; c++) {
            for (int t = 1; t < 8; t++) {
                assertArrayEquals(row(b, c), row(b, t * 3 + c), 0.0);
            }
        }
        String json = new String(ModelFile.standard().toBytes(model), StandardCharsets.UTF_8);
        assertTrue(json.matches("(?s).*\"segments\"\\s*:\\s*16.*"), "segments written");
        VigilModel back = ModelFile.standard().read(ModelFile.standard().toBytes(model), "round trip");
        assertEquals(model.projection(), back.projection());
        TrainTest cbf = SyntheticData.generate(SyntheticKind.CBF, 10, 10, 3L);
        VigilModel univariate =
                Trainer.train(cbf.train(), fixed, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        assertTrue(univariate.projection().segments().isEmpty());
        assertTrue(
                !new String(ModelFile.standard().toBytes(univariate), StandardCharsets.UTF_8).contains("\"segments\""));
    }

    private static double[] row(org.ejml.data.DMatrixRMaj b, int r) {
        double[] out = new double[b.numCols];
        System.arraycopy(b.data, r * b.numCols, out, 0, b.numCols);
        return out;
    }

    @Test
    void perChannelStandardisationPoolsEachChannelOverTime() {
        // Two channels, time-major: channel 0 = {1, 3, 5, 7}, channel 1 = {100, 300, 500, 700} over two rows.
        double[][] x = {{1, 100, 3, 300}, {5, 500, 7, 700}};
        Standardizer s = Standardizer.fitPerChannel(x, 2);
        double sd0 = Math.sqrt((9 + 1 + 1 + 9) / 3.0);
        assertArrayEquals(new double[] {4, 400, 4, 400}, s.means(), 1e-12);
        assertArrayEquals(new double[] {sd0, 100 * sd0, sd0, 100 * sd0}, s.scales(), 1e-9);
        double[][] z = s.apply(x);
        assertArrayEquals(z[0], new double[] {z[0][1], z[0][1], z[0][3], z[0][3]}, 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Standardizer.fitPerChannel(x, 3));
    }

    @Test
    void datasetInfoRejectsChannelsThatDoNotDivideTheLength() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new DatasetInfo(
                        "X", List.of("a", "b"), new int[] {1, 1}, 2, 10, "sha256:0", List.of("0", "1", "2")));
        assertEquals(1, new DatasetInfo("X", List.of("a", "b"), new int[] {1, 1}, 2, 10, "sha256:0").channels());
    }
}
