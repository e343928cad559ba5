package io.vigil.stream;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.kafka.SampleRecord;
import io.vigil.model.json.ModelFile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * The generated three-channel model of the early-decision tests as a model file, and helpers to feed its series
 * value by value under an {@link ObservationPattern} (channel set, values missing, arrival shuffled).
 */
public final class MultiChannelFixtures {
    private MultiChannelFixtures() {}

    /** The model file bytes. */
    public static final byte[] MODEL_BYTES = ModelFile.standard().toBytes(EarlyFixtures.MultiChannel.MODEL);

    /** The test split (30 series, 3 channels × 128). */
    public static final Dataset TEST = EarlyFixtures.MultiChannel.DATA.test();

    /** Channels C. */
    public static final int CHANNELS = 3;

    /** 20 % missing at random, shuffled arrival. */
    public static final ObservationPattern PATTERN =
            ObservationPattern.builder().missing(0.2).shuffled(true).seed(26).build();

    /** The classifier of {@link #MODEL_BYTES} with {@code params}. */
    public static EarlyClassifier classifier(DecisionParams params) {
        return EarlyClassifier.of(EarlyFixtures.MultiChannel.MODEL, params);
    }

    /** The series id used for test series i. */
    public static String id(int i) {
        return "MultiCBF/test/" + i;
    }

    /** The observed values of series i under {@code pattern}, as time-major indices in arrival order. */
    public static int[] order(int i, ObservationPattern pattern) {
        return pattern.order(id(i), CHANNELS, TEST.length());
    }

    /**
     * Accepted events of series i under {@code pattern} (channel by index, t 1-based), offsets from {@code
     * firstOffset}, followed by the series' end record when {@code withEnd}.
     */
    public static List<SampleEvent> events(int i, ObservationPattern pattern, long firstOffset, boolean withEnd) {
        double[] x = TEST.series(i);
        List<SampleEvent> out = new ArrayList<>();
        long offset = firstOffset;
        for (int j : order(i, pattern)) {
            out.add(event(id(i), j / CHANNELS + 1, j % CHANNELS, x[j], offset++));
        }
        if (withEnd) {
            out.add(end(id(i), offset));
        }
        return out;
    }

    /**
     * Test series 0..n−1 under {@link #PATTERN}, round-robin over the series (value k of each in turn, as sensors
     * report), each followed by its end record when {@code withEnd} holds for it.
     */
    public static List<SampleEvent> interleaved(int n, IntPredicate withEnd) {
        List<List<SampleEvent>> each = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            each.add(events(i, PATTERN, 1_000L * i, withEnd.test(i)));
        }
        int total = each.stream().mapToInt(List::size).sum();
        List<SampleEvent> out = new ArrayList<>();
        for (int k = 0; out.size() < total; k++) {
            for (List<SampleEvent> l : each) {
                if (k < l.size()) {
                    out.add(l.get(k));
                }
            }
        }
        return out;
    }

    /** The same values and end records under another series id (a series id reused). */
    public static List<SampleEvent> underId(List<SampleEvent> events, String series) {
        List<SampleEvent> out = new ArrayList<>();
        for (SampleEvent e : events) {
            out.add(e.end ? end(series, e.offset) : event(series, e.t, e.channel, e.value, e.offset));
        }
        return out;
    }

    /** One accepted event of a channel with the JSON bytes a producer would send. */
    public static SampleEvent event(String series, int t, int channel, double value, long offset) {
        byte[] raw = SampleRecord.encode(series, t, channel, value);
        return SampleEvent.accepted(series, t, value, 1_000L + offset, 0, offset, raw)
                .channel(channel, null);
    }

    /** The end record of a series. */
    public static SampleEvent end(String series, long offset) {
        return SampleEvent.end(series, 1_000L + offset, 0, offset, SampleRecord.encodeEnd(series));
    }
}
