package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.data.synthetic.EventStream;
import io.vigil.flink.cli.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code vigil generate --kind event-stream} and {@code vigil import hapt} write the recording layout. */
class EventStreamCommandsTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = VigilCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    @Test
    void generatesAnEventStreamRecordingSetThatReadsBack() throws IOException {
        Path o = dir.resolve("es");
        assertEquals(
                0,
                run(
                        "generate",
                        "--kind",
                        "event-stream",
                        "--out",
                        o.toString(),
                        "--seed",
                        "5",
                        "--recordings",
                        "4",
                        "--length",
                        "3000",
                        "--gzip",
                        "--json"),
                err.toString());
        JsonNode j = Json.mapper().readTree(out.toString());
        assertEquals(4, j.get("recordings").asInt());
        assertEquals(1, j.get("test_recordings").asInt());
        RecordingSet set = RecordingSet.read(o, Double.NaN);
        RecordingSet expected = EventStream.generate(4, 3000, 5);
        assertEquals(expected.events(), set.events());
        assertEquals(j.get("events").asInt(), set.events().size());
        assertTrue(Files.isRegularFile(o.resolve("rec-01.tsv.gz")));
        for (Recording r : set.recordings()) {
            assertEquals(3000, r.samples());
            assertEquals(50.0, r.samplingRateHz().orElseThrow(), 1e-9);
        }
        assertEquals(1, set.split("test").recordings().size());
    }

    @Test
    void eventStreamRefusesSeriesOptionsAndSeriesKindsNeedTrainAndTest() {
        String o = dir.resolve("x").toString();
        assertEquals(2, run("generate", "--kind", "event-stream", "--train", "3", "--out", o));
        assertTrue(
                err.toString().contains("--train, --test, --format and --raw are for the series kinds"),
                err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("generate", "--kind", "cbf", "--out", o));
        assertTrue(err.toString().contains("--train and --test are required for --kind cbf"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("generate", "--kind", "event-stream", "--length", "10", "--out", o));
        assertTrue(err.toString().contains("length ≥ 256"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("generate", "--kind", "sine", "--out", o));
        assertTrue(err.toString().contains("or event-stream"), err.toString());
    }

    @Test
    void importHaptConvertsAndNamesBadFiles() throws IOException {
        Path from = dir.resolve("hapt");
        Files.createDirectories(from.resolve("RawData"));
        Files.writeString(from.resolve("activity_labels.txt"), "7 STAND_TO_SIT\n");
        Files.writeString(from.resolve("RawData/acc_exp03_user02.txt"), "1 2 3\n4 5 6\n");
        Files.writeString(from.resolve("RawData/gyro_exp03_user02.txt"), "0 0 0\n1 1 1\n");
        Files.writeString(from.resolve("RawData/labels.txt"), "3 2 7 1 2\n");
        Path o = dir.resolve("out");
        assertEquals(0, run("import", "hapt", "--from", from.toString(), "--out", o.toString()), err.toString());
        assertTrue(out.toString().startsWith("imported HAPT: 1 recordings (0 train, 1 test)"), out.toString());
        assertEquals(1, RecordingSet.read(o, Double.NaN).split("test").events().size());
        Files.writeString(from.resolve("RawData/labels.txt"), "3 2 7 1 2\n3 2 9 1 2\n");
        assertEquals(1, run("import", "hapt", "--from", from.toString(), "--out", o.toString()));
        assertTrue(err.toString().contains("labels.txt:2: activity 9 is not in activity_labels.txt"), err.toString());
    }
}
