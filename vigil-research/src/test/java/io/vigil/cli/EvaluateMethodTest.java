package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.report.EarlyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil evaluate --method}: the baselines' JSON and report on generated CBF, and bad option combinations. */
class EvaluateMethodTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path data;
    static Path model;

    static Run run(String... args) {
        return Run.of(args);
    }

    static Run evaluate(String... extra) {
        List<String> args = new java.util.ArrayList<>(
                List.of("evaluate", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF"));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    @BeforeAll
    static void trainOnce() {
        TrainedCbf t = TrainedCbf.of(30, 40, 7L, noCalibration(TrainedCbf.FIXED));
        data = t.data();
        model = t.model();
    }

    @Test
    void everyBaselineReportsTheSameFieldsPlusItsMethod() throws IOException {
        for (String method : List.of("ects", "fixed-qda", "fixed-1nn", "teaser")) {
            Run r = evaluate("--method", method, "--no-baselines", "--json");
            assertEquals(0, r.exit(), method + ": " + r.err());
            assertEquals(1, r.out().strip().lines().count(), "exactly one JSON line on stdout");
            JsonNode o = JSON.readTree(r.out());
            Iterator<String> names = o.fieldNames();
            for (String f : List.of("dataset", "test_size", "length", "full_accuracy", "taus", "method")) {
                assertEquals(f, names.next(), method + ": field order");
            }
            assertEquals(method, o.get("method").asText());
            assertEquals(40, o.get("test_size").asInt());
            assertEquals(1, o.get("taus").size());
            JsonNode t = o.get("taus").get(0);
            assertTrue(t.get("tau").isNull() && t.get("certified").isNull(), method + ": a baseline has no τ");
            double acc = t.get("accuracy").asDouble();
            double earliness = t.get("earliness").asDouble();
            assertEquals(t.get("mean_t").asDouble() / 128, earliness, 1e-12);
            assertEquals(earliness, t.get("mean_fraction").asDouble(), 0.0);
            double e = 1 - earliness;
            assertEquals(2 * acc * e / (acc + e), t.get("harmonic_mean").asDouble(), 1e-12);
            double rel = t.get("reliability").asDouble();
            assertTrue(rel >= 0 && rel <= 1 && acc >= 0 && acc <= 1, method);
            assertTrue(earliness > 0 && earliness <= 1, method);
            assertFalse(o.get("description").asText().isBlank());
            assertTrue(o.get("method_params").isObject());
            assertEquals(0, o.get("baselines").size(), "--no-baselines");
        }
    }

    @Test
    void aGivenFixedFractionDecidesEverySeriesAtThatPrefix() throws IOException {
        Run r = evaluate("--method", "fixed-1nn", "--fixed-fraction", "0.3", "--no-baselines", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        JsonNode t = o.get("taus").get(0);
        assertEquals(39.0, t.get("mean_t").asDouble(), 0.0, "ceil(0.3 * 128) for every series");
        assertEquals(40, t.get("decided_early").asInt());
        assertEquals(0.3, o.get("method_params").get("fraction").asDouble(), 0.0);
        assertEquals("user", o.get("method_params").get("fraction_chosen_by").asText());
    }

    @Test
    void teaserWithAGivenVReportsIt() throws IOException {
        Run r = evaluate("--method", "teaser", "--teaser-v", "3", "--teaser-prefixes", "10", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(3, o.get("method_params").get("v").asInt());
        assertEquals(10, o.get("method_params").get("prefixes").asInt());
        assertEquals("rbf", o.get("method_params").get("master").asText());
        assertTrue(o.get("method_params").get("gamma").isNumber());
        Run linear = evaluate("--method", "teaser", "--teaser-master", "linear", "--no-baselines", "--json");
        assertEquals(0, linear.exit(), linear.err());
        JsonNode l = JSON.readTree(linear.out());
        assertEquals("linear", l.get("method_params").get("master").asText());
        assertTrue(l.get("method_params").get("gamma").isNull());
        assertEquals(20, o.get("baselines").size(), "the fixed-time curves ride along");
    }

    @Test
    void theDefaultMethodIsVigil() throws IOException {
        Run r = evaluate("--tau", "0.9", "--no-baselines", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals("vigil", o.get("method").asText());
        assertEquals(0.9, o.get("taus").get(0).get("tau").asDouble(), 0.0);
        assertTrue(o.has("rule") && o.has("set"));
    }

    @Test
    void aBaselineReportHasItsMethodAndTheComparisonPlots() throws IOException {
        Path report = dir.resolve("ects-report");
        Run r = evaluate("--method", "ects", "--ects-support", "0.2", "--report", report.toString());
        assertEquals(0, r.exit(), r.err());
        String md = Files.readString(report.resolve(EarlyReport.MARKDOWN));
        assertTrue(md.contains("— ects") && md.contains("minimum support 0.2"), md);
        assertTrue(md.contains("Fixed-time baselines"), md);
        List<String> csv = Files.readAllLines(report.resolve(EarlyReport.CSV));
        assertEquals(1 + 40, csv.size());
        assertTrue(csv.get(1).matches("[A-Za-z]+/test/0,,\\d+,.*"), csv.get(1));
        for (String png : List.of(EarlyReport.RELIABILITY_PNG, EarlyReport.ACCURACY_PNG)) {
            byte[] b = Files.readAllBytes(report.resolve(png));
            assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', png);
        }
        assertFalse(Files.exists(report.resolve(EarlyReport.DIAGRAM_PNG)), "no τ, no reliability diagram");
    }

    @Test
    void badMethodsAndMisplacedOptionsAreUsageErrors() {
        Run unknown = evaluate("--method", "weasel");
        assertEquals(2, unknown.exit());
        assertTrue(
                unknown.err().contains("weasel") && unknown.err().contains("vigil, ects, fixed-qda, fixed-1nn, teaser"),
                unknown.err());
        Run support = evaluate("--method", "teaser", "--ects-support", "0.1");
        assertEquals(2, support.exit());
        assertTrue(support.err().contains("--ects-support only applies to --method ects"), support.err());
        Run fraction = evaluate("--ects-support", "0.1");
        assertEquals(2, fraction.exit());
        assertTrue(fraction.err().contains("not --method vigil"), fraction.err());
        Run teaserV = evaluate("--method", "fixed-qda", "--teaser-v", "2");
        assertEquals(2, teaserV.exit());
        assertTrue(teaserV.err().contains("--teaser-v only applies to --method teaser"), teaserV.err());
        Run master = evaluate("--method", "ects", "--teaser-master", "linear");
        assertEquals(2, master.exit());
        assertTrue(master.err().contains("--teaser-master only applies to --method teaser"), master.err());
        Run badMaster = evaluate("--method", "teaser", "--teaser-master", "poly");
        assertEquals(2, badMaster.exit());
        assertTrue(badMaster.err().contains("expected rbf or linear"), badMaster.err());
        Run tau = evaluate("--method", "ects", "--tau", "0.9");
        assertEquals(2, tau.exit());
        assertTrue(tau.err().contains("--tau only applies to --method vigil"), tau.err());
        Run rule = evaluate("--method", "fixed-1nn", "--rule", "set");
        assertEquals(2, rule.exit());
        assertTrue(rule.err().contains("--rule only applies to --method vigil"), rule.err());
        Run range = evaluate("--method", "fixed-1nn", "--fixed-fraction", "0");
        assertEquals(2, range.exit());
        assertTrue(range.err().contains("--fixed-fraction must lie in (0, 1]"), range.err());
        Run v = evaluate("--method", "teaser", "--teaser-v", "6");
        assertEquals(2, v.exit());
        assertTrue(v.err().contains("--teaser-v must lie in 1..5"), v.err());
        Run noTrain = run(
                "evaluate",
                "--model",
                model.toString(),
                "--test",
                data.resolve("CBF/CBF_TEST.tsv").toString(),
                "--method",
                "ects");
        assertEquals(2, noTrain.exit());
        assertTrue(noTrain.err().contains("training split"), noTrain.err());
    }

    private static List<String> noCalibration(List<String> flags) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add("--no-calibration");
        return all;
    }
}
