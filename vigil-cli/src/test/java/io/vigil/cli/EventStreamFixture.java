package io.vigil.cli;

import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The watch tests' data and model: a generated event stream ({@code vigil generate --kind event-stream}'s generator, 6
 * recordings × 4,000 samples, seed 7) and a window model trained on it in seconds (150 background windows, no
 * calibration).
 */
final class EventStreamFixture {
    private EventStreamFixture() {}

    /** Writes the recordings to {@code recordings} and runs {@code vigil train --recordings} into {@code model}. */
    static Run train(Path recordings, Path model) throws IOException {
        RecordingWriter.writeSet(EventStream.generate(6, 4000, 7), recordings, false);
        return Run.of(
                "train",
                "--recordings",
                recordings.toString(),
                "--max-background",
                "150",
                "--no-calibration",
                "--out",
                model.toString());
    }
}
