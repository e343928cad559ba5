package io.vigil.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.vigil.data.recording.RecordingEvent;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.WatchAlarm;
import io.vigil.kafka.Decoded;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.TopicTail;
import io.vigil.stream.StreamJson;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The live dashboard of an embedded job: one page on 127.0.0.1 ({@link DashboardServer}) that a browser keeps
 * up to date through server-sent events. It runs beside the job in the CLI process and leaves the job untouched:
 * counters come from the job's metrics ({@link JobMetrics}), decisions from a read_committed tail of the output
 * topic, and the drawn series from a tail of the input topic. A watch job's page ({@link Settings#watching()}) lists
 * the alarms of the output topic instead, newest first, with the watch counters and no drawn series. Every
 * {@link #PUBLISH_MS} ms, while a browser is connected, the state is sent as one JSON document.
 */
public final class Dashboard implements AutoCloseable {
    /** Time between updates of the page (the page shows a decision within this plus the tail's poll). */
    static final long PUBLISH_MS = 250;

    /** How a state is written for the page (snake_case field names). */
    static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .build();

    /**
     * What to show.
     *
     * @param port the port on 127.0.0.1 (0: a free one)
     * @param title the page's heading (what runs)
     * @param clientProps Kafka client properties of the job's cluster (bootstrap, security)
     * @param input the job's sample topic
     * @param output the job's decision topic
     * @param metrics the job's metrics now
     * @param from where the topic tails start: at the end (a running stream: only what comes from now), or at the
     *     beginning (topics created for this run, or filled before the job starts, as in the benchmark)
     * @param referenceName what {@code references} are (e.g. "complete-series label"), or null without references
     * @param references series id → the label its decision is compared with
     * @param truthTopic a topic of true labels ({@code vigil replay --truth-topic}) the decisions are compared with,
     *     or null
     * @param watching whether the job watches keyed streams ({@code vigil run --watch}): {@code output} then holds
     *     alarm records, which the page lists newest first with the watch counters, and no series is drawn
     * @param events a watch job's true events per key (recording name), each alarm judged against them; empty when
     *     unknown
     */
    public record Settings(
            int port,
            String title,
            Map<String, Object> clientProps,
            String input,
            String output,
            Supplier<JobMetrics.Snapshot> metrics,
            TopicTail.Start from,
            String referenceName,
            Map<String, String> references,
            String truthTopic,
            boolean watching,
            Map<String, List<RecordingEvent>> events) {
        public Settings {
            Objects.requireNonNull(title, "title");
            Objects.requireNonNull(clientProps, "clientProps");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(metrics, "metrics");
            Objects.requireNonNull(from, "from");
            references = Map.copyOf(references);
            events = Map.copyOf(events);
            if (watching && (!references.isEmpty() || truthTopic != null)) {
                throw new IllegalArgumentException("a watch job's alarms have no reference labels: give events");
            }
            if (!watching && !events.isEmpty()) {
                throw new IllegalArgumentException("events judge alarms: they need a watch job");
            }
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("dashboard port must be in 0..65535, got " + port);
            }
        }

        /** Tails from the topics' end, no reference labels. */
        public static Settings of(
                int port,
                String title,
                Map<String, Object> clientProps,
                String input,
                String output,
                Supplier<JobMetrics.Snapshot> metrics) {
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    TopicTail.Start.END,
                    null,
                    Map.of(),
                    null,
                    false,
                    Map.of());
        }

        /**
         * The same for a watch job: {@code output} holds alarm records, listed as they arrive (unchanged when {@code
         * watch} is false).
         */
        public Settings watching(boolean watch) {
            if (!watch) {
                return this;
            }
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    from,
                    referenceName,
                    references,
                    truthTopic,
                    true,
                    events);
        }

        /** The same watch job's dashboard, each alarm judged against the true {@code events} of its key. */
        public Settings withEvents(Map<String, List<RecordingEvent>> byKey) {
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    from,
                    referenceName,
                    references,
                    truthTopic,
                    watching,
                    byKey);
        }

        /** The same, the tails starting {@code at}. */
        public Settings from(TopicTail.Start at) {
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    at,
                    referenceName,
                    references,
                    truthTopic,
                    watching,
                    events);
        }

        /** The same, with decisions compared with {@code labels} (series id → label), which are {@code name}. */
        public Settings withReferences(String name, Map<String, String> labels) {
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    from,
                    Objects.requireNonNull(name),
                    labels,
                    truthTopic,
                    watching,
                    events);
        }

        /** The same, with decisions compared with the true labels of {@code topic} (unchanged when null). */
        public Settings withTruthTopic(String topic) {
            if (topic == null) {
                return this;
            }
            return new Settings(
                    port,
                    title,
                    clientProps,
                    input,
                    output,
                    metrics,
                    from,
                    "true label",
                    references,
                    topic,
                    watching,
                    events);
        }
    }

    private final DashboardState state;
    private final DashboardServer server;
    private final Supplier<JobMetrics.Snapshot> metrics;
    private final ScheduledExecutorService timer;
    private TopicTail decisions;
    private TopicTail samples;
    private TopicTail truth;

    private Dashboard(Settings s, DashboardState state, DashboardServer server) {
        this.state = state;
        this.server = server;
        this.metrics = s.metrics();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vigil-dashboard");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts the server and the topic tails.
     *
     * @throws IOException when the port cannot be bound
     */
    public static Dashboard start(Settings s) throws IOException {
        DashboardState state = s.watching()
                ? DashboardState.watching(s.title(), System.currentTimeMillis(), s.events())
                : new DashboardState(s.title(), s.referenceName(), System.currentTimeMillis());
        s.references().forEach(state::reference);
        Dashboard d = new Dashboard(s, state, DashboardServer.start(s.port()));
        try {
            if (s.watching()) {
                d.decisions = new TopicTail(s.clientProps(), s.output(), s.from(), true, r -> {
                    WatchAlarm a;
                    try {
                        a = WatchAlarm.fromJson(r.record().value());
                    } catch (RuntimeException e) {
                        return; // not an alarm record (someone else writes to the topic): nothing to show
                    }
                    state.alarm(a, r.record().timestamp(), r.receivedAt());
                });
                d.timer.scheduleWithFixedDelay(d::tick, 0, PUBLISH_MS, TimeUnit.MILLISECONDS);
                return d;
            }
            d.decisions = new TopicTail(s.clientProps(), s.output(), s.from(), true, r -> {
                try {
                    state.decision(StreamJson.readDecision(r.record().value()), r.receivedAt());
                } catch (RuntimeException e) {
                    // not a decision record (someone else writes to the topic): nothing to show
                }
            });
            d.samples = new TopicTail(
                    s.clientProps(),
                    s.input(),
                    TopicTail.Start.END,
                    false,
                    r -> state.sample(r.record().key(), r.record().value(), r.receivedAt()));
            if (s.truthTopic() != null) {
                d.truth = new TopicTail(s.clientProps(), s.truthTopic(), s.from(), false, r -> {
                    Decoded<SampleRecord.Truth> t = SampleRecord.decodeTruth(
                            r.record().key(), r.record().value());
                    if (t.isOk()) {
                        state.reference(t.value().series(), t.value().label());
                    }
                });
            }
            d.timer.scheduleWithFixedDelay(d::tick, 0, PUBLISH_MS, TimeUnit.MILLISECONDS);
            return d;
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
    }

    /**
     * Tells the page whether the job's operating point is certified: an uncertified one (it decides only at t = d,
     * or without a guarantee) is shown as a banner under the heading.
     */
    public void certification(io.vigil.early.Certification c) {
        state.certification(c.certified(), c.describe());
    }

    /** The page's address, e.g. {@code http://127.0.0.1:8088/}. */
    public String url() {
        return server.url();
    }

    private void tick() {
        try {
            long now = System.currentTimeMillis();
            state.observe(metrics.get(), now);
            if (server.hasClients()) {
                server.publish(JSON.writeValueAsBytes(state.view(now)));
            }
        } catch (IOException | RuntimeException e) {
            // an exception would cancel the schedule: the page keeps its last state until the next tick succeeds
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        server.close();
        for (TopicTail t : new TopicTail[] {decisions, samples, truth}) {
            if (t != null) {
                try {
                    t.close();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    // the job's topics may be gone; the dashboard ends either way
                }
            }
        }
    }
}
