package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vigil.kafka.KafkaTestSupport;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.TopicReader;
import io.vigil.stream.StreamFixtures;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job resumed with another parallelism from an unaligned checkpoint, one that holds records in transit between
 * the operators: the embedded job's configuration ({@link LocalFlink#configuration}) with every checkpoint unaligned
 * from its start (in the embedded job only those held up for {@link LocalFlink#ALIGNED_CHECKPOINT_TIMEOUT} are),
 * parallelism 2, cancelled once its latest checkpoint holds in-flight records, then resumed from it with parallelism
 * 3. Real broker, MiniCluster, exactly-once; every series gets exactly one committed decision, and the bad records
 * among the samples (whose dead letters travel on edges of their own) are dead-lettered.
 */
class RescaleFromUnalignedCheckpointTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(180);

    /** Copies of the test split's series, so that the keyed stage falls behind the source and records queue. */
    private static final int COPIES = 20;

    /** One bad record after this many samples. */
    private static final int BAD_EVERY = 500;

    @TempDir
    Path dir;

    @Test
    void resumingAnUnalignedCheckpointWithMoreSubtasksGivesEverySeriesOneDecision() throws Exception {
        int series = COPIES * StreamFixtures.TEST.size();
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            kafka.createTopic("rescale-in", 4);
            kafka.createTopic("rescale-out", 2);
            kafka.createTopic("rescale-dead", 1);
            int bad = produce(kafka);
            Path checkpoints = dir.resolve("checkpoints");
            String jobId = StateDirectory.jobId(dir);
            LocalState first =
                    new LocalState(checkpoints, LocalState.Backend.HASHMAP, Optional.of(jobId), Optional.empty());
            Path resume = null;
            for (int attempt = 0; attempt < 3 && resume == null; attempt++) {
                JobClient job = start(kafka, first, 2);
                await(job, () -> inFlight(checkpoints), "an unaligned checkpoint holding records in transit");
                job.cancel().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                Path latest = latest(checkpoints);
                if (holdsRecordsInTransit(latest)) {
                    resume = latest;
                } else { // a checkpoint without records in transit completed between the check and the cancel
                    first = new LocalState(
                            checkpoints, LocalState.Backend.HASHMAP, Optional.of(jobId), Optional.of(latest));
                }
            }
            assertTrue(resume != null, "no unaligned checkpoint with records in transit was kept in 3 attempts");

            LocalState rescaled =
                    new LocalState(checkpoints, LocalState.Backend.HASHMAP, Optional.of(jobId), Optional.of(resume));
            JobClient job = start(kafka, rescaled, 3);
            Map<String, Integer> decided = new TreeMap<>();
            Map<String, Integer> dead = new TreeMap<>();
            try (KafkaConsumer<byte[], byte[]> out =
                            TopicReader.fromBeginning(kafka.clientProperties(), "rescale-out", true);
                    KafkaConsumer<byte[], byte[]> letters =
                            TopicReader.fromBeginning(kafka.clientProperties(), "rescale-dead", true)) {
                await(
                        job,
                        () -> {
                            count(out, decided);
                            count(letters, dead);
                            return decided.size() >= series
                                    && dead.values().stream()
                                                    .mapToInt(Integer::intValue)
                                                    .sum()
                                            >= bad;
                        },
                        "a committed decision for every series and every dead letter");
                long seen = latestId(checkpoints);
                await(job, () -> latestId(checkpoints) > seen, "one more checkpoint");
                job.cancel().get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                readToEnd(out, decided);
                readToEnd(letters, dead);
            }
            assertEquals(series, decided.size(), "every series decided");
            KafkaTestSupport.assertOncePerKey(decided);
            assertEquals(
                    bad, dead.values().stream().mapToInt(Integer::intValue).sum(), "one dead letter per bad record");
        }
    }

    /** Publishes every copy of every test series, t-major, with a bad record every {@link #BAD_EVERY}; returns those. */
    private static int produce(LoopbackKafka kafka) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        int bad = 0;
        long sent = 0;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int t = 1; t <= StreamFixtures.TEST.length(); t++) {
                for (int c = 0; c < COPIES; c++) {
                    for (int i = 0; i < StreamFixtures.TEST.size(); i++) {
                        String id = "copy" + c + "/" + i;
                        producer.send(new ProducerRecord<>(
                                "rescale-in",
                                SampleRecord.key(id),
                                SampleRecord.encode(id, t, StreamFixtures.TEST.value(i, t - 1))));
                        if (++sent % BAD_EVERY == 0) {
                            producer.send(new ProducerRecord<>(
                                    "rescale-in", ("bad " + bad++).getBytes(StandardCharsets.UTF_8)));
                        }
                    }
                }
            }
        }
        return bad;
    }

    /** The embedded job's configuration with every checkpoint unaligned from its start, on {@code state}. */
    private JobClient start(LoopbackKafka kafka, LocalState state, int parallelism) throws Exception {
        Configuration c = LocalFlink.configuration(dir.resolve("tmp"), OptionalInt.empty(), state);
        c.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, Duration.ZERO);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(c);
        JobConfig cfg = JobConfig.builder(
                        kafka.bootstrapServers(), "rescale-in", "rescale-out", "rescale-dead", StreamFixtures.PARAMS)
                .parallelism(parallelism)
                .checkpointInterval(Duration.ofMillis(200))
                .groupId("rescale")
                .transactionalIdPrefix("rescale")
                .build();
        VigilJob.attach(env, cfg, StreamFixtures.MODEL_BYTES);
        return env.executeAsync("rescale p=" + parallelism);
    }

    private static boolean inFlight(Path checkpoints) {
        try {
            return holdsRecordsInTransit(latest(checkpoints));
        } catch (IllegalStateException | IOException none) {
            return false; // no completed checkpoint yet, or one removed while read
        }
    }

    /** Whether a completed checkpoint holds records in transit (an unaligned checkpoint's channel state). */
    private static boolean holdsRecordsInTransit(Path checkpoint) throws IOException {
        CheckpointMetadata m;
        try (InputStream in = Files.newInputStream(checkpoint.resolve(StateDirectory.METADATA))) {
            m = Checkpoints.loadCheckpointMetadata(
                    new DataInputStream(in),
                    RescaleFromUnalignedCheckpointTest.class.getClassLoader(),
                    checkpoint.toString());
        }
        for (OperatorState op : m.getOperatorStates()) {
            for (OperatorSubtaskState s : op.getStates()) {
                if (s.getInputChannelState().hasState()
                        || s.getResultSubpartitionState().hasState()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Path latest(Path checkpoints) throws IOException {
        return StateDirectory.latestCheckpoint(checkpoints)
                .map(StateDirectory.Checkpoint::directory)
                .orElseThrow(() -> new IllegalStateException("no completed checkpoint"));
    }

    /** The number of the latest completed checkpoint, or -1 (none yet, or one removed while listed). */
    private static long latestId(Path checkpoints) {
        try {
            return StateDirectory.latestCheckpoint(checkpoints)
                    .map(StateDirectory.Checkpoint::id)
                    .orElse(-1L);
        } catch (IOException listedWhileRemoved) {
            return -1;
        }
    }

    private static void count(KafkaConsumer<byte[], byte[]> consumer, Map<String, Integer> perKey) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
            perKey.merge(r.key() == null ? "" : new String(r.key(), StandardCharsets.UTF_8), 1, Integer::sum);
        }
    }

    private static void readToEnd(KafkaConsumer<byte[], byte[]> consumer, Map<String, Integer> perKey) {
        Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment());
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
            assertTrue(System.nanoTime() < deadline, "reading to the end offsets");
            count(consumer, perKey);
        }
    }

    /** Polls {@code condition} until it holds; fails when the job ends or time runs out. */
    private static void await(JobClient job, BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (job.getJobExecutionResult().isDone()) {
                job.getJobExecutionResult().get();
                fail("the job ended while waiting for " + what);
            }
            if (System.nanoTime() > deadline) {
                fail("no " + what + " within " + TIMEOUT.toSeconds() + " s");
            }
            Thread.sleep(20);
        }
    }
}
