package io.vigil.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A byte-array consumer that reads a whole topic from its beginning without a consumer group (every partition
 * assigned, no offsets committed): how the demo and the benchmarks follow and count the job's outputs.
 */
public final class TopicReader {
    /** Longest wait for the topic's partition metadata. */
    private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

    private TopicReader() {}

    /**
     * A consumer positioned at the beginning of every partition of {@code topic}.
     *
     * @param clientProps bootstrap and any client settings
     * @param readCommitted whether to see only committed transactional records
     */
    public static KafkaConsumer<byte[], byte[]> fromBeginning(
            Map<String, Object> clientProps, String topic, boolean readCommitted) {
        return assigned(clientProps, topic, readCommitted, true);
    }

    /**
     * A consumer positioned at the end of every partition of {@code topic}: it sees only records written from now.
     *
     * @param clientProps bootstrap and any client settings
     * @param readCommitted whether to see only committed transactional records
     */
    public static KafkaConsumer<byte[], byte[]> atEnd(
            Map<String, Object> clientProps, String topic, boolean readCommitted) {
        return assigned(clientProps, topic, readCommitted, false);
    }

    private static KafkaConsumer<byte[], byte[]> assigned(
            Map<String, Object> clientProps, String topic, boolean readCommitted, boolean beginning) {
        Map<String, Object> p = new HashMap<>(clientProps);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
        try {
            List<TopicPartition> parts = consumer.partitionsFor(topic, METADATA_TIMEOUT).stream()
                    .map(i -> new TopicPartition(topic, i.partition()))
                    .toList();
            consumer.assign(parts);
            if (beginning) {
                consumer.seekToBeginning(parts);
            } else {
                consumer.seekToEnd(parts);
                parts.forEach(consumer::position); // resolve the end now, not at the first poll
            }
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    /**
     * The number of records in {@code topic} visible to a read_committed consumer now: reads every partition from
     * its beginning up to the end offset taken at the start (the last stable offset, so open transactions are not
     * waited for). Counting records, not offsets, because transaction markers occupy offsets too.
     *
     * @throws IllegalStateException when the end is not reached within {@code timeout}
     */
    public static long countCommitted(Map<String, Object> clientProps, String topic, Duration timeout) {
        return readCommitted(clientProps, topic, timeout, r -> {});
    }

    /**
     * As {@link #countCommitted}, handing every record read to {@code each}.
     *
     * @throws IllegalStateException when the end is not reached within {@code timeout}
     */
    public static long readCommitted(
            Map<String, Object> clientProps,
            String topic,
            Duration timeout,
            Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(clientProps, topic, true)) {
            Map<TopicPartition, Long> end = consumer.endOffsets(consumer.assignment(), METADATA_TIMEOUT);
            long deadline = System.nanoTime() + timeout.toNanos();
            long n = 0;
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "reading " + topic + ": end offsets " + end + " not reached within " + timeout);
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    each.accept(r);
                    n++;
                }
            }
            return n;
        }
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
