package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThesisTableCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void table34IsTable33WithTheCrossValidatedDimension(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "24", "--seed", "5", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Run t34 = ModelCommandsTest.run(
                "experiment",
                "table34",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "2",
                "--out",
                dir.resolve("t34").toString(),
                "--json");
        assertEquals(0, t34.exit(), t34.err());
        Run t33 = ModelCommandsTest.run(
                "experiment",
                "table33",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--splits",
                "2",
                "--dims",
                "cv",
                "--out",
                dir.resolve("t33").toString(),
                "--json");
        assertEquals(0, t33.exit(), t33.err());
        JsonNode a = JSON.readTree(t34.out());
        JsonNode b = JSON.readTree(t33.out());
        assertEquals("cv", a.get("dims").asText());
        assertEquals(b.get("vigil_mean").asDouble(), a.get("vigil_mean").asDouble());
        assertTrue(Files.readString(dir.resolve("t34").resolve("table33.md")).contains("Table 3.4"));
        Run g1 = ModelCommandsTest.run(
                "experiment",
                "table34",
                "--data",
                data.toString(),
                "--dims",
                "g-1",
                "--out",
                dir.resolve("x").toString());
        assertEquals(2, g1.exit(), g1.err());
        assertTrue(g1.err().contains("table34 is the --dims cv table"), g1.err());
    }

    @Test
    void table35ReportsEachReducersRunTimeBesideTheThesisAndReusesTheCache(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "24", "--seed", "5", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path out = dir.resolve("t35");
        String[] args = {
            "experiment",
            "table35",
            "--data",
            data.toString(),
            "--datasets",
            "CBF",
            "--splits",
            "2",
            "--out",
            out.toString(),
            "--json"
        };
        Run t35 = ModelCommandsTest.run(args);
        assertEquals(0, t35.exit(), t35.err());
        String md = Files.readString(out.resolve("table35.md"));
        for (String column : new String[] {
            "ldg (thesis LDG)",
            "pca (thesis PCA)",
            "pca-fda (thesis PCA FDA)",
            "reg-fda (thesis Reg. FDA)",
            "dlda (thesis DLDA)",
            "lfda (thesis Reg. LFDA)"
        }) {
            assertTrue(md.contains(column), column + " in\n" + md);
        }
        // The thesis's CBF run-times: LDG 0.2 s, PCA < 0.1 s, Reg. FDA 0.5 s.
        java.util.List<String> csv = Files.readAllLines(out.resolve("table35.csv"));
        assertEquals("dataset,reducer,mean_fit_seconds,thesis_column,thesis_seconds", csv.get(0));
        assertTrue(csv.contains(
                csv.stream().filter(l -> l.startsWith("CBF,ldg,")).findFirst().orElseThrow()));
        assertTrue(csv.stream().anyMatch(l -> l.startsWith("CBF,ldg,") && l.endsWith(",LDG,0.2")), csv.toString());
        assertTrue(csv.stream().anyMatch(l -> l.startsWith("CBF,pca,") && l.endsWith(",PCA,< 0.1")), csv.toString());
        assertEquals(7, csv.size(), "one row per reducer: " + csv);
        Run again = ModelCommandsTest.run(args);
        assertEquals(0, again.exit(), again.err());
        assertTrue(
                Files.readString(out.resolve("table33.md")).contains("splits taken from the cache: 12 of 12"),
                Files.readString(out.resolve("table33.md")));
    }
}
