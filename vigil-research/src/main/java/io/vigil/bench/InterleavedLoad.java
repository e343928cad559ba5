package io.vigil.bench;

import io.vigil.data.Dataset;
import io.vigil.kafka.SampleRecord;
import io.vigil.util.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Fills a sample topic with {@code series} series in flight at once: round-robin over the series (t = 1 of every
 * series, then t = 2, …), so that after the first round every series is open. Several producer threads, each with
 * its own idempotent producer and large batches, share the series (series i goes to thread i mod threads, so each
 * series' samples keep their order in its partition); the threads run their rounds side by side, so the topic is
 * interleaved round by round up to the threads' drift. Values are the rows of a pool data set, cycled; series ids
 * are {@code PREFIX-i}.
 */
public final class InterleavedLoad {
    /** Producer settings for bulk loading a local broker. */
    private static final Map<String, Object> TUNING = Map.of(
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            512 * 1024,
            ProducerConfig.BUFFER_MEMORY_CONFIG,
            128L * 1024 * 1024,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true);

    /**
     * What was produced.
     *
     * @param samples records acknowledged
     * @param elapsed from the first producer's creation to the last acknowledgement
     */
    public record Summary(long samples, Duration elapsed) {
        /** Acknowledged samples per second. */
        public double samplesPerSecond() {
            double s = elapsed.toNanos() / 1e9;
            return s > 0 ? samples / s : 0;
        }
    }

    private InterleavedLoad() {}

    /** The id of series {@code i}. */
    public static String seriesId(String prefix, int i) {
        return prefix + "-" + i;
    }

    /**
     * Produces {@code series} × {@code samplesPerSeries} samples to {@code topic} and waits for every
     * acknowledgement.
     *
     * @param clientProperties at least {@code bootstrap.servers}
     * @param pool rows whose values the series take (series i takes row i mod size), of length &ge;
     *     {@code samplesPerSeries}
     * @param progress stepped once per acknowledged sample
     * @throws IllegalStateException when a send fails, with Kafka's reason
     */
    public static Summary produce(
            Map<String, Object> clientProperties,
            String topic,
            String prefix,
            Dataset pool,
            int series,
            int samplesPerSeries,
            int threads,
            Progress progress) {
        if (series < 1 || threads < 1 || samplesPerSeries < 1 || samplesPerSeries > pool.length()) {
            throw new IllegalArgumentException("need series >= 1, threads >= 1 and 1 <= samples per series <= "
                    + pool.length() + "; got " + series + ", " + threads + ", " + samplesPerSeries);
        }
        Map<String, Object> config = new HashMap<>(clientProperties);
        config.putAll(TUNING);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acked = new AtomicLong();
        long t0 = System.nanoTime();
        List<Thread> workers = new ArrayList<>();
        int n = Math.min(threads, series);
        for (int w = 0; w < n; w++) {
            int first = w;
            Thread thread = new Thread(
                    () -> {
                        try {
                            produceShare(
                                    config,
                                    topic,
                                    prefix,
                                    pool,
                                    series,
                                    samplesPerSeries,
                                    first,
                                    n,
                                    failure,
                                    acked,
                                    progress);
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                        }
                    },
                    "vigil-load-" + w);
            thread.start();
            workers.add(thread);
        }
        for (Thread thread : workers) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while producing to " + topic, e);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException(
                    "producing to " + topic + " failed after " + acked.get() + " samples: "
                            + failure.get().getMessage(),
                    failure.get());
        }
        return new Summary(acked.get(), Duration.ofNanos(System.nanoTime() - t0));
    }

    /** Sends the samples of series first, first + stride, … round by round on one producer. */
    private static void produceShare(
            Map<String, Object> config,
            String topic,
            String prefix,
            Dataset pool,
            int series,
            int samplesPerSeries,
            int first,
            int stride,
            AtomicReference<Exception> failure,
            AtomicLong acked,
            Progress progress) {
        int mine = (series - first + stride - 1) / stride;
        String[] ids = new String[mine];
        byte[][] keys = new byte[mine][];
        for (int j = 0; j < mine; j++) {
            ids[j] = seriesId(prefix, first + j * stride);
            keys[j] = SampleRecord.key(ids[j]);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            for (int t = 1; t <= samplesPerSeries; t++) {
                for (int j = 0; j < mine; j++) {
                    if (failure.get() != null) {
                        return;
                    }
                    double v = pool.value((first + j * stride) % pool.size(), t - 1);
                    producer.send(new ProducerRecord<>(topic, keys[j], SampleRecord.encode(ids[j], t, v)), (m, e) -> {
                        if (e != null) {
                            failure.compareAndSet(null, e);
                        } else {
                            acked.incrementAndGet();
                            progress.step();
                        }
                    });
                }
            }
            producer.flush();
        }
    }
}
