package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.cli.ModelCommandsTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Table34CommandTest {
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
}
