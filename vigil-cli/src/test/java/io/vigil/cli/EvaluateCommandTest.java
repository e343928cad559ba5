package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.data.Dataset;
import io.vigil.data.DatasetReader;
import io.vigil.data.ReadOptions;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.report.EarlyReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil evaluate} in-process on generated CBF: the JSON contract, the report files and bad options. */
class EvaluateCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path data;
    static Path model;

    static Run run(String... args) {
        return Run.of(args);
    }

    @BeforeAll
    static void trainOnce() {
        TrainedCbf t = TrainedCbf.of(30, 40, 5L, withJson(TrainedCbf.FIXED));
        data = t.data();
        model = t.model();
        assertTrue(t.train().out().contains("complete_series"), t.train().out());
    }

    @Test
    void jsonHasTheContractFieldsAndMatchesTheLibrary() throws IOException {
        Run r = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--tau",
                "0.001,0.1,0.25,0.9",
                "--rule",
                "set",
                "--classifier",
                "local-qda",
                "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().strip().lines().count(), "exactly one JSON line on stdout");
        JsonNode o = JSON.readTree(r.out());
        Iterator<String> names = o.fieldNames();
        for (String f : List.of("dataset", "test_size", "length", "full_accuracy", "taus")) {
            assertEquals(f, names.next(), "field order");
        }
        assertEquals("CBF", o.get("dataset").asText());
        assertEquals(40, o.get("test_size").asInt());
        assertEquals(128, o.get("length").asInt());
        assertEquals(4, o.get("taus").size());
        double[] expected = {0.001, 0.1, 0.25, 0.9};
        VigilModel m = ModelFile.standard().load(model);
        Dataset test =
                DatasetReader.read(data.resolve("CBF/CBF_TEST.tsv"), ReadOptions.DEFAULT.withClasses(m.classNames()));
        for (int i = 0; i < 4; i++) {
            JsonNode t = o.get("taus").get(i);
            Iterator<String> tf = t.fieldNames();
            for (String f : List.of(
                    "tau",
                    "reliability",
                    "accuracy",
                    "mean_t",
                    "mean_fraction",
                    "decided_early",
                    "us_per_sample",
                    "harmonic_mean",
                    "announced",
                    "certified",
                    "threshold")) {
                assertEquals(f, tf.next());
            }
            assertEquals(expected[i], t.get("tau").asDouble());
            List<SeriesDecision> ds = EarlyReplay.replay(
                    EarlyClassifier.of(m, DecisionParams.defaults().withTau(expected[i])), test);
            double meanT = ds.stream().mapToInt(SeriesDecision::t).average().orElseThrow();
            assertEquals(meanT, t.get("mean_t").asDouble(), 1e-12);
            long rel = ds.stream().filter(SeriesDecision::reliable).count();
            assertEquals(rel / 40.0, t.get("reliability").asDouble(), 1e-12);
        }
        assertEquals(20, o.get("baselines").size(), "two baselines at ten prefix lengths");
        assertEquals("set", o.get("rule").asText());
    }

    /**
     * Without --tau, evaluate runs the operating point train stored (τ, rule, classifier), one entry, with the
     * contract's fields; the same as the library at those parameters, τ mapped to its certified threshold or, when the
     * training set cannot certify it, to none (decided at t = d).
     */
    @Test
    void withoutTauTheStoredOperatingPointIsEvaluated() throws IOException {
        Run r = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--no-baselines",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        VigilModel m = ModelFile.standard().load(model);
        CalibrationSection.OperatingPoint p = m.section(CalibrationSection.class)
                .flatMap(CalibrationSection::operatingPoint)
                .orElseThrow(() -> new AssertionError("train stores an operating point"));
        assertEquals(1, o.get("taus").size());
        JsonNode t = o.get("taus").get(0);
        assertEquals(p.tau(), t.get("tau").asDouble(), 0.0);
        assertEquals(p.tau(), t.get("announced").asDouble(), 0.0);
        assertEquals(p.rule().cliName(), o.get("rule").asText());
        assertEquals(p.tau(), o.get("operating_point").get("tau").asDouble(), 0.0);
        assertEquals(p.objective(), o.get("operating_point").get("objective").asText());
        assertEquals(p.rule().cliName(), o.get("operating_point").get("rule").asText());
        double acc = t.get("accuracy").asDouble();
        double e = 1 - t.get("mean_fraction").asDouble();
        assertEquals(2 * acc * e / (acc + e), t.get("harmonic_mean").asDouble(), 1e-12);
        Dataset test =
                DatasetReader.read(data.resolve("CBF/CBF_TEST.tsv"), ReadOptions.DEFAULT.withClasses(m.classNames()));
        DecisionParams params = new DecisionParams(p.tau(), p.set(), p.estimator(), p.classifier(), null, p.rule());
        EarlyClassifier c = EarlyClassifier.of(m, params);
        if (c.thresholds().neverEarly()) {
            // An uncertified target waits for t = d: no threshold is in force.
            assertTrue(t.get("threshold").isNull(), t.toString());
        } else {
            assertEquals(c.thresholds().threshold(), t.get("threshold").asDouble(), 0.0);
        }
        assertEquals(c.thresholds().certified(), t.get("certified").asBoolean());
        assertEquals(
                c.thresholds().certified() ? "pac" : "none", t.get("guarantee").asText());
        assertEquals(p.tau(), t.get("target").asDouble(), 0.0);
        if (c.thresholds().certified()) {
            assertEquals(c.thresholds().delta(), t.get("delta").asDouble(), 0.0, "δ of the pac certificate");
        } else {
            assertTrue(t.get("delta").isNull(), "no δ without a certificate: " + t);
        }
        JsonNode cost = t.get("avg_cost");
        assertEquals(List.of("0.001", "0.01", "0.1", "0.5"), iterate(cost.fieldNames()));
        for (double alpha : new double[] {0.001, 0.01, 0.1, 0.5}) {
            // ml_edm's average cost: (1 − accuracy) + α·earliness, earliness the mean t/d.
            assertEquals(
                    1 - acc + alpha * t.get("mean_fraction").asDouble(),
                    cost.get(String.valueOf(alpha)).asDouble(),
                    1e-12);
        }
        List<SeriesDecision> ds = EarlyReplay.replay(c, test);
        assertEquals(
                ds.stream().mapToInt(SeriesDecision::t).average().orElseThrow(),
                t.get("mean_t").asDouble(),
                1e-12);
    }

    private static List<String> iterate(Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    @Test
    void reportWritesMarkdownCsvAndPlots() throws IOException {
        Path report = dir.resolve("report");
        Run r = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--tau",
                "0.5,0.9",
                "--set",
                "nb-box",
                "--estimator",
                "gmm",
                "--classifier",
                "linear-svm",
                "--report",
                report.toString());
        assertEquals(0, r.exit(), r.err());
        String md = Files.readString(report.resolve(EarlyReport.MARKDOWN));
        assertTrue(md.contains("nb-box") && md.contains("gmm") && md.contains("linear-svm"), md);
        List<String> csv = Files.readAllLines(report.resolve(EarlyReport.CSV));
        assertEquals("series,tau,t,early_label,complete_label,true_label", csv.get(0));
        assertEquals(1 + 2 * 40, csv.size());
        // The id vigil replay gives the same test row (DATASET/test/INDEX), so the file joins with a stream's records.
        assertTrue(csv.get(1).matches("[^/,]+/test/0,.*") && csv.get(40).matches("[^/,]+/test/39,.*"), csv.toString());
        for (String png : List.of(EarlyReport.RELIABILITY_PNG, EarlyReport.ACCURACY_PNG)) {
            byte[] b = Files.readAllBytes(report.resolve(png));
            assertTrue(b.length > 1000 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G', png);
        }
    }

    @Test
    void anObservationPatternIsReportedAndAnotherThanTheCalibratedOneIsWarnedAbout() throws Exception {
        Run r = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--missing",
                "0.2",
                "--pattern-seed",
                "3",
                "--no-baselines",
                "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(
                r.err().contains("was calibrated for observation pattern 'complete'")
                        && r.err().contains("missing=0.2"),
                r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(0.2, o.get("pattern").get("missing").asDouble());
        assertEquals(3, o.get("pattern").get("seed").asLong());
        assertEquals(0.0, o.get("calibrated_pattern").get("missing").asDouble());
        assertEquals(40, o.get("test_size").asInt());
        Run gmm = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--estimator",
                "gmm",
                "--missing",
                "0.2",
                "--no-baselines",
                "--json");
        assertEquals(0, gmm.exit(), "the mixture's any-order form evaluates missing values: " + gmm.err());
        assertTrue(
                gmm.err().contains("was calibrated for --estimator joint, not gmm")
                        && gmm.err().contains("not certified"),
                "a model calibrated for the joint Gaussian is not certified for the mixture: " + gmm.err());
        JsonNode g = JSON.readTree(gmm.out());
        assertEquals(0.2, g.get("pattern").get("missing").asDouble());
        assertEquals(40, g.get("test_size").asInt());
        Run complete = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--no-baselines");
        assertEquals(0, complete.exit(), complete.err());
        assertFalse(complete.err().contains("warning"), complete.err());
        Run bad = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--drop-channel",
                "2");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("--drop-channel: channel 2"), bad.err());
        Run badP = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--missing",
                "1.5");
        assertEquals(2, badP.exit());
        assertTrue(badP.err().contains("--missing"), badP.err());
    }

    @Test
    void badOptionsAreUsageErrors() {
        Run tau = run(
                "evaluate", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF", "--tau", "1.5");
        assertEquals(2, tau.exit());
        assertTrue(tau.err().contains("--tau"), tau.err());
        Run set = run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--set",
                "circle");
        assertEquals(2, set.exit());
        assertTrue(set.err().contains("unknown set"), set.err());
        Run missing = run(
                "evaluate",
                "--model",
                dir.resolve("nope.json").toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF");
        assertEquals(1, missing.exit());
        assertFalse(missing.err().isBlank());
    }

    private static List<String> withJson(List<String> flags) {
        List<String> all = new java.util.ArrayList<>(flags);
        all.add("--json");
        return all;
    }
}
