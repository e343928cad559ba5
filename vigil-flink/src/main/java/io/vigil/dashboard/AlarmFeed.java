package io.vigil.dashboard;

import io.vigil.data.recording.RecordingEvent;
import io.vigil.flink.WatchAlarm;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The alarms of a watch job ({@code vigil run --watch}, docs/watch.md) as the dashboard lists them: the last
 * {@link #ROWS}, newest first, each with the fields of its alarm record and how long after its triggering value it
 * reached the dashboard. When the true events of the keys are known (the watch demo's generated events) each alarm
 * is also judged as docs/recordings.md scores it ({@link AlarmVerdicts}). Memory is bounded by {@link #ROWS} rows
 * plus the events given. Not thread-safe: {@link DashboardState} serialises the calls.
 */
final class AlarmFeed {
    /** Alarms listed. */
    static final int ROWS = 100;

    /**
     * One row of the alarm list.
     *
     * @param delayMs null when neither time stamps nor a sampling rate give it
     * @param verdict {@code true}, {@code duplicate} or {@code false} against the known events ({@link
     *     AlarmVerdicts}); null without them
     */
    record Row(
            String key,
            String label,
            long eventStart,
            long trigger,
            long delaySamples,
            Double delayMs,
            boolean certified,
            String guarantee,
            double target,
            String certificate,
            long windowStart,
            int windowLength,
            Double reliability,
            String model,
            long latencyMs,
            String verdict,
            long receivedAt,
            long emittedAt) {}

    private final ArrayDeque<Row> rows = new ArrayDeque<>(ROWS);
    /** Null when no events are known. */
    private final AlarmVerdicts verdicts;

    private long received;

    /** @param events the true events per key (recording name), empty when unknown */
    AlarmFeed(Map<String, List<RecordingEvent>> events) {
        this.verdicts = events.isEmpty() ? null : new AlarmVerdicts(events);
    }

    /**
     * An alarm record arrived.
     *
     * @param latencyMs from its triggering value's Kafka time stamp to {@code receivedAt}
     */
    void alarm(WatchAlarm a, long latencyMs, long receivedAt) {
        received++;
        String verdict = verdicts == null ? null : verdicts.judge(a.key, a.label, a.trigger);
        if (rows.size() == ROWS) {
            rows.removeLast();
        }
        rows.addFirst(new Row(
                a.key,
                a.label,
                a.eventStart,
                a.trigger,
                a.delaySamples,
                Double.isFinite(a.delayMs) ? a.delayMs : null,
                a.certified,
                a.guarantee,
                a.target,
                certificate(a),
                a.windowStart,
                a.windowLength,
                Double.isFinite(a.reliability) ? a.reliability : null,
                a.model,
                latencyMs,
                verdict,
                receivedAt,
                a.emittedAt));
    }

    /** What the alarm's certificate says: "≥ 0.90 pac" or "not certified". */
    static String certificate(WatchAlarm a) {
        return a.certified ? String.format(Locale.ROOT, "≥ %.2f %s", a.target, a.guarantee) : "not certified";
    }

    /** Alarm records received since the start. */
    long received() {
        return received;
    }

    /** The listed alarms, newest first. */
    List<Row> rows() {
        return new ArrayList<>(rows);
    }

    /** Counts of the judged alarms ({@code true}, {@code duplicate}, {@code false}), or null without events. */
    Map<String, Long> verdicts() {
        return verdicts == null ? null : verdicts.counts();
    }
}
