package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finite extreme values (1e200, ±1e308) in the cells of a test or training file: {@code evaluate} and {@code
 * classify} finish with every series decided and no NaN under reject and clip, keep fails with exit 1 naming the file,
 * line and column, and {@code train} refuses a value its arithmetic cannot square, naming file, line and column.
 */
class ExtremeValuesCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static TrainedCbf cbf;
    static Path extreme;

    @BeforeAll
    static void trainAndCorrupt() throws IOException {
        cbf = TrainedCbf.of(30, 40, 5L, TrainedCbf.FIXED);
        List<String> rows = new ArrayList<>(Files.readAllLines(cbf.data().resolve("CBF/CBF_TEST.tsv")));
        rows.set(2, replace(rows.get(2), 11, "1e200")); // line 3, column 12: t = 11
        rows.set(5, replace(rows.get(5), 2, "1e308"));
        rows.set(7, replace(rows.get(7), 1, "-1e308"));
        rows.set(9, replace(rows.get(9), 128, "1e200"));
        extreme = dir.resolve("X_TEST.tsv");
        Files.write(extreme, rows);
    }

    private static String replace(String row, int field, String value) {
        String[] f = row.split("\t", -1);
        f[field] = value;
        return String.join("\t", f);
    }

    @Test
    void evaluateRejectsOrClipsExtremeCellsAndDecidesEverySeriesOnce() throws IOException {
        for (String policy : List.of("reject", "clip")) {
            Path report = dir.resolve("report-" + policy);
            Run r = Run.of(
                    "evaluate",
                    "--model",
                    cbf.model().toString(),
                    "--test",
                    extreme.toString(),
                    "--out-of-range",
                    policy,
                    "--report",
                    report.toString(),
                    "--json");
            assertEquals(0, r.exit(), r.err());
            assertFalse(r.out().contains("NaN"), r.out());
            JsonNode o = JSON.readTree(r.out());
            assertEquals(40, o.get("test_size").asInt());
            assertTrue(o.get("taus").get(0).get("reliability").isNumber(), r.out());
            assertTrue(r.err().contains("X_TEST.tsv: line 3, column 12 (t=11): value 1.0E200"), r.err());
            assertEquals(
                    4,
                    r.err()
                            .lines()
                            .filter(l -> l.contains("--out-of-range " + policy))
                            .count(),
                    r.err());
            List<String> decisions = Files.readAllLines(report.resolve("decisions.csv"));
            assertEquals(41, decisions.size(), "a header and one row per series");
            assertTrue(decisions.stream().noneMatch(l -> l.contains("NaN")), decisions.toString());
        }
    }

    @Test
    void keepFailsNamingTheFileLineAndColumn() {
        Run r = Run.of(
                "evaluate", "--model", cbf.model().toString(), "--test", extreme.toString(), "--out-of-range", "keep");
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("X_TEST.tsv: line 3, column 12 (t=11)"), r.err());
        assertTrue(r.err().contains("--out-of-range reject or clip"), r.err());
        Run bad = Run.of(
                "evaluate", "--model", cbf.model().toString(), "--test", extreme.toString(), "--out-of-range", "drop");
        assertEquals(2, bad.exit(), bad.err());
    }

    @Test
    void classifyRejectsExtremeCells() {
        Run r = Run.of("classify", "--model", cbf.model().toString(), "--test", extreme.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.out().contains("NaN"), r.out());
        assertTrue(r.out().contains("\"test_size\":40"), r.out());
    }

    @Test
    void trainRefusesAValueItsArithmeticCannotSquare() throws IOException {
        List<String> rows = new ArrayList<>(Files.readAllLines(cbf.data().resolve("CBF/CBF_TRAIN.tsv")));
        rows.set(4, replace(rows.get(4), 20, "1e200"));
        Path train = dir.resolve("X_TRAIN.tsv");
        Files.write(train, rows);
        Run r = Run.of(
                "train",
                "--train",
                train.toString(),
                "--out",
                dir.resolve("x.json").toString());
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().contains("X_TRAIN.tsv:5: column 21 (t=20): value 1.0E200"), r.err());
    }

    @Test
    void aLengthMismatchNamesTheFileAndTheLengthPolicy() throws IOException {
        List<String> rows = new ArrayList<>();
        for (String row : Files.readAllLines(cbf.data().resolve("CBF/CBF_TEST.tsv"))) {
            String[] f = row.split("\t");
            rows.add(String.join("\t", java.util.Arrays.copyOf(f, 100)));
        }
        Path shorter = dir.resolve("SHORT_TEST.tsv");
        Files.write(shorter, rows);
        for (String command : List.of("evaluate", "classify")) {
            Run r = Run.of(command, "--model", cbf.model().toString(), "--test", shorter.toString());
            assertEquals(1, r.exit(), r.err());
            assertTrue(r.err().contains("SHORT_TEST.tsv: test series have length 99"), r.err());
            assertTrue(r.err().contains("--length-policy pad-last"), r.err());
        }
    }

    @Test
    void aTruncatedModelFileSaysTruncatedOnce() throws IOException {
        byte[] full = Files.readAllBytes(cbf.model());
        Path cut = dir.resolve("cut.json");
        Files.write(cut, java.util.Arrays.copyOf(full, full.length / 2));
        Run r = Run.of("inspect", cut.toString());
        assertEquals(1, r.exit(), r.err());
        String err = r.err();
        assertTrue(err.contains("the file is truncated"), err);
        assertEquals(err.indexOf("truncated"), err.lastIndexOf("truncated"), err);
        assertFalse(err.contains("REDACTED") || err.contains("end-of-input"), err);
    }
}
