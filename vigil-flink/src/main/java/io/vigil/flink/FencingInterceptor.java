package io.vigil.flink;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A Kafka producer interceptor on the job's transactional sinks that tells {@link ProducerFencing} when a send
 * fails because the producer was fenced. It sees every acknowledgement on the producer's I/O thread, so it does
 * nothing but a null check for a successful send.
 */
public final class FencingInterceptor implements ProducerInterceptor<byte[], byte[]> {
    private String transactionalId;

    @Override
    public ProducerRecord<byte[], byte[]> onSend(ProducerRecord<byte[], byte[]> record) {
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
        if (exception != null && transactionalId != null) {
            ProducerFencing.observed(transactionalId, exception);
        }
    }

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {
        Object id = configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        transactionalId = id == null ? null : id.toString();
    }
}
