package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory shortfall ends {@code vigil train} with one line naming what needed the memory, how much, and the flag
 * or {@code -Xmx} that helps — not an OutOfMemoryError trace — and leaves no model file. Runs the CLI in a JVM with
 * a 256 MB heap on series of length 3,000 (a dense 3,000×3,000 matrix alone is 72 MB).
 */
class TrainMemoryTest {
    @Test
    void outOfMemoryIsOneLineNamingTheNeedAndTheRemedy(@TempDir Path dir) throws IOException, InterruptedException {
        Path data = dir.resolve("Long");
        Files.createDirectories(data);
        SplittableRandom rnd = new SplittableRandom(1);
        for (String split : List.of("TRAIN", "TEST")) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 20; i++) {
                sb.append(i % 2);
                for (int t = 0; t < 3000; t++) {
                    sb.append('\t').append(rnd.nextGaussian() + 0.3 * (i % 2));
                }
                sb.append('\n');
            }
            Files.writeString(data.resolve("Long_" + split + ".tsv"), sb, StandardCharsets.UTF_8);
        }
        Path model = dir.resolve("m.json");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        VigilCli.class.getName(),
                        "train",
                        "--data",
                        dir.toString(),
                        "--dataset",
                        "Long",
                        "--out",
                        model.toString(),
                        "--dims",
                        "1",
                        "--gamma",
                        "0.5",
                        "--neighbors",
                        "3",
                        "--qda-neighbors",
                        "3",
                        "--covariance",
                        "dense")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "train did not end");
        assertEquals(1, p.exitValue(), out);
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), out);
        String line = lines.get(0);
        assertTrue(line.startsWith("vigil train: not enough memory to fit the complete-series Gaussians"), line);
        assertTrue(line.contains("-Xmx") && line.contains("MB") && line.contains("3000×3000"), line);
        assertTrue(line.contains("--covariance low-rank"), line);
        assertFalse(out.contains("OutOfMemoryError") || out.contains("\tat "), out);
        assertFalse(Files.exists(model));
    }
}
