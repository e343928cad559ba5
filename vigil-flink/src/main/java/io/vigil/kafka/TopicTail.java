package io.vigil.kafka;

import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * Follows a topic with a consumer of its own on a background thread (no consumer group: every partition is
 * assigned), from its beginning or from its end, handing each record to a callback with the wall-clock time it was
 * received. Used by the demo (decisions, read_committed) and the live dashboard (decisions and samples).
 */
public final class TopicTail implements AutoCloseable {
    private static final Duration POLL = Duration.ofMillis(20);

    /** A record and when it arrived (epoch ms). */
    public record Received(ConsumerRecord<byte[], byte[]> record, long receivedAt) {}

    /** Where the tail starts reading. */
    public enum Start {
        BEGINNING,
        END
    }

    private final Thread thread;
    private volatile boolean stop;
    private volatile RuntimeException failure;

    /** Follows {@code topic} from its beginning, read_committed. */
    public TopicTail(Map<String, Object> clientProps, String topic, Consumer<Received> sink) {
        this(clientProps, topic, Start.BEGINNING, true, sink);
    }

    /**
     * Follows {@code topic}.
     *
     * @param readCommitted whether to see only committed transactional records
     */
    public TopicTail(
            Map<String, Object> clientProps,
            String topic,
            Start start,
            boolean readCommitted,
            Consumer<Received> sink) {
        KafkaConsumer<byte[], byte[]> consumer = start == Start.BEGINNING
                ? TopicReader.fromBeginning(clientProps, topic, readCommitted)
                : TopicReader.atEnd(clientProps, topic, readCommitted);
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
    public void check() {
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
