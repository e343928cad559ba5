package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.flink.cli.RunCommand;
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
        Outcome o = demo(
                "--train-size",
                "40",
                "--series",
                "80",
                "--checkpoint-interval",
                "300ms",
                "--print",
                "2",
                "--dashboard",
                "0",
                "--json");
        StringWriter out = o.out();
        StringWriter err = o.err();
        assertEquals(0, o.code(), () -> "stderr: " + err);
        assertTrue(err.toString().contains("dashboard at http://127.0.0.1:"), "the dashboard's address: " + err);
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
        assertEquals(20_000, j.get("rate").asDouble());
        assertTrue(List.of("processing", "backlog").contains(j.get("latency").asText()), lines[0]);
        assertTrue(
                err.toString().contains("(certified at ") || err.toString().contains("(not certified)"),
                "each decision line says what its label is certified at: " + err);
    }

    /** A τ the training set cannot certify is said at the start: the demo then decides every series at t = d. */
    @Test
    void anUncertifiedTauIsSaidAtTheStart() throws Exception {
        Outcome o = demo("--train-size", "30", "--series", "6", "--tau", "0.999", "--print", "0", "--json");
        String err = o.err().toString();
        assertEquals(0, o.code(), () -> "stderr: " + err);
        assertTrue(err.contains("tau 0.999 NOT CERTIFIED: decides only at t = d (never early))"), err);
        assertTrue(
                err.contains("vigil demo: warning: the operating point at tau 0.999 is not certified on 30 "
                        + "training series, so every series is decided only at t = d, never early"),
                err);
    }

    /**
     * With {@code --estimator gmm} on several channels the demo calibrates the per-class mixture (its any-order form
     * serves the multichannel stream), so its decisions are certified as the joint Gaussian's are, and the stream
     * still matches the offline evaluation.
     */
    @Test
    void theMixtureIsCalibratedForAndCertifiedOnAMultichannelStream() throws Exception {
        Outcome o = demo(
                "--kind",
                "multi-cbf",
                "--estimator",
                "gmm",
                "--train-size",
                "60",
                "--series",
                "60",
                "--checkpoint-interval",
                "300ms",
                "--print",
                "60",
                "--json");
        StringWriter err = o.err();
        assertEquals(0, o.code(), () -> "stderr: " + err);
        JsonNode j = new ObjectMapper().readTree(o.out().toString().strip());
        assertEquals("gmm", j.get("estimator").asText());
        assertTrue(j.get("matches_evaluate").asBoolean(), o.out().toString());
        assertTrue(err.toString().contains("(certified at "), "the mixture's decisions are certified: " + err);
    }

    /**
     * {@code --kind watch}: a window model trained on a generated event stream, the test recordings watched as keyed
     * streams; each committed alarm is printed with its key, label, trigger, delay and verdict against the generated
     * events, and the summary carries the event metrics and the comparison with the offline replay.
     */
    @Test
    void watchDemoPrintsAlarmsAsTheyFireAndTheEventMetrics() throws Exception {
        Outcome o =
                demo("--kind", "watch", "--checkpoint-interval", "300ms", "--rate", "0", "--dashboard", "0", "--json");
        String err = o.err().toString();
        assertEquals(0, o.code(), () -> "stderr: " + err);
        assertTrue(err.contains("dashboard at http://127.0.0.1:"), "the dashboard's address: " + err);
        assertTrue(err.contains("vigil demo: watch: generated event stream"), err);
        java.util.regex.Matcher alarm = java.util.regex.Pattern.compile(
                        "(?m)^  rec-\\d+ +(cylinder|bell|funnel) +trigger +[\\d,]+ +delay +\\d+ samples \\(\\d+\\.\\d\\d s\\) .*"
                                + "(true|false|duplicate)$")
                .matcher(err);
        assertTrue(alarm.find(), "alarm lines with key, label, trigger, delay and verdict: " + err);
        String[] lines = o.out().toString().strip().split("\n");
        assertEquals(1, lines.length, "one JSON object on stdout: " + o.out());
        JsonNode j = new ObjectMapper().readTree(lines[0]);
        assertEquals("watch", j.get("kind").asText());
        assertEquals(3, j.get("keys").asInt());
        assertEquals(30_000, j.get("values").asLong());
        assertTrue(j.get("alarms").asInt() > 0, lines[0]);
        assertEquals(
                j.get("alarms").asInt(),
                j.get("detected").asInt()
                        + j.get("false_alarms").asInt()
                        + j.get("duplicates").asInt(),
                lines[0]);
        for (String field : List.of("f1", "precision", "recall", "false_alarms_per_hour", "hours")) {
            assertTrue(j.get(field).isNumber(), field + " in " + lines[0]);
        }
        assertTrue(j.get("delay").has("median_samples"), lines[0]);
        assertTrue(j.get("matches_evaluate").asBoolean(), lines[0]);
        assertEquals(0, j.get("dead_letters").asInt(), lines[0]);
    }

    @Test
    void watchDemoRefusesTheSeriesDemosOptions() {
        for (String[] bad : new String[][] {{"--series", "10"}, {"--train-size", "20"}, {"--concurrency", "4"}}) {
            Outcome o = demo("--kind", "watch", bad[0], bad[1]);
            assertEquals(2, o.code(), () -> String.join(" ", bad) + ": " + o.err());
            assertTrue(
                    o.err().toString().contains(bad[0] + " is for the series demo"),
                    o.err().toString());
        }
    }

    /**
     * A decision line says the target its rule is certified at with the guarantee (never the per-decision margin)
     * or "not certified".
     */
    @Test
    void decisionLinesSayWhatTheLabelIsCertifiedAt() {
        DecisionRecord certified = DecisionRecord.decided("s", "1", 12, 128, 0.9, 0.93, "m", 1L, 1L)
                .certificate(true, "pac", 0.9, 0.1);
        assertEquals("certified at 0.90, pac δ=0.1", DemoCommand.certificate(certified));
        assertEquals(0.93, certified.marginTau, "the margin stays a descriptive field");
        DecisionRecord expected = DecisionRecord.decided("s", "1", 12, 128, 0.8, 0.97, "m", 1L, 1L)
                .certificate(true, "expected", 0.8, 0.1);
        assertEquals("certified at 0.80, expected", DemoCommand.certificate(expected));
        assertTrue(Double.isNaN(expected.delta), "δ only for pac");
        DecisionRecord uncertified = DecisionRecord.decided("s", "1", 128, 128, 0.9, 1.0, "m", 1L, 1L)
                .certificate(false, "none", 0.9);
        assertEquals("not certified", DemoCommand.certificate(uncertified));
        DecisionRecord undecided = DecisionRecord.undecided("s", "1", 12, 128, 0.9, 0.0, "m", 1L, 1L)
                .certificate(true, "pac", 0.9);
        assertEquals("not certified", DemoCommand.certificate(undecided), "passes no certified τ yet");
    }

    @Test
    void trainingOptionsAreCheckedBeforeAnythingStarts() {
        for (String[] bad :
                new String[][] {{"--selection", "some"}, {"--cv", "1"}, {"--rate", "-1"}, {"--estimator", "mixture"}}) {
            CommandLine cl = VigilCli.commandLine();
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(new StringWriter()));
            cl.setErr(new PrintWriter(err));
            assertEquals(2, cl.execute("demo", bad[0], bad[1]), () -> String.join(" ", bad) + ": " + err);
        }
    }

    @Test
    void checkpointsEverySecondUnlessToldOtherwiseWhileRunKeepsItsDefault() {
        DemoCommand demo = new DemoCommand();
        new CommandLine(demo).parseArgs();
        assertEquals(DemoCommand.DEFAULT_CHECKPOINT_INTERVAL, demo.stream.checkpointInterval);
        DemoCommand told = new DemoCommand();
        new CommandLine(told).parseArgs("--checkpoint-interval", "3s");
        assertEquals("3s", told.stream.checkpointInterval);
        CommandLine cli = VigilCli.commandLine();
        cli.parseArgs("run", "--model", "m.json", "--bootstrap", "b:1", "--input", "i", "--output", "o");
        RunCommand run = cli.getSubcommands().get("run").getCommand();
        assertEquals("2s", run.stream.checkpointInterval);
    }

    private static List<String> iterate(JsonNode j) {
        List<String> names = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** What {@code vigil demo ARGS} returned and printed. */
    private record Outcome(int code, StringWriter out, StringWriter err) {}

    private static Outcome demo(String... args) {
        CommandLine cl = VigilCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String[] all = new String[args.length + 1];
        all[0] = "demo";
        System.arraycopy(args, 0, all, 1, args.length);
        return new Outcome(cl.execute(all), out, err);
    }
}
