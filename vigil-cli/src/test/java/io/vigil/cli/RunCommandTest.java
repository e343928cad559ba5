package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.RunCommand;
import io.vigil.flink.cli.StreamOptions;
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

    static Run run(String... args) {
        return Run.of(args);
    }

    @Test
    void missingRequiredOptionIsAUsageError() {
        Run o = run("run", "--bootstrap", "127.0.0.1:9", "--input", "a", "--output", "b", "--dead-letter", "c");
        assertEquals(2, o.exit());
        assertTrue(o.err().contains("missing --model"), o.err());
    }

    @Test
    void unknownJobFileKeyIsAUsageErrorNamingFileLineAndKey() throws Exception {
        Path job = dir.resolve("bad.yaml");
        Files.writeString(job, "model: m.json\ntopic: x\n");
        Run o = run("run", "--job", job.toString());
        assertEquals(2, o.exit());
        assertTrue(o.err().contains("bad.yaml:2") && o.err().contains("topic"), o.err());
    }

    @Test
    void metricsPortAndTruthTopicAreCheckedBeforeAnythingStarts() {
        for (String port : new String[] {"0", "65536", "-1"}) {
            Run o = run(concat(BASE, "--metrics-port", port));
            assertEquals(2, o.exit(), "--metrics-port " + port);
            assertTrue(o.err().contains("--metrics-port must be 1..65535"), o.err());
        }
        Run same = run(concat(BASE, "--truth-topic", "b"));
        assertEquals(2, same.exit());
        assertTrue(same.err().contains("truth topic must be non-blank and differ"), same.err());
    }

    @Test
    void metricsPortInUseEndsTheRunWithOneLineNamingIt() throws Exception {
        try (java.net.ServerSocket taken =
                new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Run o = runFixtureModel("--metrics-port", Integer.toString(taken.getLocalPort()));
            assertEquals(1, o.exit(), o.err());
            assertTrue(
                    o.err().contains("cannot serve Prometheus metrics on 127.0.0.1:" + taken.getLocalPort()), o.err());
        }
    }

    /**
     * {@code run} on the fixture model (written to {@code dir}) with loopback endpoints, no preflight and a state
     * directory in {@code dir}, plus {@code extra}.
     */
    private Run runFixtureModel(String... extra) throws java.io.IOException {
        Path model = dir.resolve("m.json");
        Files.write(model, io.vigil.stream.StreamFixtures.MODEL_BYTES);
        return run(concat(
                new String[] {
                    "run",
                    "--model",
                    model.toString(),
                    "--bootstrap",
                    "127.0.0.1:9",
                    "--input",
                    "a",
                    "--output",
                    "b",
                    "--dead-letter",
                    "c",
                    "--skip-preflight",
                    "--state-dir",
                    dir.resolve("state").toString()
                },
                extra));
    }

    /** A complete set of flags (the model file need not exist for usage errors). */
    private static final String[] BASE = {
        "run", "--model", "m.json", "--bootstrap", "127.0.0.1:9", "--input", "a", "--output", "b", "--dead-letter", "c"
    };

    @Test
    void badValuesAreUsageErrors() {
        String[] base = BASE;
        assertEquals(2, run(concat(base, "--delivery", "twice")).exit());
        assertEquals(2, run(concat(base, "--tau", "1.5")).exit());
        assertEquals(2, run(concat(base, "--reorder-window", "65")).exit());
        assertEquals(2, run(concat(base, "--checkpoint-interval", "soon")).exit());
        CommandLine cli = VigilCli.commandLine();
        assertEquals(io.vigil.stream.SessionSettings.RANGE_GUARD_OFF, StreamOptions.rangeGuard(cli, "off"));
        assertEquals(2.5, StreamOptions.rangeGuard(cli, "2.5"));
        for (String k : new String[] {"0", "-3", "many", "NaN", "Infinity"}) {
            Run guard = run(concat(base, "--range-guard", k));
            assertEquals(2, guard.exit(), "--range-guard " + k);
            assertTrue(guard.err().contains("--range-guard"), guard.err());
        }
        assertEquals(256L << 20, StreamOptions.size(cli, "--any-order-cache", "256m"));
        assertEquals(0L, StreamOptions.size(cli, "--any-order-cache", "0"));
        for (String size : new String[] {"lots", "-1m"}) {
            Run cache = run(concat(base, "--any-order-cache", size));
            assertEquals(2, cache.exit(), "--any-order-cache " + size);
            assertTrue(cache.err().contains("--any-order-cache"), cache.err());
        }
        Run same = run(
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
        assertEquals(2, same.exit());
        assertTrue(same.err().contains("must differ"), same.err());
    }

    @Test
    void stateOptionsAreCheckedAndTheDefaultTransactionalIdPrefixIsPerJobAndStateDirectory() throws Exception {
        String[] base = BASE;
        Run backend = run(concat(base, "--state-backend", "memory"));
        assertEquals(2, backend.exit());
        assertTrue(backend.err().contains("--state-backend: expected hashmap or rocksdb, got 'memory'"), backend.err());
        String[] rocks = concat(base, "--state-backend", "rocksdb");
        String[][] memory = {
            {"--rocksdb-memory", "2g"}, // without the rocksdb backend
            {"--state-backend", "rocksdb", "--rocksdb-memory", "lots"},
            {"--state-backend", "rocksdb", "--rocksdb-memory", "1m"},
            {"--state-backend", "rocksdb", "--rocksdb-memory", "100000t"}
        };
        String[] said = {
            "--rocksdb-memory is for --state-backend rocksdb",
            "--rocksdb-memory: expected a size such as 512m or 4g, got 'lots'",
            "--rocksdb-memory must be at least 64m, got '1m'",
            "--rocksdb-memory 100000t is more than this machine's memory ("
        };
        for (int i = 0; i < memory.length; i++) {
            Run o = run(concat(base, memory[i]));
            assertEquals(2, o.exit(), o.err());
            assertTrue(o.err().contains(said[i]), o.err());
        }
        RunCommand sized = parse(concat(rocks, "--rocksdb-memory", "512m"));
        assertEquals(512L << 20, sized.state.rocksDbMemory(null));
        assertEquals(
                io.vigil.flink.LocalState.DEFAULT_ROCKSDB_MEMORY,
                parse(rocks).state.rocksDbMemory(null));
        Run name = run(concat(base, "--job-name", "../x"));
        assertEquals(2, name.exit());
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
        CommandLine cl = CommandLines.standalone(RunCommand.forCluster());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int code =
                cl.execute(concat(java.util.Arrays.copyOfRange(BASE, 1, BASE.length), "--state-dir", dir.toString()));
        assertEquals(2, code);
        assertTrue(
                err.toString()
                        .contains("--state-dir, --state-backend, --rocksdb-memory and --fresh are for the embedded"),
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
        Run o = run(
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
        assertEquals(1, o.exit());
        assertTrue(o.err().contains("none.json") && o.err().contains("does not exist"), o.err());
    }

    /** {@code --bootstrap} and a different {@code bootstrap.servers}: exit 2 naming both and where each came from. */
    @Test
    void conflictingBootstrapFromConfigIsAUsageError() throws Exception {
        Path props = dir.resolve("kb.properties");
        Files.writeString(props, "bootstrap.servers=127.0.0.1:1\n");
        Run o = run(concat(endpoints("127.0.0.1:9"), "--config", props.toString()));
        assertEquals(2, o.exit(), o.err());
        assertTrue(
                o.err().contains("--bootstrap 127.0.0.1:9")
                        && o.err().contains("bootstrap.servers=127.0.0.1:1")
                        && o.err().contains("--config " + props),
                o.err());
    }

    @Test
    void conflictingBootstrapFromJobFileIsAUsageError() throws Exception {
        Path job = dir.resolve("job.yaml");
        Files.writeString(job, "bootstrap: 127.0.0.1:9\nkafka:\n  bootstrap.servers: 127.0.0.1:1\n");
        Run fromFile = run(
                "run",
                "--job",
                job.toString(),
                "--model",
                "m.json",
                "--input",
                "a",
                "--output",
                "b",
                "--dead-letter",
                "c");
        assertEquals(2, fromFile.exit(), fromFile.err());
        assertTrue(
                fromFile.err().contains("bootstrap: of " + job + " 127.0.0.1:9")
                        && fromFile.err().contains("bootstrap.servers=127.0.0.1:1 in the kafka: map of " + job),
                fromFile.err());
        Run flag = run(
                "run",
                "--job",
                job.toString(),
                "--model",
                "m.json",
                "--bootstrap",
                "127.0.0.1:7",
                "--input",
                "a",
                "--output",
                "b",
                "--dead-letter",
                "c");
        assertEquals(2, flag.exit(), flag.err());
        assertTrue(flag.err().contains("--bootstrap 127.0.0.1:7"), flag.err());
    }

    /** The same brokers in another order and spacing are one address: the run goes on (to the missing model). */
    @Test
    void sameBootstrapInBothPlacesIsAccepted() throws Exception {
        Path props = dir.resolve("same.properties");
        Files.writeString(props, "bootstrap.servers= 127.0.0.1:8 , 127.0.0.1:9\n");
        Run o = run(concat(endpoints("127.0.0.1:9,127.0.0.1:8"), "--config", props.toString()));
        assertEquals(1, o.exit(), o.err());
        assertTrue(o.err().contains("none.json"), o.err());
    }

    private String[] endpoints(String bootstrap) {
        return new String[] {
            "run",
            "--model",
            dir.resolve("none.json").toString(),
            "--bootstrap",
            bootstrap,
            "--input",
            "a",
            "--output",
            "b",
            "--dead-letter",
            "c"
        };
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
