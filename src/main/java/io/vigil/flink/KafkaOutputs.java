package io.vigil.flink;

import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.StreamJson;
import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Kafka record serializers of the job's two outputs, keyed by series id so all records of a series land in one
 * partition (in order): decisions as {@link StreamJson#decision}, dead letters as {@link StreamJson#deadLetter}.
 */
final class KafkaOutputs {
    private KafkaOutputs() {}

    /** Decisions to {@code topic}. */
    static final class Decisions implements KafkaRecordSerializationSchema<DecisionRecord> {
        private static final long serialVersionUID = 1L;
        private final String topic;

        Decisions(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(DecisionRecord r, KafkaSinkContext context, Long timestamp) {
            return new ProducerRecord<>(
                    topic, null, timestamp, r.series.getBytes(StandardCharsets.UTF_8), StreamJson.decision(r));
        }
    }

    /** Dead letters to {@code topic}, naming {@code inputTopic} as their source. */
    static final class DeadLetters implements KafkaRecordSerializationSchema<DeadLetter> {
        private static final long serialVersionUID = 1L;
        private final String topic;
        private final String inputTopic;

        DeadLetters(String topic, String inputTopic) {
            this.topic = topic;
            this.inputTopic = inputTopic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(DeadLetter d, KafkaSinkContext context, Long timestamp) {
            byte[] key = d.series.isEmpty() ? null : d.series.getBytes(StandardCharsets.UTF_8);
            return new ProducerRecord<>(topic, null, timestamp, key, StreamJson.deadLetter(d, inputTopic));
        }
    }
}
