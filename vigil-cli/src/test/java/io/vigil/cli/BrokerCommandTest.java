package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil broker} as a user runs it: a separate JVM that prints its bootstrap address, serves clients, and on
 * SIGTERM or SIGINT shuts Kafka down, deletes its temp storage and exits 0.
 */
class BrokerCommandTest {
    private static final Pattern BOOTSTRAP = Pattern.compile("bootstrap: (127\\.0\\.0\\.1:\\d+)\\n");
    private static final Pattern DATA_DIR = Pattern.compile("data in (\\S+) \\(deleted on exit\\)");

    /** A cold JVM starting Kafka on a loaded 2-core machine can take tens of seconds; generous but bounded. */
    private static final long START_TIMEOUT_S = 120;

    private static final long STOP_TIMEOUT_S = 60;

    @TempDir
    Path dir;

    @Test
    void stopsCleanlyOnSigterm() throws Exception {
        runUntilSignal(List.of(), "TERM");
    }

    @Test
    void stopsCleanlyOnSigint() throws Exception {
        List<String> wrapper = sigintWrapper();
        runUntilSignal(wrapper, "INT");
    }

    /**
     * A signal before Kafka is ready (its temp directory exists, no bootstrap line yet) still stops it quietly and
     * leaves no {@code vigil-kafka-*} directory (one used to be left behind).
     */
    @Test
    void sigtermBeforeReadyLeavesNoDirectoryAndNoWarnings() throws Exception {
        signalBeforeReady(List.of(), "TERM");
    }

    @Test
    void sigintBeforeReadyLeavesNoDirectoryAndNoWarnings() throws Exception {
        signalBeforeReady(sigintWrapper(), "INT");
    }

    private void signalBeforeReady(List<String> wrapper, String signal) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Process p = new ProcessBuilder(command(wrapper, tmp))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
            while (kafkaDirs(tmp).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertFalse(kafkaDirs(tmp).isEmpty(), "a vigil-kafka-* directory appeared: " + Files.readString(err));
            assertEquals("", Files.readString(out), "signalled before it was ready");
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
            assertEquals(0, kill.waitFor(), "kill -" + signal);
            assertTrue(p.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "broker still running after SIG" + signal);
            String stderr = Files.readString(err);
            assertEquals(List.of(), kafkaDirs(tmp), stderr);
            assertNoWarnings(stderr);
        } finally {
            p.destroyForcibly();
        }
    }

    private static List<Path> kafkaDirs(Path tmp) throws IOException {
        try (var s = Files.list(tmp)) {
            return s.filter(f -> f.getFileName().toString().startsWith("vigil-kafka-"))
                    .toList();
        }
    }

    /** Kafka's log lines at ERROR or WARN (the format is {@code HH:mm:ss.SSS LEVEL [thread] logger - message}). */
    private static void assertNoWarnings(String stderr) {
        assertEquals(
                List.of(),
                stderr.lines().filter(l -> l.matches("^\\S+ (ERROR|WARN) .*")).toList(),
                stderr);
    }

    private static List<String> command(List<String> wrapper, Path tmp) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + tmp,
                "-cp",
                System.getProperty("java.class.path"),
                VigilCli.class.getName(),
                "broker",
                "--port",
                "0"));
        return cmd;
    }

    private void runUntilSignal(List<String> wrapper, String signal) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                VigilCli.class.getName(),
                "broker",
                "--port",
                "0"));
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            String bootstrap = awaitBootstrap(p, out, err);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                assertEquals(1, admin.describeCluster().nodes().get().size());
            }
            Matcher m = DATA_DIR.matcher(Files.readString(err));
            assertTrue(m.find(), Files.readString(err));
            Path data = Path.of(m.group(1));
            assertTrue(Files.isDirectory(data), data + " exists while running");

            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
            assertEquals(0, kill.waitFor(), "kill -" + signal);
            assertTrue(p.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "broker still running after SIG" + signal);
            String stderr = Files.readString(err);
            assertEquals(0, p.exitValue(), stderr);
            assertTrue(stderr.contains("vigil broker: stopped"), stderr);
            assertNoWarnings(stderr);
            assertFalse(Files.exists(data), data + " not deleted");
            assertEquals("bootstrap: " + bootstrap + "\n", Files.readString(out), "stdout holds only the address");
        } finally {
            p.destroyForcibly();
        }
    }

    private static String awaitBootstrap(Process p, Path out, Path err) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            Matcher m = BOOTSTRAP.matcher(Files.readString(out));
            if (m.find()) {
                return m.group(1);
            }
            if (!p.isAlive()) {
                fail("broker exited with " + p.exitValue() + ": " + Files.readString(err));
            }
            Thread.sleep(100);
        }
        fail("no bootstrap line within " + START_TIMEOUT_S + " s: " + Files.readString(err));
        return null;
    }

    @Test
    void portInUseExitsOneWithAOneLineReason() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = VigilCli.commandLine()
                    .setOut(new PrintWriter(out, true))
                    .setErr(new PrintWriter(err, true))
                    .execute("broker", "--port", Integer.toString(taken.getLocalPort()));
            assertEquals(1, code);
            assertEquals(
                    "vigil broker: port " + taken.getLocalPort() + " on 127.0.0.1 is already in use",
                    err.toString().strip());
            assertEquals("", out.toString());
        }
    }

    @Test
    void badOptionsAreUsageErrors() {
        assertEquals(2, VigilCli.commandLine().execute("broker", "--port", "70000"));
        assertEquals(2, VigilCli.commandLine().execute("broker", "--partitions", "0"));
    }

    /**
     * The command prefix that lets a child receive SIGINT: none normally; when this JVM ignores SIGINT (started in
     * the background, and children inherit it) python resets it before exec'ing the child, as an interactive shell
     * would. Skips the calling test when that is needed and python3 is missing.
     */
    static List<String> sigintWrapper() throws IOException {
        List<String> wrapper = new ArrayList<>();
        if (sigintIgnoredHere()) {
            Assumptions.assumeTrue(
                    onPath("python3"),
                    "SIGINT is ignored in this test JVM (started in the background) and python3 is not available to"
                            + " reset it; skipping the SIGINT test");
            wrapper.addAll(List.of(
                    "python3",
                    "-c",
                    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL);"
                            + " os.execvp(sys.argv[1], sys.argv[1:])"));
        }
        return wrapper;
    }

    /** Whether SIGINT (signal 2) is in this process's ignored-signal mask; children inherit it. */
    static boolean sigintIgnoredHere() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return false;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("SigIgn:")) {
                long mask = Long.parseUnsignedLong(
                        line.substring("SigIgn:".length()).trim(), 16);
                return (mask & (1L << (2 - 1))) != 0;
            }
        }
        return false;
    }

    static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }
}
