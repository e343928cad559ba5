package io.vigil.flink;

import io.vigil.kafka.Decoded;
import io.vigil.kafka.SampleRecord;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Truth-topic records ({@code {"series","label","length"}}, as {@code vigil replay --truth-topic} writes them) as
 * (series, label) pairs for {@link TruthAgreement}. A record that does not decode is skipped, counted in {@code
 * truthRejected} and logged (the first, then at powers of two): truth labels only feed metrics, and the dead-letter
 * topic is for the samples topic.
 */
final class TruthRecordDeserializer implements KafkaRecordDeserializationSchema<Tuple2<String, String>> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(TruthRecordDeserializer.class);

    private transient Counter rejected;

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        rejected = context.getMetricGroup().counter("truthRejected");
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Tuple2<String, String>> out) {
        Decoded<SampleRecord.Truth> d = SampleRecord.decodeTruth(record.key(), record.value());
        if (d instanceof Decoded.Rejected<SampleRecord.Truth> bad) {
            rejected.inc();
            long n = rejected.getCount();
            if (n == 1 || Long.bitCount(n) == 1) {
                LOG.warn(
                        "{} truth record(s) skipped; latest at {}@{} of {}: {}",
                        n,
                        record.partition(),
                        record.offset(),
                        record.topic(),
                        bad.detail());
            }
            return;
        }
        SampleRecord.Truth t = d.value();
        out.collect(Tuple2.of(t.series(), t.label()));
    }

    @Override
    public TypeInformation<Tuple2<String, String>> getProducedType() {
        return Types.TUPLE(Types.STRING, Types.STRING);
    }
}
