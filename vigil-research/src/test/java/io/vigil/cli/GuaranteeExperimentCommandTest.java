package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.evaluate.Binomial;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GuaranteeExperimentCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String[] args(Path data, Path out, String resplits, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "experiment",
                "guarantee",
                "--data",
                data.toString(),
                "--resplits",
                resplits,
                "--taus",
                "0.5,0.8",
                "--out",
                out.toString(),
                "--json"));
        a.addAll(Arrays.asList(more));
        return a.toArray(String[]::new);
    }

    /**
     * On a generated two-dataset archive: the JSON contract (per mode and per dataset the certified pairs, how many
     * are significantly below τ, their fraction, mean excess and t/d), the figures agree with the per-pair CSV, and a
     * second run resumes every split from the cache with the same figures, a larger {@code --resplits} only computes
     * the new splits, and {@code --no-resume} recomputes them all.
     */
    @Test
    void reportsEveryModeAndResumesFromItsCache(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        for (String kind : List.of("cbf", "synthetic-control")) {
            Run gen = ModelCommandsTest.run(
                    "generate",
                    "--kind",
                    kind,
                    "--train",
                    "30",
                    "--test",
                    "40",
                    "--seed",
                    "4",
                    "--out",
                    data.toString());
            assertEquals(0, gen.exit(), gen.err());
        }
        Path out = dir.resolve("out");
        Run first = ModelCommandsTest.run(args(data, out, "2"));
        assertEquals(0, first.exit(), first.err());
        JsonNode o = JSON.readTree(first.out());
        assertEquals(0, o.get("resumed_splits").asInt());
        List<String> csv = Files.readAllLines(out.resolve("guarantee.csv"));
        List<String> header = Arrays.asList(csv.get(0).split(","));
        assertEquals("fixed", o.get("selection_correction").get("pac").asText());
        assertEquals("fixed", o.get("selection_correction").get("expected").asText());
        for (String mode : List.of("pac", "expected")) {
            JsonNode m = o.get("modes").get(mode);
            String correction = o.get("selection_correction").get(mode).asText();
            for (String field : List.of(
                    "certified_pairs", "significantly_below", "fraction_below", "mean_excess", "mean_fraction")) {
                assertTrue(m.has(field), mode + " lacks " + field + ": " + m);
            }
            assertEquals(2 * 2 * 2, m.get("pairs").asInt(), "datasets × splits × τ");
            int certified = 0;
            int below = 0;
            double excess = 0;
            for (String line : csv.subList(1, csv.size())) {
                String[] f = line.split(",");
                if (!f[header.indexOf("guarantee")].equals(mode)
                        || !f[header.indexOf("selection")].equals(correction)
                        || !f[header.indexOf("kind")].equals("tau")
                        || !f[header.indexOf("certified")].equals("true")) {
                    continue;
                }
                double tau = Double.parseDouble(f[header.indexOf("tau")]);
                int n = Integer.parseInt(f[header.indexOf("n")]);
                int reliable = Integer.parseInt(f[header.indexOf("reliable")]);
                assertEquals(40, n, "every test part keeps the standard split's test size");
                certified++;
                below += Binomial.pBelow(reliable, n, tau) < 0.05 ? 1 : 0;
                excess += reliable / (double) n - tau;
            }
            assertEquals(certified, m.get("certified_pairs").asInt(), mode);
            assertEquals(below, m.get("significantly_below").asInt(), mode);
            if (certified > 0) {
                assertEquals(below / (double) certified, m.get("fraction_below").asDouble(), 1e-12, mode);
                assertEquals(excess / certified, m.get("mean_excess").asDouble(), 1e-12, mode);
                double f = m.get("mean_fraction").asDouble();
                assertTrue(f > 0 && f <= 1, mode + " mean t/d " + f);
            } else {
                assertTrue(m.get("fraction_below").isNull(), mode);
            }
        }
        assertTrue(
                o.get("modes").get("pac").get("certified_pairs").asInt() > 0,
                "τ = 0.5 is certified on some of 30 training series: the figures above are not vacuous");
        JsonNode datasets = o.get("datasets");
        assertEquals(
                List.of("CBF", "SyntheticControl"),
                List.of(
                        datasets.get(0).get("dataset").asText(),
                        datasets.get(1).get("dataset").asText()));
        int perDataset = 0;
        for (JsonNode d : datasets) {
            assertEquals(30, d.get("train_size").asInt());
            perDataset += d.get("modes").get("pac").get("certified_pairs").asInt();
            // The 5 % check's power against τ − 0.05 on this test part, per τ run (GuaranteeStatisticsTest by hand).
            d.get("power_against_0_05_shortfall")
                    .fields()
                    .forEachRemaining(p -> assertTrue(
                            p.getValue().asDouble() >= 0 && p.getValue().asDouble() < 1, p.getKey()));
        }
        assertEquals(o.get("modes").get("pac").get("certified_pairs").asInt(), perDataset);
        JsonNode early = o.get("modes")
                .get("expected")
                .get("excess_where_earliest_below_tau")
                .get("0.8");
        assertEquals(
                "cross-fitted earliest reliability", early.get("selected_by").asText());
        assertTrue(early.get("pairs_all_splits").asInt() >= early.get("pairs").asInt(), early.toString());
        assertTrue(Files.readString(out.resolve("guarantee.md")).contains("## Per dataset"));

        Run again = ModelCommandsTest.run(args(data, out, "2"));
        assertEquals(0, again.exit(), again.err());
        JsonNode resumed = JSON.readTree(again.out());
        assertEquals(4, resumed.get("resumed_splits").asInt());
        assertEquals(o.get("modes"), resumed.get("modes"), "a resumed run reports the same figures");
        assertEquals(csv, Files.readAllLines(out.resolve("guarantee.csv")));

        Run more = ModelCommandsTest.run(args(data, out, "3"));
        assertEquals(0, more.exit(), more.err());
        JsonNode extended = JSON.readTree(more.out());
        assertEquals(4, extended.get("resumed_splits").asInt(), "only the third split of each dataset is new");
        assertEquals(2 * 3 * 2, extended.get("modes").get("pac").get("pairs").asInt());

        Run fresh = ModelCommandsTest.run(args(data, out, "2", "--no-resume"));
        assertEquals(0, fresh.exit(), fresh.err());
        JsonNode recomputed = JSON.readTree(fresh.out());
        assertEquals(0, recomputed.get("resumed_splits").asInt());
        assertEquals(o.get("modes"), recomputed.get("modes"), "seeded: recomputing gives the same figures");

        // The mixture's splits are cached apart from the joint Gaussian's: nothing is resumed from them, and resuming
        // the mixture's run gives its own figures back.
        Run gmm = ModelCommandsTest.run(args(data, out, "2", "--estimator", "gmm"));
        assertEquals(0, gmm.exit(), gmm.err());
        JsonNode mixture = JSON.readTree(gmm.out());
        assertEquals(0, mixture.get("resumed_splits").asInt(), "the joint Gaussian's cache does not serve gmm");
        assertEquals("gmm", mixture.get("estimator").asText(), "the report names the estimator");
        assertEquals("joint", o.get("estimator").asText());
        Run gmmAgain = ModelCommandsTest.run(args(data, out, "2", "--estimator", "gmm"));
        JsonNode mixtureAgain = JSON.readTree(gmmAgain.out());
        assertEquals(4, mixtureAgain.get("resumed_splits").asInt());
        assertEquals(mixture.get("modes"), mixtureAgain.get("modes"));
        Run jointAgain = ModelCommandsTest.run(args(data, out, "2"));
        assertEquals(o.get("modes"), JSON.readTree(jointAgain.out()).get("modes"), "the joint cache is intact");
        assertEquals(0.0, o.get("pattern").get("missing").asDouble(), "every value observed unless asked");

        // Under an observation pattern: calibrated and evaluated with values missing, cached apart, named in the JSON
        // and in the report's command line.
        Run missing = ModelCommandsTest.run(args(data, out, "2", "--missing", "0.2", "--pattern-seed", "3"));
        assertEquals(0, missing.exit(), missing.err());
        JsonNode m = JSON.readTree(missing.out());
        assertEquals(0, m.get("resumed_splits").asInt(), "the complete pattern's cache does not serve it");
        assertEquals(0.2, m.get("pattern").get("missing").asDouble());
        assertEquals(3, m.get("pattern").get("seed").asLong());
        assertTrue(m.get("modes").get("pac").get("certified_pairs").asInt() >= 0);
        assertTrue(
                Files.readString(out.resolve("guarantee.md")).contains("--missing 0.2 --pattern-seed 3"),
                "the report's command reproduces the pattern");
        // The expected guarantee's randomised form (default) and U = 1 are cached apart; pac does not depend on U.
        assertEquals("random", o.get("crc_draw").asText());
        Run conservative = ModelCommandsTest.run(args(data, out, "2", "--crc-draw", "conservative"));
        assertEquals(0, conservative.exit(), conservative.err());
        JsonNode c = JSON.readTree(conservative.out());
        assertEquals(0, c.get("resumed_splits").asInt(), "the randomised form's cache does not serve U = 1");
        assertEquals("conservative", c.get("crc_draw").asText());
        assertEquals(o.get("modes").get("pac"), c.get("modes").get("pac"), "pac has no draw");
        assertTrue(
                c.get("modes").get("expected").get("certified_pairs").asInt()
                        <= o.get("modes").get("expected").get("certified_pairs").asInt(),
                "U = 1 never certifies more than a draw U ≤ 1: " + c.get("modes") + " vs " + o.get("modes"));
        assertTrue(Files.readString(out.resolve("guarantee.md")).contains("--crc-draw conservative"));
        // Holdout calibration is its own cache and says so; the holdout models are other models than cross-fit's.
        Run holdout = ModelCommandsTest.run(args(data, out, "1", "--calibration", "holdout"));
        assertEquals(0, holdout.exit(), holdout.err());
        JsonNode h = JSON.readTree(holdout.out());
        assertEquals("holdout:0.3", h.get("calibration").asText());
        assertEquals("cross-fit", o.get("calibration").asText());
        assertEquals(0, h.get("resumed_splits").asInt(), "the cross-fit cache does not serve holdout models");
        assertTrue(Files.readString(out.resolve("guarantee.md")).contains("--calibration holdout:0.3"));
        Run badScheme = ModelCommandsTest.run(args(data, out, "1", "--calibration", "holdout:2"));
        assertEquals(2, badScheme.exit(), badScheme.err());
        assertTrue(badScheme.err().contains("--calibration must be cross-fit, holdout"), badScheme.err());
        Run lag = ModelCommandsTest.run(args(data, out, "2", "--channel-lag", "1:3"));
        assertEquals(2, lag.exit(), lag.err());
        assertTrue(lag.err().contains("--channel-lag: channel 1"), lag.err());
    }

    @Test
    void rejectsAnUnknownGuaranteeAndTooFewResplits(@TempDir Path dir) {
        Run bad = ModelCommandsTest.run(args(dir, dir.resolve("out"), "2", "--guarantee", "pac,sure"));
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("sure"), bad.err());
        Run draw = ModelCommandsTest.run(args(dir, dir.resolve("out"), "2", "--crc-draw", "0.5"));
        assertEquals(2, draw.exit(), draw.err());
        assertTrue(draw.err().contains("--crc-draw must be random or conservative"), draw.err());
        Run none = ModelCommandsTest.run(args(dir, dir.resolve("out"), "0"));
        assertEquals(2, none.exit(), none.err());
        assertTrue(none.err().contains("--resplits"), none.err());
    }
}
