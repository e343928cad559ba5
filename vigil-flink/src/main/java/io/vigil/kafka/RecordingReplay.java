package io.vigil.kafka;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingSet;
import io.vigil.util.Progress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;

/**
 * Publishes a set of recordings (docs/recordings.md) to Kafka as endless keyed streams, the input of watching
 * (docs/watch.md): each recording is one key (its name), sent sample by sample as watch records {@code
 * {"key":K,"channel":C,"value":V,"i":I}} — one record per observed value, {@code channel} the 0-based column of the
 * recording's channels, {@code i} the 1-based sample index (a missing value is not sent; its index stays a gap). The
 * recordings are interleaved in time order: sample i of a recording at rate r is due (i − 1) / (r · speed) seconds
 * after the replay starts, and values go out in the order they are due (ties by recording name, then channel), paced
 * to that clock unless the speed is unlimited. The producer is idempotent with {@code acks=all}, so each key's values
 * land in its partition in sample order exactly once.
 */
public final class RecordingReplay {
    /** {@link Settings#speed()} for as fast as Kafka takes the records (time order kept, no pacing). */
    public static final double MAX_SPEED = Double.POSITIVE_INFINITY;

    private static final Duration CLOSE_AFTER_FAILURE = Duration.ofSeconds(5);

    /** Pacing sleeps no shorter than this: values due within it go out together. */
    private static final long MIN_PARK_NANOS = 1_000_000;

    private RecordingReplay() {}

    /**
     * What to publish and how.
     *
     * @param topic the topic of the watch records
     * @param speed the recordings' real time × speed, &gt; 0, or {@link #MAX_SPEED}
     */
    public record Settings(String topic, double speed) {
        /** Validates the fields. */
        public Settings {
            if (topic == null || topic.isBlank()) {
                throw new IllegalArgumentException("topic must not be blank");
            }
            if (!(speed > 0)) {
                throw new IllegalArgumentException("speed must be > 0 (or max), got " + speed);
            }
        }
    }

    /**
     * What was published.
     *
     * @param recordings recordings (keys) published
     * @param values value records acknowledged
     * @param missing missing values not sent (NaN cells)
     * @param recordedSeconds the longest recording's duration at its sampling rate (the replay's span at speed 1)
     * @param elapsed from creating the producer until the last acknowledgement
     */
    public record Summary(int recordings, long values, long missing, double recordedSeconds, Duration elapsed) {
        /** Acknowledged values per second of elapsed time. */
        public double valuesPerSecond() {
            double s = elapsed.toNanos() / 1e9;
            return s > 0 ? values / s : 0;
        }
    }

    /**
     * Encodes one watch record exactly as {@code {"key":K,"channel":C,"value":V,"i":I}} (V in Java's shortest
     * round-trip decimal form).
     *
     * @throws IllegalArgumentException on an empty key, a negative channel, i &lt; 1 or a non-finite value
     */
    public static byte[] encode(String key, int channel, double value, long sample) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key must not be empty");
        }
        if (channel < 0 || sample < 1 || !Double.isFinite(value)) {
            throw new IllegalArgumentException("key " + key + ": need channel ≥ 0, i ≥ 1 and a finite value; got"
                    + " channel " + channel + ", i " + sample + ", value " + value);
        }
        StringBuilder sb = new StringBuilder(56 + key.length());
        sb.append("{\"key\":\"");
        JsonStringEncoder.getInstance().quoteAsString(key, sb);
        sb.append("\",\"channel\":")
                .append(channel)
                .append(",\"value\":")
                .append(value)
                .append(",\"i\":")
                .append(sample)
                .append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The value records a replay of {@code set} sends: its observed (non-NaN) values. */
    public static long values(RecordingSet set) {
        long n = 0;
        for (Recording r : set.recordings()) {
            for (int c = 0; c < r.channelCount(); c++) {
                for (int i = 1; i <= r.samples(); i++) {
                    n += Double.isNaN(r.value(c, i)) ? 0 : 1;
                }
            }
        }
        return n;
    }

    /**
     * Checks that every recording has a sampling rate (the replay's clock).
     *
     * @throws IllegalArgumentException naming the first recording without one
     */
    public static void requireRates(RecordingSet set) {
        for (Recording r : set.recordings()) {
            if (r.samplingRateHz().isEmpty()) {
                throw new IllegalArgumentException("recording '" + r.name() + "' has no time column, so its sampling"
                        + " rate is unknown; give --sampling-rate HZ");
            }
        }
    }

    /**
     * Publishes every recording of {@code set} and waits for every acknowledgement.
     *
     * @param producerConfig client properties: at least {@code bootstrap.servers}; serializers, acks and idempotence
     *     are set here ({@link Replay#producerConfig})
     * @param progress stepped once per acknowledged value
     * @throws IllegalArgumentException when a recording has no sampling rate, or the config weakens delivery
     * @throws IllegalStateException when a record cannot be sent or is not acknowledged, with Kafka's reason
     */
    public static Summary run(
            RecordingSet set, Settings settings, Map<String, Object> producerConfig, Progress progress) {
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(settings, "settings");
        requireRates(set);
        Map<String, Object> config = Replay.producerConfig(producerConfig);
        List<Recording> recs = set.recordings();
        SendAcks acks = new SendAcks(progress);
        long t0 = System.nanoTime();
        long sent = 0;
        long missing = 0;
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
        boolean clean = false;
        try {
            // one cursor per recording: its next sample, ordered by due time, then recording order
            PriorityQueue<long[]> due = new PriorityQueue<>((a, b) -> {
                int c = Double.compare(dueSeconds(recs.get((int) a[0]), a[1]), dueSeconds(recs.get((int) b[0]), b[1]));
                return c != 0 ? c : Long.compare(a[0], b[0]);
            });
            for (int k = 0; k < recs.size(); k++) {
                due.add(new long[] {k, 1});
            }
            byte[][] keys = recs.stream()
                    .map(r -> r.name().getBytes(StandardCharsets.UTF_8))
                    .toArray(byte[][]::new);
            while (!due.isEmpty() && acks.failure.get() == null) {
                long[] cursor = due.poll();
                Recording r = recs.get((int) cursor[0]);
                int i = (int) cursor[1];
                if (Double.isFinite(settings.speed())) {
                    pace(t0, dueSeconds(r, i) / settings.speed());
                }
                for (int c = 0; c < r.channelCount(); c++) {
                    double v = r.value(c, i);
                    if (Double.isNaN(v)) {
                        missing++;
                        continue;
                    }
                    byte[] value = encode(r.name(), c, v, i);
                    producer.send(new ProducerRecord<>(settings.topic(), keys[(int) cursor[0]], value), acks);
                    sent++;
                }
                if (i < r.samples()) {
                    cursor[1] = i + 1;
                    due.add(cursor);
                }
            }
            producer.flush();
            clean = true;
        } catch (KafkaException e) {
            acks.failure.compareAndSet(null, e);
        } finally {
            if (clean) {
                producer.close();
            } else {
                producer.close(CLOSE_AFTER_FAILURE);
            }
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - t0);
        Exception failure = acks.failure.get();
        if (failure != null) {
            String m = failure.getMessage();
            throw new IllegalStateException(
                    "replay to " + settings.topic() + " failed after " + acks.acked.get() + " of " + sent
                            + " values were acknowledged: " + failure.getClass().getSimpleName()
                            + (m == null ? "" : ": " + m.replace('\n', ' ')),
                    failure);
        }
        if (acks.acked.get() != sent) {
            throw new IllegalStateException("Kafka acknowledged " + acks.acked.get() + " of " + sent + " values");
        }
        double span = 0;
        for (Recording r : recs) {
            span = Math.max(span, dueSeconds(r, r.samples() + 1));
        }
        return new Summary(recs.size(), sent, missing, span, elapsed);
    }

    /** When sample {@code i} of {@code r} is due at speed 1, in seconds after the replay starts. */
    static double dueSeconds(Recording r, long i) {
        return (i - 1) / r.samplingRateHz().getAsDouble();
    }

    /** Parks until {@code seconds} after {@code t0}, when that is at least {@link #MIN_PARK_NANOS} away. */
    private static void pace(long t0, double seconds) {
        long target = t0 + (long) (seconds * 1e9);
        long wait;
        while ((wait = target - System.nanoTime()) >= MIN_PARK_NANOS) {
            LockSupport.parkNanos(wait);
        }
    }
}
