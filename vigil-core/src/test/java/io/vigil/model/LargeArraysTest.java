package io.vigil.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.JointGaussian;
import io.vigil.gauss.LowRankGaussian;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.model.json.ModelFile;
import io.vigil.model.json.ModelFormatException;
import io.vigil.model.json.ModelJson;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Model files of any size load (d = 20,000 and beyond): matrices are streamed out of their Base64 strings instead of going
 * through Jackson's 20 M-character string limit, and the low-rank complete-series section round-trips bit for bit.
 */
class LargeArraysTest {
    @Test
    void base64FieldAboveJacksonsStringLimitLoads() throws IOException {
        int count = 2_700_000; // 21.6 MB of doubles, 28.8 M Base64 characters: above the 20 M default
        double[] values = new double[count];
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < count; i++) {
            values[i] = rng.nextGaussian();
        }
        ByteBuffer buf = ByteBuffer.allocate(count * Double.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asDoubleBuffer().put(values);
        String b64 = Base64.getEncoder().encodeToString(buf.array());
        assertTrue(b64.length() > 20_000_000);
        byte[] json = ("{\"v\": {\"length\": " + count + ", \"encoding\": \"f64le-base64\", \"data\": \"" + b64
                        + "\"}}")
                .getBytes(StandardCharsets.US_ASCII);
        b64 = null;
        // The plain tree reader refuses it: the limit is real.
        assertThrows(StreamConstraintsException.class, () -> new ObjectMapper().readTree(json));
        JsonNode root = ModelJson.readTree(new ObjectMapper(), json);
        assertTrue(root.get("v").get("data").isBinary());
        assertArrayEquals(values, ModelJson.readVector(root.get("v"), "v"), 0.0);
    }

    @Test
    void binaryAndTextualTreesDecodeAlike() throws IOException {
        double[] v = {1.5, -0.0, Double.MIN_VALUE, 1e300};
        byte[] bytes = new ObjectMapper().writeValueAsBytes(ModelJson.vector(v));
        JsonNode textual = new ObjectMapper().readTree(bytes);
        JsonNode streamed = ModelJson.readTree(new ObjectMapper(), bytes);
        assertTrue(textual.get("data").isTextual());
        assertTrue(streamed.get("data").isBinary());
        assertArrayEquals(v, ModelJson.readVector(textual, "t"), 0.0);
        assertArrayEquals(v, ModelJson.readVector(streamed, "s"), 0.0);
        // Only f64le-base64 objects are streamed; other strings named data stay text.
        JsonNode other = ModelJson.readTree(new ObjectMapper(), "{\"data\": \"abc\"}".getBytes(StandardCharsets.UTF_8));
        assertEquals("abc", other.get("data").textValue());
        assertThrows(
                IOException.class,
                () -> ModelJson.readTree(new ObjectMapper(), "{\"a\": 1} {\"b\": 2}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void lowRankSectionRoundTripsBitForBitAndReportsItsParts() throws IOException {
        VigilModel core = TestModels.small(false);
        SplittableRandom rng = new SplittableRandom(4);
        double[][] rows = new double[9][5];
        int[] cls = new int[9];
        for (int i = 0; i < 9; i++) {
            cls[i] = i % 3;
            for (int t = 0; t < 5; t++) {
                rows[i][t] = cls[i] + rng.nextGaussian();
            }
        }
        SeriesGaussian joint = SeriesGaussian.fit(rows, ShrinkageParams.defaults(), CovarianceForm.LOW_RANK);
        SeriesGaussian dense = SeriesGaussian.fit(rows, ShrinkageParams.defaults(), CovarianceForm.DENSE);
        double[][] class0 = {rows[0], rows[3], rows[6]};
        SeriesGaussian c0 = LowRankGaussian.fit(class0, ShrinkageParams.oas());
        CompleteSeriesSection section = new CompleteSeriesSection(
                ShrinkageParams.defaults(),
                CovarianceForm.AUTO,
                joint,
                new double[] {1.0 / 3, 1.0 / 3, 1.0 / 3},
                List.of(c0, dense, c0));
        VigilModel model = core.toBuilder().section(section).build();
        ModelFile file = ModelFile.standard();
        byte[] bytes = file.toBytes(model);
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"form\": \"low-rank\"") && text.contains("\"form\": \"dense\""), text);
        assertTrue(text.contains("\"covariance\": \"auto\""));
        VigilModel back = file.read(bytes, "round trip");
        CompleteSeriesSection read = back.section(CompleteSeriesSection.class).orElseThrow();
        assertEquals(section, read);
        assertTrue(read.joint() instanceof LowRankGaussian);
        assertTrue(read.mixture().get(1) instanceof JointGaussian);
        assertArrayEquals(bytes, file.toBytes(back), "re-saving gives the same bytes");
        Map<String, Long> parts = ModelFile.partSizes(bytes);
        assertTrue(parts.get("sections.complete_series.joint") > 0, parts.toString());
        assertTrue(parts.get("sections.complete_series.gmm") > parts.get("sections.complete_series.joint"));
        assertFalse(parts.containsKey("sections.complete_series.payload"));
    }

    @Test
    void malformedBase64IsReportedWithItsPath() {
        byte[] good = ModelFile.standard().toBytes(TestModels.small(false));
        String text = new String(good, StandardCharsets.UTF_8);
        int at = text.indexOf("\"data\": \"", text.indexOf("\"basis\"")) + 9;
        String bad = text.substring(0, at) + "!!" + text.substring(at + 2);
        ModelFormatException e = assertThrows(ModelFormatException.class, () -> ModelFile.standard()
                .read(bad.getBytes(StandardCharsets.UTF_8), "bad.json"));
        assertTrue(e.getMessage().contains("ldg.basis.data") && e.getMessage().contains("Base64"), e.getMessage());
    }
}
