package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM running the CLI as a user starts it, with its own {@code java.io.tmpdir} and working directory
 * (so default paths such as {@code ./vigil-state} land in the test's directory), stdout and stderr in files.
 *
 * @param process the child
 * @param out its stdout
 * @param errFile its stderr
 */
record CliProcess(Process process, Path out, Path errFile) {
    static CliProcess start(Path dir, Path tmp, List<String> args) throws IOException {
        return start(dir, tmp, List.of(), args);
    }

    /** Starts {@code wrapper… java … VigilCli args…} in {@code dir}. */
    static CliProcess start(Path dir, Path tmp, List<String> wrapper, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g",
                "-Djava.io.tmpdir=" + tmp,
                "-cp",
                System.getProperty("java.class.path"),
                VigilCli.class.getName()));
        cmd.addAll(args);
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        return new CliProcess(p, out, err);
    }

    String err() throws IOException {
        return Files.readString(errFile);
    }

    /** Waits until stderr contains {@code fragment}; fails when the process exits first or time runs out. */
    void awaitErr(String fragment, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (err().contains(fragment)) {
                return;
            }
            if (!process.isAlive()) {
                fail("vigil exited with " + process.exitValue() + ": " + err());
            }
            Thread.sleep(100);
        }
        fail("no '" + fragment + "' within " + seconds + " s: " + err());
    }
}
