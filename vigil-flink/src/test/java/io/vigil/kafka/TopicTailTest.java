package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** A tail started at a topic's beginning sees what was there; one started at its end only what comes after. */
class TopicTailTest {
    @Test
    void startsAtTheBeginningOrAtTheEnd() throws Exception {
        try (LoopbackKafka kafka = LoopbackKafka.start()) {
            kafka.createTopic("tail", 1);
            send(kafka, "old-0", "old-1");
            LinkedBlockingQueue<String> fromStart = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<String> fromEnd = new LinkedBlockingQueue<>();
            try (TopicTail all = new TopicTail(kafka.clientProperties(), "tail", r -> fromStart.add(value(r)));
                    TopicTail next = new TopicTail(
                            kafka.clientProperties(), "tail", TopicTail.Start.END, false, r -> fromEnd.add(value(r)))) {
                send(kafka, "new-0");
                assertEquals(
                        List.of("old-0", "old-1", "new-0"), List.of(take(fromStart), take(fromStart), take(fromStart)));
                assertEquals("new-0", take(fromEnd), "the first record after the start, nothing before it");
            }
        }
    }

    private static String value(TopicTail.Received r) {
        return new String(r.record().value(), StandardCharsets.UTF_8);
    }

    private static String take(LinkedBlockingQueue<String> q) throws InterruptedException {
        String v = q.poll(60, TimeUnit.SECONDS);
        if (v == null) {
            throw new AssertionError("no record within 60 s");
        }
        return v;
    }

    private static void send(LoopbackKafka kafka, String... values) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            for (String v : values) {
                producer.send(new ProducerRecord<>("tail", v));
            }
        }
    }
}
