package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/** Reading whole topics in tests, without consumer groups. */
public final class KafkaTestSupport {
    private static final Duration POLL = Duration.ofMillis(100);

    private KafkaTestSupport() {}

    /**
     * Reads every partition of {@code topic} from the beginning until {@code expected} records arrived, then on
     * to the end offsets of that moment, so surplus records show up in the result instead of being missed. Fails
     * the test when fewer than {@code expected} arrive within {@code timeout}.
     *
     * @param props consumer properties (bootstrap, deserializers, isolation level); no group id is needed
     */
    public static <K, V> List<ConsumerRecord<K, V>> readTopic(
            Map<String, Object> props, String topic, int expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(props)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            List<TopicPartition> parts = infos.stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition()))
                    .toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(POLL).forEach(out::add);
            }
            if (out.size() < expected) {
                fail("only " + out.size() + " of " + expected + " records arrived in " + topic + " within "
                        + timeout.toSeconds() + " s");
            }
            Map<TopicPartition, Long> end = consumer.endOffsets(parts);
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                consumer.poll(POLL).forEach(out::add);
            }
        }
        return out;
    }
}
