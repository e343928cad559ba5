package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Docker Compose itself accepts docker-compose.yml ({@code config -q} needs no Docker engine). Skips when neither the
 * standalone {@code docker-compose} nor the {@code docker compose} plugin is installed.
 */
class ComposeConfigTest {
    private record Run(int exit, String output) {}

    private static Optional<Path> onPath(String program) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
                return Optional.of(Path.of(dir, program));
            }
        }
        return Optional.empty();
    }

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return new Run(-1, String.join(" ", command) + " timed out");
        }
        return new Run(
                process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** The first working Compose command: docker-compose, else docker compose. */
    private static Optional<List<String>> composeCommand() throws IOException, InterruptedException {
        Optional<Path> standalone = onPath("docker-compose");
        if (standalone.isPresent()
                && run(List.of(standalone.get().toString(), "version")).exit() == 0) {
            return Optional.of(List.of(standalone.get().toString()));
        }
        Optional<Path> docker = onPath("docker");
        if (docker.isPresent()
                && run(List.of(docker.get().toString(), "compose", "version")).exit() == 0) {
            return Optional.of(List.of(docker.get().toString(), "compose"));
        }
        return Optional.empty();
    }

    @Test
    void composeAcceptsTheFile() throws IOException, InterruptedException {
        Optional<List<String>> compose = composeCommand();
        assumeTrue(
                compose.isPresent(),
                "neither docker-compose nor the docker compose plugin is on PATH; skipping `config -q`");
        List<String> command = new ArrayList<>(compose.get());
        command.addAll(List.of("-f", "docker-compose.yml", "config", "-q"));
        Run result = run(command);
        assertEquals(0, result.exit(), String.join(" ", command) + ":\n" + result.output());
    }
}
