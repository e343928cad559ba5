package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.stream.StreamFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Errors no restart can fix, found before a job or replay starts ({@link KafkaPreflight}): an unreachable broker,
 * a missing input topic, a malformed JAAS line and a missing truststore each end {@code vigil run --bounded} and
 * {@code vigil replay} with exit 1 and one line naming the cause, within the preflight timeout, on the loopback
 * broker. Before the preflight these runs restarted forever (run) or waited 61 s with 130 warnings (replay).
 */
class KafkaPreflightCommandTest {
    private static LoopbackKafka kafka;

    @TempDir
    static Path dir;

    private static Path model;

    @BeforeAll
    static void start() throws IOException {
        kafka = LoopbackKafka.start();
        kafka.createTopic("present", 1);
        model = dir.resolve("cbf.model.json");
        Files.write(model, StreamFixtures.MODEL_BYTES);
    }

    @AfterAll
    static void stop() {
        kafka.close();
    }

    private record Outcome(int code, String out, String err, Duration took) {
        /** The non-blank lines of stderr. */
        List<String> errLines() {
            return err.lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private static Outcome vigil(String... args) {
        CommandLine cl = VigilCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        long t0 = System.nanoTime();
        int code = cl.execute(args);
        return new Outcome(code, out.toString(), err.toString(), Duration.ofNanos(System.nanoTime() - t0));
    }

    private static String[] run(String bootstrap, String input, String... more) {
        List<String> a = new java.util.ArrayList<>(List.of(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                bootstrap,
                "--input",
                input,
                "--output",
                "decisions",
                "--dead-letter",
                "dead",
                "--bounded",
                "--preflight-timeout",
                "3s"));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    /** A loopback port nothing listens on (bound, then released). */
    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LoopbackKafka.HOST))) {
            return s.getLocalPort();
        }
    }

    private static void assertOneLine(Outcome o, String command, String... fragments) {
        assertEquals(1, o.code(), o.err());
        List<String> lines = o.errLines();
        assertEquals(1, lines.size(), () -> "one line, got:\n" + o.err());
        assertTrue(lines.get(0).startsWith("vigil " + command + ": "), lines.get(0));
        for (String f : fragments) {
            assertTrue(lines.get(0).contains(f), () -> "'" + f + "' in: " + lines.get(0));
        }
        assertTrue(o.took().compareTo(Duration.ofSeconds(30)) < 0, "bounded wait: " + o.took());
    }

    @Test
    void boundedRunOnAMissingTopicEndsAtOnce() {
        Outcome o = vigil(run(kafka.bootstrapServers(), "no-such-topic"));
        assertOneLine(o, "run", "input topic 'no-such-topic' does not exist at " + kafka.bootstrapServers());
    }

    @Test
    void unreachableBrokerEndsWithinThePreflightTimeout() throws IOException {
        String nowhere = LoopbackKafka.HOST + ":" + closedPort();
        assertOneLine(vigil(run(nowhere, "present")), "run", "no Kafka broker answered at " + nowhere, "within 3 s");
        assertOneLine(vigil(replayArgs(nowhere, "x")), "replay", "no Kafka broker answered at " + nowhere);
    }

    @Test
    void malformedJaasLineIsNamed() throws IOException {
        Path props = dir.resolve("bad-jaas.properties");
        Files.writeString(
                props,
                "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                        + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                        + " username=\"a\" password=\"secret-value\"\n");
        Outcome o = vigil(run(kafka.bootstrapServers(), "present", "--config", props.toString()));
        assertOneLine(o, "run", "JAAS config entry not terminated by semi-colon");
        assertTrue(!o.err().contains("secret-value"), "the secret is never printed");
        Outcome r = vigil(concat(replayArgs(kafka.bootstrapServers(), "x"), "--kafka-properties", props.toString()));
        assertOneLine(r, "replay", "JAAS config entry not terminated by semi-colon");
    }

    @Test
    void missingTruststoreIsNamed() throws IOException {
        Path props = dir.resolve("ssl.properties");
        Path trust = dir.resolve("absent/truststore.jks");
        Files.writeString(
                props, "security.protocol=SSL\nssl.truststore.location=" + trust + "\nssl.truststore.password=x\n");
        Outcome o = vigil(run(kafka.bootstrapServers(), "present", "--config", props.toString()));
        assertOneLine(o, "run", trust + ": no such file or directory");
        Outcome r = vigil(concat(replayArgs(kafka.bootstrapServers(), "x"), "--kafka-properties", props.toString()));
        assertOneLine(r, "replay", trust + ": no such file or directory");
    }

    /**
     * A topic whose brokers refuse the records the job writes would fail the sink on every attempt (and, on the
     * embedded cluster, kill its TaskManager): the preflight compares {@code max.message.bytes} with the largest
     * decision and dead letter and says which flag or setting helps.
     */
    @Test
    void outputTopicsTooSmallForTheRecordsAreRefusedBeforeTheJobStarts() throws Exception {
        try (Admin admin = Admin.create(Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(
                            new NewTopic("tiny-decisions", 1, (short) 1).configs(Map.of("max.message.bytes", "8")),
                            new NewTopic("small-dead", 1, (short) 1).configs(Map.of("max.message.bytes", "100000"))))
                    .all()
                    .get();
        }
        String[] tiny = run(kafka.bootstrapServers(), "present");
        tiny[java.util.Arrays.asList(tiny).indexOf("decisions")] = "tiny-decisions";
        assertOneLine(vigil(tiny), "run", "topic 'tiny-decisions' accepts records of at most 8 bytes");

        String[] small = run(kafka.bootstrapServers(), "present");
        small[java.util.Arrays.asList(small).indexOf("dead")] = "small-dead";
        assertOneLine(
                vigil(small),
                "run",
                "topic 'small-dead' accepts records of at most 100000 bytes",
                "--dead-letter-max-bytes");
        Outcome fits = vigil(concat(
                small,
                "--dead-letter-max-bytes",
                "4096",
                "--state-dir",
                dir.resolve("state").toString()));
        assertEquals(0, fits.code(), () -> "a smaller copy fits the topic: " + fits.err());
    }

    @Test
    void awaitTopicSaysOnceThatItWaitsAndReturnsWhenTheTopicAppears() throws Exception {
        AtomicInteger said = new AtomicInteger();
        try (KafkaPreflight p =
                KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), KafkaPreflight.DEFAULT_TIMEOUT)) {
            Thread creator = new Thread(() -> {
                try {
                    Thread.sleep(3 * KafkaPreflight.POLL_SECONDS * 1_000);
                    kafka.createTopic("appears-later", 1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            creator.start();
            p.awaitTopic("appears-later", said::incrementAndGet);
            creator.join();
            assertTrue(p.topicExists("appears-later"));
        }
        assertEquals(1, said.get(), "said once, however long it waited");
    }

    private static String[] replayArgs(String bootstrap, String topic) throws IOException {
        Path data = dir.resolve("data");
        if (!Files.isDirectory(data.resolve("CBF"))) {
            assertEquals(
                    0,
                    vigil("generate", "--kind", "cbf", "--train", "6", "--test", "6", "--out", data.toString())
                            .code());
        }
        return new String[] {
            "replay",
            "--data",
            data.toString(),
            "--dataset",
            "CBF",
            "--bootstrap",
            bootstrap,
            "--topic",
            topic,
            "--preflight-timeout",
            "3s"
        };
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
