package io.vigil.flink;

import io.vigil.stream.DeadLetterReason;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;

/**
 * Vigil's operator metrics of the jobs on one embedded cluster, read in-process so {@code vigil run} can print
 * progress and a summary without a metrics backend. {@link JobMetricsReporter} (a Flink metric reporter configured
 * by {@link LocalFlink}) hands it every metric this JVM's tasks register; it keeps the ones of the contract (
 * {@code samplesIn}, {@code decisionsEarly}, {@code decisionsComplete}, {@code decisionsUndecided}, {@code
 * decisionsIncomplete},
 * {@code seriesAbandoned}, {@code seriesErrors}, {@code outOfRange}, {@code deadLetters_<reason>}, gauge {@code seriesInFlight}).
 *
 * <p>Counters are summed over subtasks and kept monotone across task attempts: a restarted task registers new
 * counters from 0, and a removed counter's last value is retained. Records re-processed after a restore from a
 * checkpoint therefore count again. Gauges count only while registered (summed over subtasks).
 */
public final class JobMetrics {
    public static final String SAMPLES_IN = "samplesIn";
    public static final String DECISIONS_EARLY = "decisionsEarly";
    public static final String DECISIONS_COMPLETE = "decisionsComplete";
    public static final String DECISIONS_UNDECIDED = "decisionsUndecided";
    public static final String DECISIONS_INCOMPLETE = "decisionsIncomplete";
    public static final String SERIES_ABANDONED = "seriesAbandoned";
    /** Series that ended with a {@code "status":"error"} record (their processing failed). */
    public static final String SERIES_ERRORS = "seriesErrors";

    public static final String SERIES_IN_FLIGHT = "seriesInFlight";
    public static final String OUT_OF_RANGE = "outOfRange";
    /** Watch mode ({@link WatchFunction}): alarms written. */
    public static final String WATCH_ALARMS = "watchAlarms";
    /** Watch mode: alarms the flood guard held back (dead-lettered as {@code alarm_flood}). */
    public static final String WATCH_ALARMS_SUPPRESSED = "watchAlarmsSuppressed";
    /** Watch mode: windows decided (event and background). */
    public static final String WATCH_WINDOWS_DECIDED = "watchWindowsDecided";
    /** Watch mode: times a key's open windows were closed undecided by a silence, gap or jump. */
    public static final String WATCH_TIMEOUTS = "watchTimeouts";
    /** Watch mode gauge: windows open now. */
    public static final String WATCH_OPEN_WINDOWS = "watchOpenWindows";
    /** Watch mode gauge: keys watched. */
    public static final String WATCH_KEYS = "watchKeys";
    /** Gauge: 1 when the current model's operating point is certified, 0 when not (it decides only at t = d). */
    public static final String OPERATING_POINT_CERTIFIED = "vigil_operating_point_certified";

    public static final String DEAD_LETTERS_PREFIX = "deadLetters_";
    /** Flink's job-level checkpoint gauges (JobManager scope), read by {@code vigil bench scale}. */
    public static final String CHECKPOINTS_COMPLETED = "numberOfCompletedCheckpoints";

    public static final String CHECKPOINTS_FAILED = "numberOfFailedCheckpoints";
    public static final String LAST_CHECKPOINT_DURATION = "lastCheckpointDuration";
    public static final String LAST_CHECKPOINT_SIZE = "lastCheckpointSize";
    public static final String LAST_CHECKPOINT_FULL_SIZE = "lastCheckpointFullSize";

    /** Gauges whose last value is kept when the job ends (they describe the job, not one task attempt). */
    private static final java.util.Set<String> JOB_GAUGES = java.util.Set.of(
            CHECKPOINTS_COMPLETED,
            CHECKPOINTS_FAILED,
            LAST_CHECKPOINT_DURATION,
            LAST_CHECKPOINT_SIZE,
            LAST_CHECKPOINT_FULL_SIZE);

    private static final Map<String, JobMetrics> REGISTRY = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private final Map<Metric, String> live = new IdentityHashMap<>();
    private final Map<String, Long> retired = new TreeMap<>();

    private JobMetrics() {}

    /** New, empty metrics reachable by {@link #byId} until {@link #unregister}. */
    public static JobMetrics register() {
        JobMetrics m = new JobMetrics();
        REGISTRY.put(m.id, m);
        return m;
    }

    /** The registered metrics with this id, if any. */
    static Optional<JobMetrics> byId(String id) {
        return Optional.ofNullable(REGISTRY.get(id));
    }

    /** Forgets these metrics (the reporter of a closed cluster finds nothing). */
    public void unregister() {
        REGISTRY.remove(id);
    }

    /** The id the reporter is configured with. */
    String id() {
        return id;
    }

    /** Whether a metric of this name is one this class keeps. */
    static boolean tracked(String name) {
        return switch (name) {
            case SAMPLES_IN,
                    DECISIONS_EARLY,
                    DECISIONS_COMPLETE,
                    DECISIONS_UNDECIDED,
                    DECISIONS_INCOMPLETE,
                    SERIES_ABANDONED,
                    SERIES_ERRORS,
                    SERIES_IN_FLIGHT,
                    OUT_OF_RANGE,
                    WATCH_ALARMS,
                    WATCH_ALARMS_SUPPRESSED,
                    WATCH_WINDOWS_DECIDED,
                    WATCH_TIMEOUTS,
                    WATCH_OPEN_WINDOWS,
                    WATCH_KEYS -> true;
            default -> name.startsWith(DEAD_LETTERS_PREFIX) || JOB_GAUGES.contains(name);
        };
    }

    /** A task registered a metric. */
    synchronized void added(String name, Metric metric) {
        if (tracked(name) && (metric instanceof Counter || metric instanceof Gauge<?>)) {
            live.put(metric, name);
        }
    }

    /** A task unregistered a metric (its task attempt ended): a counter's last value is kept. */
    synchronized void removed(String name, Metric metric) {
        if (live.remove(metric) == null) {
            return;
        }
        if (metric instanceof Counter c && !SERIES_IN_FLIGHT.equals(name)) {
            retired.merge(name, c.getCount(), Long::sum);
        } else if (JOB_GAUGES.contains(name)) {
            retired.put(name, value(metric));
        }
    }

    /** The totals now: retained counts plus live counters, gauges summed. */
    public synchronized Snapshot snapshot() {
        Map<String, Long> totals = new TreeMap<>(retired);
        live.forEach((metric, name) -> totals.merge(name, value(metric), Long::sum));
        return new Snapshot(totals);
    }

    private static long value(Metric m) {
        if (m instanceof Counter c) {
            return c.getCount();
        }
        return ((Gauge<?>) m).getValue() instanceof Number n ? n.longValue() : 0;
    }

    /**
     * Metric totals at one moment; a metric not (yet) registered reads 0.
     *
     * @param values totals by metric name
     */
    public record Snapshot(Map<String, Long> values) {
        /** No metrics at all. */
        public static final Snapshot EMPTY = new Snapshot(Map.of());

        public Snapshot {
            values = Map.copyOf(values);
        }

        /** The total of a metric, 0 when missing. */
        public long get(String name) {
            return values.getOrDefault(name, 0L);
        }

        /** Dead letters of one reason. */
        public long deadLetters(DeadLetterReason reason) {
            return get(DEAD_LETTERS_PREFIX + reason.code());
        }

        /** Dead letters of every reason, in {@link DeadLetterReason} order (zeros included). */
        public Map<String, Long> deadLettersByReason() {
            Map<String, Long> m = new java.util.LinkedHashMap<>();
            for (DeadLetterReason r : DeadLetterReason.values()) {
                m.put(r.code(), deadLetters(r));
            }
            return m;
        }

        /** Dead letters of all reasons. */
        public long deadLettersTotal() {
            return deadLettersByReason().values().stream()
                    .mapToLong(Long::longValue)
                    .sum();
        }
    }
}
