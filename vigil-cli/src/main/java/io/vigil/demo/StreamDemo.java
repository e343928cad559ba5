package io.vigil.demo;

import io.vigil.dashboard.Dashboard;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.Certification;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.Replay;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.SeriesId;
import io.vigil.kafka.TopicReader;
import io.vigil.kafka.TopicTail;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.StreamJson;
import io.vigil.util.Percentiles;
import io.vigil.util.Progress;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Runs the stream job against a replayed test split and checks it: starts {@link LoopbackKafka}, starts {@link
 * VigilJob} on an embedded MiniCluster, replays the split with {@link Replay}, follows the decisions topic
 * (read_committed) until every series is decided, stops the job, and compares every streamed decision with the
 * offline replay through the same classifier ({@link EarlyReplay}, what {@code vigil evaluate} reports).
 */
public final class StreamDemo {
    /** Topic names of the demo. */
    static final String SAMPLES = "samples";

    static final String DECISIONS = "decisions";
    static final String DEAD_LETTERS = "dead-letters";
    /** True labels of the replayed series: the job's agreement metrics ({@code truthAgreement}) compare with them. */
    static final String TRUTH = "truth";

    /** Id of the training series sent first to warm the job up; its decision is not counted. */
    static final String WARM_UP_SERIES = "warm-up/0";

    /** Longest wait, on SIGTERM or Ctrl-C, for the job's cancel and then for its end. */
    private static final Duration JOB_END_TIMEOUT = Duration.ofSeconds(20);

    /** Longest wait for the job to start and take in the warm-up series. */
    private static final Duration WARM_UP_TIMEOUT = Duration.ofMinutes(2);
    /** Longest wait for the cancelled job to end. */
    private static final Duration END_TIMEOUT = Duration.ofSeconds(30);
    /** Longest wait for reading the dead-letter topic to its end. */
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to run.
     *
     * @param data train and test splits
     * @param model the trained model (with its complete-series section)
     * @param job the job configuration (its bootstrap and topics are replaced by the demo's)
     * @param replayRate replay samples per second (0 = as fast as Kafka takes them)
     * @param concurrency series interleaved by the replay
     * @param timeout longest wait for all decisions after the replay finished
     */
    public record Settings(
            TrainTest data, VigilModel model, JobConfig job, double replayRate, int concurrency, Duration timeout) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /**
     * The outcome.
     *
     * @param series test series replayed
     * @param length series length d
     * @param decidedEarly series whose streamed decision came before t = d
     * @param meanFraction mean streamed t/d
     * @param reliability fraction of streamed labels equal to the classifier's complete-series label
     * @param accuracy fraction of streamed labels equal to the true label
     * @param samplesPerSecond samples replayed / (first sample sent → last decision received)
     * @param p50Ms median latency from the deciding sample's Kafka timestamp to receiving the decision
     * @param p99Ms 99th percentile of that latency
     * @param deadLetters records in the dead-letter topic
     * @param matchesEvaluate every series got exactly one decision with the offline label and t
     * @param mismatches series whose streamed decision differs from the offline one (at most 20 listed)
     * @param duplicates decision records beyond the first per series
     * @param missing series without a streamed decision
     * @param elapsed wall time from the first sample sent to the last decision received
     * @param keptPace the replay was paced and neither it nor the job fell behind: the replay took at most 10 % (plus
     *     a second) longer than planned, and the last decision arrived within two checkpoint intervals (plus a
     *     second) of the last sample, so the latencies are processing latencies, not a backlog
     */
    public record Result(
            int series,
            int length,
            int decidedEarly,
            double meanFraction,
            double reliability,
            double accuracy,
            double samplesPerSecond,
            double p50Ms,
            double p99Ms,
            long deadLetters,
            boolean matchesEvaluate,
            List<String> mismatches,
            int duplicates,
            int missing,
            Duration elapsed,
            boolean keptPace) {}

    private StreamDemo() {}

    /**
     * Runs the demo on a broker and cluster started beforehand ({@link Infrastructure#start}, so that they come up
     * while the model trains; the caller closes them). The offline replay that the streamed decisions are compared
     * with runs beside the stream (unless the live dashboard, which compares with its complete-series labels, is
     * asked for).
     *
     * @param live receives one line per decision as it arrives (the caller rate-limits)
     * @param showProgress whether the replay shows a progress bar
     * @param dashboardPort the live dashboard's port on loopback, when asked for
     * @param dashboardUrl receives the dashboard's address once it listens
     */
    public static Result run(
            Settings s,
            Infrastructure infra,
            Consumer<DecisionRecord> live,
            boolean showProgress,
            OptionalInt dashboardPort,
            Consumer<String> dashboardUrl)
            throws Exception {
        Dataset test = s.data().test();
        EarlyClassifier classifier = EarlyClassifier.of(s.model(), s.job().decision());
        OfflineReplay offline = new OfflineReplay(classifier, test);
        byte[] modelBytes = ModelFile.standard().toBytes(s.model());
        LocalFlink flink = infra.flink();
        LoopbackKafka kafka = infra.kafka();
        JobConfig cfg = s.job().toBuilder()
                .bootstrap(kafka.bootstrapServers())
                .input(SAMPLES)
                .output(DECISIONS)
                .deadLetter(DEAD_LETTERS)
                .truthTopic(TRUTH)
                .bounded(false)
                .groupId("vigil-demo")
                .transactionalIdPrefix("vigil-demo")
                .build();
        try (Dashboard board = dashboard(dashboardPort, kafka, flink, test, classifier, offline)) {
            if (board != null) {
                dashboardUrl.accept(board.url());
            }
            if (board != null) {
                // The warm-up series is the demo's own traffic: the page's counters agree with the summary.
                board.exclude(WARM_UP_SERIES, s.data().train().series(0).length);
            }
            return stream(s, kafka, flink, infra.timeline(), cfg, modelBytes, live, showProgress, classifier, offline);
        }
    }

    /** Submits the job, replays the test split into it, collects the decisions and compares them with the replay. */
    private static Result stream(
            Settings s,
            LoopbackKafka kafka,
            LocalFlink flink,
            Timeline timeline,
            JobConfig cfg,
            byte[] modelBytes,
            Consumer<DecisionRecord> live,
            boolean showProgress,
            EarlyClassifier classifier,
            OfflineReplay offline)
            throws Exception {
        Dataset test = s.data().test();
        Map<String, Received> decisions = new ConcurrentHashMap<>();
        AtomicLong duplicates = new AtomicLong();
        AtomicLong lastReceived = new AtomicLong();
        StreamExecutionEnvironment env = flink.environment();
        VigilJob.attach(env, cfg, modelBytes);
        JobClient job = env.executeAsync("vigil demo");
        flink.cancelOnShutdown(job, JOB_END_TIMEOUT);
        timeline.mark("job submitted");
        try (TopicTail tail = new TopicTail(kafka.clientProperties(), DECISIONS, r -> {
            DecisionRecord d = StreamJson.readDecision(r.record().value());
            if (d.series.equals(WARM_UP_SERIES)) {
                return;
            }
            if (decisions.putIfAbsent(d.series, new Received(d, r.receivedAt())) != null) {
                duplicates.incrementAndGet();
            }
            lastReceived.set(r.receivedAt());
            timeline.mark("first decision");
            offline.start();
            live.accept(d);
        })) {
            warmUp(kafka, flink, s.data().train().series(0), s.data().train().channels(), job);
            timeline.mark("replay started");
            long start = System.currentTimeMillis();
            long total = (long) test.size() * test.length();
            try (Progress progress = Progress.bar("replay " + test.name() + "/test", total, showProgress)) {
                Replay.run(
                        test,
                        Replay.Split.TEST,
                        new Replay.Settings(SAMPLES, TRUTH, s.replayRate(), s.concurrency(), 1),
                        kafka.clientProperties(),
                        progress);
            }
            long replayed = System.currentTimeMillis();
            timeline.mark("replay done");
            offline.start();
            long deadline = System.nanoTime() + s.timeout().toNanos();
            while (decisions.size() < test.size() && System.nanoTime() < deadline) {
                tail.check();
                if (job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                    throw new IllegalStateException(
                            "the Flink job ended early: " + job.getJobStatus().get(10, TimeUnit.SECONDS));
                }
                Thread.sleep(50);
            }
            long end = Math.max(lastReceived.get(), start + 1);
            timeline.mark("last decision", end);
            long dead = TopicReader.countCommitted(kafka.clientProperties(), DEAD_LETTERS, COUNT_TIMEOUT);
            boolean keptPace = keptPace(
                    s.replayRate(),
                    total,
                    replayed - start,
                    end - replayed,
                    s.job().checkpointInterval());
            return summarise(
                    test, classifier, offline.join(), decisions, duplicates.intValue(), dead, start, end, keptPace);
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
            awaitEnd(job);
            timeline.mark("job ended");
        }
    }

    /** The dashboard of the demo's job, comparing with the complete-series labels; null when not asked for. */
    private static Dashboard dashboard(
            OptionalInt port,
            LoopbackKafka kafka,
            LocalFlink flink,
            Dataset test,
            EarlyClassifier classifier,
            OfflineReplay replay)
            throws IOException {
        if (port.isEmpty()) {
            return null;
        }
        List<SeriesDecision> offline = replay.join();
        Map<String, String> complete = new HashMap<>();
        for (int i = 0; i < test.size(); i++) {
            complete.put(
                    new SeriesId(test.name(), Replay.Split.TEST.id(), i, 0).toString(),
                    classifier.classNames().get(offline.get(i).completeLabel()));
        }
        Dashboard board = Dashboard.start(Dashboard.Settings.of(
                        port.getAsInt(),
                        "demo: " + test.name(),
                        kafka.clientProperties(),
                        SAMPLES,
                        DECISIONS,
                        flink.metrics()::snapshot)
                .withReferences("complete-series label", complete));
        board.certification(Certification.of(classifier.thresholds()));
        return board;
    }

    /**
     * The offline replay the streamed decisions are compared with, started on first demand (the dashboard's labels)
     * or once the first decision arrives (at the latest when the stream's replay is done), so that its CPU competes
     * neither with the job's deployment nor with the first series' way through the job.
     */
    private static final class OfflineReplay {
        private final EarlyClassifier classifier;
        private final Dataset test;
        private final AtomicBoolean started = new AtomicBoolean();
        private final CompletableFuture<List<SeriesDecision>> result = new CompletableFuture<>();

        OfflineReplay(EarlyClassifier classifier, Dataset test) {
            this.classifier = classifier;
            this.test = test;
        }

        void start() {
            if (started.compareAndSet(false, true)) {
                daemon("vigil-demo-offline").execute(() -> {
                    try {
                        result.complete(EarlyReplay.replay(classifier, test));
                    } catch (RuntimeException | Error e) {
                        result.completeExceptionally(e);
                    }
                });
            }
        }

        List<SeriesDecision> join() {
            start();
            return result.join();
        }
    }

    /**
     * Waits until the cancelled job has ended, so that its Kafka clients are closed before the broker stops (else
     * they log a WARN about the broker that went away).
     */
    static void awaitEnd(JobClient job) throws Exception {
        try {
            job.getJobExecutionResult().get(END_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException notAResult) {
            // Cancelled is the expected end; a job still ending after the timeout is closed with the cluster.
        }
    }

    /**
     * The demo's loopback broker (with its topics) and embedded Flink cluster, started on background threads so that
     * they come up while the model trains. Closing stops Flink before Kafka, so no Kafka client of the job is left
     * talking to a stopped broker; it waits for a start still under way and closes what it started.
     */
    public static final class Infrastructure implements AutoCloseable {
        private final CompletableFuture<LoopbackKafka> kafka;
        private final CompletableFuture<LocalFlink> flink;
        private final Timeline timeline;

        private Infrastructure(
                CompletableFuture<LoopbackKafka> kafka, CompletableFuture<LocalFlink> flink, Timeline timeline) {
            this.kafka = kafka;
            this.flink = flink;
            this.timeline = timeline;
        }

        /**
         * Starts the broker (sample and decision topics of {@code partitions} partitions, one each for dead letters
         * and true labels) and the embedded cluster with {@code slots} task slots and its metrics endpoint when
         * {@code metricsPort} is given ({@link LocalFlink#serveMetrics}), both in the background; marks "broker
         * ready" and "cluster ready" on {@code timeline}.
         */
        public static Infrastructure start(
                int partitions, int slots, OptionalInt webUiPort, OptionalInt metricsPort, Timeline timeline) {
            if (partitions < 1 || slots < 1) {
                throw new IllegalArgumentException(
                        "partitions and slots must be >= 1, got " + partitions + " and " + slots);
            }
            CompletableFuture<LoopbackKafka> kafka = CompletableFuture.supplyAsync(
                    () -> {
                        LoopbackKafka k = LoopbackKafka.start(
                                LoopbackKafka.Settings.defaults().withDefaultPartitions(partitions));
                        try {
                            k.createTopic(SAMPLES, partitions);
                            k.createTopic(DECISIONS, partitions);
                            k.createTopic(DEAD_LETTERS, 1);
                            k.createTopic(TRUTH, 1);
                            timeline.mark("broker ready");
                            return k;
                        } catch (RuntimeException e) {
                            k.close();
                            throw e;
                        }
                    },
                    daemon("vigil-demo-kafka"));
            CompletableFuture<LocalFlink> flink = CompletableFuture.supplyAsync(
                    () -> {
                        LocalFlink f = LocalFlink.start(webUiPort);
                        try {
                            metricsPort.ifPresent(f::serveMetrics);
                            f.startCluster(slots);
                            timeline.mark("cluster ready");
                            return f;
                        } catch (RuntimeException e) {
                            f.close();
                            throw e;
                        }
                    },
                    daemon("vigil-demo-flink"));
            return new Infrastructure(kafka, flink, timeline);
        }

        /** The run's timeline. */
        public Timeline timeline() {
            return timeline;
        }

        /** The broker, once it answers (waits for it); rethrows what stopped it from starting. */
        public LoopbackKafka kafka() {
            return await(kafka);
        }

        /** The embedded cluster (waits for it); rethrows what stopped it from starting. */
        public LocalFlink flink() {
            return await(flink);
        }

        @Override
        public void close() {
            RuntimeException failure = null;
            for (CompletableFuture<? extends AutoCloseable> part : List.of(flink, kafka)) {
                try {
                    AutoCloseable started = part.handle((p, e) -> p).join();
                    if (started != null) {
                        started.close();
                    }
                } catch (Exception e) {
                    if (failure == null) {
                        failure = new IllegalStateException("stopping the demo's " + part + ": " + e.getMessage(), e);
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }

        private static <T> T await(CompletableFuture<T> part) {
            try {
                return part.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
        }
    }

    /** An executor that runs each task on a new daemon thread of the given name. */
    private static Executor daemon(String name) {
        return task -> {
            Thread t = new Thread(task, name);
            t.setDaemon(true);
            t.start();
        };
    }

    /**
     * Sends one training series as {@link #WARM_UP_SERIES} and waits until the keyed stage has taken in all its
     * samples, so that the measured replay starts with every task of the job running (job start-up is not
     * sample-to-decision latency). Its decision, committed with a later checkpoint, is not counted.
     */
    private static void warmUp(LoopbackKafka kafka, LocalFlink flink, double[] series, int channels, JobClient job)
            throws Exception {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int j = 0; j < series.length; j++) {
                producer.send(new ProducerRecord<>(
                        SAMPLES,
                        SampleRecord.key(WARM_UP_SERIES),
                        channels == 1
                                ? SampleRecord.encode(WARM_UP_SERIES, j + 1, series[j])
                                : SampleRecord.encode(WARM_UP_SERIES, j / channels + 1, j % channels, series[j])));
            }
        }
        long deadline = System.nanoTime() + WARM_UP_TIMEOUT.toNanos();
        while (flink.metrics().snapshot().get(JobMetrics.SAMPLES_IN) < series.length) {
            if (System.nanoTime() > deadline
                    || job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                throw new IllegalStateException("the Flink job did not take in the warm-up series within "
                        + WARM_UP_TIMEOUT.toSeconds() + " s (status "
                        + job.getJobStatus().get(10, TimeUnit.SECONDS)
                        + ")");
            }
            Thread.sleep(20);
        }
    }

    /**
     * {@link Result#keptPace}: {@code samples} replayed at {@code rate} per second (0 = unpaced) took {@code
     * replayMs}, and the last decision arrived {@code drainMs} after the replay ended.
     */
    static boolean keptPace(double rate, long samples, long replayMs, long drainMs, Duration checkpointInterval) {
        if (rate <= 0) {
            return false;
        }
        double plannedMs = samples / rate * 1e3;
        return replayMs <= 1.1 * plannedMs + 1_000 && drainMs <= 2 * checkpointInterval.toMillis() + 1_000;
    }

    /** A decision and when it was received. */
    record Received(DecisionRecord decision, long receivedAt) {}

    static Result summarise(
            Dataset test,
            EarlyClassifier classifier,
            List<SeriesDecision> offline,
            Map<String, Received> decisions,
            int duplicates,
            long deadLetters,
            long start,
            long end,
            boolean keptPace) {
        List<String> classes = classifier.classNames();
        int n = test.size();
        int d = test.length();
        int early = 0;
        int reliable = 0;
        int correct = 0;
        int missing = 0;
        double fraction = 0;
        List<String> mismatches = new ArrayList<>();
        List<Double> latencies = new ArrayList<>();
        for (Map.Entry<String, Received> e : decisions.entrySet()) {
            Optional<SeriesId> id = SeriesId.parse(e.getKey());
            if (id.isEmpty() || id.get().index() >= n) {
                mismatches.add(e.getKey() + ": not a replayed series");
            }
        }
        for (int i = 0; i < n; i++) {
            String id = new SeriesId(test.name(), Replay.Split.TEST.id(), i, 0).toString();
            Received r = decisions.get(id);
            SeriesDecision want = offline.get(i);
            if (r == null || !r.decision().isDecision()) {
                missing++;
                mismatches.add(id + ": no decision" + (r == null ? "" : " (" + r.decision().status + ")"));
                continue;
            }
            DecisionRecord got = r.decision();
            latencies.add((double) (r.receivedAt() - got.sampleTime));
            if (got.early) {
                early++;
            }
            fraction += (double) got.t / d;
            if (got.label.equals(classes.get(want.completeLabel()))) {
                reliable++;
            }
            if (want.trueLabel() >= 0 && got.label.equals(classes.get(want.trueLabel()))) {
                correct++;
            }
            if (got.t != want.t() || !got.label.equals(classes.get(want.label()))) {
                mismatches.add(id + ": streamed " + got.label + " at t=" + got.t + ", offline "
                        + classes.get(want.label()) + " at t=" + want.t());
            }
        }
        int decided = n - missing;
        double[] lat =
                latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        boolean matches = mismatches.isEmpty() && duplicates == 0;
        return new Result(
                n,
                d,
                early,
                decided == 0 ? Double.NaN : fraction / decided,
                decided == 0 ? Double.NaN : (double) reliable / decided,
                decided == 0 ? Double.NaN : (double) correct / decided,
                (double) n * d / ((end - start) / 1e3),
                Percentiles.nearestRank(latencies, 0.50),
                Percentiles.nearestRank(latencies, 0.99),
                deadLetters,
                matches,
                List.copyOf(mismatches.subList(0, Math.min(20, mismatches.size()))),
                duplicates,
                missing,
                Duration.ofMillis(end - start),
                keptPace);
    }
}
