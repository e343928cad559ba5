package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.reliability.risk.LearnThenTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil train --reducer transfer-ldg} and {@code vigil experiment transfer} end to end on generated CBF (a
 * six-series target, a 60-series source under another name): the model records its source and α, inspect shows them,
 * early decisions work on the linear map, and the transfer options are usage errors where they do not apply.
 */
class TransferLdgCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path archive;
    static Path model;
    static Run train;

    @BeforeAll
    static void trainOnce() throws Exception {
        archive = dir.resolve("archive");
        Path gen = dir.resolve("gen");
        Run t = ModelCommandsTest.run(
                "generate",
                "--kind",
                "cbf",
                "--train",
                "6",
                "--test",
                "60",
                "--seed",
                "3",
                "--out",
                archive.toString());
        assertEquals(0, t.exit(), t.err());
        Run s = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "60", "--test", "6", "--seed", "4", "--out", gen.toString());
        assertEquals(0, s.exit(), s.err());
        Path src = Files.createDirectories(archive.resolve("CBFSource"));
        Files.copy(gen.resolve("CBF/CBF_TRAIN.tsv"), src.resolve("CBFSource_TRAIN.tsv"));
        Files.copy(gen.resolve("CBF/CBF_TEST.tsv"), src.resolve("CBFSource_TEST.tsv"));
        model = dir.resolve("transfer.json");
        train = ModelCommandsTest.run(args(
                "--out",
                model.toString(),
                "--reducer",
                "transfer-ldg",
                "--source-data",
                archive.toString(),
                "--source-dataset",
                "CBFSource",
                "--json"));
        assertEquals(0, train.exit(), train.err());
    }

    private static String[] args(String... extra) {
        List<String> a = new ArrayList<>(List.of("train", "--data", archive.toString(), "--dataset", "CBF"));
        a.addAll(Arrays.asList(extra));
        return a.toArray(new String[0]);
    }

    @Test
    void trainRecordsTheSourceAndAlphaAndCalibratesOnTheTargetSeries() throws Exception {
        JsonNode o = JSON.readTree(train.out());
        assertEquals("transfer-ldg", o.get("reducer").asText());
        assertEquals("CBFSource", o.get("source_dataset").asText());
        assertEquals(60, o.get("source_size").asInt());
        assertEquals(66, o.get("train_size").asInt(), "target then source series");
        assertTrue(List.of(0.0, 0.1, 0.3, 0.5).contains(o.get("alpha").asDouble()), o.toString());
        assertTrue(
                o.get("sections").toString().contains("calibration"),
                "cross-fitted over the target series: " + o.get("sections"));
        JsonNode ldg = JSON.readTree(Files.readAllBytes(model)).get("ldg");
        assertEquals("transfer-ldg", ldg.get("reducer").asText());
        assertEquals(6, ldg.get("transfer").get("target_series").asInt());
        assertEquals(
                "CBFSource", ldg.get("transfer").get("source").get("dataset").asText());
        assertEquals("cv", ldg.get("transfer").get("alpha_scores").get("source").asText());
        assertTrue(ldg.has("basis"), "a linear map");
        JsonNode required = o.get("calibration").get("required_reliability");
        assertEquals("fixed", o.get("calibration").get("selection").asText());
        int k = o.get("calibration").get("candidates").asInt();
        for (double tau : new double[] {0.5, 0.8, 0.9, 0.95, 0.99}) {
            JsonNode r = required.get(String.valueOf(tau));
            OptionalDouble expected = LearnThenTest.requiredReliability(6, 1 - tau, 0.1 / k);
            // null: six series cannot certify τ at all, which is not the same as needing no disagreement (1.0).
            assertEquals(expected.isEmpty(), r.isNull(), "τ = " + tau + ": " + r);
            if (expected.isPresent()) {
                assertEquals(expected.getAsDouble(), r.asDouble(), 0.0, "τ = " + tau);
                assertTrue(r.asDouble() >= tau, "a certificate never asks for less than τ: " + r);
            }
        }
        JsonNode curves = JSON.readTree(Files.readAllBytes(model))
                .get("sections")
                .get("calibration")
                .get("payload")
                .get("curves");
        assertTrue(curves.size() > 0, "every replayed rule has a curve");
        for (JsonNode curve : curves) {
            assertEquals(6, curve.get("series").asInt(), "only target series are held out and replayed: " + curve);
        }
    }

    @Test
    void inspectShowsTheSourceAndEarlyDecisionsUseTheLinearMap() throws Exception {
        Run i = ModelCommandsTest.run("inspect", model.toString());
        assertEquals(0, i.exit(), i.err());
        assertTrue(i.out().contains("transfer LDG (thesis ch. 4): alpha = "), i.out());
        assertTrue(i.out().contains("6 target series + 60 series of source CBFSource"), i.out());
        assertTrue(i.out().contains("transfer alpha (3-NN on the target series"), i.out());
        JsonNode j = JSON.readTree(
                ModelCommandsTest.run("inspect", model.toString(), "--json").out());
        assertEquals("CBFSource", j.get("transfer").get("source_dataset").asText());
        Run e = ModelCommandsTest.run(
                "evaluate", "--model", model.toString(), "--data", archive.toString(), "--dataset", "CBF", "--json");
        assertEquals(0, e.exit(), e.err());
        JsonNode tau = JSON.readTree(e.out()).get("taus").get(0);
        assertEquals(60, JSON.readTree(e.out()).get("test_size").asInt());
        assertTrue(tau.get("accuracy").asDouble() > 0.6, tau.toString());
        JsonNode point = JSON.readTree(e.out()).get("operating_point");
        assertEquals(point.get("tau").asDouble(), tau.get("announced").asDouble(), "the stored operating point");
        // Six target series certify at most α = 1 − 0.1^{1/6} = 0.319, i.e. τ ≤ 0.681.
        assertTrue(
                !tau.get("certified").asBoolean() || tau.get("announced").asDouble() <= Math.pow(0.1, 1.0 / 6),
                tau.toString());
    }

    @Test
    void transferOptionsAreUsageErrorsWhereTheyDoNotApply() {
        String out = dir.resolve("x.json").toString();
        String[][] cases = {
            {"--alpha", "0.1"},
            {"--source-data", archive.toString(), "--source-dataset", "CBFSource"},
            {"--reducer", "transfer-ldg"},
            {"--reducer", "transfer-ldg", "--source-data", archive.toString()},
            {
                "--reducer",
                "transfer-ldg",
                "--alpha",
                "2",
                "--source-data",
                archive.toString(),
                "--source-dataset",
                "CBFSource"
            }
        };
        String[] messages = {
            "--alpha applies to --reducer transfer-ldg only",
            "--source-data and --source-dataset apply to --reducer transfer-ldg only",
            "--reducer transfer-ldg needs a source domain",
            "is a directory: give --source-dataset NAME",
            "--alpha must be in [0, 1]"
        };
        for (int c = 0; c < cases.length; c++) {
            List<String> a = new ArrayList<>(List.of("--out", out));
            a.addAll(Arrays.asList(cases[c]));
            Run r = ModelCommandsTest.run(args(a.toArray(new String[0])));
            assertEquals(2, r.exit(), String.join(" ", cases[c]) + ": " + r.err());
            assertTrue(r.err().contains(messages[c]), r.err());
        }
        Run t33 = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                archive.toString(),
                "--out",
                dir.resolve("t33").toString(),
                "--reducer",
                "transfer-ldg");
        assertEquals(2, t33.exit(), t33.err());
        assertTrue(t33.err().contains("transfer-ldg needs a source domain"), t33.err());
    }

    @Test
    void experimentComparesTransferLdgWithPooledPcaOnEverySplit() throws Exception {
        Path out = dir.resolve("exp");
        Run r = ModelCommandsTest.run(
                "experiment",
                "transfer",
                "--data",
                archive.toString(),
                "--source",
                "CBFSource",
                "--target",
                "CBF",
                "--splits",
                "3",
                "--dims",
                "2,5",
                "--out",
                out.toString(),
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(2, o.get("transfer_ldg").size());
        for (JsonNode a : o.get("transfer_ldg")) {
            assertTrue(a.asDouble() > 0.5 && a.asDouble() <= 1, o.toString());
        }
        String md = Files.readString(out.resolve("transfer.md"));
        assertTrue(md.contains("| ℓ | transfer LDG | pooled PCA | no reduction |"), md);
        List<String> csv = Files.readAllLines(out.resolve("transfer.csv"));
        assertEquals(1 + 3 * 2, csv.size(), "a header and one row per split and ℓ");
        Run bad = ModelCommandsTest.run(
                "experiment",
                "transfer",
                "--data",
                archive.toString(),
                "--source",
                "CBFSource",
                "--target",
                "CBF",
                "--per-class",
                "200",
                "--out",
                out.toString());
        assertEquals(2, bad.exit(), bad.err());
        assertTrue(bad.err().contains("leaves none to test"), bad.err());
    }
}
