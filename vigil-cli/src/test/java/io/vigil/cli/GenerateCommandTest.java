package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.DatasetFiles;
import io.vigil.data.ReadOptions;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.cli.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GenerateCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = VigilCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        String[] full = new String[args.length + 1];
        full[0] = "generate";
        System.arraycopy(args, 0, full, 1, args.length);
        return cl.execute(full);
    }

    @Test
    void multichannelKindDefaultsToTheTsFormatAndRefusesAnotherByName() throws IOException {
        assertEquals(
                0, run("--kind", "multi-cbf", "--train", "6", "--test", "3", "--out", dir.toString()), err.toString());
        TrainTest back = DatasetFiles.resolve(dir, "MultiCBF").load(ReadOptions.DEFAULT);
        assertEquals(3, back.train().channels(), "three channels read back from the .ts default");
        assertTrue(Files.isRegularFile(dir.resolve("MultiCBF/MultiCBF_TEST.ts")));

        assertEquals(
                2,
                run("--kind", "multi-cbf", "--format", "tsv", "--train", "6", "--test", "3", "--out", dir.toString()));
        assertTrue(err.toString().contains("only --format ts holds several channels"), err.toString());
    }

    @Test
    void writesArchiveLayoutThatDataOptionsReadsBack() throws IOException {
        assertEquals(0, run("--kind", "cbf", "--train", "30", "--test", "90", "--out", dir.toString()), err.toString());
        Path train = dir.resolve("CBF/CBF_TRAIN.tsv");
        assertTrue(Files.isRegularFile(train));
        assertTrue(Files.isRegularFile(dir.resolve("CBF/CBF_TEST.tsv")));
        String line = out.toString().strip();
        assertFalse(line.contains("\n"), "one-line summary: " + line);
        assertTrue(line.startsWith("generated CBF (cbf, seed 1): 30 train + 90 test series of length 128"), line);
        TrainTest back = DatasetFiles.resolve(dir, "CBF").load(ReadOptions.DEFAULT);
        TrainTest expected = SyntheticData.generate(SyntheticKind.CBF, 30, 90, 1);
        assertEquals(List.of("1", "2", "3"), back.train().classNames());
        assertArrayEquals(new int[] {10, 10, 10}, back.train().classCounts());
        for (int i = 0; i < 30; i++) {
            assertArrayEquals(expected.train().series(i), back.train().series(i), "exact round trip of series " + i);
        }
    }

    @Test
    void jsonSummaryIsOneObjectWithTheContractFields() throws IOException {
        assertEquals(
                0,
                run(
                        "--kind",
                        "two-patterns",
                        "--train",
                        "8",
                        "--test",
                        "4",
                        "--out",
                        dir.toString(),
                        "--seed",
                        "42",
                        "--format",
                        "arff",
                        "--gzip",
                        "--raw",
                        "--json"),
                err.toString());
        String text = out.toString().strip();
        assertFalse(text.contains("\n"), text);
        JsonNode j = Json.mapper().readTree(text);
        assertEquals("TwoPatterns", j.get("dataset").asText());
        assertEquals("two-patterns", j.get("kind").asText());
        assertEquals(8, j.get("train_size").asInt());
        assertEquals(4, j.get("test_size").asInt());
        assertEquals(128, j.get("length").asInt());
        assertEquals(4, j.get("classes").size());
        assertEquals(42, j.get("seed").asLong());
        Path trainFile = dir.resolve("TwoPatterns/TwoPatterns_TRAIN.arff.gz");
        assertEquals(trainFile.toString(), j.get("train_file").asText());
        assertEquals(
                dir.resolve("TwoPatterns/TwoPatterns_TEST.arff.gz").toString(),
                j.get("test_file").asText());
        TrainTest back = DatasetFiles.resolve(dir, "TwoPatterns").load(ReadOptions.DEFAULT);
        TrainTest raw = SyntheticData.generate(SyntheticKind.TWO_PATTERNS, 8, 4, 42, true);
        assertArrayEquals(raw.test().series(3), back.test().series(3));
    }

    @Test
    void everyFormatIsWrittenWithItsExtension() {
        String[][] cases = {{"tsv", ".tsv"}, {"ucr2015", ".txt"}, {"ts", ".ts"}, {"arff", ".arff"}};
        for (String[] c : cases) {
            Path o = dir.resolve(c[0]);
            assertEquals(
                    0,
                    run(
                            "--kind",
                            "synthetic-control",
                            "--train",
                            "6",
                            "--test",
                            "6",
                            "--out",
                            o.toString(),
                            "--format",
                            c[0]),
                    err.toString());
            assertTrue(Files.isRegularFile(o.resolve("SyntheticControl/SyntheticControl_TRAIN" + c[1])), c[0]);
        }
    }

    @Test
    void badValuesAreUsageErrors() {
        String o = dir.toString();
        String[][] bad = {
            {"--kind", "sine", "--train", "3", "--test", "3", "--out", o},
            {"--kind", "cbf", "--train", "0", "--test", "3", "--out", o},
            {"--kind", "cbf", "--train", "2", "--test", "3", "--out", o},
            {"--kind", "cbf", "--train", "3", "--test", "0", "--out", o},
            {"--kind", "cbf", "--train", "3", "--test", "3", "--out", o, "--format", "csv"},
            {"--kind", "cbf", "--train", "three", "--test", "3", "--out", o},
            {"--kind", "cbf", "--train", "3", "--test", "3"},
        };
        String[] reasons = {
            "unknown synthetic kind 'sine'; expected one of cbf, synthetic-control, two-patterns",
            "--train must be at least 3",
            "--train must be at least 3",
            "--test must be at least 1",
            "csv",
            "three",
            "--out"
        };
        for (int k = 0; k < bad.length; k++) {
            err.getBuffer().setLength(0);
            assertEquals(2, run(bad[k]), String.join(" ", bad[k]));
            assertTrue(err.toString().contains(reasons[k]), err.toString());
        }
        assertFalse(Files.exists(dir.resolve("CBF")), "nothing written on a usage error");
    }

    @Test
    void helpWorks() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString().contains("--kind=KIND"), out.toString());
    }

    // --length: long CBF-like series; the default lengths stay as published.

    @Test
    void longCbfIsWrittenUnderItsOwnNameAndStretchesTheShapes() throws IOException {
        assertEquals(
                0,
                run(
                        "--kind",
                        "cbf",
                        "--train",
                        "6",
                        "--test",
                        "3",
                        "--length",
                        "2000",
                        "--raw",
                        "--out",
                        dir.toString()),
                err.toString());
        assertTrue(out.toString().contains("CBF2000") && out.toString().contains("length 2000"), out.toString());
        TrainTest back = DatasetFiles.resolve(dir, "CBF2000").load(ReadOptions.DEFAULT);
        assertEquals(2000, back.train().length());
        // Raw cylinders (class "1") sit near 6 + η on [a, b] with a ≥ 250 and b − a ≥ 500 and near 0 before a.
        double[] cylinder = back.train().series(0);
        double early = 0;
        double plateau = 0;
        for (int t = 0; t < 200; t++) {
            early += cylinder[t] / 200;
        }
        for (int t = 600; t < 750; t++) {
            plateau += cylinder[t] / 150;
        }
        assertTrue(Math.abs(early) < 0.5 && plateau > 2.5, early + " / " + plateau);
    }

    @Test
    void defaultLengthIsThePublishedDrawAndOtherKindsRefuseALength() {
        TrainTest a = SyntheticData.generate(SyntheticKind.CBF, 9, 3, 5L);
        TrainTest b = SyntheticData.generate(SyntheticKind.CBF, 9, 3, 5L, false, 128);
        for (int i = 0; i < 9; i++) {
            assertArrayEquals(a.train().series(i), b.train().series(i));
        }
        assertEquals("CBF", b.train().name());
        assertNotEquals(
                0,
                run(
                        "--kind",
                        "two-patterns",
                        "--train",
                        "4",
                        "--test",
                        "1",
                        "--length",
                        "500",
                        "--out",
                        dir.toString()));
        assertTrue(err.toString().contains("only cbf"), err.toString());
    }
}
