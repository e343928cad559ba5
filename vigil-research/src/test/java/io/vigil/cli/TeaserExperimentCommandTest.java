package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TeaserExperimentCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * On a small generated CBF: one curve point per τ, each either certified or deciding at t = d with the full
     * accuracy; where the curve first reaches TEASER's accuracy is the earliest point at least that accurate, and "no
     * later" compares it with TEASER's earliness; CBF is one of the six sets with Mori et al.'s figures.
     */
    @Test
    void comparesTheCertifiedCurveWithTeaser(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "60", "--test", "60", "--seed", "8", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path out = dir.resolve("teaser");
        Run run = teaser(data, out);
        assertEquals(0, run.exit(), run.err());
        JsonNode o = JSON.readTree(run.out());
        assertEquals(0.01, o.get("alpha").asDouble());
        JsonNode d = o.get("datasets").get(0);
        JsonNode curve = d.get("curve");
        assertEquals(3, curve.size());
        double full = d.get("full_accuracy").asDouble();
        double teaserAccuracy = d.get("teaser").get("accuracy").asDouble();
        double earliest = Double.NaN;
        for (JsonNode p : curve) {
            if (!p.get("certified").asBoolean()) {
                assertEquals(1.0, p.get("earliness").asDouble(), 0.0, "uncertified: t = d");
                assertEquals(full, p.get("accuracy").asDouble(), 0.0);
            }
            double a = p.get("accuracy").asDouble();
            double e = p.get("earliness").asDouble();
            assertEquals((1 - a) + 0.01 * e, p.get("avg_cost").asDouble(), 1e-12);
            if (a >= teaserAccuracy && !(e >= earliest)) {
                earliest = e;
            }
        }
        JsonNode at = d.get("reaches_teaser_accuracy_at");
        assertEquals(Double.isNaN(earliest), at.isNull(), d.toString());
        boolean noLater = !at.isNull()
                && at.asDouble() <= d.get("teaser").get("earliness").asDouble();
        assertEquals(noLater, d.get("no_later_than_teaser").asBoolean());
        assertEquals(noLater ? 1 : 0, o.get("no_later_than_teaser").asInt());
        assertEquals((1 - 0.89) + 0.01 * 0.2704, d.get("mori_avg_cost").asDouble(), 1e-12);
        assertTrue(d.get("operating_point").get("tau").asDouble() == 0.9, "the default target");
        String md = Files.readString(out.resolve("teaser.md"));
        assertTrue(md.contains("| CBF | 60 |") && md.contains("No later than TEASER on "), md);
        assertEquals("pac", o.get("guarantee").asText());
        assertTrue(md.startsWith("Every model certified under `pac`."), md);
        // Under expected, every τ pac certifies is certified too (the same replays, a weaker guarantee).
        Run exp = teaser(data, out, "--guarantee", "expected");
        assertEquals(0, exp.exit(), exp.err());
        JsonNode e = JSON.readTree(exp.out());
        assertEquals("expected", e.get("guarantee").asText());
        assertEquals("random", e.get("crc_draw").asText());
        JsonNode expCurve = e.get("datasets").get(0).get("curve");
        for (int k = 0; k < curve.size(); k++) {
            assertTrue(!curve.get(k).get("certified").asBoolean()
                    || expCurve.get(k).get("certified").asBoolean());
        }
        Run bad = ModelCommandsTest.run(
                "experiment", "teaser", "--data", data.toString(), "--out", out.toString(), "--guarantee", "sure");
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("sure"), bad.err());
    }

    /** {@code experiment teaser} on CBF at τ 0.5, 0.8, 0.9 with {@code --json}, plus {@code extra}. */
    private static Run teaser(Path data, Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "experiment",
                "teaser",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--taus",
                "0.5,0.8,0.9",
                "--out",
                out.toString(),
                "--json"));
        args.addAll(List.of(extra));
        return ModelCommandsTest.run(args.toArray(String[]::new));
    }
}
