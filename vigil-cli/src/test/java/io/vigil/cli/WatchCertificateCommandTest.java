package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.data.recording.RecordingWriter;
import io.vigil.data.synthetic.EventStream;
import io.vigil.model.VigilModel;
import io.vigil.model.WatchCertificateSection;
import io.vigil.model.json.ModelFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watch certificate in operator units on a generated event stream: {@code train --recordings} (calibrated)
 * stores it, {@code inspect} prints it, {@code evaluate --recordings} reports the measured test values beside it.
 */
class WatchCertificateCommandTest {
    @TempDir
    static Path dir;

    @Test
    void trainInspectEvaluateRoundTrip() throws Exception {
        Path rec = dir.resolve("rec");
        Path model = dir.resolve("w.json");
        RecordingWriter.writeSet(EventStream.generate(6, 4000, 7), rec, false);
        Run train = Run.of(
                "train",
                "--recordings",
                rec.toString(),
                "--max-background",
                "150",
                "--out",
                model.toString(),
                "--json");
        train.ok();
        ObjectMapper json = new ObjectMapper();
        JsonNode t = json.readTree(train.out()).get("watch_certificate");
        assertTrue(t != null, train.out());
        VigilModel m = ModelFile.standard().load(model);
        WatchCertificateSection w = m.section(WatchCertificateSection.class).orElseThrow();
        assertEquals(4, w.recordings(), "the 4 training recordings, each replayed by a fold model that never saw it");
        assertEquals(w.recordings(), t.get("recordings").asInt());
        assertTrue(w.extraFalseAlarmsPerHourUpper() >= w.extraFalseAlarmsPerHour(), w.toString());
        assertTrue(w.eventStartAgreementLower() <= w.eventStartAgreement(), w.toString());
        assertTrue(w.eventWindows() > 0, w.toString());

        Run inspect = Run.of("inspect", model.toString());
        inspect.ok();
        assertTrue(inspect.out().contains("watch certificate extra false alarms"), inspect.out());
        JsonNode i =
                json.readTree(Run.of("inspect", model.toString(), "--json").ok().out());
        assertEquals(
                w.extraFalseAlarmsPerHourUpper(),
                i.get("watch_certificate")
                        .get("extra_false_alarms_per_hour_upper")
                        .asDouble(),
                1e-12);

        Run eval = Run.of(
                "evaluate", "--model", model.toString(), "--recordings", rec.toString(), "--split", "test", "--json");
        eval.ok();
        JsonNode u = json.readTree(eval.out()).get("operator_units");
        assertEquals(2, u.get("recordings").asInt());
        assertEquals(
                w.extraFalseAlarmsPerHourUpper(),
                u.get("certified_extra_false_alarms_per_hour_upper").asDouble(),
                1e-12);
        assertEquals(
                w.eventStartAgreementLower(),
                u.get("certified_event_start_agreement_lower").asDouble(),
                1e-12);
        assertTrue(u.get("extra_false_alarms_per_hour").isNumber(), u.toString());
        assertTrue(u.get("within_bounds").isBoolean(), u.toString());
        Run text = Run.of("evaluate", "--model", model.toString(), "--recordings", rec.toString(), "--split", "test");
        text.ok();
        assertTrue(text.out().contains("operator units: extra false alarms"), text.out());
    }
}
