package io.vigil.cluster;

import io.vigil.stream.DecisionRecord;
import io.vigil.stream.StreamJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a decisions topic from the beginning with {@code read_committed} on a background thread, keeping every
 * decision with the time it was polled, so a test can wait for series while the job runs and look at what
 * arrived when.
 */
public final class DecisionCollector implements AutoCloseable {
    /** A decision and when this consumer received it (epoch ms). */
    public record Arrival(DecisionRecord decision, long receivedAt) {}

    private final List<Arrival> arrivals = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile RuntimeException failure;

    /** Starts reading {@code topic} with {@code clientProperties} (bootstrap servers and friends). */
    public DecisionCollector(Map<String, Object> clientProperties, String topic) {
        Map<String, Object> p = new HashMap<>(clientProperties);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "collector-" + topic + "-" + System.nanoTime());
        thread = new Thread(() -> poll(p, topic), "decisions-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void poll(Map<String, Object> props, String topic) {
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(props)) {
            c.subscribe(List.of(topic));
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    DecisionRecord d = StreamJson.readDecision(r.value());
                    long now = System.currentTimeMillis();
                    synchronized (arrivals) {
                        arrivals.add(new Arrival(d, now));
                    }
                }
            }
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    /** Everything received so far, in arrival order. */
    public List<Arrival> arrivals() {
        check();
        synchronized (arrivals) {
            return List.copyOf(arrivals);
        }
    }

    /** Number of decisions received so far. */
    public int size() {
        check();
        synchronized (arrivals) {
            return arrivals.size();
        }
    }

    /**
     * Waits until every one of {@code series} has at least one record matching {@code which}; returns whether that
     * happened before the timeout.
     */
    public boolean awaitSeries(Set<String> series, Predicate<DecisionRecord> which, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Set<String> seen = new HashSet<>();
            for (Arrival a : arrivals()) {
                if (which.test(a.decision())) {
                    seen.add(a.decision().series);
                }
            }
            if (seen.containsAll(series)) {
                return true;
            }
            Thread.sleep(200);
        }
        return false;
    }

    /** Waits until at least {@code n} records arrived; returns whether that happened before the timeout. */
    public boolean awaitAtLeast(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (size() < n) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(50);
        }
        return true;
    }

    /**
     * Waits until no record arrived for {@code quiet}; returns whether that happened within {@code timeout}.
     */
    public boolean awaitQuiet(Duration quiet, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int last = -1;
        while (System.nanoTime() < deadline) {
            int now = size();
            if (now == last) {
                return true;
            }
            last = now;
            Thread.sleep(quiet.toMillis());
        }
        return false;
    }

    private void check() {
        if (failure != null) {
            throw new IllegalStateException("decision consumer failed", failure);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(10_000);
    }
}
