package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Fig58ExperimentCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void writesEveryCurveAndResumesFromItsCache(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Run gen = ModelCommandsTest.run(
                "generate", "--kind", "cbf", "--train", "24", "--test", "30", "--seed", "3", "--out", data.toString());
        assertEquals(0, gen.exit(), gen.err());
        Path out = dir.resolve("out");
        String[] args = {
            "experiment",
            "fig58",
            "--data",
            data.toString(),
            "--taus",
            "0.5,0.9",
            "--supports",
            "0,0.5",
            "--out",
            out.toString(),
            "--json"
        };
        Run first = ModelCommandsTest.run(args);
        assertEquals(0, first.exit(), first.err());
        JsonNode o = JSON.readTree(first.out());
        assertEquals(0, o.get("resumed_datasets").asInt());
        assertEquals(2, o.get("vigil_points").asInt(), "one Vigil point per τ");
        for (String f : List.of("fig58.md", "fig58.csv", "fig58-CBF.png", "fig510-CBF.png")) {
            assertTrue(Files.size(out.resolve(f)) > 0, f);
        }
        List<String> csv = Files.readAllLines(out.resolve("fig58.csv"));
        assertEquals("dataset,length,test_size,method,setting,mean_t,mean_fraction,reliability,accuracy", csv.get(0));
        Set<String> methods = csv.stream().skip(1).map(l -> l.split(",")[3]).collect(Collectors.toSet());
        assertEquals(
                Set.of(
                        "Vigil (LDG reliable early)",
                        "Rel. Class. (no LDG)",
                        "ECTS",
                        "fixed-time local QDA",
                        "fixed-time 1-NN"),
                methods);
        assertEquals(2 + 2 + 2 + 10 + 10, csv.size() - 1, "2 τ twice, 2 supports, 10 fixed times per classifier");
        double[] rawT = csv.stream()
                .skip(1)
                .map(l -> l.split(","))
                .filter(f -> f[3].startsWith("Rel. Class."))
                .mapToDouble(f -> Double.parseDouble(f[5]))
                .toArray();
        assertTrue(rawT[0] <= rawT[1], "the thesis's rule on the samples decides no earlier at τ = 0.9 than at 0.5");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            double t = Double.parseDouble(f[5]);
            double rel = Double.parseDouble(f[7]);
            assertTrue(t >= 1 && t <= 128 && rel >= 0 && rel <= 1, line);
            if (f[3].startsWith("fixed-time") && f[4].equals("1.0")) {
                assertEquals(1.0, rel, "at t = d a fixed-time classifier agrees with itself: " + line);
            }
        }
        Run again = ModelCommandsTest.run(args);
        assertEquals(0, again.exit(), again.err());
        assertEquals(1, JSON.readTree(again.out()).get("resumed_datasets").asInt());
        assertEquals(csv, Files.readAllLines(out.resolve("fig58.csv")), "a resumed run reports the same points");
        String[] fresh = args.clone();
        fresh[fresh.length - 1] = "--no-resume";
        Run recomputed = ModelCommandsTest.run(fresh);
        assertEquals(0, recomputed.exit(), recomputed.err());
        assertTrue(recomputed.out().contains("Vigil points on or above"), recomputed.out());
    }

    @Test
    void badKnobsAreUsageErrors(@TempDir Path dir) {
        Run tau = ModelCommandsTest.run(
                "experiment",
                "fig58",
                "--data",
                dir.toString(),
                "--taus",
                "1.5",
                "--out",
                dir.resolve("o").toString());
        assertEquals(2, tau.exit());
        assertTrue(tau.err().contains("--taus values must lie in (0, 1)"), tau.err());
        Run support = ModelCommandsTest.run(
                "experiment",
                "fig58",
                "--data",
                dir.toString(),
                "--supports",
                "-0.1",
                "--out",
                dir.resolve("o").toString());
        assertEquals(2, support.exit());
        assertTrue(support.err().contains("--supports values must lie in [0, 1]"), support.err());
    }
}
