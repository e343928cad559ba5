package io.vigil.kafka;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.util.Progress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes a labelled data set to Kafka as a live stream would arrive: each series sample by sample
 * ({@link SampleRecord} format, keyed by its {@link SeriesId}), {@code concurrency} series interleaved
 * round-robin (when one ends, the next starts in its place), optionally rate-limited, optionally with each
 * series' true label on a truth topic (sent as the series starts). Returns only when Kafka has acknowledged
 * every record; any failed send fails the replay.
 *
 * <p>A multichannel series is sent one record per value with {@code channel} set, channels interleaved by time;
 * under an {@link ObservationPattern} (values missing, channels lagged or dropped, arrival shuffled) only the
 * pattern's values go out, in its order, and a series that lost values ends with its end record ({@code
 * {"series":…,"end":true}}), so the stream decides it at once instead of at its idle timeout.
 *
 * <p>The producer is idempotent with {@code acks=all}: retries cannot duplicate or reorder samples, so each key's
 * samples land in its partition in {@code t} order exactly once.
 */
public final class Replay {
    /** Producer defaults for throughput on a local broker; user properties override them. */
    private static final Map<String, Object> TUNING = Map.of(
            ProducerConfig.LINGER_MS_CONFIG,
            10,
            ProducerConfig.BATCH_SIZE_CONFIG,
            128 * 1024,
            ProducerConfig.CLIENT_ID_CONFIG,
            "vigil-replay");

    /** How long closing waits for in-flight records after a failure. */
    private static final Duration CLOSE_AFTER_FAILURE = Duration.ofSeconds(5);

    private Replay() {}

    /** Which split a replay publishes (it is also part of every series id). */
    public enum Split {
        TRAIN("train"),
        TEST("test");

        private final String id;

        Split(String id) {
            this.id = id;
        }

        /** The name in series ids: {@code train} or {@code test}. */
        public String id() {
            return id;
        }
    }

    /**
     * What to publish and how.
     *
     * @param topic sample topic
     * @param truthTopic truth topic, or {@code null} for none
     * @param rate samples per second across all series; 0 for unlimited
     * @param concurrency series interleaved at a time, &ge; 1
     * @param repeat passes over the split, &ge; 1 (ids get {@code #pass} when &gt; 1)
     * @param pattern which values of each series are sent and in what order ({@link ObservationPattern}, seeded
     *     per series id); {@link ObservationPattern#complete()} sends every value in time order
     */
    public record Settings(
            String topic, String truthTopic, double rate, int concurrency, int repeat, ObservationPattern pattern) {
        /** Every value of every series, in time order. */
        public Settings(String topic, String truthTopic, double rate, int concurrency, int repeat) {
            this(topic, truthTopic, rate, concurrency, repeat, ObservationPattern.complete());
        }

        /** Validates every field; each message names the field by its {@code vigil replay} option. */
        public Settings {
            Objects.requireNonNull(pattern, "pattern");
            if (!(rate >= 0) || Double.isInfinite(rate)) {
                throw new IllegalArgumentException("--rate must be >= 0 samples/s (0 = unlimited), got " + rate);
            }
            if (concurrency < 1) {
                throw new IllegalArgumentException("--concurrency must be at least 1, got " + concurrency);
            }
            if (repeat < 1) {
                throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
            }
            if (topic == null || topic.isBlank()) {
                throw new IllegalArgumentException("--topic must not be blank");
            }
            if (truthTopic != null && (truthTopic.isBlank() || truthTopic.equals(topic))) {
                throw new IllegalArgumentException("--truth-topic must be non-blank and differ from --topic");
            }
        }
    }

    /**
     * What was published.
     *
     * @param series series published (n × repeat)
     * @param samples records acknowledged on the sample topic (values, and end records of series that lost values)
     * @param truthRecords truth records acknowledged
     * @param elapsed from creating the producer (metadata and topic auto-creation included) until the last
     *     acknowledgement
     */
    public record Summary(long series, long samples, long truthRecords, Duration elapsed) {
        /** Acknowledged samples per second of elapsed time. */
        public double samplesPerSecond() {
            double s = elapsed.toNanos() / 1e9;
            return s > 0 ? samples / s : 0;
        }
    }

    /**
     * Publishes {@code data} and waits for every acknowledgement.
     *
     * @param data the split to publish; its {@link Dataset#name()} starts every series id
     * @param split which split {@code data} is (part of the ids)
     * @param producerConfig client properties: at least {@code bootstrap.servers}; serializers, {@code acks} and
     *     idempotence are set here
     * @param progress stepped once per acknowledged sample
     * @throws IllegalArgumentException when {@code producerConfig} disables idempotence or weakens acks
     * @throws IllegalStateException when a record cannot be sent or is not acknowledged, with Kafka's reason
     */
    public static Summary run(
            Dataset data, Split split, Settings settings, Map<String, Object> producerConfig, Progress progress) {
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(split, "split");
        Objects.requireNonNull(settings, "settings");
        Map<String, Object> config = producerConfig(producerConfig);
        long totalSeries = (long) data.size() * settings.repeat();
        if (totalSeries > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    data.size() + " series x " + settings.repeat() + " repetitions is more than a replay can number");
        }
        SendAcks sampleAcks = new SendAcks(progress);
        SendAcks truthAcks = new SendAcks(Progress.none());
        long t0 = System.nanoTime();
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
        Publisher publisher = new Publisher(producer, data, split, settings, (int) totalSeries, sampleAcks, truthAcks);
        boolean clean = false;
        try {
            publisher.publish();
            producer.flush(); // returns after every callback ran
            clean = true;
        } catch (KafkaException e) { // thrown by send() itself, e.g. no metadata for the topic within max.block.ms
            sampleAcks.failure.compareAndSet(null, e);
        } finally {
            if (clean) {
                producer.close();
            } else {
                producer.close(CLOSE_AFTER_FAILURE);
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        Exception failure = sampleAcks.failure.get() != null ? sampleAcks.failure.get() : truthAcks.failure.get();
        if (failure != null) {
            throw new IllegalStateException(
                    "replay to " + settings.topic() + " failed after " + sampleAcks.acked.get() + " of "
                            + publisher.sent + " samples were acknowledged: " + reason(failure),
                    failure);
        }
        if (sampleAcks.acked.get() != publisher.sent || truthAcks.acked.get() != publisher.truthSent) {
            throw new IllegalStateException("Kafka acknowledged " + sampleAcks.acked.get() + " of " + publisher.sent
                    + " samples and " + truthAcks.acked.get() + " of " + publisher.truthSent + " truth records");
        }
        return new Summary(totalSeries, publisher.sent, publisher.truthSent, elapsed);
    }

    /**
     * The records a replay sends to the sample topic: every observed value of every series, plus the end record
     * of each series that lost values.
     */
    public static long records(Dataset data, Split split, Settings settings) {
        return counts(data, split, settings).records();
    }

    /**
     * What a replay sends to the sample topic, counted without sending it.
     *
     * @param values observed values sent, one record each (at most series × C·d)
     * @param endRecords end records, one per series that lost values
     * @param seriesWithValues series with at least one value sent (a series that lost every value is only its end
     *     record, which ends nothing a stream has seen)
     */
    public record Counts(long values, long endRecords, long seriesWithValues) {
        /** Records on the sample topic: values and end records. */
        public long records() {
            return values + endRecords;
        }
    }

    /** The {@link Counts} of a replay of {@code data} with {@code settings}, from its pattern's per-series draws. */
    public static Counts counts(Dataset data, Split split, Settings settings) {
        long values = 0;
        long ends = 0;
        long withValues = 0;
        int n = data.size();
        for (int ordinal = 0; ordinal < n * settings.repeat(); ordinal++) {
            int observed = settings.pattern().isComplete()
                    ? data.length()
                    : settings.pattern()
                            .order(seriesId(data, split, settings, ordinal), data.channels(), data.length())
                            .length;
            values += observed;
            ends += observed < data.length() ? 1 : 0;
            withValues += observed > 0 ? 1 : 0;
        }
        return new Counts(values, ends, withValues);
    }

    /** The id of the {@code ordinal}-th series a replay sends (all rows of pass 1, then pass 2, …). */
    private static String seriesId(Dataset data, Split split, Settings settings, int ordinal) {
        int n = data.size();
        int repetition = settings.repeat() == 1 ? 0 : ordinal / n + 1;
        return new SeriesId(data.name(), split.id(), ordinal % n, repetition).toString();
    }

    /**
     * The interleaving: {@code slots} series are active at a time; each round sends the next sample of every
     * active slot in slot order, and a slot whose series ended takes the next series (ordinal order: all rows
     * of pass 1, then pass 2, ...).
     */
    private static final class Publisher {
        private final KafkaProducer<byte[], byte[]> producer;
        private final Dataset data;
        private final Split split;
        private final Settings settings;
        private final int totalSeries;
        private final SendAcks sampleAcks;
        private final SendAcks truthAcks;
        private final TokenBucket bucket;
        private final int[] slotSeries; // series ordinal in 0..totalSeries-1, or -1 when the slot is done
        private final int[] slotT; // next position in the slot's arrival order
        private final int[][] slotOrder; // the slot's series' values (time-major indices) in arrival order
        private final int channels;
        private final String[] slotId;
        private final byte[][] slotKey;
        private int nextSeries;
        long sent;
        long truthSent;

        Publisher(
                KafkaProducer<byte[], byte[]> producer,
                Dataset data,
                Split split,
                Settings settings,
                int totalSeries,
                SendAcks sampleAcks,
                SendAcks truthAcks) {
            this.producer = producer;
            this.data = data;
            this.split = split;
            this.settings = settings;
            this.totalSeries = totalSeries;
            this.sampleAcks = sampleAcks;
            this.truthAcks = truthAcks;
            this.bucket = settings.rate() > 0 ? TokenBucket.perSecond(settings.rate()) : null;
            int slots = Math.min(settings.concurrency(), totalSeries);
            this.slotSeries = new int[slots];
            this.slotT = new int[slots];
            this.slotOrder = new int[slots][];
            this.channels = data.channels();
            this.slotId = new String[slots];
            this.slotKey = new byte[slots][];
        }

        void publish() {
            int length = data.length();
            int n = data.size();
            for (int s = 0; s < slotSeries.length; s++) {
                startNext(s);
            }
            int active = slotSeries.length;
            while (active > 0) {
                for (int s = 0; s < slotSeries.length; s++) {
                    if (slotSeries[s] < 0) {
                        continue;
                    }
                    if (sampleAcks.failure.get() != null || truthAcks.failure.get() != null) {
                        return; // stop at the first failed acknowledgement; run() reports it
                    }
                    int[] order = slotOrder[s];
                    if (slotT[s] < order.length) {
                        if (bucket != null) {
                            bucket.acquire();
                        }
                        int j = order[slotT[s]++];
                        double v = data.value(slotSeries[s] % n, j);
                        byte[] value = channels == 1
                                ? SampleRecord.encode(slotId[s], j + 1, v)
                                : SampleRecord.encode(slotId[s], j / channels + 1, j % channels, v);
                        producer.send(new ProducerRecord<>(settings.topic(), slotKey[s], value), sampleAcks);
                        sent++;
                    }
                    if (slotT[s] == order.length) {
                        if (order.length < length) {
                            byte[] end = SampleRecord.encodeEnd(slotId[s]);
                            producer.send(new ProducerRecord<>(settings.topic(), slotKey[s], end), sampleAcks);
                            sent++;
                        }
                        if (nextSeries < totalSeries) {
                            startNext(s);
                        } else {
                            slotSeries[s] = -1;
                            active--;
                        }
                    }
                }
            }
        }

        /** Puts the next series into slot {@code s} and sends its truth record when a truth topic is set. */
        private void startNext(int s) {
            int ordinal = nextSeries++;
            int row = ordinal % data.size();
            String id = seriesId(data, split, settings, ordinal);
            slotSeries[s] = ordinal;
            slotId[s] = id;
            slotKey[s] = SampleRecord.key(id);
            slotT[s] = 0;
            slotOrder[s] = settings.pattern().order(id, channels, data.length());
            if (settings.truthTopic() != null) {
                byte[] truth = SampleRecord.encodeTruth(id, data.labelOf(row), data.length());
                producer.send(new ProducerRecord<>(settings.truthTopic(), slotKey[s], truth), truthAcks);
                truthSent++;
            }
        }
    }

    /**
     * The effective producer configuration: tuning defaults, then the caller's properties, then what a replay
     * requires (byte-array serializers, idempotence, acks=all). A caller asking for weaker delivery is refused
     * rather than silently overridden.
     */
    static Map<String, Object> producerConfig(Map<String, Object> user) {
        if (!user.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new IllegalArgumentException("producer config lacks bootstrap.servers");
        }
        requireSetting(user, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        requireSetting(user, ProducerConfig.ACKS_CONFIG, "all", "-1");
        Map<String, Object> config = new HashMap<>(TUNING);
        config.putAll(user);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        return config;
    }

    private static void requireSetting(Map<String, Object> user, String key, String... allowed) {
        Object v = user.get(key);
        if (v == null) {
            return;
        }
        for (String a : allowed) {
            if (a.equalsIgnoreCase(String.valueOf(v).trim())) {
                return;
            }
        }
        throw new IllegalArgumentException(key + "=" + v + " is not allowed: replay uses an idempotent producer with "
                + ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG + "=true and " + ProducerConfig.ACKS_CONFIG + "=all");
    }

    private static String reason(Throwable e) {
        String m = e.getMessage();
        return e.getClass().getSimpleName() + (m == null ? "" : ": " + m.replace('\n', ' '));
    }
}
