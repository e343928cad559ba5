package io.vigil.data.recording;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.DataFormatException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordingSetTest {
    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, content, StandardCharsets.UTF_8);
        return p;
    }

    private Path writeGz(String name, String content) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    private DataFormatException fails() {
        return assertThrows(DataFormatException.class, () -> RecordingSet.read(dir, Double.NaN));
    }

    private void twoRecordings() throws IOException {
        write("a.tsv", "time\tx\ty\n0\t1.5\t2\n20\t\t3\n40\t2.5\tNaN\n60\t3\t4\n");
        writeGz("b.csv.gz", "u, v\n1,2\n3,4\n5,6\n");
    }

    @Test
    void readsTsvCsvGzipTimeColumnMissingValuesAndSplits() throws IOException {
        twoRecordings();
        write(
                "events.tsv",
                "recording\tstart\tend\tlabel\tsplit\na\t2\t3\tsit\ttrain\nb\t1\t1\tstand\ttest\n"
                        + "b\t3\t3\tsit\ttest\n");
        RecordingSet set = RecordingSet.read(dir, Double.NaN);
        assertEquals(
                List.of("a", "b"),
                set.recordings().stream().map(Recording::name).toList());
        Recording a = set.recording("a").orElseThrow();
        assertEquals(List.of("x", "y"), a.channels());
        assertEquals(4, a.samples());
        assertArrayEquals(new double[] {1.5, Double.NaN, 2.5, 3}, a.channel(0));
        assertTrue(Double.isNaN(a.value(1, 3)));
        assertEquals(40.0, a.timeMs(3));
        assertEquals(50.0, a.samplingRateHz().orElseThrow(), 1e-12); // 1000 ms / 20 ms
        Recording b = set.recording("b").orElseThrow();
        assertEquals(List.of("u", "v"), b.channels());
        assertFalse(b.hasTimes());
        assertTrue(b.samplingRateHz().isEmpty());
        assertEquals(
                List.of(new RecordingEvent("b", 1, 1, "stand"), new RecordingEvent("b", 3, 3, "sit")), set.events("b"));
        assertEquals(List.of("sit", "stand"), set.labels());
        RecordingSet test = set.split("test");
        assertEquals(
                List.of("b"), test.recordings().stream().map(Recording::name).toList());
        assertEquals(2, test.events().size());
        assertTrue(set.hours().isEmpty());
        assertEquals(4 / 50.0 / 3600, set.split("train").hours().orElseThrow(), 1e-15);
    }

    @Test
    void givenSamplingRateOverridesAndRowWithoutEventGivesSplit() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\tsplit\na\t2\t3\tsit\ttrain\nb\t\t\t\ttest\n");
        RecordingSet set = RecordingSet.read(dir, 10);
        assertEquals(10.0, set.recording("a").orElseThrow().samplingRateHz().orElseThrow());
        assertEquals(List.of(), set.events("b"));
        assertEquals("test", set.splitOf("b").orElseThrow());
    }

    @Test
    void splitWithoutSplitColumnIsRefused() throws IOException {
        twoRecordings();
        write("events.tsv", "label,recording,end,start\n");
        Files.move(dir.resolve("events.tsv"), dir.resolve("events.csv"));
        RecordingSet set = RecordingSet.read(dir, Double.NaN);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> set.split("test"));
        assertTrue(e.getMessage().contains("no split column"), e.getMessage());
    }

    private void assertFailsAt(String file, long line, String reasonPart) {
        DataFormatException e = fails();
        assertEquals(file, e.file().getFileName().toString(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.reason().contains(reasonPart), e.getMessage());
    }

    @Test
    void badNumberNamesFileLineAndColumn() throws IOException {
        write("a.tsv", "x\ty\n1\t2\n3\tabc\n");
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        assertFailsAt("a.tsv", 3, "column 'y': 'abc' is not a number");
    }

    @Test
    void wrongColumnCountInGzippedCsv() throws IOException {
        writeGz("a.csv.gz", "x,y\n1,2\n\n3,4,5\n");
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        assertFailsAt("a.csv.gz", 4, "expected 2 columns");
    }

    @Test
    void timeMustIncrease() throws IOException {
        write("a.tsv", "ts\tx\n0\t1\n10\t2\n10\t3\n");
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        assertFailsAt("a.tsv", 4, "does not increase");
    }

    @Test
    void infiniteValueAndDuplicateHeader() throws IOException {
        write("a.tsv", "x\tx\n1\t2\n");
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        assertFailsAt("a.tsv", 1, "twice");
        write("a.tsv", "x\ty\n1\tInfinity\n");
        assertFailsAt("a.tsv", 2, "not finite");
    }

    @Test
    void emptyRecordingIsRefused() throws IOException {
        write("a.tsv", "x\ty\n");
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        assertFailsAt("a.tsv", 0, "no samples");
    }

    @Test
    void eventPastTheEndOfItsRecording() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\na\t2\t3\tsit\nb\t2\t4\tsit\n");
        assertFailsAt("events.tsv", 3, "runs past the end of recording 'b' (3 samples)");
    }

    @Test
    void overlappingEventsNameTheLaterLine() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\na\t3\t4\tsit\nb\t1\t2\tx\na\t1\t3\tstand\n");
        DataFormatException e = fails();
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.reason().contains("overlaps the event 3..4 at line 2"), e.getMessage());
    }

    @Test
    void unknownRecording() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\nc\t1\t2\tsit\n");
        assertFailsAt("events.tsv", 2, "unknown recording 'c' (recordings: a, b)");
    }

    @Test
    void endBeforeStart() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\na\t3\t2\tsit\n");
        assertFailsAt("events.tsv", 2, "end 2 is before start 3");
    }

    @Test
    void badIndexAndZeroIndex() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tend\tlabel\na\t1.5\t2\tsit\n");
        assertFailsAt("events.tsv", 2, "start '1.5' is not a whole number");
        write("events.tsv", "recording\tstart\tend\tlabel\na\t0\t2\tsit\n");
        assertFailsAt("events.tsv", 2, "start 0 is not a 1-based sample index");
    }

    @Test
    void eventsTableChecks() throws IOException {
        twoRecordings();
        write("events.tsv", "recording\tstart\tlabel\n");
        assertFailsAt("events.tsv", 1, "lacks column 'end'");
        write("events.tsv", "recording\tstart\tend\tlabel\na\t1\t2\n");
        assertFailsAt("events.tsv", 2, "expected 4 columns");
        write("events.tsv", "recording\tstart\tend\tlabel\tsplit\na\t1\t2\tsit\tvalidation\n");
        assertFailsAt("events.tsv", 2, "neither train nor test");
        write("events.tsv", "recording\tstart\tend\tlabel\tsplit\na\t1\t1\tsit\ttrain\na\t3\t3\tsit\ttest\n");
        assertFailsAt("events.tsv", 3, "is in split test here but train at line 2");
        write("events.tsv", "recording\tstart\tend\tlabel\tsplit\na\t1\t1\tsit\ttrain\n");
        assertFailsAt("events.tsv", 0, "recording 'b'");
    }

    @Test
    void missingEventsTableOrRecordings() throws IOException {
        twoRecordings();
        assertThrows(java.io.FileNotFoundException.class, () -> RecordingSet.read(dir, Double.NaN));
        Files.delete(dir.resolve("a.tsv"));
        Files.delete(dir.resolve("b.csv.gz"));
        write("events.tsv", "recording\tstart\tend\tlabel\n");
        DataFormatException e = fails();
        assertTrue(e.reason().contains("no recording files"), e.getMessage());
    }

    @Test
    void writerRoundTrips() throws IOException {
        Recording r = new Recording(
                "rec",
                List.of("p", "q"),
                new double[][] {{1.25, Double.NaN, -3}, {0.1, 2, 1e-7}},
                new double[] {0, 20, 40},
                Double.NaN);
        RecordingWriter.write(r, dir.resolve("rec.tsv.gz"));
        RecordingWriter.writeEvents(
                dir.resolve("events.tsv"),
                List.of("rec"),
                List.of(new RecordingEvent("rec", 2, 3, "e")),
                Map.of("rec", "test"));
        RecordingSet set = RecordingSet.read(dir, Double.NaN);
        Recording back = set.recording("rec").orElseThrow();
        assertArrayEquals(r.channel(0), back.channel(0));
        assertArrayEquals(r.channel(1), back.channel(1));
        assertEquals(40.0, back.timeMs(3));
        assertEquals(50.0, back.samplingRateHz().orElseThrow(), 1e-12);
        assertEquals(
                List.of(new RecordingEvent("rec", 2, 3, "e")), set.split("test").events());
    }
}
