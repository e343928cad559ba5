package io.vigil.flink;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns every Kafka record of a watched stream into exactly one {@link WatchSample}, decoded or marked with its
 * problem; never throws for bad input, so a malformed record cannot fail the source.
 */
public final class WatchSampleDeserializer implements KafkaRecordDeserializationSchema<WatchSample> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<WatchSample> out) {
        out.collect(
                WatchSample.of(record.key(), record.value(), record.timestamp(), record.partition(), record.offset()));
    }

    @Override
    public TypeInformation<WatchSample> getProducedType() {
        return TypeInformation.of(WatchSample.class);
    }
}
