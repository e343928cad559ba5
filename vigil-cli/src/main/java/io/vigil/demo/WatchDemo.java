package io.vigil.demo;

import io.vigil.api.TrainOptions;
import io.vigil.api.Vigil;
import io.vigil.api.VigilTrainer;
import io.vigil.dashboard.AlarmVerdicts;
import io.vigil.dashboard.Dashboard;
import io.vigil.data.Dataset;
import io.vigil.data.recording.Recording;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.Certification;
import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.WatchAlarm;
import io.vigil.flink.WatchJob;
import io.vigil.flink.WatchSettings;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.kafka.RecordingReplay;
import io.vigil.kafka.TopicReader;
import io.vigil.kafka.TopicTail;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowLabelling;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import io.vigil.watch.Alarm;
import io.vigil.watch.AlarmEvent;
import io.vigil.watch.EventScoring;
import io.vigil.watch.EventScoringResult;
import io.vigil.watch.RecordingWindows;
import io.vigil.watch.WatchEvaluation;
import io.vigil.watch.WatchReplay;
import io.vigil.watch.WindowExamples;
import io.vigil.watch.WindowSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The watch mode on embedded defaults ({@code vigil demo --kind watch}, docs/watch.md): a window model trained on the
 * training recordings of a generated event stream, the test recordings replayed as endless keyed streams into the
 * watch job ({@link WatchJob}, the job of {@code vigil run --watch}) on the demo's loopback broker and MiniCluster,
 * every committed alarm judged as it arrives against the generated events ({@link AlarmVerdicts}), and at the end
 * the event metrics of {@code vigil evaluate --recordings} ({@link EventScoring}) and whether every streamed alarm
 * equals the offline replay's ({@link WatchReplay}). Nothing is written to disk but the broker's and the cluster's own
 * temporary directories, which they remove when closed.
 */
public final class WatchDemo {
    /** Topic of the keyed values. */
    static final String VALUES = "watch-values";

    /** Topic of the alarm records. */
    static final String ALARMS = "alarms";

    /** Longest wait for the job to end after a signal. */
    private static final Duration END_TIMEOUT = Duration.ofSeconds(20);

    /** Longest wait for reading the dead-letter topic to its end. */
    private static final Duration COUNT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to run.
     *
     * @param test the recordings replayed (their events judge the alarms)
     * @param model the trained window model
     * @param job the job configuration (bootstrap and topics are replaced by the demo's)
     * @param valuesPerSecond replay rate over all keys (0 = as fast as Kafka takes them)
     * @param partitions partitions of the value and alarm topics
     * @param timeout longest wait for the last alarms after the replay
     */
    public record Settings(
            RecordingSet test,
            VigilModel model,
            JobConfig job,
            double valuesPerSecond,
            int partitions,
            Duration timeout) {
        /** Validates. */
        public Settings {
            Objects.requireNonNull(test, "test");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(job, "job");
            Objects.requireNonNull(timeout, "timeout");
            if (!(valuesPerSecond >= 0) || partitions < 1) {
                throw new IllegalArgumentException("need a rate ≥ 0 and ≥ 1 partition");
            }
        }
    }

    /**
     * One alarm as it arrived.
     *
     * @param alarm the committed alarm record
     * @param verdict {@link AlarmVerdicts#TRUE}, {@link AlarmVerdicts#DUPLICATE} or {@link AlarmVerdicts#FALSE}
     *     against the generated events
     */
    public record Line(WatchAlarm alarm, String verdict) {}

    /**
     * The outcome.
     *
     * @param keys keys (test recordings) watched
     * @param values values replayed
     * @param events the scoring of the streamed alarms against the generated events, as {@code vigil evaluate
     *     --recordings} reports it
     * @param suppressed alarms the flood guard held back (dead-lettered as {@code alarm_flood})
     * @param deadLetters records in the dead-letter topic
     * @param matchesEvaluate every streamed alarm equals one of the offline replay's and none is missing or repeated
     * @param mismatches what differs (at most 20 listed)
     * @param elapsed wall time from the first value sent to the last alarm received
     * @param valuesPerSecond values / elapsed
     */
    public record Result(
            int keys,
            long values,
            EventScoringResult events,
            long suppressed,
            long deadLetters,
            boolean matchesEvaluate,
            List<String> mismatches,
            Duration elapsed,
            double valuesPerSecond) {}

    private WatchDemo() {}

    /**
     * Trains the demo's window model on {@code train} as {@code vigil train --recordings DIR --max-background N}
     * would with {@code options}: every event label, the window length and stride from the events' lengths.
     */
    public static VigilModel train(
            RecordingSet train, TrainOptions options, int maxBackground, long seed, Progress progress) {
        Set<String> labels = RecordingWindows.eventLabels(train, List.of());
        int d = WindowExamples.defaultLength(RecordingWindows.eventLengths(train, labels));
        WindowExamples.Params p =
                new WindowExamples.Params(d, WindowExamples.defaultStride(d), "background", maxBackground, seed);
        Dataset windows = RecordingWindows.build("event-stream", train, labels, p);
        VigilModel model = VigilTrainer.train(windows, options, progress);
        double rate = train.recordings().get(0).samplingRateHz().orElse(Double.NaN);
        return model.toBuilder()
                .section(new WindowSection(
                        p.stride(),
                        p.background(),
                        rate,
                        "windows-closed",
                        WindowLabelling.ORIGINAL,
                        windows.hasGroups()))
                .build();
    }

    /**
     * Runs the watch job on the demo's broker and cluster (started beforehand; the caller closes them), replays the
     * test recordings into it, passes each committed alarm to {@code live} as it arrives, and scores them.
     *
     * @param dashboardPort the dashboard's port on loopback (listing the alarms), when asked for
     * @param dashboardUrl receives the dashboard's address once it listens
     */
    public static Result run(
            Settings s,
            StreamDemo.Infrastructure infra,
            Consumer<Line> live,
            boolean showProgress,
            OptionalInt dashboardPort,
            Consumer<String> dashboardUrl)
            throws Exception {
        LoopbackKafka kafka = infra.kafka();
        LocalFlink flink = infra.flink();
        kafka.createTopic(VALUES, s.partitions());
        kafka.createTopic(ALARMS, s.partitions());
        JobConfig cfg = s.job().toBuilder()
                .bootstrap(kafka.bootstrapServers())
                .input(VALUES)
                .output(ALARMS)
                .deadLetter(StreamDemo.DEAD_LETTERS)
                .bounded(false)
                .groupId("vigil-demo-watch")
                .transactionalIdPrefix("vigil-demo-watch")
                .build();
        Map<String, List<RecordingEvent>> events = new HashMap<>();
        for (Recording r : s.test().recordings()) {
            events.put(r.name(), s.test().events(r.name()));
        }
        try (Dashboard board = dashboard(dashboardPort, kafka, flink, s, events)) {
            if (board != null) {
                dashboardUrl.accept(board.url());
            }
            return stream(s, kafka, flink, cfg, events, live, showProgress, infra.timeline());
        }
    }

    private static Dashboard dashboard(
            OptionalInt port,
            LoopbackKafka kafka,
            LocalFlink flink,
            Settings s,
            Map<String, List<RecordingEvent>> events)
            throws IOException {
        if (port.isEmpty()) {
            return null;
        }
        Dashboard board = Dashboard.start(Dashboard.Settings.of(
                        port.getAsInt(),
                        "demo --kind watch: " + s.test().recordings().size() + " keys",
                        kafka.clientProperties(),
                        VALUES,
                        ALARMS,
                        flink.metrics()::snapshot)
                .from(TopicTail.Start.BEGINNING)
                .watching(true)
                .withEvents(events));
        board.certification(Certification.of(s.model(), s.job().decision()));
        return board;
    }

    private static Result stream(
            Settings s,
            LoopbackKafka kafka,
            LocalFlink flink,
            JobConfig cfg,
            Map<String, List<RecordingEvent>> events,
            Consumer<Line> live,
            boolean showProgress,
            Timeline timeline)
            throws Exception {
        AlarmVerdicts verdicts = new AlarmVerdicts(events);
        Map<String, List<WatchAlarm>> received = new ConcurrentHashMap<>();
        AtomicLong count = new AtomicLong();
        AtomicLong lastReceived = new AtomicLong();
        StreamExecutionEnvironment env = flink.environment();
        WatchJob.attach(env, cfg, ModelFile.standard().toBytes(s.model()), WatchSettings.defaults());
        JobClient job = env.executeAsync("vigil demo --kind watch");
        flink.cancelOnShutdown(job, END_TIMEOUT);
        timeline.mark("job submitted");
        try (TopicTail tail = new TopicTail(kafka.clientProperties(), ALARMS, r -> {
            WatchAlarm a = WatchAlarm.fromJson(r.record().value());
            received.computeIfAbsent(a.key, k -> new ArrayList<>()).add(a);
            count.incrementAndGet();
            lastReceived.set(r.receivedAt());
            timeline.mark("first alarm");
            String verdict;
            synchronized (verdicts) {
                verdict = verdicts.judge(a.key, a.label, a.trigger);
            }
            live.accept(new Line(a, verdict));
        })) {
            long values = RecordingReplay.values(s.test());
            long start = System.currentTimeMillis();
            timeline.mark("replay started");
            double hz = s.test().recordings().get(0).samplingRateHz().orElse(Double.NaN);
            double speed = s.valuesPerSecond() > 0
                    ? s.valuesPerSecond() / (hz * s.test().recordings().size())
                    : RecordingReplay.MAX_SPEED;
            try (Progress progress =
                    Progress.bar("replay " + s.test().recordings().size() + " keys", values, showProgress)) {
                RecordingReplay.run(
                        s.test(), new RecordingReplay.Settings(VALUES, speed), kafka.clientProperties(), progress);
            }
            timeline.mark("replay done");
            awaitAlarms(s, flink, job, tail, values, count);
            long end = Math.max(lastReceived.get(), start + 1);
            timeline.mark("last alarm", end);
            long suppressed = flink.metrics().snapshot().get(JobMetrics.WATCH_ALARMS_SUPPRESSED);
            long dead = TopicReader.countCommitted(kafka.clientProperties(), StreamDemo.DEAD_LETTERS, COUNT_TIMEOUT);
            return summarise(s, received, suppressed, dead, values, start, end);
        } finally {
            job.cancel().get(60, TimeUnit.SECONDS);
            StreamDemo.awaitEnd(job);
            timeline.mark("job ended");
        }
    }

    /**
     * Waits until the job has taken in every value and every alarm it emitted is committed and received, at most
     * {@link Settings#timeout()}.
     */
    private static void awaitAlarms(
            Settings s, LocalFlink flink, JobClient job, TopicTail tail, long values, AtomicLong count)
            throws Exception {
        long deadline = System.nanoTime() + s.timeout().toNanos();
        while (System.nanoTime() < deadline) {
            tail.check();
            if (job.getJobStatus().get(10, TimeUnit.SECONDS).isTerminalState()) {
                throw new IllegalStateException(
                        "the Flink job ended early: " + job.getJobStatus().get(10, TimeUnit.SECONDS));
            }
            JobMetrics.Snapshot m = flink.metrics().snapshot();
            if (m.get(JobMetrics.SAMPLES_IN) >= values && count.get() >= m.get(JobMetrics.WATCH_ALARMS)) {
                return;
            }
            Thread.sleep(50);
        }
    }

    /** Scores the streamed alarms against the events and compares them with the offline replay's. */
    static Result summarise(
            Settings s,
            Map<String, List<WatchAlarm>> received,
            long suppressed,
            long deadLetters,
            long values,
            long start,
            long end) {
        Vigil vigil = Vigil.of(s.model(), s.job().decision());
        WindowSpec spec = WindowSpec.of(vigil, WindowModels.requireWindowModel(s.model(), "the demo's model"));
        Set<String> offline = new TreeSet<>();
        for (Recording r : s.test().recordings()) {
            for (AlarmEvent a : WatchReplay.run(vigil, spec, r.name(), WatchEvaluation.values(r))
                    .alarms()) {
                offline.add(describe(a.key(), a.label(), a.eventStart(), a.trigger()));
            }
        }
        Map<String, List<Alarm>> byKey = new HashMap<>();
        List<String> mismatches = new ArrayList<>();
        Set<String> streamed = new TreeSet<>();
        received.forEach((key, alarms) -> {
            for (WatchAlarm a : alarms) {
                byKey.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Alarm(
                                a.key, a.label, a.eventStart, a.trigger, a.windowStart, a.windowLength, a.certified));
                String d = describe(a.key, a.label, a.eventStart, a.trigger);
                if (!streamed.add(d)) {
                    mismatches.add("streamed twice: " + d);
                } else if (!offline.contains(d)) {
                    mismatches.add("streamed only: " + d);
                }
            }
        });
        for (String d : offline) {
            if (!streamed.contains(d)) {
                mismatches.add("offline only: " + d);
            }
        }
        EventScoringResult scored = EventScoring.score(s.test(), byKey, s.test().labels());
        return new Result(
                s.test().recordings().size(),
                values,
                scored,
                suppressed,
                deadLetters,
                mismatches.isEmpty(),
                List.copyOf(mismatches.subList(0, Math.min(20, mismatches.size()))),
                Duration.ofMillis(end - start),
                values / ((end - start) / 1e3));
    }

    private static String describe(String key, String label, long start, long trigger) {
        return key + " " + label + " " + start + ".." + trigger;
    }
}
