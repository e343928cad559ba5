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

    /** Alarm records of the watch mode to {@code topic}, keyed by the stream key ({@link WatchAlarm#toJson}). */
    static final class Alarms implements KafkaRecordSerializationSchema<WatchAlarm> {
        private static final long serialVersionUID = 1L;
        private final String topic;

        Alarms(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(WatchAlarm a, KafkaSinkContext context, Long timestamp) {
            return new ProducerRecord<>(topic, null, timestamp, a.key.getBytes(StandardCharsets.UTF_8), a.toJson());
        }
    }

    /**
     * Dead letters to {@code topic}, naming {@code inputTopic} as their source, the copy of each rejected value bounded
     * ({@link StreamJson#deadLetter(DeadLetter, String, int)}), so that one oversized bad record cannot make the sink
     * fail and the job restart forever. A record that would still exceed {@link #MAX_RECORD_BYTES} (a detail or
     * configuration pathologically large) is shrunk to its identifying fields, counted and logged, never thrown.
     */
    static final class DeadLetters implements KafkaRecordSerializationSchema<DeadLetter> {
        private static final long serialVersionUID = 1L;
        private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DeadLetters.class);

        /** Largest dead-letter record written whole: under Kafka's default 1 MiB request with room for headers. */
        static final int MAX_RECORD_BYTES = 900 * 1024;

        private final String topic;
        private final String inputTopic;
        private final int maxValueBytes;
        private transient org.apache.flink.metrics.Counter shrunk;

        DeadLetters(String topic, String inputTopic, int maxValueBytes) {
            this.topic = topic;
            this.inputTopic = inputTopic;
            this.maxValueBytes = maxValueBytes;
        }

        @Override
        public void open(
                org.apache.flink.api.common.serialization.SerializationSchema.InitializationContext context,
                KafkaSinkContext sinkContext) {
            shrunk = context.getMetricGroup().counter("deadLettersShrunk");
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(DeadLetter d, KafkaSinkContext context, Long timestamp) {
            byte[] value = StreamJson.deadLetter(d, inputTopic, maxValueBytes);
            if (value.length > MAX_RECORD_BYTES) {
                value = StreamJson.deadLetter(d, inputTopic, 0);
                if (shrunk != null) {
                    shrunk.inc();
                }
                LOG.warn(
                        "dead letter for {}@{} of {} kept without its value copy: the record would be {} bytes",
                        d.partition,
                        d.offset,
                        inputTopic,
                        value.length);
            }
            return new ProducerRecord<>(topic, null, timestamp, StreamJson.deadLetterKey(d), value);
        }
    }
}
