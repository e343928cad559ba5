package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowSection;
import io.vigil.model.json.ModelFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil train --recordings} on a generated event stream, and the series commands refusing its model. */
class TrainRecordingsTest {
    @TempDir
    static Path dir;

    static Path recordings;
    static Path model;
    static Run trained;

    @BeforeAll
    static void train() throws Exception {
        recordings = dir.resolve("rec");
        RecordingWriter.writeSet(EventStream.generate(6, 4000, 7), recordings, false);
        model = dir.resolve("w.json");
        trained = Run.of(
                "train",
                "--recordings",
                recordings.toString(),
                "--max-background",
                "150",
                "--no-calibration",
                "--out",
                model.toString());
    }

    @Test
    void windowModelRecordsItsWindows() throws Exception {
        trained.ok();
        VigilModel m = ModelFile.standard().load(model);
        WindowSection w = m.section(WindowSection.class).orElseThrow();
        assertEquals(List.of("background", "bell", "cylinder", "funnel"), m.classNames());
        assertEquals("background", w.backgroundLabel());
        assertEquals(EventStream.SAMPLING_RATE_HZ, w.samplingRateHz(), 1e-9);
        // Default length: the median CBF event length lies in the template's 33–97 event samples … of a 128 template.
        assertTrue(m.seriesLength() >= 16 && m.seriesLength() <= 128, "window " + m.seriesLength());
        assertEquals(Math.max(1, m.seriesLength() / 20), w.stride());
        assertEquals(150, m.classCounts()[0]);
    }

    @Test
    void seriesCommandsRefuseAWindowModel() {
        trained.ok();
        Run classify = Run.of("classify", "--model", model.toString(), "--test", model.toString());
        assertEquals(1, classify.exit(), classify.err());
        assertTrue(classify.err().contains("is a window model"), classify.err());
        assertTrue(classify.err().contains("vigil run --watch"), classify.err());
    }

    @Test
    void badRecordingOptionsAreUsageErrors() {
        Run unknown = Run.of(
                "train",
                "--recordings",
                recordings.toString(),
                "--events",
                "spike",
                "--out",
                dir.resolve("x.json").toString());
        assertEquals(2, unknown.exit(), unknown.err());
        assertTrue(unknown.err().contains("no event is labelled 'spike'"), unknown.err());
        Run both = Run.of(
                "train",
                "--recordings",
                recordings.toString(),
                "--train",
                "x.tsv",
                "--out",
                dir.resolve("y.json").toString());
        assertEquals(2, both.exit(), both.err());
        assertTrue(both.err().contains("not both"), both.err());
    }
}
