package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** In-process tests of train, classify, inspect and experiment on small generated CBF data. */
class ModelCommandsTest {
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
        TrainedCbf t = TrainedCbf.of(24, 30, 3L, java.util.List.of("--seed", "4", "--json"));
        data = t.data();
        model = t.model();
        trainJson = t.train().out();
    }

    static String trainJson;

    /**
     * The default objective targets reliability 0.9, which 15 series cannot certify under the default pac guarantee
     * (with no disagreement at all Learn-then-Test at δ = 0.1 needs 22): train says so in one line with what would
     * certify it — the number of series computed for the default correction, one candidate (the default rule) — and
     * the stored operating point is uncertified, so the model decides at t = d.
     */
    @Test
    void trainSaysInOneLineThatTheDefaultTargetIsNotCertifiableAndWhatWould() throws IOException {
        Path small = dir.resolve("small");
        Run gen = run(
                "generate", "--kind", "cbf", "--train", "15", "--test", "6", "--seed", "3", "--out", small.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path out = dir.resolve("small.json");
        Run train = run(
                "train",
                "--data",
                small.toString(),
                "--dataset",
                "CBF",
                "--out",
                out.toString(),
                "--seed",
                "4",
                "--json");
        assertEquals(0, train.exit(), train.err());
        List<String> lines =
                train.err().lines().filter(l -> l.contains("cannot")).toList();
        assertEquals(1, lines.size(), train.err());
        String line = lines.get(0);
        assertTrue(line.contains("tau = 0.9 cannot be certified on 15 training series"), line);
        assertTrue(line.contains("(pac, delta = 0.1, selection fixed of 1 candidates)"), line);
        assertTrue(line.contains("t = d"), line);
        java.util.regex.Matcher needed = java.util.regex.Pattern.compile(
                        "on new data it would be certified with (\\d+) training series at today's cross-fitted "
                                + "disagreement rate")
                .matcher(line);
        assertTrue(needed.find(), line);
        assertTrue(
                line.contains("choosing a lower target or the other guarantee after this result is not covered"),
                "no unaccounted second look: " + line);
        assertFalse(line.contains("--guarantee expected") || line.contains("--target-reliability"), line);
        io.vigil.model.CalibrationSection c = io.vigil.model.json.ModelFile.standard()
                .load(out)
                .section(io.vigil.model.CalibrationSection.class)
                .orElseThrow();
        assertEquals(1, c.curves().size(), "the default rule alone is replayed and certified");
        io.vigil.model.CalibrationSection.Curve curve = c.curves().get(0);
        int[] disagreements = curve.disagreements();
        double rate = (double) disagreements[disagreements.length - 1] / curve.series();
        int atK1 = io.vigil.reliability.risk.LearnThenTest.seriesNeeded(
                        rate, 1 - 0.9, 0.1, curve.series() + 1, 1_000_000)
                .getAsInt();
        assertEquals(atK1 + 15 - curve.series(), Integer.parseInt(needed.group(1)), line);
        assertTrue(atK1 >= 22, "at least 22 series even with no disagreement: " + atK1);
        assertTrue(Integer.parseInt(needed.group(1)) > 15, "more series than it has: " + line);
        JsonNode point = JSON.readTree(train.out()).get("calibration").get("operating_point");
        assertEquals("earliest-at-reliability", point.get("objective").textValue());
        assertEquals(0.9, point.get("tau").doubleValue());
        assertEquals(0.9, point.get("target_reliability").doubleValue());
        assertFalse(point.get("certified").booleanValue(), point.toString());
    }

    @Test
    void trainPrintsExactlyOneJsonObjectWithTheContractFields() throws IOException {
        assertEquals(1, trainJson.lines().count(), trainJson);
        JsonNode o = JSON.readTree(trainJson);
        assertStartsWith(
                o,
                List.of(
                        "dataset",
                        "classes",
                        "train_size",
                        "length",
                        "gamma",
                        "neighbors",
                        "dims",
                        "cv_accuracy",
                        "fit_seconds"));
        assertEquals("CBF", o.get("dataset").textValue());
        assertEquals(3, o.get("classes").size());
        assertEquals(24, o.get("train_size").intValue());
        assertEquals(128, o.get("length").intValue());
        assertTrue(o.get("cv_accuracy").doubleValue() > 0.5, trainJson);
        assertTrue(Files.isRegularFile(model));
    }

    @Test
    void classifyReportsThreeAccuracies() throws IOException {
        Run r = run("classify", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF", "--json");
        assertEquals(0, r.exit(), r.err());
        assertEquals(1, r.out().lines().count(), r.out());
        JsonNode o = JSON.readTree(r.out());
        assertStartsWith(o, List.of("dataset", "test_size", "accuracy_3nn", "accuracy_1nn", "accuracy_local_qda"));
        assertEquals(30, o.get("test_size").intValue());
        for (String f : List.of("accuracy_3nn", "accuracy_1nn", "accuracy_local_qda")) {
            double a = o.get(f).doubleValue();
            assertTrue(a >= 0 && a <= 1, f + " = " + a);
        }
        assertTrue(o.get("accuracy_3nn").doubleValue() > 0.6, r.out());

        Run text = run("classify", "--model", model.toString(), "--data", data.toString(), "--dataset", "CBF");
        assertEquals(0, text.exit(), text.err());
        assertTrue(text.out().contains("accuracy 3-NN"), text.out());
    }

    /**
     * The expected guarantee, like pac (the model above, {@link #inspectSummarisesTheModel}), defaults to the default
     * rule alone ({@code fixed}), and an explicit {@code --selection-correction} overrides it.
     */
    @Test
    void expectedGuaranteeDefaultsToTheFixedRule() throws IOException {
        for (String[] c : List.of(new String[] {"fixed"}, new String[] {"bonferroni", "--selection-correction"})) {
            Path out = dir.resolve("expected-" + c[0] + ".json");
            List<String> args = new ArrayList<>(List.of(
                    "train",
                    "--data",
                    data.toString(),
                    "--dataset",
                    "CBF",
                    "--out",
                    out.toString(),
                    "--seed",
                    "4",
                    "--guarantee",
                    "expected"));
            if (c.length > 1) {
                args.addAll(List.of(c[1], c[0]));
            }
            Run train = run(args.toArray(String[]::new));
            assertEquals(0, train.exit(), train.err());
            Run r = run("inspect", out.toString(), "--json");
            assertEquals(0, r.exit(), r.err());
            JsonNode cal = JSON.readTree(r.out()).get("calibration");
            assertEquals("expected", cal.get("guarantee").textValue());
            assertEquals(c[0], cal.get("selection").textValue(), cal.toString());
        }
    }

    /**
     * {@code --guarantee expected} certifies in conformal risk control's randomised form: by default U is derived from
     * the seed and the data, stored with its source ({@code drawn}) and named by train in one line with what the
     * expected bound averages over; {@code --crc-draw U} repeats it (the same calibration, source {@code given}, with
     * the warning that a chosen U is not a draw), {@code conservative} is U = 1; the flag is refused under pac and
     * outside (0, 1].
     */
    @Test
    void expectedGuaranteeStoresItsConformalDraw() throws IOException {
        Run fresh = trainCbf(dir.resolve("crc-fresh.json"), "--seed", "4", "--guarantee", "expected");
        assertEquals(0, fresh.exit(), fresh.err());
        double u = crcDraw(dir.resolve("crc-fresh.json"));
        assertTrue(u > 0 && u <= 1, "U " + u);
        assertTrue(fresh.err().contains("conformal draw U = " + u + " (drawn"), fresh.err());
        assertTrue(
                fresh.err().contains("averaged over training runs")
                        && fresh.err().contains("not this model's"),
                fresh.err());
        Run inspect = run("inspect", dir.resolve("crc-fresh.json").toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("(drawn") && inspect.out().contains("not this model's"), inspect.out());
        Run again = trainCbf(
                dir.resolve("crc-again.json"),
                "--seed",
                "4",
                "--guarantee",
                "expected",
                "--crc-draw",
                String.valueOf(u));
        assertEquals(0, again.exit(), again.err());
        assertTrue(
                again.err().contains("(given by --crc-draw") && again.err().contains("does not cover it"), again.err());
        ObjectNode a = (ObjectNode) JSON.readTree(Files.readString(dir.resolve("crc-fresh.json")))
                .get("sections")
                .get("calibration");
        ObjectNode b = (ObjectNode) JSON.readTree(Files.readString(dir.resolve("crc-again.json")))
                .get("sections")
                .get("calibration");
        assertEquals(
                "drawn",
                a.path("payload")
                        .path("crc_draw_source")
                        .asText(a.path("crc_draw_source").asText()));
        assertEquals(
                "given",
                b.path("payload")
                        .path("crc_draw_source")
                        .asText(b.path("crc_draw_source").asText()));
        stripSource(a);
        stripSource(b);
        assertEquals(a, b, "--crc-draw U reproduces the calibration");
        Run conservative = trainCbf(
                dir.resolve("crc-1.json"), "--seed", "4", "--guarantee", "expected", "--crc-draw", "conservative");
        assertEquals(0, conservative.exit(), conservative.err());
        assertEquals(1.0, crcDraw(dir.resolve("crc-1.json")));
        assertTrue(conservative.err().contains("(not randomised)"), conservative.err());
        Run pac = trainCbf(dir.resolve("crc-pac.json"), "--crc-draw", "0.5");
        assertEquals(2, pac.exit(), pac.err());
        assertTrue(pac.err().contains("--crc-draw only applies to --guarantee expected"), pac.err());
        Run zero = trainCbf(dir.resolve("crc-0.json"), "--seed", "4", "--guarantee", "expected", "--crc-draw", "0");
        assertEquals(2, zero.exit(), zero.err());
        assertTrue(zero.err().contains("--crc-draw must be random, conservative or a number in (0, 1]"), zero.err());
    }

    /**
     * Same data, options and seed give the same model file under both guarantees: byte for byte apart from the
     * creation time, which {@code SOURCE_DATE_EPOCH} fixes ({@code ProvenanceTest}); under expected the draw U is
     * derived from the seed and the data, so it repeats, and another seed gives another U.
     */
    @Test
    void trainingTwiceGivesTheSameFileUnderBothGuarantees() throws IOException {
        for (String g : new String[] {"pac", "expected"}) {
            Path one = dir.resolve("repro-" + g + "-1.json");
            Path two = dir.resolve("repro-" + g + "-2.json");
            assertEquals(0, trainCbf(one, "--seed", "4", "--guarantee", g).exit());
            assertEquals(0, trainCbf(two, "--seed", "4", "--guarantee", g).exit());
            String created = "\"created\"\\s*:\\s*\"[^\"]*\"";
            assertEquals(
                    Files.readString(one).replaceAll(created, ""),
                    Files.readString(two).replaceAll(created, ""),
                    g + ": two trainings give the same file");
        }
        Path other = dir.resolve("repro-expected-seed5.json");
        assertEquals(
                0, trainCbf(other, "--seed", "5", "--guarantee", "expected").exit());
        assertFalse(crcDraw(other) == crcDraw(dir.resolve("repro-expected-1.json")), "another seed draws another U");
    }

    /**
     * Under expected, 24 series at τ = 0.97 have ⌊α(n + 1)⌋ = ⌊0.75⌋ = 0: a draw U ≤ 0.75 would certify with no
     * disagreement, so the draw alone would decide; nothing is certified and train names the 33 series that allow a
     * certificate (0.03 · 34 = 1.02).
     */
    @Test
    void expectedCertifiesNothingWhereTheDrawAloneWouldDecide() throws IOException {
        Path out = dir.resolve("draw-decides.json");
        Run r = trainCbf(out, "--seed", "4", "--guarantee", "expected", "--target-reliability", "0.97", "--json");
        assertEquals(0, r.exit(), r.err());
        assertTrue(
                r.err().contains("floor(alpha (n + 1)) = 0 and the draw U alone would decide; 33 series allow"),
                r.err());
        JsonNode point = JSON.readTree(r.out()).get("calibration").get("operating_point");
        assertFalse(point.get("certified").booleanValue(), point.toString());
    }

    private static void stripSource(ObjectNode section) {
        if (section.get("payload") instanceof ObjectNode p) {
            p.remove("crc_draw_source");
        }
        section.remove("crc_draw_source");
    }

    /** {@code train} on the generated CBF set, written to {@code out}, with {@code extra} flags. */
    private Run trainCbf(Path out, String... extra) {
        List<String> args = new ArrayList<>(
                List.of("train", "--data", data.toString(), "--dataset", "CBF", "--out", out.toString()));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    /** The draw U inspect reports for a model (the calibration section's {@code crc_draw}). */
    private static double crcDraw(Path model) throws IOException {
        Run r = run("inspect", model.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        return JSON.readTree(r.out()).get("calibration").get("crc_draw").asDouble();
    }

    /**
     * Calibrated for values missing at random under {@code --guarantee expected}, train says in one line that conformal
     * risk control needs every series to agree at the most conservative threshold and gives the replays' count there
     * (series ending undecided are labelled at E[x | observed]); here some disagree, so expected certifies nothing
     * and the report says why; under {@code pac} it says nothing of the kind.
     */
    @Test
    void expectedUnderAnIncompletePatternIsWarnedAbout() throws IOException {
        Run expected = trainCbf(
                dir.resolve("expected-missing.json"),
                "--seed",
                "4",
                "--estimator",
                "gmm",
                "--guarantee",
                "expected",
                "--missing",
                "0.5");
        assertEquals(0, expected.exit(), expected.err());
        assertTrue(
                expected.err().contains("--guarantee expected needs every series to agree")
                        && expected.err().contains("missing=0.5")
                        && expected.err().contains("replayed series"),
                expected.err());
        assertTrue(expected.err().contains("so the premise fails and expected certifies no tau"), expected.err());
        assertTrue(
                expected.err().contains("cannot be certified")
                        && expected.err().contains("conformal risk control's premise fails"),
                expected.err());
        Run pac = trainCbf(dir.resolve("pac-missing.json"), "--seed", "4", "--missing", "0.5");
        assertEquals(0, pac.exit(), pac.err());
        assertFalse(pac.err().contains("needs every series to agree"), pac.err());
    }

    /**
     * {@code --estimator gmm} calibrates the per-class mixture (thesis 5.20): the stored curves and operating point
     * name it; an estimator the model would not store is a usage error naming {@code --estimators}.
     */
    @Test
    void trainCalibratesTheMixtureWhenAsked() throws IOException {
        Path out = dir.resolve("gmm.json");
        Run train = trainCbf(out, "--seed", "4", "--estimator", "gmm");
        assertEquals(0, train.exit(), train.err());
        assertTrue(train.out().contains("estimator gmm"), train.out());
        Run inspect = run("inspect", out.toString());
        assertTrue(inspect.out().contains("gmm complete-series model"), inspect.out());
        JsonNode cal = JSON.readTree(Files.readAllBytes(out)).at("/sections/calibration/payload");
        assertEquals("gmm", cal.at("/operating_point/estimator").textValue(), cal.toString());
        for (JsonNode c : cal.get("curves")) {
            assertEquals("gmm", c.get("estimator").textValue());
        }
        Run refused = trainCbf(dir.resolve("refused.json"), "--estimator", "gmm", "--estimators", "joint");
        assertEquals(2, refused.exit(), refused.err());
        assertTrue(refused.err().contains("add it to --estimators"), refused.err());
        assertFalse(Files.exists(dir.resolve("refused.json")));
    }

    @Test
    void inspectSummarisesTheModel() throws IOException {
        Run r = run("inspect", model.toString(), "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(1, o.get("format_version").intValue());
        assertEquals("CBF", o.get("dataset").textValue());
        assertEquals(24, o.get("train_size").intValue());
        assertTrue(o.get("fingerprint").textValue().startsWith("sha256:"));
        assertTrue(o.get("scores").get("gamma").get("accuracy").size() > 1);
        assertTrue(o.get("part_bytes").get("ldg").longValue() > 0);
        assertEquals(Files.size(model), o.get("file_bytes").longValue());
        JsonNode cal = o.get("calibration");
        assertEquals("pac", cal.get("guarantee").textValue());
        assertEquals("fixed", cal.get("selection").textValue());
        // 24 series cannot certify τ = 0.99 at all (null), which is not "needs no disagreement" (1.0).
        assertTrue(cal.get("required_reliability").get("0.99").isNull(), cal.toString());

        Run text = run("inspect", model.toString());
        assertEquals(0, text.exit(), text.err());
        for (String s : List.of(
                "format", "vigil-model v1", "classes", "gamma", "fingerprint", "sha256:", "ldg", "certificates")) {
            assertTrue(text.out().contains(s), "missing '" + s + "' in\n" + text.out());
        }
    }

    @Test
    void classifyRejectsATestSetOfAnotherLengthOrWithUnknownLabels() throws IOException {
        Path shorter = dir.resolve("short_TEST.tsv");
        List<String> cut = new ArrayList<>();
        for (String line : Files.readAllLines(data.resolve("CBF/CBF_TEST.tsv"))) {
            cut.add(line.substring(0, line.lastIndexOf('\t')));
        }
        Files.write(shorter, cut);
        Run len = run("classify", "--model", model.toString(), "--test", shorter.toString());
        assertEquals(1, len.exit(), len.out() + len.err());
        assertTrue(
                len.err().contains("short_TEST.tsv")
                        && len.err().contains("length 127")
                        && len.err().contains("expects 128")
                        && len.err().contains("--length-policy"),
                len.err());

        Path bad = dir.resolve("bad_TEST.tsv");
        List<String> lines = new ArrayList<>(Files.readAllLines(data.resolve("CBF/CBF_TEST.tsv")));
        lines.set(0, "9" + lines.get(0).substring(lines.get(0).indexOf('\t')));
        Files.write(bad, lines);
        Run label = run("classify", "--model", model.toString(), "--test", bad.toString());
        assertEquals(1, label.exit(), label.err());
        assertTrue(label.err().contains("'9'"), label.err());
    }

    @Test
    void inspectAndClassifyRejectNewerFormatsAndMissingFiles() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Files.readAllBytes(model));
        root.put("format_version", 7);
        Path future = dir.resolve("future.json");
        Files.write(future, JSON.writeValueAsBytes(root));
        Run r = run("inspect", future.toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("model format version 7 is newer than this Vigil supports (1)"), r.err());
        Run c = run("classify", "--model", future.toString(), "--data", data.toString(), "--dataset", "CBF");
        assertEquals(1, c.exit());
        Run missing = run("inspect", dir.resolve("nope.json").toString());
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("model file not found"), missing.err());
    }

    @Test
    void usageErrorsExitWithTwoAndHelpWithZero() {
        assertEquals(
                2, run("train", "--data", data.toString(), "--dataset", "CBF").exit(), "--out is required");
        assertEquals(
                2,
                run("train", "--data", data.toString(), "--dataset", "CBF", "--out", "x.json", "--cv", "1")
                        .exit());
        assertEquals(
                2,
                run("train", "--data", data.toString(), "--dataset", "CBF", "--out", "x.json", "--gamma", "2")
                        .exit());
        assertEquals(2, run("inspect").exit());
        assertEquals(2, run("experiment").exit());
        for (String cmd : List.of("train", "classify", "inspect", "experiment")) {
            Run h = run(cmd, "--help");
            assertEquals(0, h.exit(), cmd);
            assertTrue(h.out().contains("Usage"), h.out());
        }
        assertEquals(0, run("experiment", "table33", "--help").exit());
    }

    /** Fixed values that cannot fit the training set are usage errors naming both sizes, before any training. */
    @Test
    void trainRejectsOptionsThatCannotFitTheData() {
        String[] base = {
            "train",
            "--data",
            data.toString(),
            "--dataset",
            "CBF",
            "--out",
            dir.resolve("x.json").toString()
        };
        for (String[] bad : new String[][] {
            {"--neighbors", "1000"},
            {"--qda-neighbors", "25"},
            {"--cv", "100"},
            {"--neighbor-cv", "30"},
            {"--dims", "500"}
        }) {
            String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(base), java.util.Arrays.stream(bad))
                    .toArray(String[]::new);
            Run r = run(args);
            assertEquals(2, r.exit(), String.join(" ", bad) + ": " + r.err());
            assertTrue(
                    r.err().contains(bad[0])
                            && (r.err().contains("24") || r.err().contains("128")),
                    r.err());
        }
        assertTrue(java.nio.file.Files.notExists(dir.resolve("x.json")));
    }

    /** Exact repeats of training series are reported: they make leave-one-out scores optimistic. */
    @Test
    void trainWarnsAboutRepeatedSeries() throws IOException {
        Path src = data.resolve("CBF/CBF_TRAIN.tsv");
        Path dup = dir.resolve("dup/CBF/CBF_TRAIN.tsv");
        java.nio.file.Files.createDirectories(dup.getParent());
        List<String> lines = java.nio.file.Files.readAllLines(src);
        List<String> withRepeats = new java.util.ArrayList<>(lines);
        withRepeats.add(lines.get(0));
        withRepeats.add(lines.get(3));
        java.nio.file.Files.write(dup, withRepeats);
        java.nio.file.Files.copy(data.resolve("CBF/CBF_TEST.tsv"), dir.resolve("dup/CBF/CBF_TEST.tsv"));
        Run r = run(
                "train",
                "--data",
                dir.resolve("dup").toString(),
                "--dataset",
                "CBF",
                "--out",
                dir.resolve("dup.json").toString(),
                "--gamma",
                "0.3",
                "--dims",
                "2",
                "--neighbors",
                "4",
                "--qda-neighbors",
                "4",
                "--no-calibration");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("2 training series repeat earlier ones exactly"), r.err());
        assertTrue(r.err().contains("series 25 = series 1"), r.err());
    }

    @Test
    void userValuesSkipTheirSearch() throws IOException {
        Path fixed = dir.resolve("fixed.json");
        Run r = run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--out",
                fixed.toString(),
                "--gamma",
                "0.5",
                "--dims",
                "2",
                "--neighbors",
                "3",
                "--qda-neighbors",
                "2",
                "--standardize",
                "--cv",
                "4",
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(0.5, o.get("gamma").doubleValue());
        assertEquals(2, o.get("dims").intValue());
        assertEquals(3, o.get("neighbors").intValue());
        assertEquals(2, o.get("qda_neighbors").intValue());
        assertTrue(o.get("standardize").booleanValue());
        assertEquals("stratified-4-fold", o.get("cv").textValue());
        JsonNode scores =
                JSON.readTree(run("inspect", fixed.toString(), "--json").out()).get("scores");
        for (String g : List.of("ldg_neighbors", "gamma", "dims", "qda_neighbors")) {
            assertEquals("user", scores.get(g).get("source").textValue(), g);
        }
    }

    @Test
    void table33RunsOnGeneratedDataAndWritesTheReport() throws IOException {
        Path out = dir.resolve("t33");
        Run r = run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "2",
                "--dims",
                "g-1",
                "--out",
                out.toString(),
                "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode o = JSON.readTree(r.out());
        assertEquals(1, o.get("datasets").intValue());
        assertEquals(88.3, o.get("thesis_mean").doubleValue(), 1e-9);
        String md = Files.readString(out.resolve("table33.md"));
        assertTrue(md.contains("| CBF | 3 | 24 | 30 | 128 |"), md);
        assertTrue(md.contains("88.3"), md);
        List<String> csv = Files.readAllLines(out.resolve("table33.csv"));
        assertEquals(3, csv.size(), "header, CBF, MEAN");
        assertTrue(csv.get(1).startsWith("CBF,3,24,30,128,2,"), csv.get(1));
        assertEquals(3, Files.readAllLines(out.resolve("table33-splits.csv")).size());
        assertEquals(
                2,
                run("experiment", "table33", "--data", data.toString(), "--dims", "g+1", "--out", out.toString())
                        .exit());
    }

    private static void assertStartsWith(JsonNode o, List<String> fields) {
        Iterator<String> names = o.fieldNames();
        for (String f : fields) {
            assertTrue(names.hasNext(), "missing field " + f + " in " + o);
            assertEquals(f, names.next(), "field order in " + o);
        }
    }
}
