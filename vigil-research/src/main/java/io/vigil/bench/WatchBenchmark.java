package io.vigil.bench;

import io.vigil.data.recording.Recording;
import io.vigil.early.DecisionParams;
import io.vigil.flink.Delivery;
import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.WatchAlarm;
import io.vigil.flink.WatchJob;
import io.vigil.flink.WatchSample;
import io.vigil.flink.WatchSettings;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.TopicReader;
import io.vigil.kafka.WatchRecord;
import io.vigil.util.Percentiles;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@code vigil bench watch}: the watch job of {@code vigil run --watch} ({@link WatchJob}, docs/watch.md) on N keys ×
 * C channels, in one process: a loopback Kafka broker, an embedded Flink MiniCluster, a window model of D samples and
 * stride S trained here ({@link WatchWorkload}, cached). Key k sends the C-channel recording k mod R of the generated
 * set from its own offset, values of sample i for every key and channel before sample i + 1, with {@code "i"} set.
 * (1) The input topic is filled first and the bounded job reads it as fast as it can: the rate is the values per
 * second between two marks, when 40 % and 95 % of the values had passed the source (after every key's first D·0.4
 * samples at the defaults, so the rate is the one with every window of a key open, not the job's start-up); the
 * {@code watchOpenWindows} gauge is read twice a second meanwhile. (2) The job runs unbounded, fed the same streams
 * at half that rate (until the latency seconds have passed and {@link #LATENCY_ALARMS} alarms arrived, or the
 * streams end), and the latency of every alarm is its arrival on the output topic minus the time its trigger sample's
 * first value was sent (an upper bound on the time since the triggering value's Kafka timestamp).
 */
public final class WatchBenchmark {
    private static final String INPUT = "bench-watch-values";
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(60);
    private static final double LOW_MARK = 0.40;
    private static final double HIGH_MARK = 0.95;

    /**
     * What to run.
     *
     * @param shape the model's shape (C, D, S) and its training data
     * @param keys N keys sending at once
     * @param samplesPerKey samples each key sends (C values each)
     * @param partitions topic partitions
     * @param parallelism Flink parallelism
     * @param latencySeconds length of the paced phase (2)
     * @param cache where the trained model is kept between runs
     */
    public record Settings(
            WatchWorkload.Shape shape,
            int keys,
            int samplesPerKey,
            int partitions,
            int parallelism,
            double latencySeconds,
            Path cache) {
        /** Validates. */
        public Settings {
            if (keys < 1 || samplesPerKey < 1 || partitions < 1 || parallelism < 1 || !(latencySeconds > 0)) {
                throw new IllegalArgumentException(
                        "--keys, --samples, --partitions, --parallelism and --latency-seconds must be positive");
            }
            if (samplesPerKey > shape.samples()) {
                throw new IllegalArgumentException("--samples " + samplesPerKey
                        + " is longer than the generated recordings (" + shape.samples() + " samples)");
            }
        }
    }

    /**
     * What was measured.
     *
     * @param values values sent in (1)
     * @param valuesPerSecond the job's rate in (1) between the marks
     * @param valuesPerCpuSecond values between the marks per second of the process's CPU time (job and broker)
     * @param openWindows mean of the {@code watchOpenWindows} gauge over the readings between the marks (all keys)
     * @param openWindowsMax the largest reading
     * @param alarms alarms the job raised in (1)
     * @param windowsDecided windows decided in (1)
     * @param deadLetters dead letters written in (1)
     * @param latencyRate the rate of (2), values/s
     * @param latencyP50Ms median alarm latency in (2), NaN without alarms
     * @param latencyP99Ms 99th percentile, NaN without alarms
     * @param latencyAlarms alarms whose latency was measured
     * @param model the model (cached or trained now)
     */
    public record Result(
            long values,
            double valuesPerSecond,
            double valuesPerCpuSecond,
            double openWindows,
            long openWindowsMax,
            long alarms,
            long windowsDecided,
            long deadLetters,
            double latencyRate,
            double latencyP50Ms,
            double latencyP99Ms,
            int latencyAlarms,
            WatchWorkload.Model model) {}

    private WatchBenchmark() {}

    /** Runs both phases; {@code log} receives one line per step. */
    public static Result run(Settings s, Consumer<String> log) throws Exception {
        WatchWorkload.Model model = WatchWorkload.model(s.shape(), s.cache(), log);
        Streams streams = new Streams(model, s);
        long values = (long) s.keys() * s.samplesPerKey() * s.shape().channels();
        try (LoopbackKafka kafka =
                LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(s.partitions()))) {
            kafka.createTopic(INPUT, s.partitions());
            long started = System.nanoTime();
            streams.produce(kafka, INPUT, s.samplesPerKey(), 0, () -> false);
            log.accept(String.format(
                    "(1) %d values of %d keys x %d channels produced in %.1f s",
                    values, s.keys(), s.shape().channels(), (System.nanoTime() - started) / 1e9));
            JobConfig cfg = config(kafka, s, INPUT, "bench-watch-alarms", "bench-watch", true);
            kafka.createTopic(cfg.output(), s.partitions());
            kafka.createTopic(cfg.deadLetter(), 1);
            Timed t = timed(s, cfg, model.modelBytes(), values);
            long dead = TopicReader.countCommitted(kafka.clientProperties(), cfg.deadLetter(), COUNT_TIMEOUT);
            log.accept(String.format(
                    "(1) %.0f values/s (%.0f per CPU second), %.0f windows open (max %d), %d alarms, %d windows decided,"
                            + " %d dead letters",
                    t.rate, t.perCpuSecond, t.open, t.openMax, t.alarms, t.decided, dead));
            double rate = t.rate / 2;
            List<Double> latencies = latency(kafka, s, model.modelBytes(), streams, rate);
            double p50 = latencies.isEmpty() ? Double.NaN : Percentiles.nearestRank(latencies, 0.5);
            double p99 = latencies.isEmpty() ? Double.NaN : Percentiles.nearestRank(latencies, 0.99);
            log.accept(String.format(
                    "(2) at %.0f values/s: alarm latency p50 %.1f ms, p99 %.1f ms over %d alarms",
                    rate, p50, p99, latencies.size()));
            return new Result(
                    values,
                    t.rate,
                    t.perCpuSecond,
                    t.open,
                    t.openMax,
                    t.alarms,
                    t.decided,
                    dead,
                    rate,
                    p50,
                    p99,
                    latencies.size(),
                    model);
        }
    }

    private static JobConfig config(
            LoopbackKafka kafka, Settings s, String in, String out, String group, boolean bounded) {
        return JobConfig.builder(kafka.bootstrapServers(), in, out, out + "-dead", DecisionParams.defaults())
                .delivery(Delivery.AT_LEAST_ONCE)
                .parallelism(s.parallelism())
                .bounded(bounded)
                .checkpointInterval(Duration.ofSeconds(5))
                .groupId(group)
                .transactionalIdPrefix(group)
                .build();
    }

    /** The measurements of phase (1). */
    private record Timed(double rate, double perCpuSecond, double open, long openMax, long alarms, long decided) {}

    /** Runs the bounded job over the filled topic, reading the open-window gauge twice a second. */
    private static Timed timed(Settings s, JobConfig cfg, byte[] model, long values) throws Exception {
        long low = Math.max(1, (long) (values * LOW_MARK));
        long high = Math.max(low + 1, (long) (values * HIGH_MARK));
        Probe.reset(low, high);
        List<Long> readings = Collections.synchronizedList(new ArrayList<>());
        long[] max = {0};
        JobMetrics.Snapshot end;
        try (LocalFlink flink = LocalFlink.start(OptionalInt.empty())) {
            StreamExecutionEnvironment env = flink.environment();
            env.getConfig().enableObjectReuse();
            WatchJob.attach(env, cfg, model, WatchSettings.defaults(), Probe::tap);
            Thread gauge = new Thread(
                    () -> {
                        try {
                            while (!Thread.currentThread().isInterrupted()) {
                                long open = flink.metrics().snapshot().get(JobMetrics.WATCH_OPEN_WINDOWS);
                                synchronized (max) {
                                    max[0] = Math.max(max[0], open);
                                }
                                long n = Probe.COUNT.get();
                                if (n >= low && n <= high) {
                                    readings.add(open);
                                }
                                Thread.sleep(500);
                            }
                        } catch (InterruptedException stop) {
                            Thread.currentThread().interrupt();
                        }
                    },
                    "vigil-bench-watch-gauge");
            gauge.setDaemon(true);
            gauge.start();
            try {
                env.execute("vigil bench watch");
            } finally {
                gauge.interrupt();
                gauge.join();
            }
            end = flink.metrics().snapshot();
        }
        if (Probe.COUNT.get() != values) {
            throw new IllegalStateException("the job read " + Probe.COUNT.get() + " of " + values + " values");
        }
        double open;
        synchronized (readings) {
            open = readings.stream().mapToLong(Long::longValue).average().orElse(Double.NaN);
        }
        return new Timed(
                Probe.rate(),
                Probe.ratePerCpuSecond(),
                open,
                max[0],
                end.get(JobMetrics.WATCH_ALARMS),
                end.get(JobMetrics.WATCH_WINDOWS_DECIDED));
    }

    /** Alarms phase (2) waits for, once its seconds have passed, before it stops feeding. */
    static final int LATENCY_ALARMS = 100;

    /**
     * Phase (2): alarm latencies (ms) with the job fed the same streams at {@code rate} values/s, until the settings'
     * seconds have passed and {@link #LATENCY_ALARMS} alarms arrived, or the streams end.
     */
    private static List<Double> latency(LoopbackKafka kafka, Settings s, byte[] model, Streams streams, double rate)
            throws Exception {
        String in = "bench-watch-live";
        JobConfig cfg = config(kafka, s, in, "bench-watch-live-alarms", "bench-watch-live", false);
        kafka.createTopic(in, s.partitions());
        kafka.createTopic(cfg.output(), s.partitions());
        kafka.createTopic(cfg.deadLetter(), 1);
        List<Double> latencies = new ArrayList<>();
        try (LocalFlink flink = LocalFlink.start(OptionalInt.empty());
                KafkaConsumer<byte[], byte[]> c =
                        TopicReader.fromBeginning(kafka.clientProperties(), cfg.output(), false)) {
            StreamExecutionEnvironment env = flink.environment();
            WatchJob.attach(env, cfg, model, WatchSettings.defaults());
            JobClient job = env.executeAsync("vigil bench watch latency");
            AtomicBoolean enough = new AtomicBoolean();
            Thread producer = new Thread(
                    () -> streams.produce(kafka, in, s.samplesPerKey(), rate, enough::get), "vigil-bench-watch-feed");
            try {
                long started = System.nanoTime();
                long minimum = started + (long) (s.latencySeconds() * 1e9);
                producer.start();
                long grace = 0;
                while (producer.isAlive() || System.nanoTime() < grace) {
                    for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(5))) {
                        long now = System.currentTimeMillis();
                        WatchAlarm a = WatchAlarm.fromJson(r.value());
                        latencies.add((double) (now - streams.sentAt(a.key, a.trigger)));
                    }
                    if (System.nanoTime() > minimum && latencies.size() >= LATENCY_ALARMS) {
                        enough.set(true);
                    }
                    if (!producer.isAlive() && grace == 0) {
                        grace = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    }
                }
            } finally {
                enough.set(true);
                producer.join();
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
        return latencies;
    }

    /** The keyed streams: key k is recording k mod R from its own offset. */
    private static final class Streams {
        private static final String KEY_PREFIX = "key-";

        private final List<Recording> recordings;
        private final int keys;
        private final int channels;
        private final int[] offset;
        private final byte[][] keyBytes;
        private final String[] keyNames;
        /** Wall-clock ms when each key's sample was sent, [key][sample − 1], by the last {@link #produce}. */
        private final long[][] sentMs;

        Streams(WatchWorkload.Model model, Settings s) {
            this.recordings = model.recordings().recordings();
            this.keys = s.keys();
            this.channels = s.shape().channels();
            this.offset = new int[keys];
            this.keyBytes = new byte[keys][];
            this.keyNames = new String[keys];
            this.sentMs = new long[keys][s.samplesPerKey()];
            int room = s.shape().samples() - s.samplesPerKey();
            for (int k = 0; k < keys; k++) {
                offset[k] = room == 0 ? 0 : (int) ((k * 7919L) % (room + 1));
                keyNames[k] = String.format(KEY_PREFIX + "%05d", k);
                keyBytes[k] = keyNames[k].getBytes(StandardCharsets.UTF_8);
            }
        }

        /**
         * When the first value of {@code key}'s {@code sample} was sent (ms): the Kafka timestamp of the values that
         * trigger an alarm at that sample is no earlier.
         */
        long sentAt(String key, long sample) {
            int k = Integer.parseInt(key.substring(KEY_PREFIX.length()));
            return sentMs[k][(int) sample - 1];
        }

        /**
         * Sends the first {@code samples} samples of every key, at most {@code rate} values/s (0: unpaced), stopping
         * after a sample once {@code stop} says so.
         */
        void produce(LoopbackKafka kafka, String topic, int samples, double rate, BooleanSupplier stop) {
            Map<String, Object> p = new HashMap<>(kafka.clientProperties());
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
            p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
            p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
            long started = System.nanoTime();
            long sent = 0;
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
                for (int i = 1; i <= samples && !stop.getAsBoolean(); i++) {
                    for (int k = 0; k < keys; k++) {
                        Recording r = recordings.get(k % recordings.size());
                        sentMs[k][i - 1] = System.currentTimeMillis();
                        for (int c = 0; c < channels; c++) {
                            double v = r.value(c, offset[k] + i);
                            producer.send(
                                    new ProducerRecord<>(topic, keyBytes[k], WatchRecord.encode(keyNames[k], i, c, v)));
                            sent++;
                        }
                    }
                    if (rate > 0) {
                        long wait = started + (long) (sent / rate * 1e9) - System.nanoTime();
                        if (wait > 0) {
                            try {
                                TimeUnit.NANOSECONDS.sleep(wait);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    }
                }
                producer.flush();
            }
        }
    }

    /**
     * A pass-through map after the job's source counting values and noting when the count crossed two marks (static:
     * one measured job at a time in this JVM's MiniCluster).
     */
    static final class Probe implements MapFunction<WatchSample, WatchSample> {
        private static final long serialVersionUID = 1L;
        static final AtomicLong COUNT = new AtomicLong();
        private static final AtomicLong LOW = new AtomicLong();
        private static final AtomicLong HIGH = new AtomicLong();
        private static final AtomicLong LOW_AT = new AtomicLong();
        private static final AtomicLong HIGH_AT = new AtomicLong();
        private static final AtomicLong LOW_CPU = new AtomicLong();
        private static final AtomicLong HIGH_CPU = new AtomicLong();
        private static final AtomicLong FIRST_AT = new AtomicLong();
        private static final AtomicLong LAST_AT = new AtomicLong();

        static DataStream<WatchSample> tap(DataStream<WatchSample> s) {
            return s.map(new Probe()).name("Rate probe").returns(WatchSample.class);
        }

        static void reset(long low, long high) {
            COUNT.set(0);
            LOW.set(low);
            HIGH.set(high);
            LOW_AT.set(0);
            HIGH_AT.set(0);
            LOW_CPU.set(0);
            HIGH_CPU.set(0);
            FIRST_AT.set(0);
            LAST_AT.set(0);
        }

        /** Values per second between the marks, or over the whole run when they were not both passed. */
        static double rate() {
            if (LOW_AT.get() != 0 && HIGH_AT.get() > LOW_AT.get()) {
                return (HIGH.get() - LOW.get()) / ((HIGH_AT.get() - LOW_AT.get()) / 1e9);
            }
            long span = LAST_AT.get() - FIRST_AT.get();
            return span > 0 ? COUNT.get() / (span / 1e9) : Double.NaN;
        }

        /**
         * Values per second of this process's CPU time (all threads: the job, the broker, the gauge reader) between
         * the marks, NaN when they were not both passed: what the rate would be with a core per busy thread.
         */
        static double ratePerCpuSecond() {
            long cpu = HIGH_CPU.get() - LOW_CPU.get();
            if (LOW_AT.get() == 0 || HIGH_AT.get() <= LOW_AT.get() || cpu <= 0) {
                return Double.NaN;
            }
            return (HIGH.get() - LOW.get()) / (cpu / 1e9);
        }

        private static long processCpuNanos() {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? os.getProcessCpuTime()
                    : 0;
        }

        @Override
        public WatchSample map(WatchSample s) {
            long now = System.nanoTime();
            long n = COUNT.incrementAndGet();
            if (n == 1) {
                FIRST_AT.compareAndSet(0, now);
            }
            if (n == LOW.get()) {
                LOW_AT.set(now);
                LOW_CPU.set(processCpuNanos());
            } else if (n == HIGH.get()) {
                HIGH_AT.set(now);
                HIGH_CPU.set(processCpuNanos());
            }
            LAST_AT.set(now);
            return s;
        }
    }
}
