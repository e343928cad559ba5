package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        model = dir.resolve("w.json");
        trained = EventStreamFixture.train(recordings, model);
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
        // The default labelling is the original one (measured best on HAPT training folds, docs/watch.md).
        assertTrue(w.labelling().original(), w.labelling().toString());
        assertTrue(w.foldsByRecording(), "the folds are grouped by recording");
        Run inspect = Run.of("inspect", model.toString());
        inspect.ok();
        assertTrue(inspect.out().contains("folds grouped by recording"), inspect.out());
        Run json = Run.of("inspect", model.toString(), "--json");
        json.ok();
        assertTrue(json.out().contains("\"window\":{\"stride\":"), json.out());
        assertTrue(json.out().contains("\"folds\":\"recording\""), json.out());
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
        Run near = Run.of(
                "train",
                "--recordings",
                recordings.toString(),
                "--near-events",
                "inside",
                "--out",
                dir.resolve("z.json").toString());
        assertEquals(2, near.exit(), near.err());
        assertTrue(near.err().contains("--near-events must be exclude or background"), near.err());
    }

    @Test
    void evaluateRecordingsScoresEventsAgainstCompleteWindows() throws Exception {
        trained.ok();
        Run text = Run.of("evaluate", "--model", model.toString(), "--recordings", recordings.toString())
                .ok();
        assertTrue(text.out().contains("early (vigil)"), text.out());
        assertTrue(text.out().contains("complete-window"), text.out());
        assertTrue(text.out().contains("window certificate"), text.out());
        assertTrue(text.out().contains("fixed-delay decides every window after"), text.out());
        assertTrue(text.out().contains("measured on the train split"), text.out());
        assertTrue(text.out().contains("feature-svm: linear SVM"), text.out());
        Run json = Run.of("evaluate", "--model", model.toString(), "--recordings", recordings.toString(), "--json")
                .ok();
        com.fasterxml.jackson.databind.JsonNode o =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.out());
        for (String f : List.of("events", "window_certificate", "hours", "baselines")) {
            assertTrue(o.has(f), f + " in " + json.out());
        }
        for (String f : List.of("macro", "per_class", "false_alarms_per_hour", "duplicates", "delay")) {
            assertTrue(o.get("events").has(f), f + " in " + o.get("events"));
            for (String b : List.of("complete-window", "fixed-delay", "feature-svm")) {
                assertTrue(o.get("baselines").get(b).has(f), b + " " + f);
                assertTrue(o.get("baselines").get(b).get("macro").has("f1"), b);
            }
        }
        com.fasterxml.jackson.databind.JsonNode fd = o.get("baseline_settings").get("fixed-delay");
        for (String f : List.of("prefix_samples", "prefix_fraction", "training_median_delay_samples", "measured_on")) {
            assertTrue(fd.has(f), f + " in " + fd);
        }
        assertTrue(fd.get("measured_on").asText().startsWith("the train split"), fd.toString());
        com.fasterxml.jackson.databind.JsonNode svm = o.get("baseline_settings").get("feature-svm");
        VigilModel trainedModel = ModelFile.standard().load(model);
        // The SVM learns from the very windows the model was trained on.
        assertEquals(trainedModel.trainSize(), svm.get("training_windows").asInt(), svm.toString());
        assertTrue(svm.get("same_as_model").asBoolean(), svm.toString());
        for (String f : List.of("f1", "precision", "recall")) {
            assertTrue(o.get("events").get("macro").has(f), f);
        }
        for (String f : List.of("median_samples", "p90_samples", "median_fraction", "p90_fraction")) {
            assertTrue(o.get("events").get("delay").has(f), f);
        }
        int maxOpen = o.get("max_open_windows").asInt();
        VigilModel m = ModelFile.standard().load(model);
        int stride = m.section(WindowSection.class).orElseThrow().stride();
        assertTrue(maxOpen <= (m.seriesLength() + stride - 1) / stride, "open windows " + maxOpen);
        // On the test split of this generated set the model finds most events (a loose floor; a detector that never
        // fires, or fires at random, fails it).
        assertTrue(o.get("events").get("macro").get("recall").asDouble() > 0.3, json.out());

        Run series = Run.of("evaluate", "--model", model.toString(), "--test", model.toString());
        assertEquals(1, series.exit(), series.err());
        assertTrue(series.err().contains("is a window model"), series.err());
    }
}
