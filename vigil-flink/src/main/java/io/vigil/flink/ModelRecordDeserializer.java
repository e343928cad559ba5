package io.vigil.flink;

import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Model-topic records as the model files they hold (the raw value bytes); tombstones (null values, which delete
 * the key under compaction) carry no model and are skipped. Checking the model is the keyed stage's job.
 */
final class ModelRecordDeserializer implements KafkaRecordDeserializationSchema<byte[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<byte[]> out) {
        if (record.value() != null) {
            out.collect(record.value());
        }
    }

    @Override
    public TypeInformation<byte[]> getProducedType() {
        return PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO;
    }
}
