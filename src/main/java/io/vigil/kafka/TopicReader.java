package io.vigil.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A byte-array consumer that reads a whole topic from its beginning without a consumer group (every partition
 * assigned, no offsets committed): how the demo and the benchmarks follow the job's outputs.
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
            consumer.seekToBeginning(parts);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }
}
