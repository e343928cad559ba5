package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.kafka.LoopbackKafka;
import io.vigil.stream.StreamFixtures;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.flink.connector.kafka.sink.internal.KafkaCommitter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.metrics.groups.InternalSinkCommitterMetricGroup;
import org.apache.flink.streaming.runtime.operators.sink.committables.CommitRequestImpl;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The fenced-producer message: from the failure's cause chain, or from what the producers saw while the job ran. */
class ProducerFencingTest {
    @Test
    void fencingInTheCauseChainNamesThePrefixAndTheFix() {
        Throwable failure = new RuntimeException(
                "job failed",
                new FlinkRuntimeException("Failed to send data to Kafka", new ProducerFencedException("x")));
        String m = ProducerFencing.describe(failure, "chain-prefix").orElseThrow();
        assertTrue(
                m.startsWith("another job with the same transactional-id prefix 'chain-prefix' took over")
                        && m.contains("ProducerFencedException")
                        && m.contains("--transactional-id-prefix")
                        && m.contains("--state-dir"),
                m);
        assertEquals(Optional.empty(), ProducerFencing.describe(new RuntimeException(new TimeoutException("t")), "p"));
    }

    /**
     * The run this reproduces ended with "NoResourceAvailableException" after the fencing killed the TaskManager: the
     * interceptor's record of the fenced send still names the cause, for this job's prefix only.
     */
    @Test
    void fencingSeenByTheInterceptorExplainsALaterUnrelatedFailure() {
        FencingInterceptor interceptor = new FencingInterceptor();
        interceptor.configure(Map.of("transactional.id", "seen-prefix-d-0-3"));
        interceptor.onAcknowledgement(null, null);
        interceptor.onAcknowledgement(null, new TimeoutException("not fencing"));
        RuntimeException later = new RuntimeException("NoResourceAvailableException: Could not acquire resources");
        assertEquals(Optional.empty(), ProducerFencing.describe(later, "seen-prefix"));
        interceptor.onAcknowledgement(null, new InvalidProducerEpochException("stale epoch"));
        String m = ProducerFencing.describe(later, "seen-prefix").orElseThrow();
        assertTrue(m.contains("'seen-prefix'") && m.contains("InvalidProducerEpochException"), m);
        assertEquals(Optional.empty(), ProducerFencing.describe(later, "seen"), "another job's prefix");
    }

    /** A job watching its prefix hears of its own fenced producer at once, and of no other job's. */
    @Test
    void aWatchCompletesForItsOwnPrefixOnly() {
        try (ProducerFencing.Watch mine = ProducerFencing.watch("watched");
                ProducerFencing.Watch other = ProducerFencing.watch("watched-too")) {
            FencingInterceptor interceptor = new FencingInterceptor();
            interceptor.configure(Map.of("transactional.id", "watched-decisions-1-7"));
            interceptor.onAcknowledgement(null, new TimeoutException("not fencing"));
            assertFalse(mine.fenced().isDone());
            interceptor.onAcknowledgement(null, new ProducerFencedException("taken over"));
            String m = mine.fenced().getNow("");
            assertTrue(m.contains("'watched'") && m.contains("ProducerFencedException") && m.contains("--job-name"), m);
            assertFalse(other.fenced().isDone(), "another prefix");
        }
    }

    /**
     * A producer fenced after its records were sent, before its transaction is committed: no send fails, so the
     * interceptor sees nothing; Flink's committer logs the failed commit and drops it (the job keeps running). The
     * job's sinks wrap the committer ({@link FencingAwareKafkaSink}), so the watch hears of it all the same. Real
     * broker, Flink's own Kafka committer and commit request.
     */
    @Test
    void aProducerFencedBeforeItsCommitIsSeenByTheWatch() throws Exception {
        assertTrue(
                VigilJob.sink(
                                JobConfig.builder("127.0.0.1:9", "in", "out", "dl", StreamFixtures.PARAMS)
                                        .build(),
                                new KafkaOutputs.Decisions("out"),
                                "d")
                        instanceof FencingAwareKafkaSink<?>,
                "the job's sinks watch their commits");
        try (LoopbackKafka kafka = LoopbackKafka.start();
                ProducerFencing.Watch watch = ProducerFencing.watch("commit-fenced")) {
            kafka.createTopic("commit-fenced-out", 1);
            Properties p = new Properties();
            p.putAll(kafka.clientProperties());
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            String id = "commit-fenced-d-0-1";
            FlinkKafkaInternalProducer<byte[], byte[]> first = new FlinkKafkaInternalProducer<>(p, id);
            first.initTransactions();
            first.beginTransaction();
            first.send(new ProducerRecord<>("commit-fenced-out", "decision".getBytes(StandardCharsets.UTF_8)), null)
                    .get();
            first.flush();
            KafkaCommittable committable = KafkaCommittable.of(first);
            try (FlinkKafkaInternalProducer<byte[], byte[]> other = new FlinkKafkaInternalProducer<>(p, id)) {
                other.initTransactions(); // another job with the same id: fences the first producer
            }
            assertFalse(watch.fenced().isDone(), "nothing failed yet");
            InternalSinkCommitterMetricGroup metrics =
                    InternalSinkCommitterMetricGroup.wrap(UnregisteredMetricsGroup.createOperatorMetricGroup());
            // The same transaction as a restore hands it over (from the checkpoint: no producer of this attempt).
            // Flink retries such commits on every restore and a fenced one is expected there: not a takeover.
            KafkaCommittable recovered = new KafkaCommittable(
                    committable.getProducerId(), committable.getEpoch(), committable.getTransactionalId(), null);
            commit(p, recovered, metrics);
            assertFalse(watch.fenced().isDone(), "a recovered transaction's fenced commit is not a takeover");
            commit(p, committable, metrics);
            String m = watch.fenced().getNow("");
            assertTrue(m.startsWith("another job with the same transactional-id prefix 'commit-fenced' took over"), m);
        }
    }

    /** Commits one transaction through the job's watched committer around Flink's own. */
    private static void commit(Properties p, KafkaCommittable c, InternalSinkCommitterMetricGroup metrics)
            throws Exception {
        try (Committer<KafkaCommittable> committer = new FencingAwareKafkaSink.WatchedCommitter(
                new KafkaCommitter(p, "commit-fenced-d", 0, 0, false, FlinkKafkaInternalProducer::new))) {
            committer.commit(List.of(new CommitRequestImpl<>(c, metrics) {}));
        }
    }
}
