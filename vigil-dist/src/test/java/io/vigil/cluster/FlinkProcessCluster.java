package io.vigil.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A standalone Flink session cluster as separate JVMs on 127.0.0.1, started the way Flink's own {@code
 * jobmanager.sh}/{@code taskmanager.sh} do it but without a distribution: one JobManager ({@code
 * StandaloneSessionClusterEntrypoint}) and any number of TaskManagers ({@code TaskManagerRunner}), each with
 * {@code --configDir} pointing at a generated {@code config.yaml} (the repository's {@code config/flink/config.yaml}
 * with free ports, temp directories and small memory sizes), the JVM memory flags computed by the same code
 * {@code BashJavaUtils} runs for the scripts, the {@code env.java.opts.all} list for Java 17, and each process's log
 * in its own file. Every process is stopped by its PID in {@link #close}.
 *
 * <p>The classpath is the Flink part of the test classpath Maven resolved ({@link #flinkClasspath}): the Flink
 * artifacts flink-dist bundles and their third-party dependencies, without Vigil, the Kafka connector and clients,
 * the Kafka server and test libraries, so the job jar's own classes are the only copies the cluster sees (Flink
 * loads {@code org.apache.flink.*} parent-first, so a connector on the cluster classpath would shadow the job
 * jar's). It comes from {@code dependency:build-classpath} (the {@code cluster-it} profile writes it before the
 * integration tests) rather than {@code java.class.path}, because failsafe starts tests from a manifest-only jar
 * and the property then names only that jar; versions are exactly the pom's, with no download at test time.
 */
public final class FlinkProcessCluster implements AutoCloseable {
    /** The JobManager's main class (standalone session mode). */
    public static final String JOB_MANAGER_MAIN =
            "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";

    /** The TaskManager's main class. */
    public static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

    /** Maven coordinates (as repository path parts) of what the cluster classpath keeps. */
    private static final List<String> KEEP = List.of(
            "/org/apache/flink/",
            "/com/esotericsoftware/",
            "/org/objenesis/",
            "/org/snakeyaml/",
            "/org/apache/commons/",
            "/commons-collections/",
            "/commons-io/",
            "/commons-cli/",
            "/org/javassist/",
            "/tools/profiler/",
            "/com/google/code/findbugs/",
            "/at/yawk/lz4/",
            "/org/xerial/snappy/",
            "/org/apache/logging/log4j/",
            "/org/slf4j/");

    /** Artifacts under the kept groups that a Flink distribution's lib/ does not hold. */
    private static final List<String> DROP =
            List.of("/flink-connector-kafka/", "/flink-test-utils", "-tests.jar", "/flink-table-");

    private final Path home;
    private final Path confDir;
    private final Path logDir;
    private final String classpath;
    private final List<String> javaOpts;
    private final int restPort;
    private final List<Node> nodes = new CopyOnWriteArrayList<>();
    /** Kills what is still running if the test JVM exits without {@link #close} (e.g. a failsafe timeout). */
    private final Thread killOnExit = new Thread(this::killAll, "flink-process-cluster-kill");

    private int taskManagersStarted;

    /** A started JVM of the cluster. */
    public static final class Node {
        private final String name;
        private final Process process;
        private final Path log;
        private final Path out;

        Node(String name, Process process, Path log, Path out) {
            this.name = name;
            this.process = process;
            this.log = log;
            this.out = out;
        }

        /** E.g. {@code taskmanager-2}. */
        public String name() {
            return name;
        }

        /** The OS process id. */
        public long pid() {
            return process.pid();
        }

        /** Whether the process is running. */
        public boolean isAlive() {
            return process.isAlive();
        }

        /** The Flink log file. */
        public Path log() {
            return log;
        }

        /** Stdout and stderr of the JVM. */
        public Path out() {
            return out;
        }

        @Override
        public String toString() {
            return name + " (pid " + pid() + ")";
        }
    }

    private FlinkProcessCluster(
            Path home, Path confDir, Path logDir, String classpath, List<String> javaOpts, int restPort) {
        this.home = home;
        this.confDir = confDir;
        this.logDir = logDir;
        this.classpath = classpath;
        this.javaOpts = javaOpts;
        this.restPort = restPort;
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Writes the configuration and starts the JobManager and {@code taskManagers} TaskManagers, returning once the
     * REST API answers and every TaskManager has registered.
     *
     * @param template the repository's {@code config/flink/config.yaml}
     * @param home a directory for the generated config, checkpoints, savepoints and temp files
     * @param logDir where each process writes {@code NAME.log} (Flink's log) and {@code NAME.out} (stdout/stderr)
     * @param classpath the cluster classpath ({@link #flinkClasspath})
     * @param overrides configuration keys (flat, e.g. {@code restart-strategy.fixed-delay.delay}) set after the
     *     template and this class's own settings
     */
    public static FlinkProcessCluster start(
            Path template, Path home, Path logDir, String classpath, int taskManagers, Map<String, String> overrides)
            throws IOException, InterruptedException {
        home = Files.createDirectories(home).toAbsolutePath();
        logDir = Files.createDirectories(logDir).toAbsolutePath();
        Map<String, String> conf = flatten(new ObjectMapper(new YAMLFactory()).readTree(template.toFile()));
        List<String> javaOpts = Arrays.stream(
                        conf.remove("env.java.opts.all").trim().split("\\s+"))
                .toList();
        int rest = freePort();
        conf.put("jobmanager.rpc.address", "127.0.0.1");
        conf.put("jobmanager.rpc.port", Integer.toString(freePort()));
        conf.put("blob.server.port", Integer.toString(freePort()));
        conf.put("rest.port", Integer.toString(rest));
        conf.put("rest.address", "127.0.0.1");
        conf.put("rest.bind-address", "127.0.0.1");
        conf.put("taskmanager.host", "127.0.0.1");
        conf.put("taskmanager.bind-host", "127.0.0.1");
        conf.put("jobmanager.memory.process.size", "768m");
        conf.put("taskmanager.memory.process.size", "1024m");
        conf.put("taskmanager.numberOfTaskSlots", "2");
        conf.put(
                "execution.checkpointing.dir",
                home.resolve("checkpoints").toUri().toString());
        conf.put(
                "execution.checkpointing.savepoint-dir",
                home.resolve("savepoints").toUri().toString());
        conf.put("io.tmp.dirs", Files.createDirectories(home.resolve("tmp")).toString());
        conf.put(
                "web.upload.dir",
                Files.createDirectories(home.resolve("upload")).toString());
        // A killed TaskManager is noticed within seconds (defaults: 10 s interval, 50 s timeout).
        conf.put("heartbeat.interval", "1000");
        conf.put("heartbeat.timeout", "5000");
        conf.put("restart-strategy.fixed-delay.delay", "1s");
        conf.put("restart-strategy.fixed-delay.attempts", "60");
        // The REST API's metric values are at most this old (default 10 s).
        conf.put("metrics.fetcher.update-interval", "500");
        conf.putAll(overrides);
        Path confDir = Files.createDirectories(home.resolve("conf"));
        StringBuilder yaml = new StringBuilder("# Generated by FlinkProcessCluster from " + template + "\n");
        conf.forEach((k, v) ->
                yaml.append(k).append(": '").append(v.replace("'", "''")).append("'\n"));
        Files.writeString(confDir.resolve("config.yaml"), yaml);
        Files.writeString(confDir.resolve("log4j.properties"), LOG4J);
        FlinkProcessCluster cluster = new FlinkProcessCluster(home, confDir, logDir, classpath, javaOpts, rest);
        boolean started = false;
        try {
            cluster.startJobManager();
            for (int i = 0; i < taskManagers; i++) {
                cluster.startTaskManager();
            }
            cluster.awaitTaskManagers(taskManagers);
            started = true;
            return cluster;
        } finally {
            if (!started) {
                cluster.close();
            }
        }
    }

    /**
     * The cluster classpath from a Maven-resolved classpath ({@code dependency:build-classpath}): Flink and what
     * flink-dist bundles with it, no Vigil, no Kafka, no test libraries.
     */
    public static String flinkClasspath(String mavenClasspath) {
        return Arrays.stream(mavenClasspath.trim().split(File.pathSeparator))
                .filter(p -> {
                    String u = p.replace('\\', '/');
                    return KEEP.stream().anyMatch(u::contains) && DROP.stream().noneMatch(u::contains);
                })
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** The REST endpoint, e.g. {@code http://127.0.0.1:40123}. */
    public String restUrl() {
        return "http://127.0.0.1:" + restPort;
    }

    /** The directory holding checkpoints, savepoints and the generated configuration. */
    public Path home() {
        return home;
    }

    /** The generated configuration directory. */
    public Path confDir() {
        return confDir;
    }

    /** The JobManager node. */
    public Node jobManager() {
        return nodes.get(0);
    }

    /** Every TaskManager node started so far, running or stopped (their logs stay readable). */
    public List<Node> taskManagers() {
        return nodes.stream().filter(n -> n.name.startsWith("taskmanager")).toList();
    }

    /** The TaskManager nodes started so far that are still running. */
    public List<Node> liveTaskManagers() {
        return nodes.stream()
                .filter(n -> n.name.startsWith("taskmanager") && n.isAlive())
                .toList();
    }

    /** Starts one more TaskManager (it registers with the JobManager by itself). */
    public Node startTaskManager() throws IOException {
        Configuration c = GlobalConfiguration.loadConfiguration(confDir.toString());
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(c);
        List<String> args = new ArrayList<>();
        args.add("--configDir");
        args.add(confDir.toString());
        for (String dynamic :
                TaskExecutorProcessUtils.generateDynamicConfigsStr(spec).trim().split("\\s+")) {
            args.add(dynamic);
        }
        taskManagersStarted++;
        return launch(
                "taskmanager-" + taskManagersStarted,
                ProcessMemoryUtils.generateJvmParametersStr(spec),
                TASK_MANAGER_MAIN,
                args);
    }

    private void startJobManager() throws IOException, InterruptedException {
        Configuration c = GlobalConfiguration.loadConfiguration(confDir.toString());
        JobManagerProcessSpec spec = JobManagerProcessUtils.processSpecFromConfig(c);
        List<String> args = new ArrayList<>(List.of("--configDir", confDir.toString(), "--executionMode", "cluster"));
        for (String dynamic :
                JobManagerProcessUtils.generateDynamicConfigsStr(spec).trim().split("\\s+")) {
            args.add(dynamic);
        }
        Node jm =
                launch("jobmanager", JobManagerProcessUtils.generateJvmParametersStr(spec, c), JOB_MANAGER_MAIN, args);
        FlinkRest rest = new FlinkRest(restUrl());
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!rest.isUp()) {
            if (!jm.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("the JobManager's REST API did not come up at " + restUrl()
                        + (jm.isAlive() ? " within " + START_TIMEOUT : " (process exited)") + "\n" + logTails(60));
            }
            Thread.sleep(250);
        }
    }

    /** Waits until exactly {@code n} TaskManagers are registered with the JobManager. */
    public void awaitTaskManagers(int n) throws IOException, InterruptedException {
        FlinkRest rest = new FlinkRest(restUrl());
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        int registered;
        while ((registered = rest.taskManagers()) != n) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(registered + " TaskManagers registered, expected " + n + " within "
                        + START_TIMEOUT + "\n" + logTails(60));
            }
            Thread.sleep(250);
        }
    }

    private Node launch(String name, String memoryFlags, String main, List<String> args) throws IOException {
        Path log = logDir.resolve(name + ".log");
        Path out = logDir.resolve(name + ".out");
        // Appended to, not truncated: Flink's RPC system logs through a second Log4j context in its own class loader.
        Files.deleteIfExists(log);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Arrays.asList(memoryFlags.trim().split("\\s+")));
        cmd.addAll(javaOpts);
        cmd.add("-Dlog.file=" + log);
        cmd.add("-Dlog4j.configurationFile="
                + confDir.resolve("log4j.properties").toUri());
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(main);
        cmd.addAll(args);
        Files.writeString(out, String.join(" ", cmd) + "\n\n", StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(cmd)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()))
                .start();
        Node node = new Node(name, p, log, out);
        nodes.add(node);
        return node;
    }

    /** Kills a node with SIGKILL (no shutdown hooks, like a lost machine) and waits until it is gone. */
    public static void kill(Node node) throws InterruptedException {
        node.process.destroyForcibly();
        if (!node.process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(node + " did not die after SIGKILL");
        }
    }

    /** The last {@code lines} lines of every process's Flink log and stdout, for failure messages. */
    public String logTails(int lines) {
        StringBuilder b = new StringBuilder();
        for (Node n : nodes) {
            for (Path f : List.of(n.log, n.out)) {
                b.append("---- ").append(f).append(" (").append(n).append(n.isAlive() ? ", alive" : ", exited");
                b.append(") ----\n").append(tail(f, lines)).append('\n');
            }
        }
        return b.toString();
    }

    /** The last lines of a file, or a note when it cannot be read. */
    public static String tail(Path f, int lines) {
        try {
            if (!Files.exists(f)) {
                return "(no file)";
            }
            List<String> all = Files.readAllLines(f, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    private void killAll() {
        for (Node n : nodes) {
            n.process.destroyForcibly();
        }
    }

    /** Stops every process by PID: SIGTERM, a grace period, then SIGKILL. */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down: the hook runs (or ran) anyway.
            killAll();
        }
        for (int i = nodes.size() - 1; i >= 0; i--) {
            nodes.get(i).process.destroy();
        }
        for (int i = nodes.size() - 1; i >= 0; i--) {
            Process p = nodes.get(i).process;
            try {
                if (!p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Map<String, String> flatten(JsonNode root) {
        Map<String, String> out = new LinkedHashMap<>();
        flatten("", root, out);
        return out;
    }

    private static void flatten(String prefix, JsonNode node, Map<String, String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.put(prefix, node.asText());
        }
    }

    /** Flink's log4j.properties (file appender at INFO, as the distribution ships it). */
    private static final String LOG4J = String.join(
            "\n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.file.ref = MainAppender",
            "logger.kafka.name = org.apache.kafka",
            "logger.kafka.level = WARN",
            "appender.main.name = MainAppender",
            "appender.main.type = File",
            "appender.main.append = true",
            "appender.main.fileName = ${sys:log.file}",
            "appender.main.layout.type = PatternLayout",
            "appender.main.layout.pattern = %d{yyyy-MM-dd HH:mm:ss,SSS} %-5p %-60c %x - %m%n",
            "");

    /**
     * Sums the counts the early-decision subtasks of {@code jobId} log at restore ("Subtask i (attempt a, job j) …
     * will replay N undecided restored series …"), taking each subtask's latest attempt: the metric is per attempt,
     * and a job that fails over before its first checkpoint restores from the savepoint, and logs, again. Logs of
     * TaskManagers that have since stopped are read too.
     */
    public long loggedReplays(String jobId) throws IOException {
        Pattern line = Pattern.compile(
                "Subtask (\\d+) \\(attempt (\\d+), job (\\p{XDigit}+)\\) .*will replay (\\d+) undecided restored series");
        Map<Integer, long[]> latest = new HashMap<>();
        for (Node n : taskManagers()) {
            for (String text : Files.readAllLines(n.log(), StandardCharsets.UTF_8)) {
                Matcher m = line.matcher(text);
                if (m.find() && m.group(3).equals(jobId)) {
                    long attempt = Long.parseLong(m.group(2));
                    long count = Long.parseLong(m.group(4));
                    latest.merge(
                            Integer.parseInt(m.group(1)), new long[] {attempt, count}, (a, b) -> a[0] >= b[0] ? a : b);
                }
            }
        }
        return latest.values().stream().mapToLong(a -> a[1]).sum();
    }
}
