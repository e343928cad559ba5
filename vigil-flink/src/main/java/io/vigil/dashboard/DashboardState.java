package io.vigil.dashboard;

import io.vigil.data.recording.RecordingEvent;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.WatchAlarm;
import io.vigil.stream.DecisionRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the live dashboard shows, aggregated as decisions arrive: the job's counters and rates (from its metrics),
 * a histogram of t/d at decision, sample → decision latency, the last {@link #TABLE_ROWS} decisions, and — when
 * reference labels are known (the complete-series label in the demo) — rolling agreement and a reliability diagram
 * (announced reliability against observed agreement). For a watch job ({@code vigil run --watch}) it lists alarms
 * instead ({@link AlarmFeed}) with the watch counters: keys, open windows, alarms, alarms held back by the flood
 * guard, windows decided and windows closed by silence. Thread-safe; memory bounded whatever the stream's size.
 */
final class DashboardState {
    static final int TABLE_ROWS = 50;
    static final int TD_BINS = 20;
    static final int RELIABILITY_BINS = 10;

    /** Latencies kept for the percentiles. */
    static final int LATENCY_WINDOW = 2_000;

    /** Decisions with a reference in the rolling agreement. */
    static final int AGREEMENT_WINDOW = 200;

    /** Reference labels kept for series not decided yet (oldest dropped beyond). */
    static final int MAX_REFERENCES = 200_000;

    /** Points of the rate and agreement history (one a second). */
    static final int HISTORY = 300;

    /** Upper edges (ms) of the latency histogram's bins; a last bin takes the rest. */
    static final long[] LATENCY_EDGES_MS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000};

    /** One row of the decisions table. */
    record Row(
            String series,
            String status,
            String label,
            int t,
            int length,
            boolean early,
            Double reliability,
            String certificate,
            long latencyMs,
            Boolean agrees,
            long receivedAt,
            long emittedAt) {}

    /** Page mode of a series job. */
    static final String SERIES = "series";

    /** Page mode of a watch job. */
    static final String WATCH = "watch";

    private final String title;
    private final String referenceName;

    /** The alarms of a watch job; null for a series job. */
    private final AlarmFeed alarms;

    /** Whether the job's operating point is certified; null while unknown. */
    private Boolean certified;

    private String certificationPhrase;
    private final long startedAt;
    private final SeriesFollower follower = new SeriesFollower();
    private final ArrayDeque<Row> rows = new ArrayDeque<>(TABLE_ROWS);
    private final long[] tdCounts = new long[TD_BINS];
    private final long[] latencyCounts = new long[LATENCY_EDGES_MS.length + 1];
    private final long[] latencies = new long[LATENCY_WINDOW];
    /** Emission time (epoch ms) of the oldest record counted since the last {@link #view}; MAX_VALUE if none. */
    private long oldestNewEmittedAt = Long.MAX_VALUE;

    private int latencySize;
    private int latencyNext;
    private final Map<String, String> references = bounded();
    private final Map<String, DecisionRecord> unmatched = bounded();
    private final boolean[] agreements = new boolean[AGREEMENT_WINDOW];
    private int agreementSize;
    private int agreementNext;
    private int agreementsInWindow;
    private long compared;
    private long agreed;
    private final long[] reliabilityN = new long[RELIABILITY_BINS];
    private final long[] reliabilityAgreed = new long[RELIABILITY_BINS];
    private final double[] reliabilitySum = new double[RELIABILITY_BINS];
    private final History history;
    private JobMetrics.Snapshot metrics = JobMetrics.Snapshot.EMPTY;
    private double samplesPerSecond;

    /**
     * @param title what runs (shown as the page's heading)
     * @param referenceName what the reference labels are (e.g. "complete-series label"), or null without any
     * @param startedAt epoch ms
     */
    DashboardState(String title, String referenceName, long startedAt) {
        this(title, referenceName, startedAt, null);
    }

    /**
     * @param alarms the alarm list of a watch job, or null for a series job
     */
    DashboardState(String title, String referenceName, long startedAt, AlarmFeed alarms) {
        this.title = title;
        this.referenceName = referenceName;
        this.startedAt = startedAt;
        this.alarms = alarms;
        this.history = new History(alarms != null);
    }

    /** A watch job's dashboard: alarms listed, judged against {@code events} per key when given (may be empty). */
    static DashboardState watching(String title, long startedAt, Map<String, List<RecordingEvent>> events) {
        return new DashboardState(title, null, startedAt, new AlarmFeed(events));
    }

    /** An insertion-ordered map that drops its eldest entries beyond {@link #MAX_REFERENCES}. */
    private static <V> Map<String, V> bounded() {
        return new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > MAX_REFERENCES;
            }
        };
    }

    /**
     * The label a series' decision is compared with (agreement, reliability diagram); it may come before or after
     * the decision.
     */
    /**
     * What the page says about certification: whether the job's operating point is certified and that in words
     * ({@link io.vigil.early.Certification#phrase()}); an uncertified one is shown as a banner.
     */
    synchronized void certification(boolean certified, String phrase) {
        this.certified = certified;
        this.certificationPhrase = phrase;
    }

    synchronized void reference(String series, String label) {
        if (referenceName == null) {
            return;
        }
        DecisionRecord decided = unmatched.remove(series);
        if (decided == null) {
            references.put(series, label);
        } else {
            agree(label.equals(decided.label), decided.reliability);
        }
    }

    /** A sample record of the job's input arrived (for the drawn series). */
    void sample(byte[] key, byte[] value, long now) {
        follower.sample(key, value, now);
    }

    /** A decision record arrived at {@code receivedAt} (epoch ms). */
    void decision(DecisionRecord d, long receivedAt) {
        follower.decision(d, receivedAt);
        record(d, receivedAt);
    }

    /**
     * An alarm record of a watch job arrived at {@code receivedAt} (epoch ms); {@code sampleTime} is the Kafka time
     * stamp of the value that triggered it (the alarm record's own).
     *
     * @throws IllegalStateException when this is a series job's dashboard
     */
    synchronized void alarm(WatchAlarm a, long sampleTime, long receivedAt) {
        if (alarms == null) {
            throw new IllegalStateException("alarm records on a series job's dashboard");
        }
        long latency = Math.max(0, receivedAt - sampleTime);
        if (a.emittedAt > 0) {
            oldestNewEmittedAt = Math.min(oldestNewEmittedAt, a.emittedAt);
        }
        latencies[latencyNext] = latency;
        latencyNext = (latencyNext + 1) % LATENCY_WINDOW;
        latencySize = Math.min(LATENCY_WINDOW, latencySize + 1);
        latencyCounts[latencyBin(latency)]++;
        alarms.alarm(a, latency, receivedAt);
    }

    private synchronized void record(DecisionRecord d, long receivedAt) {
        long latency = Math.max(0, receivedAt - d.sampleTime);
        if (d.emittedAt > 0) {
            oldestNewEmittedAt = Math.min(oldestNewEmittedAt, d.emittedAt);
        }
        Boolean agrees = null;
        if (d.isDecision()) {
            tdCounts[Math.min(TD_BINS - 1, Math.max(0, (int) Math.ceil((double) d.t / d.length * TD_BINS) - 1))]++;
            latencies[latencyNext] = latency;
            latencyNext = (latencyNext + 1) % LATENCY_WINDOW;
            latencySize = Math.min(LATENCY_WINDOW, latencySize + 1);
            latencyCounts[latencyBin(latency)]++;
            String reference = references.remove(d.series);
            if (reference != null) {
                agrees = reference.equals(d.label);
                agree(agrees, d.reliability);
            } else if (referenceName != null) {
                unmatched.put(d.series, d);
            }
        }
        if (rows.size() == TABLE_ROWS) {
            rows.removeLast();
        }
        rows.addFirst(new Row(
                d.series,
                d.status,
                d.label,
                d.t,
                d.length,
                d.early,
                Double.isFinite(d.reliability) ? d.reliability : null,
                certificate(d),
                latency,
                agrees,
                receivedAt,
                d.emittedAt));
    }

    /** What the record's certificate says, as the demo prints it: "≥ 0.90 pac" or "not certified". */
    static String certificate(DecisionRecord d) {
        return d.certified ? String.format(Locale.ROOT, "≥ %.2f %s", d.target, d.guarantee) : "not certified";
    }

    private void agree(boolean agrees, double reliability) {
        compared++;
        if (agrees) {
            agreed++;
        }
        if (agreementSize == AGREEMENT_WINDOW && agreements[agreementNext]) {
            agreementsInWindow--;
        }
        agreements[agreementNext] = agrees;
        if (agrees) {
            agreementsInWindow++;
        }
        agreementNext = (agreementNext + 1) % AGREEMENT_WINDOW;
        agreementSize = Math.min(AGREEMENT_WINDOW, agreementSize + 1);
        if (Double.isFinite(reliability)) {
            int bin = Math.min(RELIABILITY_BINS - 1, Math.max(0, (int) (reliability * RELIABILITY_BINS)));
            reliabilityN[bin]++;
            reliabilitySum[bin] += reliability;
            if (agrees) {
                reliabilityAgreed[bin]++;
            }
        }
    }

    static int latencyBin(long ms) {
        for (int i = 0; i < LATENCY_EDGES_MS.length; i++) {
            if (ms < LATENCY_EDGES_MS[i]) {
                return i;
            }
        }
        return LATENCY_EDGES_MS.length;
    }

    /** The job's metrics at {@code now} (epoch ms): counters, and once a second a point of the rate history. */
    synchronized void observe(JobMetrics.Snapshot s, long now) {
        follower.tick(now);
        metrics = s;
        History.Point p = history.observe(s, now, agreementSize == 0 ? Double.NaN : rollingAgreement());
        if (p != null) {
            samplesPerSecond = p.samplesPerSecond();
        }
    }

    private double rollingAgreement() {
        return (double) agreementsInWindow / agreementSize;
    }

    /**
     * Everything the page shows, as a JSON-ready map (snake_case keys). {@code oldest_new_emitted_at} is when the job
     * emitted the oldest record counted since the previous view (null if none): how late a view reflects a decision.
     */
    synchronized Map<String, Object> view(long now) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("title", title);
        m.put("mode", alarms == null ? SERIES : WATCH);
        m.put("certified", certified);
        m.put("certification", certificationPhrase);
        m.put("uptime_s", (now - startedAt) / 1e3);
        m.put("job", metrics.values().containsKey(JobMetrics.SAMPLES_IN) ? "running" : "starting");
        m.put("counters", counters());
        m.put("dead_letters", metrics.deadLettersByReason());
        m.put("history", history.view());
        m.put("td", Map.of("bins", TD_BINS, "counts", tdCounts.clone()));
        m.put("latency", latency());
        m.put("decisions", new ArrayList<>(rows));
        m.put("series", follower.view());
        m.put("reference", referenceName == null ? null : agreement());
        m.put("watch", alarms == null ? null : watch());
        m.put("alarms", alarms == null ? null : alarms.rows());
        m.put("oldest_new_emitted_at", oldestNewEmittedAt == Long.MAX_VALUE ? null : oldestNewEmittedAt);
        oldestNewEmittedAt = Long.MAX_VALUE;
        return m;
    }

    private Map<String, Object> counters() {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("samples", metrics.get(JobMetrics.SAMPLES_IN));
        c.put("samples_per_s", samplesPerSecond);
        c.put("decided_early", metrics.get(JobMetrics.DECISIONS_EARLY));
        c.put("decided_complete", metrics.get(JobMetrics.DECISIONS_COMPLETE));
        c.put("undecided", metrics.get(JobMetrics.DECISIONS_UNDECIDED));
        c.put("abandoned", metrics.get(JobMetrics.SERIES_ABANDONED));
        c.put("in_flight", metrics.get(JobMetrics.SERIES_IN_FLIGHT));
        c.put("dead_letters", metrics.deadLettersTotal());
        c.put("out_of_range", metrics.get(JobMetrics.OUT_OF_RANGE));
        return c;
    }

    /** A watch job's counters: from its metrics, and the alarm records this dashboard received and judged. */
    private Map<String, Object> watch() {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("keys", metrics.get(JobMetrics.WATCH_KEYS));
        w.put("open_windows", metrics.get(JobMetrics.WATCH_OPEN_WINDOWS));
        w.put("alarms", metrics.get(JobMetrics.WATCH_ALARMS));
        w.put("alarms_suppressed", metrics.get(JobMetrics.WATCH_ALARMS_SUPPRESSED));
        w.put("windows_decided", metrics.get(JobMetrics.WATCH_WINDOWS_DECIDED));
        w.put("timeouts", metrics.get(JobMetrics.WATCH_TIMEOUTS));
        w.put("alarms_received", alarms.received());
        w.put("listed", AlarmFeed.ROWS);
        w.put("verdicts", alarms.verdicts());
        return w;
    }

    private Map<String, Object> latency() {
        long[] sorted = Arrays.copyOf(latencies, latencySize);
        Arrays.sort(sorted);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("edges_ms", LATENCY_EDGES_MS);
        m.put("counts", latencyCounts.clone());
        m.put("p50_ms", percentile(sorted, 0.50));
        m.put("p99_ms", percentile(sorted, 0.99));
        m.put("window", sorted.length);
        return m;
    }

    /** Nearest-rank percentile, or null without values. */
    static Long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return null;
        }
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private Map<String, Object> agreement() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", referenceName);
        m.put("compared", compared);
        m.put("agreed", agreed);
        m.put("rolling", agreementSize == 0 ? null : rollingAgreement());
        m.put("window", agreementSize);
        List<Map<String, Object>> bins = new ArrayList<>();
        for (int i = 0; i < RELIABILITY_BINS; i++) {
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("from", (double) i / RELIABILITY_BINS);
            b.put("to", (double) (i + 1) / RELIABILITY_BINS);
            b.put("n", reliabilityN[i]);
            b.put("announced", reliabilityN[i] == 0 ? null : reliabilitySum[i] / reliabilityN[i]);
            b.put("observed", reliabilityN[i] == 0 ? null : (double) reliabilityAgreed[i] / reliabilityN[i]);
            bins.add(b);
        }
        m.put("reliability", bins);
        return m;
    }

    /**
     * Once-a-second points of samples/s, decisions/s (alarms/s of a watch job) and rolling agreement, the last {@link
     * #HISTORY}.
     */
    private static final class History {
        record Point(long at, double samplesPerSecond, double decisionsPerSecond, double agreement) {}

        private final ArrayDeque<Point> points = new ArrayDeque<>();
        private final boolean alarms;
        private JobMetrics.Snapshot last;
        private long lastAt;

        /** @param alarms whether the second rate counts alarms (a watch job) rather than decisions */
        History(boolean alarms) {
            this.alarms = alarms;
        }

        /** The new point when a second has passed since the last one, else null. */
        Point observe(JobMetrics.Snapshot s, long now, double agreement) {
            if (last == null) {
                last = s;
                lastAt = now;
                return null;
            }
            if (now - lastAt < 1_000) {
                return null;
            }
            double seconds = (now - lastAt) / 1e3;
            Point p = new Point(
                    now,
                    Math.max(0, s.get(JobMetrics.SAMPLES_IN) - last.get(JobMetrics.SAMPLES_IN)) / seconds,
                    Math.max(0, decisions(s) - decisions(last)) / seconds,
                    agreement);
            if (points.size() == HISTORY) {
                points.removeFirst();
            }
            points.addLast(p);
            last = s;
            lastAt = now;
            return p;
        }

        private long decisions(JobMetrics.Snapshot s) {
            if (alarms) {
                return s.get(JobMetrics.WATCH_ALARMS);
            }
            return s.get(JobMetrics.DECISIONS_EARLY)
                    + s.get(JobMetrics.DECISIONS_COMPLETE)
                    + s.get(JobMetrics.DECISIONS_UNDECIDED)
                    + s.get(JobMetrics.SERIES_ABANDONED);
        }

        Map<String, Object> view() {
            int n = points.size();
            double[] at = new double[n];
            double[] samples = new double[n];
            double[] decisions = new double[n];
            Double[] agreement = new Double[n];
            int i = 0;
            for (Point p : points) {
                at[i] = p.at() / 1e3;
                samples[i] = p.samplesPerSecond();
                decisions[i] = p.decisionsPerSecond();
                agreement[i] = Double.isNaN(p.agreement()) ? null : p.agreement();
                i++;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("at", at);
            m.put("samples_per_s", samples);
            m.put("decisions_per_s", decisions);
            m.put("agreement", agreement);
            return m;
        }
    }
}
