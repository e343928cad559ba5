package io.vigil.watch;

import io.vigil.api.Vigil;
import io.vigil.early.Decision;
import io.vigil.early.EarlyClassifier;
import io.vigil.gauss.SeriesState;
import java.util.List;

/**
 * The fixed-delay baseline (docs/watch.md, "Baselines"): the same window model decides every window of the stride grid
 * after a fixed prefix of L samples, whatever the values say, as the classifier's label at E[x | prefix] (the conditional
 * mean of the complete window given its first L samples, thesis eq. 5.19 on the prefix; local QDA there). Its event-class
 * labels become alarms through the same {@link AlarmMerger} as the early rule's. With L the early rule's median
 * detection delay, it asks whether deciding each window at its own moment buys anything over deciding all windows at
 * the same moment; with L = D it is the complete-window reference. A window with a missing value in its prefix has no
 * label and is skipped.
 */
public final class FixedDelayWindows {
    private FixedDelayWindows() {}

    /**
     * The prefix length matching a median detection delay: a true detection with delay δ fired on the window's sample
     * δ + 1, so L = round(δ) + 1, within 1..D; D (the complete window) when there is no delay to match.
     *
     * @param medianDelaySamples the early rule's median delay in samples (trigger − event start), or null
     */
    public static int prefixForDelay(Double medianDelaySamples, int length) {
        if (medianDelaySamples == null || medianDelaySamples.isNaN()) {
            return length;
        }
        long l = Math.round(medianDelaySamples) + 1;
        return (int) Math.max(1, Math.min(length, l));
    }

    /**
     * The labels of one recording's windows decided after {@code prefix} samples: every window of the stride grid
     * (starts 1, 1 + S, …) whose prefix the recording holds.
     *
     * @param values {@code values[channel][sample − 1]}
     * @param prefix L in 1..D
     * @throws IllegalArgumentException when L is outside 1..D or the channels do not match the model
     */
    public static CompleteWindows.Labels labels(Vigil vigil, WindowSpec spec, double[][] values, int prefix) {
        int d = spec.length();
        if (prefix < 1 || prefix > d) {
            throw new IllegalArgumentException("the fixed prefix must be in 1.." + d + " samples, got " + prefix);
        }
        if (values.length != vigil.channels()) {
            throw new IllegalArgumentException(
                    "the model has " + vigil.channels() + " channels, the recording " + values.length);
        }
        int n = values[0].length;
        int count = n < prefix ? 0 : (n - prefix) / spec.stride() + 1;
        long[] starts = new long[count];
        int[] classes = new int[count];
        EarlyClassifier ec = vigil.classifier();
        SeriesState state = ec.newState();
        EarlyClassifier.Workspace ws = ec.newWorkspace();
        Decision decision = Decision.labelOnly();
        for (int w = 0; w < count; w++) {
            int from = w * spec.stride();
            starts[w] = from + 1L;
            classes[w] = decide(ec, state, ws, decision, values, from, prefix);
        }
        return new CompleteWindows.Labels(starts, classes);
    }

    private static int decide(
            EarlyClassifier ec,
            SeriesState state,
            EarlyClassifier.Workspace ws,
            Decision decision,
            double[][] values,
            int from,
            int prefix) {
        for (int t = 0; t < prefix; t++) {
            for (double[] channel : values) {
                if (Double.isNaN(channel[from + t])) {
                    return -1;
                }
            }
        }
        state.reset();
        for (int t = 0; t < prefix; t++) {
            for (double[] channel : values) {
                ec.feed(state, channel[from + t]);
            }
        }
        ec.current(state, ws, decision);
        return decision.label();
    }

    /** The alarms of one recording from its fixed-prefix {@code labels}: each window triggers at start + L − 1. */
    public static List<AlarmEvent> alarms(
            List<String> classes, WindowSpec spec, String key, CompleteWindows.Labels labels, int prefix) {
        return CompleteWindows.alarms(classes, spec, key, labels, prefix);
    }
}
