package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.experiment.WatchTradeoff;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil experiment watch-tradeoff} on a generated event stream: the early rule per τ beside the baselines. */
class WatchTradeoffCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Every τ gives one early point and every baseline one point, with the event fields of {@code evaluate
     * --recordings}; the table, CSV and a PNG are written; a series model and a τ outside (0, 1) are usage errors.
     */
    @Test
    void earlyRuleOverTausBesideTheBaselines(@TempDir Path dir) throws Exception {
        Path recordings = dir.resolve("rec");
        Path model = dir.resolve("w.json");
        Run train = EventStreamFixture.train(recordings, model);
        assertEquals(0, train.exit(), train.err());
        Path out = dir.resolve("out");
        Run r = tradeoff(model, recordings, "--taus", "0.5,0.99", "--out", out.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertTrue(o.get("hours").asDouble() > 0);
        List<String> detectors = new ArrayList<>();
        for (JsonNode p : o.get("points")) {
            detectors.add(p.get("detector").asText());
            JsonNode e = p.get("events");
            for (String f : List.of("macro", "false_alarms_per_hour", "duplicates", "delay")) {
                assertTrue(e.has(f), f + " in " + p);
            }
        }
        assertEquals(
                List.of(WatchTradeoff.EARLY, WatchTradeoff.EARLY, "complete-window", "fixed-delay", "feature-svm"),
                detectors);
        assertEquals(0.5, o.get("points").get(0).get("tau").asDouble());
        assertEquals(0.99, o.get("points").get(1).get("tau").asDouble());
        assertTrue(o.get("points").get(2).get("tau").isNull(), "baselines carry no τ");
        byte[] png = Files.readAllBytes(out.resolve(WatchTradeoff.PNG));
        assertTrue(png.length > 1000 && png[1] == 'P' && png[2] == 'N' && png[3] == 'G');
        assertEquals(1 + 5, Files.readAllLines(out.resolve(WatchTradeoff.CSV)).size());
        assertTrue(Files.readString(out.resolve(WatchTradeoff.MARKDOWN)).contains("| feature-svm |"));

        Path series = dir.resolve("cbf");
        TrainedCbf cbf = TrainedCbf.of(24, 30, 3L, List.of("--no-calibration"));
        Run refused = tradeoff(cbf.model(), recordings, "--out", series.toString());
        assertEquals(2, refused.exit(), refused.err());
        assertTrue(refused.err().contains("window model"), refused.err());
        Run badTau = tradeoff(model, recordings, "--taus", "1.5", "--out", series.toString());
        assertEquals(2, badTau.exit(), badTau.err());
    }

    private static Run tradeoff(Path model, Path recordings, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "experiment", "watch-tradeoff", "--model", model.toString(), "--recordings", recordings.toString()));
        a.addAll(List.of(more));
        return Run.of(a);
    }
}
