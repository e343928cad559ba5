package io.vigil.early;

import io.vigil.gauss.SubsetState;

/**
 * One series observed offline in a given arrival order ({@link io.vigil.data.ObservationPattern#order}): its values
 * go through {@link EarlyClassifier#observeAt} until the rule decides, and a series whose observed values run out
 * undecided is decided by {@link EarlyClassifier#decideIncomplete} — exactly what the stream job does with the same
 * values in the same order followed by the series' end record, so offline evaluation and the stream agree series by
 * series.
 */
public final class PatternReplay {
    private PatternReplay() {}

    /**
     * Decides one series.
     *
     * @param state a state of the classifier; reset here
     * @param x the complete series, time-major (C·d values, raw)
     * @param order the observed time-major indices in arrival order
     * @param decision receives the decision, its triggering (t, channel) and the fraction observed
     * @return true when the rule decided (early, or on the last of all C·d values), false when the series was
     *     decided incomplete
     */
    public static boolean decide(
            EarlyClassifier classifier,
            SubsetState state,
            double[] x,
            int[] order,
            EarlyClassifier.Workspace ws,
            Decision decision) {
        classifier.resetSubsetState(state);
        int channels = classifier.channels();
        for (int j : order) {
            if (classifier.observeAt(state, j / channels, j % channels, x[j], ws, decision)) {
                return true;
            }
        }
        classifier.decideIncomplete(state, ws, decision);
        return false;
    }
}
