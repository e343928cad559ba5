package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vigil.kafka.Decoded.Problem;
import io.vigil.kafka.SampleRecord.Sample;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Debian's {@code kcat} (librdkafka) reads and writes our topics: it consumes what Vigil produces, and what it
 * produces from a shell decodes with {@link SampleRecord}. Skipped when kcat is not installed.
 */
class KcatTest {

    private static LoopbackKafka kafka;

    @BeforeAll
    static void start() {
        Assumptions.assumeTrue(
                KafkaTestSupport.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping kcat tests");
        kafka = LoopbackKafka.start();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void kcatConsumesWhatVigilProduces() throws Exception {
        String topic = "to-kcat";
        kafka.createTopic(topic, 1);
        Map<String, Object> p = new HashMap<>();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        List<Sample> sent = List.of(
                new Sample("CBF/test/0", 1, 0.42), new Sample("CBF/test/0", 2, -1.5e-7), new Sample("s \"q\"", 1, 3));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (Sample s : sent) {
                producer.send(new ProducerRecord<>(
                        topic, SampleRecord.key(s.series()), SampleRecord.encode(s.series(), s.t(), s.value())));
            }
        }
        String output = KafkaTestSupport.kcat(
                null,
                "-b",
                kafka.bootstrapServers(),
                "-C",
                "-t",
                topic,
                "-o",
                "beginning",
                "-e",
                "-q",
                "-f",
                "%k\\t%s\\n");
        List<Sample> received = new ArrayList<>();
        for (String line : output.split("\n")) {
            String[] kv = line.split("\t", 2);
            received.add(
                    SampleRecord.decode(kv[0].getBytes(StandardCharsets.UTF_8), kv[1].getBytes(StandardCharsets.UTF_8))
                            .value());
        }
        assertEquals(sent, received);
    }

    @Test
    void vigilDecodesWhatKcatProduces() throws Exception {
        String topic = "from-kcat";
        kafka.createTopic(topic, 1);
        String keyed = "kcat/1\t{\"series\":\"kcat/1\",\"t\":1,\"value\":0.5}\n"
                + "kcat/1\t{\"series\":\"kcat/1\",\"t\":0,\"value\":0.5}\n";
        KafkaTestSupport.kcat(keyed, "-b", kafka.bootstrapServers(), "-P", "-t", topic, "-K", "\t");
        KafkaTestSupport.kcat(
                "{\"series\":\"kcat/2\",\"value\":1.5}\n", "-b", kafka.bootstrapServers(), "-P", "-t", topic);

        Map<String, Object> c = new HashMap<>();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        List<ConsumerRecord<byte[], byte[]>> records = KafkaTestSupport.readTopic(c, topic, 3, Duration.ofSeconds(30));
        assertEquals(3, records.size());

        assertEquals(
                new Sample("kcat/1", 1, 0.5),
                SampleRecord.decode(records.get(0).key(), records.get(0).value())
                        .value());
        Decoded<Sample> bad =
                SampleRecord.decode(records.get(1).key(), records.get(1).value());
        assertEquals(Problem.T_BELOW_ONE, ((Decoded.Rejected<Sample>) bad).problem());
        assertNull(records.get(2).key(), "kcat -P without -K sends no key");
        Sample unkeyed = SampleRecord.decode(
                        records.get(2).key(), records.get(2).value())
                .value();
        assertEquals(new Sample("kcat/2", SampleRecord.T_ABSENT, 1.5), unkeyed);
        assertFalse(unkeyed.hasT());
    }
}
