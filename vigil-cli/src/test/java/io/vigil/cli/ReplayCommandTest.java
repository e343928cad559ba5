package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.vigil.data.DataFormat;
import io.vigil.data.Dataset;
import io.vigil.data.DatasetWriter;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.cli.Json;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.SampleRecord.Sample;
import io.vigil.kafka.SampleRecord.Truth;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code vigil replay} in-process against a real loopback broker; every topic is read back and checked. */
class ReplayCommandTest {
    private static final int TRAIN = 6;
    private static final int TEST = 24;
    private static final int LENGTH = SyntheticKind.CBF.length();

    @TempDir
    static Path dir;

    private static LoopbackKafka kafka;
    private static TrainTest data;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void setUp() throws IOException {
        kafka = LoopbackKafka.start();
        data = SyntheticData.generate(SyntheticKind.CBF, TRAIN, TEST, 42);
        DatasetWriter.write(data.train(), dir.resolve("CBF/CBF_TRAIN.tsv"), DataFormat.TSV, false);
        DatasetWriter.write(data.test(), dir.resolve("CBF/CBF_TEST.tsv"), DataFormat.TSV, false);
    }

    @AfterAll
    static void tearDown() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private int run(String... args) {
        List<String> full = new ArrayList<>(List.of("replay", "--data", dir.toString(), "--dataset", "CBF"));
        full.addAll(List.of(args));
        return VigilCli.commandLine()
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(full.toArray(String[]::new));
    }

    private JsonNode json() throws IOException {
        String s = out.toString().strip();
        assertFalse(s.contains("\n"), "exactly one line on stdout: " + s);
        return Json.mapper().readTree(s);
    }

    @Test
    void publishesEverySampleOfEverySeriesInOrderWithTruth() throws IOException {
        kafka.createTopic("all-samples", 3);
        int code = run(
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "all-samples",
                "--truth-topic",
                "all-truth",
                "--concurrency",
                "5",
                "--json");
        assertEquals(0, code, err.toString());
        JsonNode j = json();
        assertEquals(TEST, j.get("series").asInt());
        assertEquals((long) TEST * LENGTH, j.get("samples").asLong());
        assertEquals(TEST, j.get("truth_records").asInt());
        assertEquals("test", j.get("split").asText());
        assertTrue(j.get("samples_per_s").asDouble() > 0);

        Map<String, List<Sample>> bySeries = readSamples("all-samples", TEST * LENGTH);
        assertEquals(TEST, bySeries.size());
        Dataset test = data.test();
        for (int i = 0; i < TEST; i++) {
            String id = "CBF/test/" + i;
            List<Sample> samples = bySeries.get(id);
            assertEquals(LENGTH, samples.size(), id);
            for (int t = 1; t <= LENGTH; t++) {
                Sample s = samples.get(t - 1);
                assertEquals(t, s.t(), id + " arrives in t order");
                assertEquals(test.value(i, t - 1), s.value(), 0.0, id + " value at t=" + t + " is exact");
            }
        }
        List<ConsumerRecord<byte[], byte[]>> truth = read("all-truth", TEST);
        assertEquals(TEST, truth.size());
        for (ConsumerRecord<byte[], byte[]> r : truth) {
            Truth tr = SampleRecord.decodeTruth(r.key(), r.value()).value();
            int i = Integer.parseInt(tr.series().substring("CBF/test/".length()));
            assertEquals(test.labelOf(i), tr.label(), tr.series());
            assertEquals(LENGTH, tr.length());
        }
    }

    /** On one partition the log order is the send order: K series advance one sample each per round. */
    @Test
    void interleavesConcurrentSeriesRoundRobin() {
        kafka.createTopic("round-robin", 1);
        int k = 3;
        assertEquals(
                0,
                run(
                        "--split",
                        "train",
                        "--bootstrap",
                        kafka.bootstrapServers(),
                        "--topic",
                        "round-robin",
                        "--concurrency",
                        "" + k),
                err.toString());
        assertTrue(
                out.toString().startsWith("replayed 6 series (768 samples) of CBF/train to round-robin in "),
                out.toString());
        List<ConsumerRecord<byte[], byte[]>> records = read("round-robin", TRAIN * LENGTH);
        List<String> expected = new ArrayList<>();
        for (int block = 0; block < TRAIN / k; block++) {
            for (int t = 1; t <= LENGTH; t++) {
                for (int slot = 0; slot < k; slot++) {
                    expected.add("CBF/train/" + (block * k + slot) + "@" + t);
                }
            }
        }
        List<String> actual = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            Sample s = SampleRecord.decode(r.key(), r.value()).value();
            actual.add(s.series() + "@" + s.t());
        }
        assertEquals(expected, actual);
    }

    @Test
    void repeatNumbersThePasses() throws IOException {
        assertEquals(
                0,
                run(
                        "--split",
                        "train",
                        "--bootstrap",
                        kafka.bootstrapServers(),
                        "--topic",
                        "repeated",
                        "--repeat",
                        "2",
                        "--json"),
                err.toString());
        assertEquals(2 * TRAIN, json().get("series").asInt());
        Map<String, List<Sample>> bySeries = readSamples("repeated", 2 * TRAIN * LENGTH);
        List<String> expectedIds = new ArrayList<>();
        for (int pass = 1; pass <= 2; pass++) {
            for (int i = 0; i < TRAIN; i++) {
                expectedIds.add("CBF/train/" + i + "#" + pass);
            }
        }
        assertEquals(
                expectedIds.stream().sorted().toList(),
                bySeries.keySet().stream().sorted().toList());
        for (int i = 0; i < TRAIN; i++) {
            List<Sample> first = bySeries.get("CBF/train/" + i + "#1");
            List<Sample> second = bySeries.get("CBF/train/" + i + "#2");
            for (int t = 0; t < LENGTH; t++) {
                assertEquals(first.get(t).value(), second.get(t).value(), 0.0);
                assertEquals(data.train().value(i, t), second.get(t).value(), 0.0);
            }
        }
    }

    @Test
    void rateLimitHoldsTheSampleRate() throws IOException {
        double rate = 1000;
        assertEquals(
                0,
                run(
                        "--split",
                        "train",
                        "--bootstrap",
                        kafka.bootstrapServers(),
                        "--topic",
                        "limited",
                        "--rate",
                        "" + rate,
                        "--json"),
                err.toString());
        // 768 samples at 1000/s, less the 10-sample initial burst, cannot take less than 0.758 s.
        double minimum = (TRAIN * LENGTH - rate / 100) / rate;
        double elapsed = json().get("elapsed_s").asDouble();
        assertTrue(elapsed >= minimum, "elapsed " + elapsed + " s < " + minimum + " s");
    }

    @Test
    void sendFailureExitsOneWithKafkasReason() throws IOException {
        Path props = dir.resolve("tiny-requests.properties");
        Files.writeString(props, "max.request.size=16\n"); // every record is larger: the producer refuses it
        int code = run(
                "--split",
                "train",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "nowhere",
                "--kafka-properties",
                props.toString());
        assertEquals(1, code);
        String e = err.toString().strip();
        assertTrue(e.startsWith("vigil replay: replay to nowhere failed after 0 of "), e);
        assertTrue(e.contains("RecordTooLargeException"), e);
        assertEquals(1, e.lines().count(), e);
        assertEquals("", out.toString());
    }

    @Test
    void refusesPropertiesThatWeakenDelivery() throws IOException {
        Path props = dir.resolve("weak.properties");
        Files.writeString(props, "acks=1\n");
        int code =
                run("--bootstrap", kafka.bootstrapServers(), "--topic", "weak", "--kafka-properties", props.toString());
        assertEquals(1, code);
        assertTrue(err.toString().startsWith("vigil replay: acks=1 is not allowed"), err.toString());
    }

    /** Client properties pass through to the producer; secret values never reach stdout or stderr. */
    @Test
    void passesPropertiesThroughAndNeverPrintsSecrets() throws IOException {
        Path props = dir.resolve("client.properties");
        Files.writeString(
                props,
                String.join(
                        "\n",
                        "linger.ms=1",
                        "client.id=replay-under-test",
                        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                                + " username=\"u\" password=\"hunter2\";",
                        "ssl.truststore.password=hunter2",
                        ""));
        int code = run(
                "--split",
                "train",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--topic",
                "with-props",
                "--kafka-properties",
                props.toString(),
                "--json");
        assertEquals(0, code, err.toString());
        JsonNode p = json().get("kafka_properties");
        assertEquals("1", p.get("linger.ms").asText());
        assertEquals("replay-under-test", p.get("client.id").asText());
        assertEquals("[hidden]", p.get("sasl.jaas.config").asText());
        assertEquals("[hidden]", p.get("ssl.truststore.password").asText());
        assertFalse(out.toString().contains("hunter2"), out.toString());
        assertFalse(err.toString().contains("hunter2"), err.toString());
    }

    @Test
    void conflictingBootstrapIsAUsageErrorNamingBoth() throws IOException {
        Path props = dir.resolve("kb.properties");
        Files.writeString(props, "bootstrap.servers=127.0.0.1:1\n");
        int code = run("--bootstrap", kafka.bootstrapServers(), "--topic", "x", "--kafka-properties", props.toString());
        assertEquals(2, code);
        assertTrue(
                err.toString().contains("--bootstrap " + kafka.bootstrapServers())
                        && err.toString().contains("bootstrap.servers=127.0.0.1:1 in --kafka-properties " + props),
                err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void usageErrorsExitTwo() {
        String b = kafka.bootstrapServers();
        assertEquals(2, run("--bootstrap", b, "--topic", "x", "--rate", "-1"));
        assertEquals(2, run("--bootstrap", b, "--topic", "x", "--concurrency", "0"));
        assertEquals(2, run("--bootstrap", b, "--topic", "x", "--repeat", "0"));
        assertEquals(2, run("--bootstrap", b, "--topic", "x", "--split", "validation"));
        assertEquals(2, run("--bootstrap", "no-port", "--topic", "x"));
        assertEquals(2, run("--bootstrap", b, "--topic", "x", "--truth-topic", "x"));
        assertEquals(2, run("--bootstrap", b));
        assertEquals("", out.toString());
    }

    /** Decodes every record of {@code topic} (which must decode) and groups the samples by key, in log order. */
    private static Map<String, List<Sample>> readSamples(String topic, int expected) {
        Map<String, List<Sample>> bySeries = new LinkedHashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : read(topic, expected)) {
            Sample s = SampleRecord.decode(r.key(), r.value()).value();
            assertEquals(s.series(), new String(r.key(), StandardCharsets.UTF_8));
            bySeries.computeIfAbsent(s.series(), k -> new ArrayList<>()).add(s);
        }
        assertEquals(expected, bySeries.values().stream().mapToInt(List::size).sum(), "no surplus records");
        return bySeries;
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(String topic, int expected) {
        Map<String, Object> p = new HashMap<>();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return KafkaTestSupport.readTopic(p, topic, expected, Duration.ofSeconds(30));
    }
}
