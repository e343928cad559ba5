package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input file gets one line with its path and the reason in plain words (the input-hardening requirement): a missing
 * file, a directory, an empty gzip member, truncated gzip data, a missing value (naming the flag, not an internal
 * API) and an unwritable {@code --out} (naming the model, not a temp file). Plus the small items: {@code
 * --splits 1} and {@code --calibration-folds 1} are usage errors, and {@code evaluate} without {@code --report}
 * announces no files.
 */
class BadInputMessagesTest {
    @TempDir
    Path dir;

    static Run vigil(String... args) {
        return Run.of(args);
    }

    private Run train(Path file) {
        return vigil(
                "train",
                "--train",
                file.toString(),
                "--out",
                dir.resolve("m.model.json").toString());
    }

    private static void assertLine(Run o, String... fragments) {
        assertEquals(1, o.exit(), o.err());
        String line = o.err().strip();
        assertEquals(1, line.lines().count(), "one line: " + o.err());
        for (String f : fragments) {
            assertTrue(line.contains(f), () -> "'" + f + "' in: " + line);
        }
        assertFalse(line.contains("(null)") || line.contains("Exception"), line);
    }

    @Test
    void missingFileAndDirectoryNameThePathAndTheReason() throws IOException {
        Path missing = dir.resolve("bad/nonexistent.tsv");
        assertLine(train(missing), "vigil train: " + missing, "no such file");
        Path folder = Files.createDirectories(dir.resolve("folder"));
        assertLine(train(folder), "vigil train: " + folder, "is a directory");
    }

    @Test
    void emptyAndTruncatedGzipAreNamed() throws IOException {
        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        new GZIPOutputStream(empty).close();
        Path e = Files.write(dir.resolve("E_TRAIN.tsv.gz"), empty.toByteArray());
        assertLine(train(e), e.toString(), "empty");
        ByteArrayOutputStream full = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(full)) {
            gz.write("1\t2\t3\n".repeat(200).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        Path t = Files.write(dir.resolve("T_TRAIN.tsv.gz"), Arrays.copyOf(full.toByteArray(), 20));
        assertLine(train(t), t.toString(), "truncated gzip");
    }

    @Test
    void missingValuesNameTheFlagThatHelps() throws IOException {
        Path f = Files.writeString(dir.resolve("N_TRAIN.tsv"), "1\t1\tNaN\t3\n2\t1\t2\t3\n");
        Run o = train(f);
        assertLine(o, f + ":1: column 3", "--interpolate-missing");
        assertFalse(o.err().contains("ReadOptions"), o.err());
    }

    @Test
    void unwritableOutNamesTheModelNotATempFile() throws IOException {
        Path data = dir.resolve("data");
        assertEquals(
                0,
                vigil("generate", "--kind", "cbf", "--train", "12", "--test", "6", "--out", data.toString())
                        .exit());
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        Path out = notADirectory.resolve("m.model.json"); // its parent is a file: unwritable even for root
        Run o = vigil(
                "train", "--data", data.toString(), "--dataset", "CBF", "--out", out.toString(), "--no-calibration");
        assertEquals(1, o.exit(), o.err());
        String last = o.err().strip().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("vigil train: cannot write model " + out), last);
        assertFalse(last.contains(".tmp"), last);
    }

    @Test
    void evaluateWithoutReportAnnouncesNoFiles() {
        Path data = dir.resolve("data");
        assertEquals(
                0,
                vigil("generate", "--kind", "cbf", "--train", "12", "--test", "6", "--out", data.toString())
                        .exit());
        Path model = dir.resolve("m.model.json");
        assertEquals(
                0,
                vigil(
                                "train",
                                "--data",
                                data.toString(),
                                "--dataset",
                                "CBF",
                                "--out",
                                model.toString(),
                                "--no-calibration")
                        .exit());
        Run o = vigil("evaluate", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF");
        assertEquals(0, o.exit(), o.err());
        assertTrue(o.out().contains("fixed-time"), "the evaluation table is printed: " + o.out());
        assertFalse(o.out().contains("Files:") || o.err().contains("Files:"), o.out());
    }

    @Test
    void oneSplitIsAUsageError() {
        Run o = vigil("experiment", "table33", "--splits", "1", "--kind", "cbf");
        assertEquals(2, o.exit(), o.err());
        assertTrue(o.err().contains("--splits"), o.err());
    }

    @Test
    void calibrationFoldsTakeAutoOrAnIntegerOfAtLeastTwo() throws IOException {
        Path data = dir.resolve("CBF");
        Files.createDirectories(data);
        for (String bad : new String[] {"1", "ten", "-3"}) {
            Run o = vigil(
                    "train",
                    "--data",
                    dir.toString(),
                    "--dataset",
                    "CBF",
                    "--out",
                    dir.resolve("m.model.json").toString(),
                    "--calibration-folds",
                    bad);
            assertEquals(2, o.exit(), o.err());
            assertTrue(
                    o.err().contains("--calibration-folds must be auto or an integer >= 2, got '" + bad + "'"),
                    o.err());
        }
    }
}
