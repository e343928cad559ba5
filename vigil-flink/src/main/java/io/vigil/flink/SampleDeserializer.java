package io.vigil.flink;

import io.vigil.kafka.Decoded;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.DeadLetterReason;
import io.vigil.stream.SampleEvent;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns every Kafka sample record into exactly one {@link SampleEvent}: decoded with {@link SampleRecord#decode},
 * or, when it cannot be decoded, marked with the reason and carrying its original bytes so that {@link
 * RejectRouter} dead-letters it. Never throws for bad input, so a malformed record cannot fail the source.
 */
public final class SampleDeserializer implements KafkaRecordDeserializationSchema<SampleEvent> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<SampleEvent> out) {
        out.collect(toEvent(record.key(), record.value(), record.timestamp(), record.partition(), record.offset()));
    }

    /** The event for one record's parts. */
    static SampleEvent toEvent(byte[] key, byte[] value, long timestamp, int partition, long offset) {
        Decoded<SampleRecord.Sample> d = SampleRecord.decode(key, value);
        if (d instanceof Decoded.Ok<SampleRecord.Sample> ok) {
            SampleRecord.Sample s = ok.value();
            if (s.end()) {
                return SampleEvent.end(s.series(), timestamp, partition, offset, value);
            }
            return SampleEvent.accepted(s.series(), s.t(), s.value(), timestamp, partition, offset, value)
                    .channel(s.channel(), s.channelName());
        }
        Decoded.Rejected<SampleRecord.Sample> bad = (Decoded.Rejected<SampleRecord.Sample>) d;
        String keyText = key == null ? "" : new String(key, StandardCharsets.UTF_8);
        SampleEvent e = SampleEvent.rejected(
                keyText, reasonOf(bad.problem()), bad.detail(), timestamp, partition, offset, value);
        e.t = bad.t();
        return e;
    }

    /**
     * The dead-letter reason for a record the decoder rejected. An exhaustive switch, so a new decoder problem fails
     * to compile until it has its reason; the stream layer itself knows nothing of the Kafka record codec.
     */
    static DeadLetterReason reasonOf(Decoded.Problem problem) {
        return switch (problem) {
            case EMPTY_VALUE -> DeadLetterReason.EMPTY_VALUE;
            case UNPARSEABLE_JSON -> DeadLetterReason.UNPARSEABLE_JSON;
            case NOT_AN_OBJECT -> DeadLetterReason.NOT_AN_OBJECT;
            case MISSING_FIELD -> DeadLetterReason.MISSING_FIELD;
            case WRONG_TYPE -> DeadLetterReason.WRONG_TYPE;
            case NON_FINITE_VALUE -> DeadLetterReason.NON_FINITE_VALUE;
            case T_BELOW_ONE -> DeadLetterReason.T_BELOW_ONE;
            case KEY_MISMATCH -> DeadLetterReason.KEY_MISMATCH;
            case SERIES_TOO_LONG -> DeadLetterReason.SERIES_TOO_LONG;
        };
    }

    @Override
    public TypeInformation<SampleEvent> getProducedType() {
        return TypeInformation.of(SampleEvent.class);
    }
}
