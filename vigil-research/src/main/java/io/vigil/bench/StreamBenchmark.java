package io.vigil.bench;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.flink.Delivery;
import io.vigil.flink.JobConfig;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.LocalState;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.Decoded;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.TopicReader;
import io.vigil.model.CreationTime;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.stream.ConditionedStates;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SeriesSession;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamJson;
import io.vigil.util.Percentiles;
import io.vigil.util.Progress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * {@code vigil bench stream}: in one process and one run, on the same pre-filled sample topic of Apache Kafka's
 * own broker (loopback), (a) raw Kafka produce and consume (with the same JSON decoding the job does), (b) a
 * pass-through Flink job Kafka → Kafka (decode, re-emit), (c) the Vigil job: a warm-up run, then R pairs of runs
 * without and with observability — the Prometheus endpoint ({@code --metrics-port}) served and scraped every second,
 * and with {@link Settings#dashboard} the live dashboard on with one client following it, which also records how late
 * it learns of each decision — reported as medians; then the Vigil job again, unbounded, fed at half of (c)'s rate,
 * for the sample → decision latency. After each run of (c) its decision topic is read back: every series published
 * must have exactly one decision, or the benchmark fails instead of reporting the rate of a job that did not work.
 *
 * <p>The data may have several channels (one record per value, channels interleaved by time) and be observed under an
 * {@link ObservationPattern} as {@code vigil replay} sends it ({@link Replay}): values missing at random, channels
 * late or dropped, arrival shuffled per series; the job then observes series in any order, and a series that lost
 * values ends with its end record, so it is still decided once. The job's state backend may be RocksDB. Rates are
 * records per second: one value each, or a series' end record.
 *
 * <p>Flink rates are sustained rates: records counted by a probe right after the source, from its first record
 * to the end of the job (job start-up excluded, drain and shut-down included, so they are conservative).
 */
public final class StreamBenchmark {
    /**
     * What to run ({@link #builder}).
     *
     * @param kind generated data set; a multichannel kind publishes one record per value with its channel, channels
     *     interleaved by time, as {@code vigil replay} does
     * @param trainSize training series
     * @param series test series replayed (records = series × C·d)
     * @param partitions partitions of the sample topic
     * @param parallelism Flink parallelism
     * @param latencySeconds how long the latency phase replays
     * @param seed generator seed
     * @param raw true to stream the generator's raw values (what a real stream sees), false to z-normalise each
     *     series over its whole length as the UCR archive does
     * @param dashboard whether the runs of (c) with the metrics endpoint also have the live dashboard on and a client
     *     following it (and measure how late it shows decisions)
     * @param repeat pairs of runs of (c) without and with observability, after a warm-up run
     * @param pattern which values of each series are published and in what order ({@link ObservationPattern},
     *     drawn per series as {@code vigil replay} draws them); unless complete, the job observes univariate series
     *     in any order too ({@link SessionSettings#anyOrder})
     * @param backend the job's keyed-state backend
     * @param rocksDbMemory RocksDB's managed memory (bytes) with {@link LocalState.Backend#ROCKSDB}
     * @param anyOrderCache bytes per subtask of the conditioned-state cache of series observed in any order ({@link
     *     SessionSettings#anyOrderCache})
     */
    public record Settings(
            SyntheticKind kind,
            int trainSize,
            int series,
            int partitions,
            int parallelism,
            double latencySeconds,
            long seed,
            boolean raw,
            boolean dashboard,
            int repeat,
            ObservationPattern pattern,
            LocalState.Backend backend,
            long rocksDbMemory,
            long anyOrderCache) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(backend, "backend");
            Objects.requireNonNull(pattern, "pattern");
            if (pattern.lags().keySet().stream().anyMatch(c -> c >= kind.channels())
                    || pattern.dropped().stream().anyMatch(c -> c >= kind.channels())) {
                throw new IllegalArgumentException("the pattern " + pattern + " names a channel " + kind.cliName()
                        + " does not have (channels 0.." + (kind.channels() - 1) + ")");
            }
            if (pattern.dropped().size() >= kind.channels()) {
                throw new IllegalArgumentException("the pattern drops every channel of " + kind.cliName());
            }
            if (repeat < 1) {
                throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
            }
            if (anyOrderCache < 0) {
                throw new IllegalArgumentException("the any-order cache must be >= 0 bytes, got " + anyOrderCache);
            }
        }

        /** Pairs of runs without and with observability by default: three with the dashboard, else one. */
        public static int defaultRepeat(boolean dashboard) {
            return dashboard ? 3 : 1;
        }

        /** A builder with {@code vigil bench stream}'s defaults for {@code kind}. */
        public static Builder builder(SyntheticKind kind) {
            return new Builder(kind);
        }

        /**
         * Whether the job observes the series in any order: multichannel data always, univariate unless every value
         * arrives in time order.
         */
        public boolean anyOrder() {
            return !pattern.isComplete() || kind.channels() > 1;
        }

        /** Whether the values are published in a random order drawn per series. */
        public boolean shuffle() {
            return pattern.shuffled();
        }

        /** The job's session settings: the defaults, any order unless the pattern is complete, the any-order cache. */
        SessionSettings session() {
            return SessionSettings.defaults()
                    .withAnyOrder(!pattern.isComplete())
                    .withAnyOrderCache(anyOrderCache);
        }

        /** Builds {@link Settings}; every field starts at {@code vigil bench stream}'s default. */
        public static final class Builder {
            private final SyntheticKind kind;
            private int trainSize = 100;
            private int series = 8000;
            private int partitions = 2;
            private int parallelism = 2;
            private double latencySeconds = 20;
            private long seed = 1;
            private boolean raw = true;
            private boolean dashboard;
            private Integer repeat;
            private ObservationPattern pattern = ObservationPattern.complete();
            private LocalState.Backend backend = LocalState.Backend.HASHMAP;
            private long rocksDbMemory = LocalState.DEFAULT_ROCKSDB_MEMORY;
            private long anyOrderCache = ConditionedStates.DEFAULT_BUDGET_BYTES;

            private Builder(SyntheticKind kind) {
                this.kind = kind;
            }

            public Builder trainSize(int v) {
                trainSize = v;
                return this;
            }

            public Builder series(int v) {
                series = v;
                return this;
            }

            public Builder partitions(int v) {
                partitions = v;
                return this;
            }

            public Builder parallelism(int v) {
                parallelism = v;
                return this;
            }

            public Builder latencySeconds(double v) {
                latencySeconds = v;
                return this;
            }

            public Builder seed(long v) {
                seed = v;
                return this;
            }

            public Builder raw(boolean v) {
                raw = v;
                return this;
            }

            public Builder dashboard(boolean v) {
                dashboard = v;
                return this;
            }

            /** Pairs of runs of (c); {@link #defaultRepeat} when not set. */
            public Builder repeat(int v) {
                repeat = v;
                return this;
            }

            /** Which values are published in which order; complete (every value in time order) when not set. */
            public Builder pattern(ObservationPattern v) {
                pattern = v;
                return this;
            }

            public Builder backend(LocalState.Backend v) {
                backend = v;
                return this;
            }

            public Builder rocksDbMemory(long v) {
                rocksDbMemory = v;
                return this;
            }

            public Builder anyOrderCache(long v) {
                anyOrderCache = v;
                return this;
            }

            /** The settings, validated. */
            public Settings build() {
                return new Settings(
                        kind,
                        trainSize,
                        series,
                        partitions,
                        parallelism,
                        latencySeconds,
                        seed,
                        raw,
                        dashboard,
                        repeat == null ? defaultRepeat(dashboard) : repeat,
                        pattern,
                        backend,
                        rocksDbMemory,
                        anyOrderCache);
            }
        }
    }

    /**
     * The figures.
     *
     * @param samples records in the topic, the unit of every rate: {@code valuesSent + endRecords}
     * @param valuesSent values published, one record each (of one channel with several channels): series × C·d
     *     unless the pattern loses values
     * @param endRecords end records published, one per series that lost values
     * @param length series length d (samples per channel)
     * @param channels channels C
     * @param dims LDG dimension ℓ
     * @param produceRate (a) producer samples/s
     * @param consumeRate (a) consumer samples/s, decoding each record
     * @param passThroughRate (b) pass-through job samples/s
     * @param vigilRate (c) Vigil job samples/s, median of the runs without observability
     * @param vigilRateWithMetrics (c) with the Prometheus endpoint served and scraped every second (and the dashboard
     *     on and followed, with {@link Settings#dashboard}): median of those runs (samples/s)
     * @param dashboardRate the same as {@code vigilRateWithMetrics} when the dashboard was on, NaN when not
     * @param warmUpRate (c) the first run, not counted (samples/s)
     * @param runsWithout (c) every run without observability, in order (samples/s)
     * @param runsWith (c) every run with observability, in order (samples/s)
     * @param dashboardLag how late the dashboard's client learnt of decisions in the runs with the dashboard
     * @param latencyRate replay rate of the latency phase (samples/s)
     * @param p50Ms median sample → decision latency at that rate
     * @param p99Ms 99th percentile of that latency
     * @param latencyDecisions decisions measured
     * @param stateBytesMax largest serialised per-series state (collecting, t = d; any order: all C·d values kept)
     * @param stateBytesDecided serialised per-series state after the decision
     * @param decidedSeries for each run of (c) in the order run (warm-up first), the series with exactly one decision
     *     record in its decision topic (the benchmark fails unless that is every series published with a value)
     * @param deadLetters dead letters of all runs of (c)
     */
    public record Result(
            long samples,
            long valuesSent,
            long endRecords,
            int length,
            int channels,
            int dims,
            double produceRate,
            double consumeRate,
            double passThroughRate,
            double vigilRate,
            double vigilRateWithMetrics,
            double dashboardRate,
            double warmUpRate,
            List<Double> runsWithout,
            List<Double> runsWith,
            DashboardLag dashboardLag,
            double latencyRate,
            double p50Ms,
            double p99Ms,
            int latencyDecisions,
            long stateBytesMax,
            long stateBytesDecided,
            List<Long> decidedSeries,
            long deadLetters) {
        /** (c) as a fraction of (b). */
        public double vigilShareOfPassThrough() {
            return vigilRate / passThroughRate;
        }

        /** (c) with metrics as a fraction of (c) without. */
        public double metricsShare() {
            return vigilRateWithMetrics / vigilRate;
        }

        /** (c) with the dashboard as a fraction of (c) without. */
        public double dashboardShareOfVigil() {
            return dashboardRate / vigilRate;
        }
    }

    private StreamBenchmark() {}

    /** Runs every phase; {@code log} receives one line per phase. */
    public static Result run(Settings s, Consumer<String> log) throws Exception {
        TrainTest data = SyntheticData.generate(s.kind(), s.trainSize(), s.series(), s.seed(), s.raw());
        VigilModel model = Trainer.train(data.train(), TrainParams.defaults(), CreationTime.now(), Progress.none());
        model = EarlyModelTrainer.addSections(model, data.train(), EarlyModelTrainer.Params.defaults());
        byte[] modelBytes = ModelFile.standard().toBytes(model);
        Dataset test = data.test();
        String topic = "bench-samples";
        Replay.Settings replay = new Replay.Settings(topic, null, 0, 100, 1, s.pattern());
        Replay.Counts sent = Replay.counts(test, Replay.Split.TEST, replay);
        long samples = sent.records();
        int series = Math.toIntExact(sent.seriesWithValues());
        log.accept("model: " + test.name() + ", " + (test.channels() > 1 ? "C = " + test.channels() + ", " : "")
                + "d = " + test.seriesLength() + ", dims = " + model.dims() + "; " + samples + " records ("
                + sent.values() + " of " + (long) test.size() * test.length() + " values, " + sent.endRecords()
                + " end records) in " + s.partitions() + " partitions, " + s.pattern()
                + (s.anyOrder() ? ", observed in any order" : "") + "; state backend "
                + s.backend().cliName());
        try (LoopbackKafka kafka =
                LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(s.partitions()))) {
            kafka.createTopic(topic, s.partitions());
            Replay.Summary produced =
                    Replay.run(test, Replay.Split.TEST, replay, kafka.clientProperties(), Progress.none());
            double produceRate = produced.samplesPerSecond();
            log.accept(String.format("(a) Kafka produce: %.0f samples/s", produceRate));
            double consumeRate = consume(kafka, topic, samples);
            log.accept(String.format("(a) Kafka consume + decode: %.0f samples/s", consumeRate));
            double passRate = passThrough(kafka, topic, s, samples);
            log.accept(String.format("(b) Flink pass-through: %.0f samples/s", passRate));
            JobConfig base = JobConfig.builder(
                            kafka.bootstrapServers(), topic, "bench-decisions", "bench-dead", DecisionParams.defaults())
                    .delivery(Delivery.AT_LEAST_ONCE)
                    .session(s.session())
                    .parallelism(s.parallelism())
                    .bounded(true)
                    .groupId("bench-vigil")
                    .transactionalIdPrefix("bench-vigil")
                    .build();
            // Created up front: the first writer to a topic the broker auto-creates timed out under heavy load
            // (OUT_OF_ORDER_SEQUENCE_NUMBER, then a 120 s send timeout) in two runs on a loaded machine.
            kafka.createTopic(base.deadLetter(), 1);
            List<Long> decided = new ArrayList<>();
            JobConfig first = own(kafka, base, 0, s.partitions());
            // A warm-up run first (the JVM's first pass over the job was up to 2.7x slower than the next), then R
            // pairs of runs without and with observability, alternating, each reading the whole topic with its own
            // consumer group: warm-up and drifting machine load then favour neither side.
            double warmUpRate = timed(s, samples, null, env -> VigilJob.attach(env, first, modelBytes, RateProbe::tap));
            decided.add(decidedOnce(kafka, first.output(), series));
            log.accept(String.format("(c) warm-up run (not counted): %.0f samples/s", warmUpRate));
            List<Double> without = new ArrayList<>();
            List<Double> with = new ArrayList<>();
            Scrapes scrapes = new Scrapes();
            WatchedDashboard.Lags lags = WatchedDashboard.Lags.create();
            for (int i = 1; i <= s.repeat(); i++) {
                JobConfig plain = own(kafka, base, 2 * i - 1, s.partitions());
                without.add(timed(s, samples, null, env -> VigilJob.attach(env, plain, modelBytes, RateProbe::tap)));
                decided.add(decidedOnce(kafka, plain.output(), series));
                JobConfig observed = observed(kafka, base, i, s.partitions());
                with.add(timed(
                        s,
                        samples,
                        scrapes,
                        env -> VigilJob.attach(env, observed, modelBytes, RateProbe::tap),
                        flink -> s.dashboard() ? WatchedDashboard.start(kafka, observed, flink, lags) : () -> {}));
                decided.add(decidedOnce(kafka, observed.output(), series));
                log.accept(String.format(
                        "(c) pair %d of %d: without %.0f, with %s %.0f samples/s",
                        i, s.repeat(), without.get(i - 1), observedWhat(s), with.get(i - 1)));
            }
            long deadLetters = TopicReader.countCommitted(kafka.clientProperties(), base.deadLetter(), COUNT_TIMEOUT);
            log.accept("(c) every run decided each of the " + series + " series exactly once; " + deadLetters
                    + " dead letters");
            double vigilRate = Percentiles.nearestRank(without, 0.5);
            double metricsRate = Percentiles.nearestRank(with, 0.5);
            log.accept(String.format(
                    "(c) Vigil job: median %.0f samples/s (%.0f%% of b); with %s (scraped %d times): median %.0f "
                            + "samples/s (%.0f%% of c)",
                    vigilRate,
                    100 * vigilRate / passRate,
                    observedWhat(s),
                    scrapes.count,
                    metricsRate,
                    100 * metricsRate / vigilRate));
            double dashboardRate = s.dashboard() ? metricsRate : Double.NaN;
            DashboardLag lag = DashboardLag.of(lags, metricsRate);
            if (s.dashboard()) {
                log.accept(String.format(
                        "dashboard lag at %.0f samples/s: p50 %.0f ms, p99 %.0f ms, max %.0f ms over %d decisions "
                                + "shown; the latest decision of an update: p99 %.0f ms, max %.0f ms",
                        metricsRate,
                        lag.p50Ms(),
                        lag.p99Ms(),
                        lag.maxMs(),
                        lag.decisions(),
                        lag.worstP99Ms(),
                        lag.worstMaxMs()));
            }
            double[] latency = latency(kafka, test, modelBytes, s, vigilRate / 2);
            log.accept(String.format(
                    "latency at %.0f samples/s: p50 %.1f ms, p99 %.1f ms (%d decisions)",
                    vigilRate / 2, latency[0], latency[1], (int) latency[2]));
            int d = test.seriesLength();
            return new Result(
                    samples,
                    sent.values(),
                    sent.endRecords(),
                    d,
                    test.channels(),
                    model.dims(),
                    produceRate,
                    consumeRate,
                    passRate,
                    vigilRate,
                    metricsRate,
                    dashboardRate,
                    warmUpRate,
                    List.copyOf(without),
                    List.copyOf(with),
                    lag,
                    vigilRate / 2,
                    latency[0],
                    latency[1],
                    (int) latency[2],
                    s.anyOrder()
                            ? SeriesSession.anyOrderSizeBytes(test.length(), false)
                            : stateBytes(d, model.dims(), false),
                    s.anyOrder()
                            ? SeriesSession.anyOrderSizeBytes(test.length(), true)
                            : stateBytes(d, model.dims(), true),
                    List.copyOf(decided),
                    deadLetters);
        }
    }

    /** Serialised size of a joint-Gaussian series session at t = d (collecting) or after the decision. */
    public static long stateBytes(int d, int dims, boolean decided) {
        return decided ? SeriesSession.DECIDED_SIZE_BYTES : SeriesSession.maxSerializedSizeBytes(d, dims, 1);
    }

    private static double consume(LoopbackKafka kafka, String topic, long expected) {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        long start = System.nanoTime();
        long n = 0;
        try (KafkaConsumer<byte[], byte[]> c = TopicReader.fromBeginning(p, topic, false)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
            while (n < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(100))) {
                    Decoded<SampleRecord.Sample> d = SampleRecord.decode(r.key(), r.value());
                    if (d.isOk()) {
                        n++;
                    }
                }
            }
        }
        if (n < expected) {
            throw new IllegalStateException("consumed only " + n + " of " + expected + " samples");
        }
        return n / ((System.nanoTime() - start) / 1e9);
    }

    private static double passThrough(LoopbackKafka kafka, String topic, Settings s, long samples) throws Exception {
        int parallelism = s.parallelism();
        JobConfig cfg = JobConfig.builder(
                        kafka.bootstrapServers(), topic, "bench-copy", "bench-copy-dead", DecisionParams.defaults())
                .delivery(Delivery.AT_LEAST_ONCE)
                .parallelism(parallelism)
                .bounded(true)
                .groupId("bench-pass")
                .transactionalIdPrefix("bench-pass")
                .build();
        // Created up front, as the Vigil job's topics are (an auto-created topic's first writer failed under load).
        kafka.createTopic(cfg.output(), s.partitions());
        return timed(s, samples, null, env -> {
            env.setParallelism(parallelism);
            DataStream<SampleEvent> events =
                    env.fromSource(VigilJob.source(cfg), WatermarkStrategy.noWatermarks(), "Kafka samples");
            RateProbe.tap(events)
                    .sinkTo(VigilJob.sink(
                            cfg,
                            (e, ctx, ts) -> new ProducerRecord<>(
                                    cfg.output(), e.series.getBytes(StandardCharsets.UTF_8), e.raw),
                            "p"))
                    .name("Kafka copy");
        });
    }

    /**
     * How late the dashboard's client learnt of decisions (ms, see {@link WatchedDashboard.Lags}), NaN without the
     * dashboard.
     *
     * @param rate the job's rate while measured (samples/s, median of the runs with the dashboard)
     * @param p50Ms median over the decisions the client saw in the page's table
     * @param p99Ms 99th percentile of those
     * @param maxMs the largest of those
     * @param decisions decisions the client saw
     * @param worstP99Ms 99th percentile, over the updates, of the lag of the latest decision an update counted
     * @param worstMaxMs the largest of those
     */
    public record DashboardLag(
            double rate,
            double p50Ms,
            double p99Ms,
            double maxMs,
            int decisions,
            double worstP99Ms,
            double worstMaxMs) {
        static DashboardLag of(WatchedDashboard.Lags lags, double rate) {
            List<Long> each;
            List<Long> worst;
            synchronized (lags.perDecision()) {
                each = List.copyOf(lags.perDecision());
            }
            synchronized (lags.worstPerEvent()) {
                worst = List.copyOf(lags.worstPerEvent());
            }
            return new DashboardLag(
                    rate,
                    Percentiles.nearestRank(each, 0.5),
                    Percentiles.nearestRank(each, 0.99),
                    Percentiles.nearestRank(each, 1.0),
                    each.size(),
                    Percentiles.nearestRank(worst, 0.99),
                    Percentiles.nearestRank(worst, 1.0));
        }
    }

    /** What the observed runs of (c) have on. */
    private static String observedWhat(Settings s) {
        return s.dashboard() ? "metrics endpoint + dashboard followed" : "metrics endpoint";
    }

    /**
     * {@code base} for the {@code run}-th observed run: its own consumer group and its own decision topic (created
     * here), which the dashboard's tail reads from the beginning.
     */
    private static JobConfig observed(LoopbackKafka kafka, JobConfig base, int run, int partitions) {
        JobConfig c = group(base, 2 * run).toBuilder()
                .output(base.output() + "-observed-" + run)
                .build();
        kafka.createTopic(c.output(), partitions);
        return c;
    }

    /**
     * {@code base} for the {@code run}-th run without observability (0: the warm-up): its own consumer group and its
     * own decision topic (created here), whose decisions are counted after the run.
     */
    private static JobConfig own(LoopbackKafka kafka, JobConfig base, int run, int partitions) {
        JobConfig c =
                group(base, run).toBuilder().output(base.output() + "-" + run).build();
        kafka.createTopic(c.output(), partitions);
        return c;
    }

    /** Longest wait for reading a decision or dead-letter topic of a finished run to its end. */
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(60);

    /**
     * The series with exactly one decision in {@code topic}, read to its end after a bounded run.
     *
     * @throws IllegalStateException unless each of the {@code series} published has exactly one record, a decision
     */
    private static long decidedOnce(LoopbackKafka kafka, String topic, int series) {
        Map<String, Integer> perSeries = new HashMap<>();
        long[] decisions = {0};
        long records = TopicReader.readCommitted(kafka.clientProperties(), topic, COUNT_TIMEOUT, r -> {
            DecisionRecord d = StreamJson.readDecision(r.value());
            if (DecisionRecord.DECIDED.equals(d.status)) {
                decisions[0]++;
                perSeries.merge(d.series, 1, Integer::sum);
            }
        });
        long once = perSeries.values().stream().filter(n -> n == 1).count();
        if (records != series || once != series) {
            throw new IllegalStateException("the job decided " + once + " of " + series + " series exactly once ("
                    + records + " records in " + topic + ", " + decisions[0] + " decisions)");
        }
        return once;
    }

    /** {@code cfg} with consumer group and transactional ids of its own ({@code run}-th run over the same topic). */
    private static JobConfig group(JobConfig cfg, int run) {
        return cfg.toBuilder()
                .groupId(cfg.groupId() + "-" + run)
                .transactionalIdPrefix(cfg.transactionalIdPrefix() + "-" + run)
                .build();
    }

    /** Scrapes of the metrics endpoint during a timed run. */
    private static final class Scrapes {
        private volatile int count;
    }

    /**
     * Runs a bounded job built by {@code build} on a cluster with {@code s}'s state backend and returns the probe's
     * sustained rate; with the Prometheus endpoint served on an ephemeral loopback port and scraped every second (as
     * Prometheus would, more often than its default) when {@code scrapes} is not null.
     */
    private static double timed(Settings s, long expected, Scrapes scrapes, Consumer<StreamExecutionEnvironment> build)
            throws Exception {
        return timed(s, expected, scrapes, build, flink -> () -> {});
    }

    /** Something that runs beside the timed job on its cluster (the dashboard) and is closed after it. */
    private interface Beside {
        AutoCloseable start(LocalFlink flink) throws Exception;
    }

    /** {@link #timed(Settings, long, Scrapes, Consumer)} with {@code beside} running on the job's cluster. */
    private static double timed(
            Settings s, long expected, Scrapes scrapes, Consumer<StreamExecutionEnvironment> build, Beside beside)
            throws Exception {
        long end;
        try (LocalFlink flink = cluster(s);
                AutoCloseable running = beside.start(flink)) {
            Thread scraper =
                    scrapes == null ? null : scraper(flink.serveMetrics(0).url(), scrapes);
            StreamExecutionEnvironment env = flink.environment();
            env.getConfig().enableObjectReuse();
            build.accept(env);
            RateProbe.reset();
            try {
                env.execute("vigil bench");
            } finally {
                end = System.nanoTime();
                if (scraper != null) {
                    scraper.interrupt();
                    scraper.join();
                }
            }
        }
        if (RateProbe.count() != expected) {
            throw new IllegalStateException("the job read " + RateProbe.count() + " of " + expected + " samples");
        }
        return expected / ((end - RateProbe.firstNanos()) / 1e9);
    }

    /** An embedded cluster with {@code s}'s state backend (checkpoints in its temp directory). */
    private static LocalFlink cluster(Settings s) {
        return LocalFlink.start(OptionalInt.empty(), s.backend(), s.rocksDbMemory());
    }

    /** A thread that GETs {@code url} every second until interrupted, counting the answers. */
    private static Thread scraper(String url, Scrapes scrapes) {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest get = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(10))
                .build();
        Thread t = new Thread(
                () -> {
                    try {
                        while (!Thread.currentThread().isInterrupted()) {
                            if (http.send(get, HttpResponse.BodyHandlers.discarding())
                                            .statusCode()
                                    == 200) {
                                scrapes.count++;
                            }
                            Thread.sleep(1000);
                        }
                    } catch (InterruptedException stop) {
                        Thread.currentThread().interrupt();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException("scraping " + url + " failed", e);
                    }
                },
                "vigil-bench-scraper");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Series replayed (at the same rate) and decided before the latency is measured. */
    private static final int WARM_UP_SERIES = 300;

    /** Replays {@code data} with {@code replay} on a new thread. */
    private static Thread replayAt(LoopbackKafka kafka, Dataset data, Replay.Settings replay) {
        Thread t = new Thread(
                () -> Replay.run(data, Replay.Split.TEST, replay, kafka.clientProperties(), Progress.none()),
                "vigil-bench-replay");
        t.start();
        return t;
    }

    /** Decisions a replay of {@code data} brings: one per series with a value sent. */
    private static int decisions(Dataset data, Replay.Settings replay) {
        return Math.toIntExact(Replay.counts(data, Replay.Split.TEST, replay).seriesWithValues());
    }

    /** Reads {@code n} decisions, adding receive time − deciding sample's timestamp (ms) to {@code latencies}. */
    private static void collect(KafkaConsumer<byte[], byte[]> c, int n, long deadline, List<Double> latencies) {
        int seen = 0;
        while (seen < n && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(5))) {
                long now = System.currentTimeMillis();
                latencies.add((double) (now - StreamJson.readDecision(r.value()).sampleTime));
                seen++;
            }
        }
        if (seen < n) {
            throw new IllegalStateException("only " + seen + " of " + n + " decisions arrived in time");
        }
    }

    /** p50, p99 (ms) and count of sample → decision latencies with the job fed at {@code rate}. */
    private static double[] latency(LoopbackKafka kafka, Dataset test, byte[] modelBytes, Settings s, double rate)
            throws Exception {
        String in = "bench-live";
        String out = "bench-live-decisions";
        kafka.createTopic(in, s.partitions());
        kafka.createTopic(out, s.partitions());
        int n = (int) Math.max(1, Math.min(test.size(), rate * s.latencySeconds() / test.length()));
        JobConfig cfg = JobConfig.builder(
                        kafka.bootstrapServers(), in, out, "bench-live-dead", DecisionParams.defaults())
                .delivery(Delivery.AT_LEAST_ONCE)
                .session(s.session())
                .parallelism(s.parallelism())
                .checkpointInterval(Duration.ofSeconds(5))
                .groupId("bench-live")
                .transactionalIdPrefix("bench-live")
                .build();
        List<Double> latencies = Collections.synchronizedList(new ArrayList<>());
        try (LocalFlink flink = cluster(s)) {
            StreamExecutionEnvironment env = flink.environment();
            VigilJob.attach(env, cfg, modelBytes);
            measure(kafka, test, s, rate, env.executeAsync("vigil bench latency"), in, out, n, latencies);
        }
        return new double[] {
            Percentiles.nearestRank(latencies, 0.5), Percentiles.nearestRank(latencies, 0.99), latencies.size()
        };
    }

    /** Warms the running {@code job} up, then replays {@code n} series and collects their latencies. */
    private static void measure(
            LoopbackKafka kafka,
            Dataset test,
            Settings s,
            double rate,
            JobClient job,
            String in,
            String out,
            int n,
            List<Double> latencies)
            throws Exception {
        Dataset part = test.subset(IntStream.range(0, n).toArray());
        try (KafkaConsumer<byte[], byte[]> c = TopicReader.fromBeginning(kafka.clientProperties(), out, false)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos((long) s.latencySeconds() + 120);
            // Warm-up, not measured: until the job runs, samples wait in Kafka and their latency is start-up time.
            Dataset warm =
                    test.subset(IntStream.range(0, Math.min(n, WARM_UP_SERIES)).toArray());
            Replay.Settings replay = new Replay.Settings(in, null, rate, 100, 1, s.pattern());
            replayAt(kafka, warm, replay).join();
            collect(c, decisions(warm, replay), deadline, new ArrayList<>());
            Thread running = replayAt(kafka, part, replay);
            collect(c, decisions(part, replay), deadline, latencies);
            running.join();
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
        }
    }
}
