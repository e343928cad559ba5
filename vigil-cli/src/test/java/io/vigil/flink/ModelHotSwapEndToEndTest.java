package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vigil.cli.VigilCli;
import io.vigil.early.SeriesDecision;
import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.ModelTopic;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.ModelId;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Model hot swap on the embedded job, end to end on the loopback broker with exactly-once delivery: model B is
 * published while series of model A are in flight; every series gets exactly one decision (read_committed), series
 * started before the swap by A, series started after it by B, none lost; an unusable model published meanwhile is
 * ignored. Also {@code vigil run --model-topic} without {@code --model}: the topic's newest model, and a clear error
 * when the topic holds none.
 */
class ModelHotSwapEndToEndTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    /** Model B: model A's file with a trailing newline, the same classifier under another id. */
    private static final byte[] MODEL_B = withNewline(StreamFixtures.MODEL_BYTES);

    private static final String ID_A = ModelId.of(StreamFixtures.MODEL_BYTES);
    private static final String ID_B = ModelId.of(MODEL_B);

    private static LoopbackKafka kafka;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startKafka() {
        kafka = LoopbackKafka.start();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    private static byte[] withNewline(byte[] b) {
        byte[] c = Arrays.copyOf(b, b.length + 1);
        c[b.length] = '\n';
        return c;
    }

    private static String cli(int expectedCode, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = VigilCli.commandLine();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        int code = cl.execute(args);
        assertEquals(expectedCode, code, () -> "vigil " + String.join(" ", args) + ": " + err);
        return err.toString();
    }

    private static void publish(String topic, byte[] model, String name) throws Exception {
        Path f = dir.resolve(name);
        Files.write(f, model);
        cli(0, "publish-model", "--bootstrap", kafka.bootstrapServers(), "--topic", topic, f.toString());
    }

    private static KafkaProducer<byte[], byte[]> producer() {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return new KafkaProducer<>(p);
    }

    private static Map<String, Object> consumerProps() {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return p;
    }

    /** Sends samples t = from..to (1-based, inclusive) of test series {@code i} under the id {@code series}. */
    private static void send(KafkaProducer<byte[], byte[]> p, String topic, String series, int i, int from, int to) {
        double[] x = StreamFixtures.TEST.series(i);
        for (int t = from; t <= to; t++) {
            p.send(new ProducerRecord<>(topic, SampleRecord.key(series), SampleRecord.encode(series, t, x[t - 1])));
        }
        p.flush();
    }

    /** Follows a topic with read_committed, collecting decisions by series. */
    private static final class Decisions implements AutoCloseable {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final List<DecisionRecord> all = new ArrayList<>();

        Decisions(String topic) {
            consumer = new KafkaConsumer<>(consumerProps());
            List<TopicPartition> parts = consumer.partitionsFor(topic, TIMEOUT).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
        }

        /** Polls until a decision for {@code series} arrived; returns it. */
        DecisionRecord await(String series) {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                for (DecisionRecord d : all) {
                    if (d.series.equals(series)) {
                        return d;
                    }
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    all.add(StreamJson.readDecision(r.value()));
                }
            }
            return fail("no decision for " + series + " within " + TIMEOUT.toSeconds() + " s; got " + all.size());
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    @Test
    void seriesStartedBeforeTheSwapAreDecidedByTheOldModelAndLaterOnesByTheNewOneExactlyOnce() throws Exception {
        String samples = "swap-samples";
        String out = "swap-decisions";
        String models = "swap-models";
        kafka.createTopic(samples, 1);
        kafka.createTopic(out, 2);
        kafka.createTopic("swap-dead", 1);
        publish(models, StreamFixtures.MODEL_BYTES, "a.model.json");

        List<SeriesDecision> offline = StreamFixtures.offlineDecisions();
        List<Integer> late = new ArrayList<>(); // series that A decides after t = 10: still undecided at the swap
        for (int i = 0; i < offline.size() && late.size() < 12; i++) {
            if (offline.get(i).t() > 10) {
                late.add(i);
            }
        }
        assertTrue(late.size() >= 6, "fixture has series decided after t = 10: " + late);

        JobConfig cfg = JobConfig.builder(kafka.bootstrapServers(), samples, out, "swap-dead", StreamFixtures.PARAMS)
                .parallelism(2)
                .checkpointInterval(Duration.ofMillis(300))
                .modelFeed(new ModelFeed(
                        models,
                        ModelTopic.read(kafka.bootstrapServers(), Map.of(), models, TIMEOUT)
                                .endOffsets()))
                .build();
        int probes = 0;
        try (LocalFlink flink = LocalFlink.start(OptionalInt.empty());
                KafkaProducer<byte[], byte[]> p = producer();
                Decisions decisions = new Decisions(out)) {
            StreamExecutionEnvironment env = flink.environment();
            VigilJob.attach(env, cfg, StreamFixtures.MODEL_BYTES);
            JobClient job = env.executeAsync("hot swap");
            try {
                for (int i : late) {
                    send(p, samples, "before/" + i, i, 1, 10);
                }
                // A whole series after them: once its decision is committed, a checkpoint barrier followed every
                // sample sent before it, so the series above are in the keyed state (under A) before B is published.
                send(p, samples, "marker", 0, 1, 128);
                assertEquals(ID_A, decisions.await("marker").model);

                try (KafkaProducer<byte[], byte[]> raw = producer()) {
                    raw.send(new ProducerRecord<>(
                            models,
                            ModelTopic.KEY.getBytes(StandardCharsets.UTF_8),
                            "{\"not\": \"a model\"}".getBytes(StandardCharsets.UTF_8)));
                    raw.flush();
                }
                publish(models, MODEL_B, "b.model.json");
                String probeModel;
                do { // probes started before the job read B are decided by A, as they should be
                    String probe = "probe/" + probes++;
                    send(p, samples, probe, 1, 1, 128);
                    probeModel = decisions.await(probe).model;
                } while (!probeModel.equals(ID_B) && probes < 40);
                assertEquals(ID_B, probeModel, "the job swapped to B (after ignoring the unusable model)");

                for (int i : late) {
                    send(p, samples, "before/" + i, i, 11, 128);
                    send(p, samples, "after/" + i, i, 1, 128);
                }
                for (int i : late) {
                    DecisionRecord a = decisions.await("before/" + i);
                    assertEquals(ID_A, a.model, "started under A: decided by A");
                    assertEquals(offline.get(i).t(), a.t, "before/" + i);
                    DecisionRecord b = decisions.await("after/" + i);
                    assertEquals(ID_B, b.model, "started after the swap: decided by B");
                    assertEquals(offline.get(i).t(), b.t, "after/" + i);
                }
            } finally {
                job.cancel().get();
            }
        }
        int expected = 2 * late.size() + 1 + probes;
        List<ConsumerRecord<byte[], byte[]>> all = KafkaTestSupport.readTopic(consumerProps(), out, expected, TIMEOUT);
        Map<String, Integer> perSeries = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> r : all) {
            perSeries.merge(StreamJson.readDecision(r.value()).series, 1, Integer::sum);
        }
        perSeries.forEach((s, n) -> assertEquals(1, n, "decisions for " + s));
        assertEquals(expected, perSeries.size());
        assertTrue(
                KafkaTestSupport.readTopic(consumerProps(), "swap-dead", 0, Duration.ofSeconds(5))
                        .isEmpty(),
                "no sample was lost or rejected");
    }

    private static String[] runArgs(String samples, String out, String models, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                samples,
                "--output",
                out,
                "--dead-letter",
                out + "-dead",
                "--model-topic",
                models,
                "--bounded",
                "--checkpoint-interval",
                "500ms",
                "--state-dir",
                dir.resolve(out + "-state").toString()));
        a.addAll(List.of(more));
        return a.toArray(String[]::new);
    }

    @Test
    void aRunWithoutModelStartsWithTheTopicsNewestModelAndABoundedRunEnds() throws Exception {
        String samples = "start-samples";
        kafka.createTopic(samples, 1);
        publish("start-models", StreamFixtures.MODEL_BYTES, "a.model.json");
        publish("start-models", MODEL_B, "b.model.json");
        try (KafkaProducer<byte[], byte[]> p = producer()) {
            for (int i = 0; i < 3; i++) {
                send(p, samples, StreamFixtures.id(i), i, 1, 128);
            }
        }
        Path fallback = dir.resolve("fallback.model.json");
        Files.write(fallback, withNewline(MODEL_B));
        String err = cli(0, runArgs(samples, "start-decisions", "start-models", "--model", fallback.toString()));
        assertTrue(err.contains("starting with model " + ID_B), err);
        List<ConsumerRecord<byte[], byte[]>> out =
                KafkaTestSupport.readTopic(consumerProps(), "start-decisions", 3, TIMEOUT);
        assertEquals(3, out.size());
        for (ConsumerRecord<byte[], byte[]> r : out) {
            assertEquals(ID_B, StreamJson.readDecision(r.value()).model, "the newest published model, not --model");
        }
    }

    @Test
    void aRunWithoutModelOnAnEmptyModelTopicFailsInOneLine() {
        kafka.createTopic("empty-samples", 1);
        kafka.createTopic("empty-models", 1);
        String err = cli(1, runArgs("empty-samples", "empty-decisions", "empty-models"));
        assertEquals(1, err.strip().lines().count(), err);
        assertTrue(
                err.contains("'empty-models'") && err.contains("holds no model") && err.contains("publish-model"), err);
    }
}
