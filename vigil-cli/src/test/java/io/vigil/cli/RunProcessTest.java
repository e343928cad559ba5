package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.flink.GrafanaDashboard;
import io.vigil.flink.PrometheusScrape;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.DeadLetterReason;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code vigil run} as a separate JVM, as a user starts it, against the loopback broker of this JVM: every socket
 * the process listens on is a loopback address (read from {@code /proc}, never by connecting elsewhere), the web
 * UI is there only when asked for, an unbounded run waiting for its input topic says so once, and the process
 * leaves nothing in its {@code java.io.tmpdir} after a bounded run, SIGTERM or SIGINT (also cleaning what a
 * SIGKILLed run left). Before these fixes the REST and BLOB servers listened on every interface and each run left
 * ~25 MB (RPC jar, {@code minicluster_*}, {@code flink-web-upload}) behind.
 */
class RunProcessTest {
    /** A cold JVM starting a MiniCluster on a loaded 2-core machine can take tens of seconds; generous but bounded. */
    private static final long START_TIMEOUT_S = 180;

    private static final long STOP_TIMEOUT_S = 60;

    private static LoopbackKafka kafka;

    @TempDir
    static Path shared;

    private static Path model;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/net/tcp")), "needs Linux /proc to list sockets");
        kafka = LoopbackKafka.start();
        model = shared.resolve("cbf.model.json");
        Files.write(model, StreamFixtures.MODEL_BYTES);
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void unboundedRunListensOnLoopbackOnlyWaitsForItsTopicOnceAndCleansUpOnSigterm() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        String input = "late-samples";
        kafka.createTopic("late-decisions", 1);
        int metricsPort = freePort();
        List<String> args = runArgs(input, "late-decisions", false);
        args.addAll(List.of("--metrics-port", Integer.toString(metricsPort)));
        CliProcess c = CliProcess.start(dir, tmp, args);
        try {
            c.awaitErr("does not exist yet", START_TIMEOUT_S);
            kafka.createTopic(input, 2);
            produce(input, 3);
            KafkaTestSupport.readTopic(consumer(), "late-decisions", 3, Duration.ofSeconds(START_TIMEOUT_S));
            Set<String> listening = listeningSockets(c.process().pid());
            assertFalse(listening.isEmpty(), "the MiniCluster's REST and BLOB servers listen somewhere");
            assertTrue(listening.contains("127.0.0.1:" + metricsPort), "the metrics endpoint: " + listening);
            for (String address : listening) {
                assertTrue(isLoopback(address), "listening beyond loopback: " + address + " (all: " + listening + ")");
            }
            assertEquals(1, count(c.err(), "does not exist yet"), "said once: " + c.err());
            assertOnlyOurTempDirectory(tmp, c.process().pid());
            signal(c.process(), "TERM");
            assertTrue(c.process().waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "still running after SIGTERM");
            assertEmpty(tmp, "after SIGTERM");
        } finally {
            c.process().destroyForcibly();
        }
    }

    @Test
    void webUiAndDashboardAreOptInOnLoopbackAndSigintCleansUp() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        int port = freePort();
        int dashboard = freePort();
        String input = "ui-samples";
        kafka.createTopic(input, 1);
        kafka.createTopic("ui-decisions", 1);
        produce(input, 1);
        List<String> wrapper = BrokerCommandTest.sigintWrapper();
        List<String> args = runArgs(input, "ui-decisions", false);
        args.addAll(List.of("--web-ui", Integer.toString(port), "--dashboard", Integer.toString(dashboard)));
        CliProcess c = CliProcess.start(dir, tmp, wrapper, args);
        try {
            KafkaTestSupport.readTopic(consumer(), "ui-decisions", 1, Duration.ofSeconds(START_TIMEOUT_S));
            assertTrue(c.err().contains("web UI at http://127.0.0.1:" + port + "/"), c.err());
            assertTrue(c.err().contains("dashboard at http://127.0.0.1:" + dashboard + "/"), c.err());
            Set<String> listening = listeningSockets(c.process().pid());
            assertTrue(
                    listening.stream().anyMatch(a -> a.endsWith(":" + port) && isLoopback(a)),
                    "the web UI port on loopback: " + listening);
            assertTrue(
                    listening.stream().anyMatch(a -> a.endsWith(":" + dashboard) && isLoopback(a)),
                    "the dashboard port on loopback: " + listening);
            for (String address : listening) {
                assertTrue(isLoopback(address), "listening beyond loopback: " + address);
            }
            HttpResponse<String> r = get(port);
            assertEquals(200, r.statusCode());
            assertTrue(r.body().toLowerCase(java.util.Locale.ROOT).contains("<html"), "Flink's dashboard page");
            HttpResponse<String> vigil = get(dashboard);
            assertEquals(200, vigil.statusCode());
            assertTrue(vigil.body().contains("<title>Vigil"), "Vigil's live dashboard page");
            signal(c.process(), "INT");
            assertTrue(c.process().waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "still running after SIGINT");
            assertEmpty(tmp, "after SIGINT");
        } finally {
            c.process().destroyForcibly();
        }
    }

    @Test
    void boundedRunEndsAndLeavesNothingBehindIncludingWhatAKilledRunLeft() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Path killed = Files.createDirectories(tmp.resolve("vigil-run-" + (Long.MAX_VALUE / 3) + "-1/io"));
        Files.writeString(killed.resolve("flink-rpc-akka.jar"), "left by a SIGKILLed run");
        String input = "bounded-samples";
        kafka.createTopic(input, 2);
        kafka.createTopic("bounded-decisions", 1);
        produce(input, 4);
        CliProcess c = CliProcess.start(dir, tmp, runArgs(input, "bounded-decisions", true));
        try {
            assertTrue(c.process().waitFor(START_TIMEOUT_S, TimeUnit.SECONDS), "bounded run still running");
            assertEquals(0, c.process().exitValue(), c.err());
            assertTrue(Files.readString(c.out()).contains("job finished"), c.err());
            assertEquals(
                    4,
                    KafkaTestSupport.readTopic(consumer(), "bounded-decisions", 4, Duration.ofSeconds(30))
                            .size());
            assertEmpty(tmp, "after a bounded run");
        } finally {
            c.process().destroyForcibly();
        }
    }

    @Test
    void prometheusScrapesVigilsMetricsWhileTheJobRuns() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        int port = freePort();
        String input = "prom-samples";
        String output = "prom-decisions";
        String truth = "prom-truth";
        kafka.createTopic(input, 2);
        kafka.createTopic(output, 1);
        kafka.createTopic(truth, 1);
        produce(input, 0, 2);
        produceTruth(truth, 0, 2);
        List<String> args = runArgs(input, output, false);
        args.addAll(List.of("--metrics-port", Integer.toString(port), "--truth-topic", truth));
        CliProcess c = CliProcess.start(dir, tmp, args);
        String url = "http://127.0.0.1:" + port + "/metrics";
        int d = StreamFixtures.TEST.length();
        try {
            c.awaitErr("Prometheus metrics at " + url, START_TIMEOUT_S);
            KafkaTestSupport.readTopic(consumer(), output, 2, Duration.ofSeconds(START_TIMEOUT_S));
            PrometheusScrape first = scrapeUntil(
                    url,
                    s -> decisions(s) == 2
                            && s.sum(OPERATOR + "samplesIn") == 2 * d
                            && s.sum(OPERATOR + "truthDecisions") == 2);
            assertTrue(
                    first.has(LAST_CHECKPOINT),
                    "checkpoint duration: " + first.families().keySet());
            for (DeadLetterReason r : DeadLetterReason.values()) {
                assertTrue(first.has(OPERATOR + "deadLetters_" + r.code()), r.code() + " is exported from the start");
            }
            for (String name : GrafanaDashboard.read().metricNames()) {
                if (!name.contains("odel")) { // modelSwaps, modelsRejected, liveModels: only with --model-topic
                    assertTrue(first.has(name), "the dashboard's " + name + " is exported");
                }
            }
            assertTrue(
                    first.summaries(OPERATOR + "decisionFractionPermille").stream()
                            .anyMatch(h -> h.getSampleCount() > 0),
                    "t/d at decision");

            // Truth after the decisions this time: the comparison waits for whichever comes second.
            produce(input, 2, 3);
            List<ConsumerRecord<byte[], byte[]>> decided =
                    KafkaTestSupport.readTopic(consumer(), output, 5, Duration.ofSeconds(START_TIMEOUT_S));
            produceTruth(truth, 2, 3);
            PrometheusScrape second = scrapeUntil(
                    url,
                    s -> decisions(s) == 5
                            && s.sum(OPERATOR + "samplesIn") == 5 * d
                            && s.sum(OPERATOR + "truthDecisions") == 5);
            assertEquals(
                    5,
                    second.summaries(OPERATOR + "decisionLatencyMs").stream()
                            .mapToLong(h -> h.getSampleCount())
                            .sum(),
                    "every decision's latency is in the histogram");
            long correct = decided.stream()
                    .map(r -> StreamJson.readDecision(r.value()))
                    .filter(r -> r.label.equals(StreamFixtures.TEST.labelOf(
                            Integer.parseInt(r.series.substring(r.series.lastIndexOf('/') + 1)))))
                    .count();
            // On failure, say what Kafka holds and what the job compared, per subtask.
            String seen = decided.stream()
                    .map(r -> StreamJson.readDecision(r.value()))
                    .map(r -> r.series + "=" + r.label + "/" + r.t + " (true "
                            + StreamFixtures.TEST.labelOf(
                                    Integer.parseInt(r.series.substring(r.series.lastIndexOf('/') + 1)))
                            + ")")
                    .toList()
                    .toString();
            assertEquals(
                    correct,
                    second.sum(OPERATOR + "truthCorrect"),
                    decided.size() + " decision records " + seen + "; compared per subtask "
                            + second.byLabels(OPERATOR + "truthDecisions") + ", correct "
                            + second.byLabels(OPERATOR + "truthCorrect"));
            // Each subtask reports its own ratios (the series are spread over the agreement operator's subtasks):
            // pair them with that subtask's counters. Exact up to one division's rounding.
            Map<Map<String, String>, Double> compared = second.byLabels(OPERATOR + "truthDecisions");
            Map<Map<String, String>, Double> right = second.byLabels(OPERATOR + "truthCorrect");
            assertEquals(
                    compared.keySet(),
                    second.byLabels(OPERATOR + "truthAccuracy").keySet());
            for (String ratio : List.of("truthAccuracy", "truthAgreement")) {
                second.byLabels(OPERATOR + ratio).forEach((subtask, value) -> {
                    double n = compared.get(subtask);
                    if (n == 0) {
                        assertTrue(Double.isNaN(value), ratio + " with nothing compared: " + subtask);
                    } else {
                        assertEquals(right.get(subtask) / n, value, 1e-9, ratio + " of " + subtask);
                    }
                });
            }
            for (String address : listeningSockets(c.process().pid())) {
                assertTrue(isLoopback(address), "listening beyond loopback: " + address);
            }
            signal(c.process(), "TERM");
            assertTrue(c.process().waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS), "still running after SIGTERM");
            assertEmpty(tmp, "after SIGTERM");
        } finally {
            c.process().destroyForcibly();
        }
    }

    private static final String OPERATOR = PrometheusScrape.OPERATOR;
    private static final String LAST_CHECKPOINT = PrometheusScrape.JOB + "lastCheckpointDuration";

    private static double decisions(PrometheusScrape s) {
        return s.sum(OPERATOR + "decisionsEarly") + s.sum(OPERATOR + "decisionsComplete");
    }

    /**
     * Scrapes {@code url} until {@code done} holds in two consecutive scrapes and returns the second. Metrics are read at
     * scrape time, one after another, so a scrape is no atomic snapshot: comparisons made while it runs can leave a
     * counter read before them beside one read after (CI saw {@code truthCorrect} 2 beside {@code truthDecisions} 5, and
     * {@code truthAccuracy} 4/4 beside 5 compared). Once the job has nothing left to count, the next scrape is consistent.
     */
    private static PrometheusScrape scrapeUntil(String url, java.util.function.Predicate<PrometheusScrape> done)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        PrometheusScrape previous = null;
        PrometheusScrape s = PrometheusScrape.of(url);
        while (previous == null || !done.test(previous) || !done.test(s)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the scrape never showed what was expected: "
                        + s.families().keySet());
            }
            Thread.sleep(200);
            previous = s;
            s = PrometheusScrape.of(url);
        }
        return s;
    }

    private static List<String> runArgs(String input, String output, boolean bounded) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                input,
                "--output",
                output,
                "--dead-letter",
                output + "-dead",
                "--checkpoint-interval",
                "1s"));
        if (bounded) {
            a.add("--bounded");
        }
        return a;
    }

    /** Publishes the first {@code series} test series of the fixture, complete. */
    private static void produce(String topic, int series) {
        produce(topic, 0, series);
    }

    /** Publishes test series {@code from} .. {@code from + series - 1} of the fixture, complete. */
    private static void produce(String topic, int from, int series) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = from; i < from + series; i++) {
                double[] x = StreamFixtures.TEST.series(i);
                String id = StreamFixtures.id(i);
                for (int t = 1; t <= x.length; t++) {
                    producer.send(
                            new ProducerRecord<>(topic, SampleRecord.key(id), SampleRecord.encode(id, t, x[t - 1])));
                }
            }
        }
    }

    /** Publishes the true labels of test series {@code from} .. {@code from + series - 1}, as vigil replay does. */
    private static void produceTruth(String topic, int from, int series) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int i = from; i < from + series; i++) {
                String id = StreamFixtures.id(i);
                producer.send(new ProducerRecord<>(
                        topic,
                        SampleRecord.key(id),
                        SampleRecord.encodeTruth(id, StreamFixtures.TEST.labelOf(i), StreamFixtures.TEST.length())));
            }
        }
    }

    /** Consumer properties for the decisions topics (read_committed: what a downstream reader sees). */
    private static Map<String, Object> consumer() {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put("key.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        p.put("value.deserializer", org.apache.kafka.common.serialization.ByteArrayDeserializer.class);
        p.put("isolation.level", "read_committed");
        return p;
    }

    private static void signal(Process p, String name) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + name);
    }

    private static HttpResponse<String> get(int port) throws IOException, InterruptedException {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                .timeout(Duration.ofSeconds(30))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LoopbackKafka.HOST))) {
            return s.getLocalPort();
        }
    }

    private static int count(String text, String fragment) {
        return text.split(java.util.regex.Pattern.quote(fragment), -1).length - 1;
    }

    private static void assertOnlyOurTempDirectory(Path tmp, long pid) throws IOException {
        try (Stream<Path> entries = Files.list(tmp)) {
            List<String> names = entries.map(e -> e.getFileName().toString()).toList();
            assertEquals(1, names.size(), "one temp directory while running: " + names);
            assertTrue(names.get(0).startsWith("vigil-run-" + pid + "-"), names.toString());
        }
    }

    private static void assertEmpty(Path tmp, String when) throws IOException {
        try (Stream<Path> entries = Files.walk(tmp)) {
            List<Path> left = entries.filter(e -> !e.equals(tmp)).toList();
            assertEquals(List.of(), left, "temp files left " + when);
        }
    }

    /** {@code address:port} of every TCP socket in LISTEN state that the process holds (from /proc). */
    static Set<String> listeningSockets(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // fds come and go while the process runs
                }
            }
        }
        Set<String> out = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path f = Path.of("/proc", Long.toString(pid), "net", table);
            if (!Files.isReadable(f)) {
                continue;
            }
            for (String line :
                    Files.readAllLines(f).subList(1, Files.readAllLines(f).size())) {
                String[] col = line.trim().split("\\s+");
                if (col.length > 9 && col[3].equals("0A") && inodes.contains(col[9])) { // 0A = LISTEN
                    out.add(address(col[1]));
                }
            }
        }
        return out;
    }

    /** /proc/net/tcp's hex {@code ADDR:PORT} (little-endian 32-bit words) as text. */
    private static String address(String hex) throws IOException {
        String[] parts = hex.split(":");
        byte[] raw = new BigInteger(parts[0], 16).toByteArray();
        int n = parts[0].length() / 2;
        byte[] be = new byte[n];
        byte[] fixed = new byte[n];
        System.arraycopy(raw, Math.max(0, raw.length - n), fixed, Math.max(0, n - raw.length), Math.min(n, raw.length));
        for (int w = 0; w < n / 4; w++) {
            int v = ByteBuffer.wrap(fixed, 4 * w, 4).order(ByteOrder.BIG_ENDIAN).getInt();
            ByteBuffer.wrap(be, 4 * w, 4).order(ByteOrder.LITTLE_ENDIAN).putInt(v);
        }
        return InetAddress.getByAddress(be).getHostAddress() + ":" + Integer.parseInt(parts[1], 16);
    }

    private static boolean isLoopback(String addressAndPort) {
        String host = addressAndPort.substring(0, addressAndPort.lastIndexOf(':'));
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }
}
