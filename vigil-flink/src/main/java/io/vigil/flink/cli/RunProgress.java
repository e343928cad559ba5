package io.vigil.flink.cli;

import io.vigil.flink.JobMetrics;
import io.vigil.flink.JobMetrics.Snapshot;
import io.vigil.stream.DeadLetterReason;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What an embedded {@code vigil run} tells its operator, read from the job's metrics ({@link JobMetrics}): a
 * progress line on stderr every {@link #INTERVAL}, one WARN line as soon as the stream looks like it does not fit
 * the model (more than {@link #MISMATCH_FRACTION} of the samples dead-lettered as {@code t_beyond_length} or
 * {@code gap_beyond_buffer}, after {@link #MISMATCH_MIN_SAMPLES} samples), and the final {@link Summary}.
 */
public final class RunProgress implements AutoCloseable {
    /** Time between progress lines. */
    static final Duration INTERVAL = Duration.ofSeconds(10);

    /** Time between checks for a model/stream mismatch. */
    private static final Duration CHECK = Duration.ofSeconds(1);

    /** Samples before the mismatch rule applies (a few early dead letters are no pattern). */
    static final long MISMATCH_MIN_SAMPLES = 1_000;

    /** Share of mismatched samples above which the WARN line is printed. */
    static final double MISMATCH_FRACTION = 0.01;

    private final Supplier<Snapshot> metrics;
    private final PrintWriter err;
    private final int modelLength;
    private final int reorderWindow;
    private final long started = System.nanoTime();
    private final ScheduledExecutorService timer;
    private Snapshot lastLine = Snapshot.EMPTY;
    private long lastLineNanos = started;
    private boolean warned;

    private RunProgress(Supplier<Snapshot> metrics, PrintWriter err, int modelLength, int reorderWindow) {
        this.metrics = metrics;
        this.err = err;
        this.modelLength = modelLength;
        this.reorderWindow = reorderWindow;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vigil-progress");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts reporting.
     *
     * @param modelLength the model's series length d (named in the mismatch warning)
     * @param reorderWindow the job's reorder window (named in the mismatch warning)
     */
    static RunProgress start(Supplier<Snapshot> metrics, PrintWriter err, int modelLength, int reorderWindow) {
        RunProgress p = new RunProgress(metrics, err, modelLength, reorderWindow);
        p.timer.scheduleWithFixedDelay(
                () -> p.check(System.nanoTime()), CHECK.toMillis(), CHECK.toMillis(), TimeUnit.MILLISECONDS);
        return p;
    }

    private synchronized void check(long now) {
        Snapshot s = metrics.get();
        warnOnce(s);
        if (now - lastLineNanos >= INTERVAL.toNanos()) {
            err.println("vigil run: " + progressLine(s, lastLine, (now - lastLineNanos) / 1e9));
            err.flush();
            lastLine = s;
            lastLineNanos = now;
        }
    }

    private void warnOnce(Snapshot s) {
        if (!warned) {
            mismatch(s, modelLength, reorderWindow).ifPresent(line -> {
                warned = true;
                err.println("vigil run: WARN " + line);
                err.flush();
            });
        }
    }

    /** Stops the progress lines and returns the summary of the job (after a last mismatch check). */
    synchronized Summary finish() {
        timer.shutdownNow();
        Snapshot s = metrics.get();
        warnOnce(s);
        return Summary.of(s, (System.nanoTime() - started) / 1e9);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /**
     * One progress line: decisions by status, series in flight, samples/s since {@code before}, dead letters.
     *
     * @param seconds time since {@code before}
     */
    public static String progressLine(Snapshot now, Snapshot before, double seconds) {
        long early = now.get(JobMetrics.DECISIONS_EARLY);
        long complete = now.get(JobMetrics.DECISIONS_COMPLETE);
        long undecided = now.get(JobMetrics.DECISIONS_UNDECIDED);
        long incomplete = now.get(JobMetrics.DECISIONS_INCOMPLETE);
        double rate = seconds > 0 ? (now.get(JobMetrics.SAMPLES_IN) - before.get(JobMetrics.SAMPLES_IN)) / seconds : 0;
        return format(
                        "decisions %,d (early %,d, at t = d %,d, %sundecided %,d), abandoned %,d, series in flight %,d,"
                                + " %,.0f samples/s, dead letters %,d",
                        early + complete + incomplete + undecided,
                        early,
                        complete,
                        incomplete > 0 ? format("incomplete %,d, ", incomplete) : "",
                        undecided,
                        now.get(JobMetrics.SERIES_ABANDONED),
                        now.get(JobMetrics.SERIES_IN_FLIGHT),
                        rate,
                        now.deadLettersTotal())
                + reasons(now.deadLettersByReason());
    }

    /**
     * The warning when more than {@link #MISMATCH_FRACTION} of at least {@link #MISMATCH_MIN_SAMPLES} samples were
     * dead-lettered as {@code t_beyond_length} or {@code gap_beyond_buffer}, naming the counts and likely causes.
     */
    public static Optional<String> mismatch(Snapshot s, int modelLength, int reorderWindow) {
        long samples = s.get(JobMetrics.SAMPLES_IN);
        long beyond = s.deadLetters(DeadLetterReason.T_BEYOND_LENGTH);
        long gaps = s.deadLetters(DeadLetterReason.GAP_BEYOND_BUFFER);
        if (samples < MISMATCH_MIN_SAMPLES || beyond + gaps <= MISMATCH_FRACTION * samples) {
            return Optional.empty();
        }
        List<String> causes = new ArrayList<>();
        if (beyond > 0) {
            causes.add(format(
                    "%,d t_beyond_length (t beyond the model's series length d = %d: are the stream's series longer"
                            + " than the model's? train a model on series of the stream's length)",
                    beyond, modelLength));
        }
        if (gaps > 0) {
            causes.add(format(
                    "%,d gap_beyond_buffer (t more than the reorder window of %d ahead of the next expected sample:"
                            + " are samples missing or far out of order? raise --reorder-window)",
                    gaps, reorderWindow));
        }
        return Optional.of(format(
                "the stream does not fit the model: %,d of %,d samples (%.1f %%) dead-lettered: %s",
                beyond + gaps, samples, 100.0 * (beyond + gaps) / samples, String.join("; ", causes)));
    }

    /** " (reason n, ...)" for the reasons with dead letters, or "" when there are none. */
    private static String reasons(Map<String, Long> byReason) {
        List<String> parts = new ArrayList<>();
        byReason.forEach((reason, n) -> {
            if (n > 0) {
                parts.add(format("%s %,d", reason, n));
            }
        });
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    private static String format(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }

    /**
     * The final counts of a run.
     *
     * @param decidedEarly series decided before t = d
     * @param decidedComplete series decided at t = d
     * @param decidedIncomplete series decided when they ended before all their values came (end record, expiry of a
     *     multichannel series)
     * @param undecided series still undecided when a bounded input ended
     * @param abandoned series that expired before a decision
     * @param deadLetters dead letters by reason code (every reason, zeros included)
     * @param samples samples that reached the decision stage
     * @param seconds wall time of the job
     */
    public record Summary(
            long decidedEarly,
            long decidedComplete,
            long decidedIncomplete,
            long undecided,
            long abandoned,
            Map<String, Long> deadLetters,
            long samples,
            double seconds) {
        static Summary of(Snapshot s, double seconds) {
            return new Summary(
                    s.get(JobMetrics.DECISIONS_EARLY),
                    s.get(JobMetrics.DECISIONS_COMPLETE),
                    s.get(JobMetrics.DECISIONS_INCOMPLETE),
                    s.get(JobMetrics.DECISIONS_UNDECIDED),
                    s.get(JobMetrics.SERIES_ABANDONED),
                    s.deadLettersByReason(),
                    s.get(JobMetrics.SAMPLES_IN),
                    seconds);
        }

        /** The summary in one line of text. */
        String text() {
            long dead = deadLetters.values().stream().mapToLong(Long::longValue).sum();
            return format(
                            "summary: decided early %,d, at t = d %,d, %sundecided %,d, abandoned %,d; %,d samples;"
                                    + " dead letters %,d",
                            decidedEarly,
                            decidedComplete,
                            decidedIncomplete > 0 ? format("incomplete %,d, ", decidedIncomplete) : "",
                            undecided,
                            abandoned,
                            samples,
                            dead)
                    + reasons(deadLetters)
                    + format("; %.1f s", seconds);
        }

        /** The summary as one JSON object (snake_case fields). */
        String json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("decided_early", decidedEarly);
            m.put("decided_complete", decidedComplete);
            m.put("decided_incomplete", decidedIncomplete);
            m.put("undecided", undecided);
            m.put("abandoned", abandoned);
            m.put("dead_letters", deadLetters);
            m.put("samples", samples);
            m.put("seconds", seconds);
            return Json.line(m);
        }
    }
}
