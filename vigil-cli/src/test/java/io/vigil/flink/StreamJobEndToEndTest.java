package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vigil.cli.VigilCli;
import io.vigil.data.Dataset;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.SeriesDecision;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.SampleRecord;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import io.vigil.util.Progress;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The production job end to end: Apache Kafka's own broker on loopback, {@code vigil run --bounded} on an
 * embedded Flink MiniCluster with exactly-once delivery, decisions read back with read_committed.
 */
class StreamJobEndToEndTest {
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static LoopbackKafka kafka;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startKafka() {
        kafka = LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(2));
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static Map<String, Object> consumerProps() {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return p;
    }

    /** What a successful {@code vigil} command printed. */
    private record Printed(String out, String err) {}

    private static Printed run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = VigilCli.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        assertEquals(0, code, () -> "vigil " + String.join(" ", args) + " failed: " + err);
        return new Printed(out.toString(), err.toString());
    }

    @Test
    void boundedExactlyOnceRunGivesOneDecisionPerSeriesEqualToTheOfflineEvaluationAndDeadLettersThePoison()
            throws Exception {
        Path model = dir.resolve("cbf.model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        String samples = "e2e-samples";
        kafka.createTopic(samples, 2);
        Map<String, String> poison = new TreeMap<>();
        poison.put("not json", "poison/1");
        poison.put("{\"series\":\"poison/2\",\"t\":1,\"value\":NaN}", "poison/2");
        poison.put("{\"series\":\"poison/3\",\"t\":0,\"value\":1.0}", "poison/3");
        poison.put("{\"series\":\"poison/4\",\"t\":1}", "poison/4");
        poison.put("{\"series\":\"other\",\"t\":1,\"value\":1.0}", "poison/5");
        poison.put("{\"series\":\"CBF/test/0\",\"t\":129,\"value\":1.0}", "CBF/test/0");
        // Published before the replay: the replay's own t = 1 of CBF/test/1 (same bytes) is then the duplicate.
        String first = new String(
                SampleRecord.encode("CBF/test/1", 1, StreamFixtures.TEST.value(1, 0)), StandardCharsets.UTF_8);
        poison.put(first, "CBF/test/1");
        poison.put("{\"series\":\"CBF/test/2\",\"t\":100,\"value\":1.0}", "CBF/test/2");
        Map<String, Object> pp = new HashMap<>(kafka.clientProperties());
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp)) {
            for (Map.Entry<String, String> e : poison.entrySet()) {
                p.send(new ProducerRecord<>(
                        samples,
                        e.getValue().getBytes(StandardCharsets.UTF_8),
                        e.getKey().getBytes(StandardCharsets.UTF_8)));
            }
            p.flush();
        }

        Replay.run(
                StreamFixtures.TEST,
                Replay.Split.TEST,
                new Replay.Settings(samples, null, 0, 10, 1),
                kafka.clientProperties(),
                Progress.none());
        Printed printed = run(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--json",
                "--input",
                samples,
                "--output",
                "e2e-decisions",
                "--dead-letter",
                "e2e-dead",
                "--bounded",
                "--parallelism",
                "2",
                "--checkpoint-interval",
                "500ms",
                "--delivery",
                "exactly-once",
                "--state-dir",
                dir.resolve("e2e-state").toString());

        int n = StreamFixtures.TEST.size();
        List<ConsumerRecord<byte[], byte[]>> records =
                KafkaTestSupport.readTopic(consumerProps(), "e2e-decisions", n, READ_TIMEOUT);
        assertEquals(
                n,
                records.size(),
                () -> "exactly one decision per series: "
                        + records.stream()
                                .map(r -> new String(r.value(), StandardCharsets.UTF_8))
                                .filter(v -> !v.contains("CBF/test/"))
                                .toList());
        Map<String, DecisionRecord> byId = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            DecisionRecord d = StreamJson.readDecision(r.value());
            assertEquals(d.series, new String(r.key(), StandardCharsets.UTF_8), "key = series id");
            assertEquals(null, byId.put(d.series, d), "second decision for " + d.series);
        }
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        List<String> classes = StreamFixtures.classifier().classNames();
        for (int i = 0; i < n; i++) {
            DecisionRecord d = byId.get("CBF/test/" + i);
            assertEquals(DecisionRecord.DECIDED, d.status);
            assertEquals(offline.get(i).t(), d.t, "t of series " + i);
            assertEquals(classes.get(offline.get(i).label()), d.label, "label of series " + i);
            assertEquals(offline.get(i).early(), d.early);
        }

        List<ConsumerRecord<byte[], byte[]>> dead =
                KafkaTestSupport.readTopic(consumerProps(), "e2e-dead", poison.size(), READ_TIMEOUT);
        Map<String, String> reasons = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            JsonNode j = MAPPER.readTree(r.value());
            reasons.put(j.get("value").asText(), j.get("reason").asText());
            assertEquals(samples, j.get("topic").asText());
            assertTrue(j.get("offset").asLong() >= 0);
        }
        assertEquals(
                Map.of(
                        "not json",
                        "unparseable_json",
                        "{\"series\":\"poison/2\",\"t\":1,\"value\":NaN}",
                        "non_finite_value",
                        "{\"series\":\"poison/3\",\"t\":0,\"value\":1.0}",
                        "t_below_one",
                        "{\"series\":\"poison/4\",\"t\":1}",
                        "missing_field",
                        "{\"series\":\"other\",\"t\":1,\"value\":1.0}",
                        "key_mismatch",
                        "{\"series\":\"CBF/test/0\",\"t\":129,\"value\":1.0}",
                        "t_beyond_length",
                        first,
                        "duplicate",
                        "{\"series\":\"CBF/test/2\",\"t\":100,\"value\":1.0}",
                        "gap_beyond_buffer"),
                reasons);

        // The summary (--json: one object on stdout) counts what the topics hold; 2 mismatched samples in
        // thousands are no model/stream mismatch.
        JsonNode summary = MAPPER.readTree(printed.out());
        long early = offline.stream().filter(SeriesDecision::early).count();
        assertEquals(early, summary.get("decided_early").asLong(), printed.out());
        assertEquals(n - early, summary.get("decided_complete").asLong(), printed.out());
        assertEquals(0, summary.get("undecided").asLong());
        assertEquals(0, summary.get("abandoned").asLong());
        assertEquals(
                (long) n * StreamFixtures.TEST.length() + 3,
                summary.get("samples").asLong());
        assertTrue(summary.get("seconds").asDouble() > 0);
        Map<String, String> counted = new TreeMap<>();
        summary.get("dead_letters").fields().forEachRemaining(e -> {
            if (e.getValue().asLong() > 0) {
                counted.put(e.getKey(), e.getValue().asText());
            }
        });
        Map<String, String> expected = new TreeMap<>();
        reasons.values().forEach(r -> expected.put(r, "1"));
        assertEquals(expected, counted);
        assertFalse(printed.err().contains("WARN"), printed.err());
    }

    /**
     * Series longer than the model's d dead-letter their tail as t_beyond_length; the run says so in one
     * WARN line naming the counts and the model's d, and the summary counts them.
     */
    @Test
    void streamLongerThanTheModelGetsOneWarnLine() throws Exception {
        Path model = dir.resolve("cbf-short.model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        int d = StreamFixtures.TEST.length();
        int series = 10;
        int length = d + d / 4;
        String samples = "long-samples";
        kafka.createTopic(samples, 1);
        Map<String, Object> pp = new HashMap<>(kafka.clientProperties());
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp)) {
            for (int i = 0; i < series; i++) {
                String id = "long/" + i;
                for (int t = 1; t <= length; t++) {
                    double v = StreamFixtures.TEST.value(i, (t - 1) % d);
                    p.send(new ProducerRecord<>(samples, SampleRecord.key(id), SampleRecord.encode(id, t, v)));
                }
            }
            p.flush();
        }
        Printed printed = run(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                samples,
                "--output",
                "long-decisions",
                "--dead-letter",
                "long-dead",
                "--bounded",
                "--checkpoint-interval",
                "500ms");
        long beyond = (long) series * (length - d);
        List<String> warnings =
                printed.err().lines().filter(l -> l.contains("WARN")).toList();
        assertEquals(1, warnings.size(), printed.err());
        String w = warnings.get(0);
        assertTrue(w.startsWith("vigil run: WARN the stream does not fit the model"), w);
        assertTrue(w.contains(String.format(java.util.Locale.ROOT, "%,d t_beyond_length", beyond)), w);
        assertTrue(w.contains("d = " + d), w);
        assertTrue(
                printed.out().contains("decided early ")
                        && printed.out().contains(String.format(java.util.Locale.ROOT, "t_beyond_length %,d", beyond)),
                printed.out());
    }

    /**
     * A bounded run whose input ends before series complete gives every series exactly one record — the
     * decision of those decided before the cut, an undecided record (t = samples consumed, the label it would get
     * now) for the others — and dead-letters the sample still waiting in a reorder buffer. A series of one sample far
     * outside the training range is decided and marked out_of_range by the default range guard.
     */
    @Test
    void boundedRunCutShortGivesEverySeriesOneRecord() throws Exception {
        Path model = dir.resolve("cbf-cut.model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        String samples = "cut-samples";
        kafka.createTopic(samples, 2);
        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        int n = 30;
        int[] cut = new int[n];
        Map<String, Object> pp = new HashMap<>(kafka.clientProperties());
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp)) {
            for (int i = 0; i < n; i++) {
                int decidedAt = offline.get(i).t();
                cut[i] = i % 2 == 0 ? Math.max(1, decidedAt - 1) : Math.min(128, decidedAt + 1);
                String id = StreamFixtures.id(i);
                for (int t = 1; t <= cut[i]; t++) {
                    p.send(new ProducerRecord<>(
                            samples,
                            id.getBytes(StandardCharsets.UTF_8),
                            SampleRecord.encode(id, t, StreamFixtures.TEST.value(i, t - 1))));
                }
            }
            // One series of a single sample far outside the training range: under the default --out-of-range
            // reject the sample is dead-lettered and the series, left with no value, ends abandoned with one record.
            p.send(new ProducerRecord<>(
                    samples, "huge".getBytes(StandardCharsets.UTF_8), SampleRecord.encode("huge", 1, 1e100)));
            // Series 0 also gets t = cut + 2, which waits in the reorder buffer for t = cut + 1 until the input ends.
            String id = StreamFixtures.id(0);
            p.send(new ProducerRecord<>(
                    samples,
                    id.getBytes(StandardCharsets.UTF_8),
                    SampleRecord.encode(id, cut[0] + 2, StreamFixtures.TEST.value(0, cut[0] + 1))));
            p.flush();
        }
        run(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                samples,
                "--output",
                "cut-decisions",
                "--dead-letter",
                "cut-dead",
                "--bounded",
                "--parallelism",
                "2",
                "--checkpoint-interval",
                "500ms");
        List<ConsumerRecord<byte[], byte[]>> records =
                KafkaTestSupport.readTopic(consumerProps(), "cut-decisions", n + 1, READ_TIMEOUT);
        Map<String, DecisionRecord> byId = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            DecisionRecord d = StreamJson.readDecision(r.value());
            assertEquals(null, byId.put(d.series, d), "second record for " + d.series);
        }
        assertEquals(n + 1, byId.size());
        DecisionRecord huge = byId.remove("huge");
        assertEquals(DecisionRecord.ABANDONED, huge.status);
        assertEquals(1, huge.outOfRangeSamples, "the default range guard (K = 8) rejects it");
        assertTrue(byId.values().stream().noneMatch(d -> d.outOfRange));
        List<String> classes = StreamFixtures.classifier().classNames();
        int undecided = 0;
        for (int i = 0; i < n; i++) {
            DecisionRecord d = byId.get(StreamFixtures.id(i));
            if (cut[i] >= offline.get(i).t()) {
                assertEquals(DecisionRecord.DECIDED, d.status, d.series);
                assertEquals(offline.get(i).t(), d.t, d.series);
                assertEquals(classes.get(offline.get(i).label()), d.label, d.series);
            } else {
                assertEquals(DecisionRecord.UNDECIDED, d.status, d.series);
                assertEquals(cut[i], d.t, d.series);
                assertFalse(d.early);
                assertTrue(classes.contains(d.label), d.label);
                assertTrue(d.reliability >= 0.0 && d.reliability < d.tau, d.series + ": " + d.reliability);
                undecided++;
            }
        }
        assertTrue(undecided >= n / 3, "series cut before their decision: " + undecided);
        List<ConsumerRecord<byte[], byte[]>> dead =
                KafkaTestSupport.readTopic(consumerProps(), "cut-dead", 2, READ_TIMEOUT);
        assertEquals(2, dead.size());
        Map<String, JsonNode> byReason = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            JsonNode j = MAPPER.readTree(r.value());
            byReason.put(j.get("reason").asText(), j);
        }
        assertEquals(java.util.Set.of("gap_unfilled", "out_of_range"), byReason.keySet());
        assertEquals(cut[0] + 2, byReason.get("gap_unfilled").get("t").asInt());
    }

    /**
     * A non-decodable record of 600 KB and one whose 900 KB key disagrees with its series field become dead
     * letters with a bounded copy of the value (plus its size and SHA-256) instead of records the producer refuses,
     * so the bounded exactly-once job finishes and decides every series.
     */
    @Test
    @Timeout(value = 180, unit = java.util.concurrent.TimeUnit.SECONDS) // before the fix the job restarted forever
    void oversizedBadRecordsAreDeadLetteredWithoutStallingTheJob() throws Exception {
        Path model = dir.resolve("cbf-big.model.json");
        ModelFile.standard().save(EarlyFixtures.CBF_MODEL, model);
        String samples = "big-samples";
        kafka.createTopic(samples, 1);
        byte[] junk = "x".repeat(600_000).getBytes(StandardCharsets.UTF_8);
        byte[] bigKey = "k".repeat(900_000).getBytes(StandardCharsets.UTF_8);
        byte[] mismatch = "{\"series\":\"CBF/test/0\",\"t\":1,\"value\":1.0}".getBytes(StandardCharsets.UTF_8);
        Map<String, Object> pp = new HashMap<>(kafka.clientProperties());
        pp.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        pp.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(pp)) {
            p.send(new ProducerRecord<>(samples, "junk".getBytes(StandardCharsets.UTF_8), junk));
            p.send(new ProducerRecord<>(samples, bigKey, mismatch));
            p.flush();
        }
        Dataset three = StreamFixtures.TEST.subset(new int[] {0, 1, 2});
        Replay.run(
                three,
                Replay.Split.TEST,
                new Replay.Settings(samples, null, 0, 3, 1),
                kafka.clientProperties(),
                Progress.none());
        run(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                samples,
                "--output",
                "big-decisions",
                "--dead-letter",
                "big-dead",
                "--bounded",
                "--checkpoint-interval",
                "500ms",
                "--state-dir",
                dir.resolve("big-state").toString());
        assertEquals(
                3,
                KafkaTestSupport.readTopic(consumerProps(), "big-decisions", 3, READ_TIMEOUT)
                        .size());
        List<ConsumerRecord<byte[], byte[]>> dead =
                KafkaTestSupport.readTopic(consumerProps(), "big-dead", 2, READ_TIMEOUT);
        assertEquals(2, dead.size());
        Map<String, JsonNode> byReason = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : dead) {
            assertTrue(r.value().length < 200_000, "dead letter of " + r.value().length + " bytes");
            assertTrue(r.key() == null || r.key().length <= 1024, "key of " + (r.key() == null ? 0 : r.key().length));
            JsonNode j = MAPPER.readTree(r.value());
            byReason.put(j.get("reason").asText(), j);
        }
        JsonNode j = byReason.get("unparseable_json");
        assertEquals(600_000, j.get("value_size").asInt());
        assertTrue(j.get("value_truncated").asBoolean());
        assertEquals(
                java.util.HexFormat.of()
                        .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                                .digest(junk)),
                j.get("value_sha256").asText());
        assertEquals(65_536, Base64.getDecoder().decode(j.get("value_base64").asText()).length);
        JsonNode k = byReason.get("key_mismatch");
        assertEquals(mismatch.length, k.get("value_size").asInt());
        assertFalse(k.get("value_truncated").asBoolean());
        assertEquals(1, k.get("t").asInt(), "the decoder read t = 1 before it found the mismatch");
        assertTrue(k.get("series").asText().length() <= 1025, "series id cut");
    }
}
