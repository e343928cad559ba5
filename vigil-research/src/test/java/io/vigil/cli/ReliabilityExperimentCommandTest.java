package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReliabilityExperimentCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The reliability benchmark ({@code vigil experiment reliability}) on a small generated CBF: both files are written, every τ has its row, and the earliest
     * rule — the operating point's rule at its least conservative threshold — decides no later than the rule at any
     * announced τ (both rules are monotone in the threshold), which is what makes its reliability a floor. The default
     * operating point's target 0.9 is not certifiable on 30 series, so it decides at t = d with the full accuracy.
     */
    @Test
    void writesTheReportWithTheEarliestRuleBesideEveryTau(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "30", "--test", "60", "--seed", "8", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path out = dir.resolve("rel");
        Run rel = ModelCommandsTest.run(
                "experiment",
                "reliability",
                "--data",
                data.toString(),
                "--datasets",
                "CBF",
                "--taus",
                "0.5,0.9",
                "--out",
                out.toString(),
                "--json");
        assertEquals(0, rel.exit(), rel.err());
        JsonNode o = JSON.readTree(rel.out());
        assertEquals(1, o.get("compared_with_teaser").asInt(), "CBF is one of TEASER's six datasets");
        String md = Files.readString(out.resolve("reliability.md"));
        assertTrue(md.contains("| dataset | earliest |") && md.contains("mean max(0, earliest − τ)"), md);
        List<String> lines = Files.readAllLines(out.resolve("reliability.csv"));
        assertEquals(3, lines.size(), "header and one row per τ: " + lines);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int tauFraction = header.indexOf("tau_mean_fraction");
        int earliestFraction = header.indexOf("earliest_mean_fraction");
        int earliest = header.indexOf("earliest_reliability");
        int full = header.indexOf("full_accuracy");
        int certified = header.indexOf("op_certified");
        int accuracy = header.indexOf("accuracy");
        assertTrue(tauFraction >= 0 && earliestFraction >= 0 && earliest >= 0 && full >= 0, header.toString());
        assertTrue(md.contains("Accuracy ≥ full − 0.10 on "), md);
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            double r = Double.parseDouble(f[earliest]);
            assertTrue(r >= 0 && r <= 1, line);
            assertTrue(
                    Double.parseDouble(f[earliestFraction]) <= Double.parseDouble(f[tauFraction]) + 1e-12,
                    "the earliest rule decides no later: " + line);
            if (!Boolean.parseBoolean(f[certified])) {
                assertEquals(f[full], f[accuracy], "an uncertified operating point decides at t = d: " + line);
            }
        }
    }
}
