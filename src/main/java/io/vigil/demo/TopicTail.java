package io.vigil.demo;

import io.vigil.kafka.TopicReader;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Follows a topic from its beginning with a read_committed consumer on a background thread (no consumer group:
 * every partition is assigned), handing each record to a callback with the wall-clock time it was received.
 */
final class TopicTail implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(20);

    /** A record and when it arrived (epoch ms). */
    record Received(ConsumerRecord<byte[], byte[]> record, long receivedAt) {}

    private final Thread thread;
    private volatile boolean stop;
    private volatile RuntimeException failure;

    TopicTail(Map<String, Object> clientProps, String topic, Consumer<Received> sink) {
        KafkaConsumer<byte[], byte[]> consumer = TopicReader.fromBeginning(clientProps, topic, true);
        thread = new Thread(
                () -> {
                    try (consumer) {
                        while (!stop) {
                            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
                                sink.accept(new Received(r, System.currentTimeMillis()));
                            }
                        }
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                },
                "vigil-tail-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    /** Rethrows what stopped the consumer, if anything did. */
    void check() {
        if (failure != null) {
            throw new IllegalStateException("reading the topic failed: " + failure.getMessage(), failure);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
        check();
    }
}
