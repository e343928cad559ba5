package io.vigil.demo;

import io.vigil.dashboard.Dashboard;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.flink.JobConfig;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    /** Longest wait for the job to start and decide the warm-up series. */
    private static final Duration WARM_UP_TIMEOUT = Duration.ofMinutes(2);
    /** Longest wait for reading the dead-letter topic to its end. */
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to run.
     *
     * @param data train and test splits
     * @param model the trained model (with its complete-series section)
     * @param job the job configuration (its bootstrap and topics are replaced by the demo's)
     * @param partitions partitions of the sample topic
     * @param replayRate replay samples per second (0 = as fast as Kafka takes them)
     * @param concurrency series interleaved by the replay
     * @param timeout longest wait for all decisions after the replay finished
     * @param webUiPort Flink's web UI on loopback, when asked for
     * @param metricsPort the Prometheus endpoint on loopback ({@link LocalFlink#serveMetrics}), when asked for
     */
    public record Settings(
            TrainTest data,
            VigilModel model,
            JobConfig job,
            int partitions,
            double replayRate,
            int concurrency,
            Duration timeout,
            OptionalInt webUiPort,
            OptionalInt metricsPort) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(job, "job");
            if (partitions < 1) {
                throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
            }
            Objects.requireNonNull(timeout, "timeout");
            Objects.requireNonNull(webUiPort, "webUiPort");
            Objects.requireNonNull(metricsPort, "metricsPort");
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
            Duration elapsed) {}

    private StreamDemo() {}

    /**
     * Runs the demo.
     *
     * @param live receives one line per decision as it arrives (the caller rate-limits)
     * @param showProgress whether the replay shows a progress bar
     */
    public static Result run(Settings s, Consumer<DecisionRecord> live, boolean showProgress) throws Exception {
        return run(s, live, showProgress, OptionalInt.empty(), url -> {});
    }

    /**
     * Runs the demo, with the live dashboard when {@code dashboardPort} is given: its decisions are compared with
     * the complete-series labels of the offline replay (agreement, reliability diagram).
     *
     * @param dashboardUrl receives the dashboard's address once it listens
     */
    public static Result run(
            Settings s,
            Consumer<DecisionRecord> live,
            boolean showProgress,
            OptionalInt dashboardPort,
            Consumer<String> dashboardUrl)
            throws Exception {
        Dataset test = s.data().test();
        EarlyClassifier classifier = EarlyClassifier.of(s.model(), s.job().decision());
        List<SeriesDecision> offline = EarlyReplay.replay(classifier, test);
        byte[] modelBytes = ModelFile.standard().toBytes(s.model());
        try (LocalFlink flink = LocalFlink.start(s.webUiPort());
                LoopbackKafka kafka =
                        LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(s.partitions()));
                Dashboard board =
                        dashboard(dashboardPort, withTopics(kafka, s.partitions()), flink, test, classifier, offline)) {
            s.metricsPort().ifPresent(flink::serveMetrics);
            if (board != null) {
                dashboardUrl.accept(board.url());
            }
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
            Map<String, Received> decisions = new ConcurrentHashMap<>();
            AtomicLong duplicates = new AtomicLong();
            AtomicLong lastReceived = new AtomicLong();
            StreamExecutionEnvironment env = flink.environment();
            VigilJob.attach(env, cfg, modelBytes);
            JobClient job = env.executeAsync("vigil demo");
            CountDownLatch warm = new CountDownLatch(1);
            try (TopicTail tail = new TopicTail(kafka.clientProperties(), DECISIONS, r -> {
                DecisionRecord d = StreamJson.readDecision(r.record().value());
                if (d.series.equals(WARM_UP_SERIES)) {
                    warm.countDown();
                    return;
                }
                if (decisions.putIfAbsent(d.series, new Received(d, r.receivedAt())) != null) {
                    duplicates.incrementAndGet();
                }
                lastReceived.set(r.receivedAt());
                live.accept(d);
            })) {
                warmUp(kafka, s.data().train().series(0), warm, job);
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
                long deadline = System.nanoTime() + s.timeout().toNanos();
                while (decisions.size() < test.size() && System.nanoTime() < deadline) {
                    tail.check();
                    if (job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                        throw new IllegalStateException("the Flink job ended early: "
                                + job.getJobStatus().get(10, TimeUnit.SECONDS));
                    }
                    Thread.sleep(50);
                }
                long end = Math.max(lastReceived.get(), start + 1);
                long dead = TopicReader.countCommitted(kafka.clientProperties(), DEAD_LETTERS, COUNT_TIMEOUT);
                return summarise(test, classifier, offline, decisions, duplicates.intValue(), dead, start, end);
            } finally {
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
    }

    /** Creates the demo's topics. */
    private static LoopbackKafka withTopics(LoopbackKafka kafka, int partitions) {
        kafka.createTopic(SAMPLES, partitions);
        kafka.createTopic(DECISIONS, partitions);
        kafka.createTopic(DEAD_LETTERS, 1);
        kafka.createTopic(TRUTH, 1);
        return kafka;
    }

    /** The dashboard of the demo's job, comparing with the complete-series labels; null when not asked for. */
    private static Dashboard dashboard(
            OptionalInt port,
            LoopbackKafka kafka,
            LocalFlink flink,
            Dataset test,
            EarlyClassifier classifier,
            List<SeriesDecision> offline)
            throws IOException {
        if (port.isEmpty()) {
            return null;
        }
        Map<String, String> complete = new HashMap<>();
        for (int i = 0; i < test.size(); i++) {
            complete.put(
                    new SeriesId(test.name(), Replay.Split.TEST.id(), i, 0).toString(),
                    classifier.classNames().get(offline.get(i).completeLabel()));
        }
        return Dashboard.start(Dashboard.Settings.of(
                        port.getAsInt(),
                        "demo: " + test.name(),
                        kafka.clientProperties(),
                        SAMPLES,
                        DECISIONS,
                        flink.metrics()::snapshot)
                .withReferences("complete-series label", complete));
    }

    /**
     * Sends one training series as {@link #WARM_UP_SERIES} and waits for its decision, so that the measured replay
     * starts with the job running (job start-up is not sample-to-decision latency).
     */
    private static void warmUp(LoopbackKafka kafka, double[] series, CountDownLatch decided, JobClient job)
            throws Exception {
        Map<String, Object> p = new HashMap<>(kafka.clientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p)) {
            for (int t = 1; t <= series.length; t++) {
                producer.send(new ProducerRecord<>(
                        SAMPLES,
                        SampleRecord.key(WARM_UP_SERIES),
                        SampleRecord.encode(WARM_UP_SERIES, t, series[t - 1])));
            }
        }
        long deadline = System.nanoTime() + WARM_UP_TIMEOUT.toNanos();
        while (!decided.await(100, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() > deadline
                    || job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                throw new IllegalStateException("the Flink job did not decide the warm-up series within "
                        + WARM_UP_TIMEOUT.toSeconds() + " s (status "
                        + job.getJobStatus().get(10, TimeUnit.SECONDS)
                        + ")");
            }
        }
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
            long end) {
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
                Duration.ofMillis(end - start));
    }
}
