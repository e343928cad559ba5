package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code vigil run}'s argument handling: usage errors (exit 2) name what is wrong before any job starts. */
class RunCommandTest {
    @TempDir
    Path dir;

    private record Outcome(int code, String err) {}

    private static Outcome run(String... args) {
        CommandLine cl = VigilCli.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        return new Outcome(cl.execute(args), err.toString());
    }

    @Test
    void missingRequiredOptionIsAUsageError() {
        Outcome o = run("run", "--bootstrap", "127.0.0.1:9", "--input", "a", "--output", "b", "--dead-letter", "c");
        assertEquals(2, o.code());
        assertTrue(o.err().contains("missing --model"), o.err());
    }

    @Test
    void unknownJobFileKeyIsAUsageErrorNamingFileLineAndKey() throws Exception {
        Path job = dir.resolve("bad.yaml");
        Files.writeString(job, "model: m.json\ntopic: x\n");
        Outcome o = run("run", "--job", job.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("bad.yaml:2") && o.err().contains("topic"), o.err());
    }

    @Test
    void badValuesAreUsageErrors() {
        String[] base = {
            "run",
            "--model",
            "m.json",
            "--bootstrap",
            "127.0.0.1:9",
            "--input",
            "a",
            "--output",
            "b",
            "--dead-letter",
            "c"
        };
        assertEquals(2, run(concat(base, "--delivery", "twice")).code());
        assertEquals(2, run(concat(base, "--tau", "1.5")).code());
        assertEquals(2, run(concat(base, "--reorder-window", "65")).code());
        assertEquals(2, run(concat(base, "--checkpoint-interval", "soon")).code());
        CommandLine cli = VigilCli.commandLine();
        assertEquals(io.vigil.stream.SessionSettings.RANGE_GUARD_OFF, StreamOptions.rangeGuard(cli, "off"));
        assertEquals(2.5, StreamOptions.rangeGuard(cli, "2.5"));
        for (String k : new String[] {"0", "-3", "many", "NaN", "Infinity"}) {
            Outcome guard = run(concat(base, "--range-guard", k));
            assertEquals(2, guard.code(), "--range-guard " + k);
            assertTrue(guard.err().contains("--range-guard"), guard.err());
        }
        Outcome same = run(
                "run",
                "--model",
                "m.json",
                "--bootstrap",
                "h:1",
                "--input",
                "a",
                "--output",
                "a",
                "--dead-letter",
                "c");
        assertEquals(2, same.code());
        assertTrue(same.err().contains("must differ"), same.err());
    }

    @Test
    void missingModelFileIsAFailureNamingTheFile() {
        Outcome o = run(
                "run",
                "--model",
                dir.resolve("none.json").toString(),
                "--bootstrap",
                "127.0.0.1:9",
                "--input",
                "a",
                "--output",
                "b",
                "--dead-letter",
                "c");
        assertEquals(1, o.code());
        assertTrue(o.err().contains("none.json") && o.err().contains("does not exist"), o.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
