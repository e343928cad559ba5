package io.vigil.dashboard;

import io.vigil.kafka.Decoded;
import io.vigil.kafka.SampleRecord;
import io.vigil.stream.DecisionRecord;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Picks one series from the sample stream and keeps its values, so the dashboard can draw it with the moment it was
 * decided: it waits for a series' first sample ({@code t = 1}), follows that series until its decision has arrived
 * and its last sample (t = d) is in (or no sample came for {@link #AFTER_DECISION_MS}), shows it for
 * {@link #HOLD_MS}, then picks the next. Records of other series cost one key comparison; only the followed series
 * is decoded. Thread-safe; memory bounded by {@link #MAX_POINTS}.
 */
final class SeriesFollower {
    /** How long a finished series stays on screen before the next is picked. */
    static final long HOLD_MS = 4_000;

    /** How long to wait for more samples after the decision before the series counts as finished. */
    static final long AFTER_DECISION_MS = 2_000;

    /** A followed series without a sample for this long is given up (the stream stopped or moved on). */
    static final long IDLE_MS = 30_000;

    /** Most points kept of one series. */
    static final int MAX_POINTS = 100_000;

    private volatile byte[] key;
    private String series;
    private int[] ts = new int[256];
    private double[] values = new double[256];
    private int size;
    private DecisionRecord decision;
    private long lastSampleAt;
    private long finishedAt;

    /** A sample record arrived at {@code now} (epoch ms). */
    void sample(byte[] recordKey, byte[] value, long now) {
        byte[] k = key;
        if (k != null && recordKey != null && !Arrays.equals(k, recordKey)) {
            return; // the hot path: someone else's sample
        }
        Decoded<SampleRecord.Sample> d = SampleRecord.decode(recordKey, value);
        if (!d.isOk()) {
            return;
        }
        add(d.value(), now);
    }

    private synchronized void add(SampleRecord.Sample s, long now) {
        if (series != null && !series.equals(s.series())) {
            return; // a key-less record of another series
        }
        if (series == null) {
            if (s.t() > 1) {
                return; // wait for a series to start
            }
            series = s.series();
            key = s.series().getBytes(StandardCharsets.UTF_8);
            size = 0;
            decision = null;
            finishedAt = 0;
        }
        if (finishedAt != 0 || size >= MAX_POINTS) {
            return;
        }
        if (size == ts.length) {
            ts = Arrays.copyOf(ts, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        ts[size] = s.hasT() ? s.t() : size + 1;
        values[size] = s.value();
        size++;
        lastSampleAt = now;
        if (decision != null && ts[size - 1] >= decision.length) {
            finishedAt = now;
        }
    }

    /** A decision arrived; kept when it is the followed series' first. */
    synchronized void decision(DecisionRecord d, long now) {
        if (series == null || !series.equals(d.series) || decision != null) {
            return;
        }
        decision = d;
        if (!d.isDecision() || (size > 0 && ts[size - 1] >= d.length)) {
            finishedAt = now;
        }
    }

    /** Moves on when the shown series is finished and held long enough, or has gone idle. */
    synchronized void tick(long now) {
        if (series == null) {
            return;
        }
        if (finishedAt == 0 && decision != null && now - lastSampleAt > AFTER_DECISION_MS) {
            finishedAt = now;
        }
        boolean held = finishedAt != 0 && now - finishedAt >= HOLD_MS;
        if (held || (finishedAt == 0 && now - lastSampleAt > IDLE_MS)) {
            series = null;
            key = null;
        }
    }

    /** The followed series for the page, or null while none is followed. */
    synchronized Map<String, Object> view() {
        if (series == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("series", series);
        m.put("t", Arrays.copyOf(ts, size));
        m.put("values", Arrays.copyOf(values, size));
        m.put("length", decision == null ? null : decision.length);
        m.put("status", decision == null ? null : decision.status);
        m.put("label", decision == null ? null : decision.label);
        m.put("decided_t", decision == null ? null : decision.t);
        m.put("early", decision != null && decision.early);
        m.put("finished", finishedAt != 0);
        return m;
    }
}
