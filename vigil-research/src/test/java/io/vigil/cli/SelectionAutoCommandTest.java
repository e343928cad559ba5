package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SelectionAutoCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void trainChoosesTheProtocolByDefaultAndInspectShowsEveryScore(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "10", "--seed", "4", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path model = dir.resolve("m.json");
        Run train = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--no-calibration",
                "--out",
                model.toString(),
                "--json");
        assertEquals(0, train.exit(), train.err());
        JsonNode o = JSON.readTree(train.out());
        String chosen = o.get("selection_protocol").asText();
        assertTrue(chosen.matches("(off|on)/(local-qda|3nn)"), chosen);
        assertEquals(chosen.startsWith("on"), o.get("standardize").asBoolean());
        assertEquals(
                chosen.substring(chosen.indexOf('/') + 1),
                o.get("neighbor_selection").asText());
        Run inspect = ModelCommandsTest.run("inspect", model.toString());
        assertEquals(0, inspect.exit(), inspect.err());
        assertTrue(inspect.out().contains("selection protocol (--selection auto"), inspect.out());
        assertTrue(inspect.out().contains(chosen) && inspect.out().contains("off/local-qda"), inspect.out());
        JsonNode j = JSON.readTree(
                ModelCommandsTest.run("inspect", model.toString(), "--json").out());
        JsonNode ps = j.get("protocol_scores");
        assertEquals(4, ps.get("candidates").size(), j.toString());
        assertEquals(4, ps.get("fresh_3nn").size(), "the fresh-fold check is reported: " + ps);
        assertEquals(4, ps.get("fresh_local_qda").size(), ps.toString());
        assertTrue(inspect.out().contains("fresh 3-NN"), inspect.out());
    }

    @Test
    void aNeighbourRuleOnTheCommandLineFixesTheProtocol(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "10", "--seed", "4", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Run train = ModelCommandsTest.run(
                "train",
                "--data",
                data.toString(),
                "--dataset",
                "CBF",
                "--neighbor-selection",
                "3nn",
                "--no-calibration",
                "--out",
                dir.resolve("m.json").toString(),
                "--json");
        assertEquals(0, train.exit(), train.err());
        JsonNode o = JSON.readTree(train.out());
        assertTrue(o.get("selection_protocol") == null, "no search: " + o);
        assertEquals("3nn", o.get("neighbor_selection").asText());
        assertEquals(false, o.get("standardize").asBoolean());
    }

    @Test
    void autoWithAGivenRuleOrAnUnknownProtocolIsAUsageError(@TempDir Path dir) {
        Run both = ModelCommandsTest.run(
                "train",
                "--data",
                dir.toString(),
                "--dataset",
                "CBF",
                "--selection",
                "auto",
                "--standardize",
                "--out",
                dir.resolve("m.json").toString());
        assertEquals(2, both.exit(), both.err());
        assertTrue(both.err().contains("--selection auto chooses --standardize and --neighbor-selection"), both.err());
        Run bogus = ModelCommandsTest.run(
                "train",
                "--data",
                dir.toString(),
                "--dataset",
                "CBF",
                "--selection",
                "best",
                "--out",
                dir.resolve("m.json").toString());
        assertEquals(2, bogus.exit(), bogus.err());
        assertTrue(bogus.err().contains("selection protocol"), bogus.err());
    }
}
