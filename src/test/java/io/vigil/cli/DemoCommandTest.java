package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.stream.DecisionRecord;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code vigil demo --json} end to end on a small generated data set: broker, training, replay, Flink job. */
class DemoCommandTest {
    @Test
    void demoStreamsEverySeriesAndMatchesTheOfflineEvaluation() throws Exception {
        CommandLine cl = VigilCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(
                "demo",
                "--train-size",
                "40",
                "--series",
                "80",
                "--checkpoint-interval",
                "300ms",
                "--print",
                "2",
                "--json");
        assertEquals(0, code, () -> "stderr: " + err);
        String[] lines = out.toString().strip().split("\n");
        assertEquals(1, lines.length, "one JSON object on stdout: " + out);
        JsonNode j = new ObjectMapper().readTree(lines[0]);
        assertEquals(
                List.of(
                        "series",
                        "decided_early",
                        "mean_fraction",
                        "reliability",
                        "accuracy",
                        "samples_per_s",
                        "p50_ms",
                        "p99_ms",
                        "dead_letters",
                        "matches_evaluate"),
                iterate(j).subList(0, 10));
        assertEquals(80, j.get("series").asInt());
        assertTrue(j.get("matches_evaluate").asBoolean(), lines[0]);
        assertEquals(0, j.get("dead_letters").asInt());
        assertEquals(0, j.get("missing").asInt());
        assertTrue(j.get("p99_ms").asDouble() >= j.get("p50_ms").asDouble());
        assertTrue(err.toString().contains("->"), "live decision lines on stderr with --json: " + err);
        assertTrue(
                err.toString().contains("(certified ≥ ") || err.toString().contains("(not certified)"),
                "each decision line says what its label is certified at: " + err);
    }

    /** A decision line says "certified ≥ 0.93" (the largest certified τ its label passed) or "not certified". */
    @Test
    void decisionLinesSayWhatTheLabelIsCertifiedAt() {
        DecisionRecord certified = DecisionRecord.decided("s", "1", 12, 128, 0.9, 0.93, "m", 1L, 1L)
                .certificate(true, "pac", 0.9);
        assertEquals("certified ≥ 0.93", DemoCommand.certificate(certified));
        DecisionRecord uncertified = DecisionRecord.decided("s", "1", 128, 128, 0.9, 1.0, "m", 1L, 1L)
                .certificate(false, "none", 0.9);
        assertEquals("not certified", DemoCommand.certificate(uncertified));
        DecisionRecord undecided = DecisionRecord.undecided("s", "1", 12, 128, 0.9, 0.0, "m", 1L, 1L)
                .certificate(true, "pac", 0.9);
        assertEquals("not certified", DemoCommand.certificate(undecided), "passes no certified τ yet");
    }

    private static List<String> iterate(JsonNode j) {
        List<String> names = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
