package io.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.flink.BoundedRun;
import io.vigil.flink.StateDirectory;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.StreamFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The same {@code vigil run --bounded} command run twice on one state directory, against the loopback broker, at
 * checkpoint intervals shorter than the run and longer than it: the first run decides every series once and commits
 * exactly the end offsets it read up to; the second decides nothing and exits 0, within a bound (it used to
 * re-decide everything, or resume a finished run's checkpoint and never end). Records added later are decided by
 * the next run, and {@code --from-beginning} re-scores the whole topic under a new group.
 */
class BoundedRerunTest {
    /** Bound on one run: a bounded run of this size takes seconds; a hang fails the test instead of blocking it. */
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(150);

    private static final int SERIES = 24;

    /** Pairs of runs per interval ({@code -Dvigil.rerun.repetitions=5} for the benchmark figure). */
    private static final int REPETITIONS = Integer.getInteger("vigil.rerun.repetitions", 1);

    private static LoopbackKafka kafka;

    private static Dataset data;

    @TempDir
    static Path shared;

    private static Path model;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        kafka = LoopbackKafka.start();
        model = shared.resolve("cbf.model.json");
        Files.write(model, StreamFixtures.MODEL_BYTES);
        data = SyntheticData.generate(SyntheticKind.CBF, 3, 2 * SERIES, 31L, true)
                .test();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @ParameterizedTest(name = "checkpoint interval {0}")
    @ValueSource(strings = {"1s", "2s", "10min"})
    void aSecondIdenticalBoundedRunDecidesNothingAndExitsZero(String interval) throws Exception {
        for (int rep = 0; rep < REPETITIONS; rep++) {
            twoIdenticalRuns("rerun-" + rep + "-" + interval, interval);
        }
    }

    private void twoIdenticalRuns(String name, String interval) throws Exception {
        String in = name + "-in";
        String out = name + "-out";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        produce(in, 0, SERIES);
        Path state = dir.resolve(name);
        List<String> cmd = args(in, out, state, "--checkpoint-interval", interval);

        Outcome first = vigil(cmd);
        assertEquals(0, first.code(), first.err());
        Map<String, Integer> decided = decisions(out);
        assertEquals(series(0, SERIES), decided.keySet(), first.err());
        assertTrue(decided.values().stream().allMatch(n -> n == 1), decided::toString);
        Map<Integer, Long> end = endOffsets(in);
        assertEquals(end, committed("vigil-" + in, in), "the group's offsets are the end offsets read up to");
        assertTrue(
                StateDirectory.latestCheckpoint(state.resolve(StateDirectory.CHECKPOINTS))
                        .isEmpty(),
                "a finished bounded run leaves no checkpoint");
        assertTrue(Files.readString(state.resolve(StateDirectory.BOUNDED_RUN)).contains("finished_at"));

        Outcome second = vigil(cmd);
        assertEquals(0, second.code(), second.err());
        assertTrue(
                second.err()
                        .contains("vigil run: nothing to decide: consumer group vigil-" + in + " has committed "
                                + "offsets at the end of " + in + " (" + BoundedRun.describe(end) + "), decided by the "
                                + "bounded run that finished at "),
                second.err());
        assertFalse(second.err().contains("resuming from checkpoint"), second.err());
        assertEquals(decided, decisions(out), "no decision added by the second run");
        assertEquals(end, committed("vigil-" + in, in));
    }

    @Test
    void aCheckpointLeftBesideAFinishedRunIsNotResumed() throws Exception {
        String in = "left-in";
        String out = "left-out";
        kafka.createTopic(in, 1);
        kafka.createTopic(out, 1);
        produce(in, 0, 4);
        Path state = dir.resolve("state");
        List<String> cmd = args(in, out, state, "--checkpoint-interval", "1s");
        assertEquals(0, vigil(cmd).code());
        // As a process killed between the end of the job and the removal of its checkpoints would leave it.
        Path chk = Files.createDirectories(
                state.resolve(StateDirectory.CHECKPOINTS).resolve("job").resolve("chk-7"));
        Files.writeString(chk.resolve(StateDirectory.METADATA), "not a checkpoint");

        Outcome second = vigil(cmd);
        assertEquals(0, second.code(), second.err());
        assertTrue(
                second.err().contains("checkpoint 7 in " + state + " is of the bounded run that finished at "),
                second.err());
        assertTrue(second.err().contains("vigil run: nothing to decide"), second.err());
        assertFalse(Files.exists(chk), "the finished run's checkpoint is removed");
        assertEquals(4, decisions(out).size());
    }

    @Test
    void recordsAddedLaterAreDecidedByTheNextRunAndFromBeginningReScoresAll() throws Exception {
        String in = "later-in";
        String out = "later-out";
        kafka.createTopic(in, 2);
        kafka.createTopic(out, 2);
        produce(in, 0, SERIES);
        Path state = dir.resolve("state");
        List<String> cmd = args(in, out, state, "--checkpoint-interval", "1s");
        assertEquals(0, vigil(cmd).code());
        produce(in, SERIES, SERIES);

        Outcome next = vigil(cmd);
        assertEquals(0, next.code(), next.err());
        Map<String, Integer> decided = decisions(out);
        assertEquals(series(0, 2 * SERIES), decided.keySet(), next.err());
        assertTrue(decided.values().stream().allMatch(n -> n == 1), decided::toString);

        List<String> again = new ArrayList<>(cmd);
        again.add("--from-beginning");
        Outcome rescore = vigil(again);
        assertEquals(0, rescore.code(), rescore.err());
        assertTrue(
                rescore.err()
                        .contains("the input is read from offset 0 under consumer group vigil-" + in
                                + "-from-beginning-"),
                rescore.err());
        Map<String, Integer> twice = decisions(out);
        assertEquals(series(0, 2 * SERIES), twice.keySet());
        assertTrue(twice.values().stream().allMatch(n -> n == 2), twice::toString);
        assertEquals(endOffsets(in), committed("vigil-" + in, in), "the usual group is left as it was");
    }

    private static java.util.Set<String> series(int first, int count) {
        return IntStream.range(first, first + count)
                .mapToObj(i -> data.name() + "/test/" + i)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    private static List<String> args(String in, String out, Path state, String... more) {
        List<String> a = new ArrayList<>(List.of(
                "run",
                "--model",
                model.toString(),
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input",
                in,
                "--output",
                out,
                "--dead-letter",
                out + "-dead",
                "--state-dir",
                state.toString(),
                "--bounded"));
        a.addAll(List.of(more));
        return a;
    }

    private record Outcome(int code, String err) {}

    /** Runs the CLI in this JVM, failing the test when it does not end within {@link #RUN_TIMEOUT}. */
    private static Outcome vigil(List<String> args) {
        return assertTimeoutPreemptively(RUN_TIMEOUT, () -> {
            CommandLine cl = VigilCli.commandLine();
            StringWriter err = new StringWriter();
            cl.setErr(new PrintWriter(err));
            cl.setOut(new PrintWriter(new StringWriter()));
            return new Outcome(cl.execute(args.toArray(String[]::new)), err.toString());
        });
    }

    /** Publishes all samples of series {@code first..first+count-1}, t-major. */
    private static void produce(String topic, int first, int count) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int t = 1; t <= data.length(); t++) {
                for (int i = first; i < first + count; i++) {
                    String id = data.name() + "/test/" + i;
                    producer.send(new ProducerRecord<>(
                            topic, SampleRecord.key(id), SampleRecord.encode(id, t, data.value(i, t - 1))));
                }
            }
        }
    }

    /** Committed decisions per series key: the whole topic, read_committed, up to its end offsets. */
    private static Map<String, Integer> decisions(String topic) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, Integer> out = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p)) {
            List<TopicPartition> parts = c.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp)) && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(100))
                        .forEach(r -> out.merge(new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum));
            }
        }
        return out;
    }

    private static Map<Integer, Long> endOffsets(String topic) {
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), Duration.ofSeconds(15))) {
            return k.endOffsets(topic);
        }
    }

    private static Map<Integer, Long> committed(String group, String topic) {
        try (KafkaPreflight k = KafkaPreflight.connect(kafka.bootstrapServers(), Map.of(), Duration.ofSeconds(15))) {
            return k.committedOffsets(group, topic);
        }
    }
}
