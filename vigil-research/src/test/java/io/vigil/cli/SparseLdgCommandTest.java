package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil train --reducer sparse-ldg} end to end on generated CBF: the model records λ, the deflation, the
 * non-zeros per column and the coherence, inspect prints them (thesis Figures 3.6–3.7), the calibrated early rule and
 * {@code evaluate} work on the sparse B, table33 compares it with LDG, and its flags are usage errors elsewhere. γ is
 * fixed at 0.9: with d &gt; n and a small γ, Z is nearly positive semidefinite with a large null space and each
 * sparse fit takes tens of seconds (BENCHMARKS.md), which the calibration's folds would multiply.
 */
class SparseLdgCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path data;
    static Path model;
    static Run train;

    @BeforeAll
    static void trainOnce() {
        data = dir.resolve("archive");
        model = dir.resolve("sparse.json");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "30", "--seed", "3", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        train = ModelCommandsTest.run(args(
                "--out",
                model.toString(),
                "--reducer",
                "sparse-ldg",
                "--sparsity",
                "0.002",
                "--deflation",
                "sparse",
                "--gamma",
                "0.9",
                "--json"));
        assertEquals(0, train.exit(), train.err());
    }

    private static String[] args(String... extra) {
        List<String> a = new ArrayList<>(List.of("train", "--data", data.toString(), "--dataset", "CBF"));
        a.addAll(Arrays.asList(extra));
        return a.toArray(new String[0]);
    }

    @Test
    void trainRecordsTheSparsityAndEveryColumnsNonZeros() throws Exception {
        JsonNode o = JSON.readTree(train.out());
        assertEquals("sparse-ldg", o.get("reducer").asText());
        assertEquals(0.002, o.get("sparsity").asDouble());
        assertEquals("sparse", o.get("deflation").asText());
        assertEquals("user", o.get("sparsity_source").asText());
        int dims = o.get("dims").asInt();
        assertEquals(dims, o.get("non_zeros").size());
        for (JsonNode nz : o.get("non_zeros")) {
            assertTrue(nz.asInt() >= 1 && nz.asInt() < 128, "sparser than d = 128: " + o.get("non_zeros"));
        }
        assertTrue(o.has("calibration"), "a linear map: the early rule is calibrated");
        JsonNode sparse = JSON.readTree(Files.readAllBytes(model)).get("ldg").get("sparse");
        assertEquals(dims, sparse.get("non_zeros").size());
        assertTrue(sparse.get("coherence_max").asDouble()
                >= sparse.get("coherence_mean").asDouble());
    }

    @Test
    void inspectShowsFigures36And37AndEvaluateDecidesEarly() throws Exception {
        Run i = ModelCommandsTest.run("inspect", model.toString());
        assertEquals(0, i.exit(), i.err());
        assertTrue(i.out().contains("sparse LDG (thesis 3.3.3): lambda = 0.002 x |Z|_F, sparse deflation"), i.out());
        assertTrue(i.out().contains("of d = 128; |b_i'b_j| mean "), i.out());
        assertTrue(
                i.out().contains("sparse LDG lambda (3-NN, 3 stratified folds")
                        && i.out().contains("[given by user]"),
                i.out());
        JsonNode j = JSON.readTree(
                ModelCommandsTest.run("inspect", model.toString(), "--json").out());
        assertEquals("sparse", j.get("sparse").get("deflation").asText());
        Run e = ModelCommandsTest.run(
                "evaluate",
                "--model",
                model.toString(),
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--json",
                "--no-baselines");
        assertEquals(0, e.exit(), e.err());
        JsonNode ev = JSON.readTree(e.out());
        assertEquals(30, ev.get("test_size").asInt());
        JsonNode tau = ev.get("taus").get(0);
        double fraction = tau.get("mean_fraction").asDouble();
        assertTrue(fraction > 0 && fraction <= 1, tau.toString());
        assertEquals(
                ev.get("operating_point").get("tau").asDouble(),
                tau.get("announced").asDouble(),
                0.0);
    }

    @Test
    void sparseFlagsAreUsageErrorsWithoutSparseLdgAndTable33ComparesIt() throws Exception {
        String out = dir.resolve("x.json").toString();
        Run r = ModelCommandsTest.run(args("--out", out, "--sparsity", "0.1"));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--sparsity and --deflation apply to --reducer sparse-ldg only"), r.err());
        r = ModelCommandsTest.run(args("--out", out, "--reducer", "sparse-ldg", "--deflation", "diagonal"));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--deflation must be orthonormal or sparse, got 'diagonal'"), r.err());
        Path t33 = dir.resolve("t33");
        Run t = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "2",
                "--out",
                t33.toString(),
                "--reducers",
                "ldg,sparse-ldg",
                "--sparsity",
                "0.05",
                "--json");
        assertEquals(0, t.exit(), t.err());
        assertTrue(JSON.readTree(t.out()).get("reducer_means").has("sparse-ldg"), t.out());
        assertTrue(Files.readString(t33.resolve("table33.md")).contains("| Dataset | ldg | sparse-ldg |"));
    }
}
