package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

    /** A complete set of flags (the model file need not exist for usage errors). */
    private static final String[] BASE = {
        "run", "--model", "m.json", "--bootstrap", "127.0.0.1:9", "--input", "a", "--output", "b", "--dead-letter", "c"
    };

    @Test
    void badValuesAreUsageErrors() {
        String[] base = BASE;
        assertEquals(2, run(concat(base, "--delivery", "twice")).code());
        assertEquals(2, run(concat(base, "--tau", "1.5")).code());
        assertEquals(2, run(concat(base, "--reorder-window", "65")).code());
        assertEquals(2, run(concat(base, "--checkpoint-interval", "soon")).code());
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
    void stateOptionsAreCheckedAndTheDefaultTransactionalIdPrefixIsPerJobAndStateDirectory() throws Exception {
        String[] base = BASE;
        Outcome backend = run(concat(base, "--state-backend", "memory"));
        assertEquals(2, backend.code());
        assertTrue(backend.err().contains("--state-backend: expected hashmap or rocksdb, got 'memory'"), backend.err());
        Outcome name = run(concat(base, "--job-name", "../x"));
        assertEquals(2, name.code());
        assertTrue(name.err().contains("--job-name must be"), name.err());

        assertEquals("a-to-b", parse(base).state.jobName(null, "a", "b"));
        assertEquals("x_y-to-b", parse(base).state.jobName(null, "x y", "b"));
        String prefix = prefix(concat(base, "--state-dir", dir.resolve("s1").toString()), false);
        assertEquals("vigil-a-to-b-" + io.vigil.flink.StateDirectory.shortHash(dir.resolve("s1")), prefix);
        assertEquals(
                prefix, prefix(concat(base, "--state-dir", dir.resolve("s1").toString()), false), "stable");
        assertFalse(prefix.equals(
                prefix(concat(base, "--state-dir", dir.resolve("s2").toString()), false)));
        assertEquals("vigil-j", prefix(concat(base, "--job-name", "j"), true), "on a cluster");
        assertEquals("p", prefix(concat(base, "--transactional-id-prefix", "p"), false), "an explicit prefix wins");
    }

    @Test
    void onAClusterTheStateOptionsAreUsageErrors() {
        CommandLine cl = VigilCli.standalone(RunCommand.forCluster());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int code =
                cl.execute(concat(java.util.Arrays.copyOfRange(BASE, 1, BASE.length), "--state-dir", dir.toString()));
        assertEquals(2, code);
        assertTrue(
                err.toString().contains("--state-dir, --state-backend and --fresh are for the embedded job"),
                err.toString());
    }

    private static RunCommand parse(String[] args) {
        RunCommand c = new RunCommand();
        new CommandLine(c).parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
        return c;
    }

    private static String prefix(String[] args, boolean onCluster) throws Exception {
        RunCommand c = onCluster ? RunCommand.forCluster() : new RunCommand();
        CommandLine cl = new CommandLine(c);
        cl.parseArgs(java.util.Arrays.copyOfRange(args, 1, args.length));
        return c.config(cl, null).transactionalIdPrefix();
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
