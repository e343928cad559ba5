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

    /**
     * Per threshold of a calibration grid, where the rule first decides a series observed in {@code order} and with
     * which label, and how it ends when no threshold is reached.
     *
     * @param stopT per grid index, the position (in the time-major order, {@link Decision#position()}) of the latest
     *     value when the rule first decides at that index; thresholds never reached take the end's
     * @param stopLabel per grid index, the label announced there
     * @param endT the position at which a rule that never decides early decides: C·d when every value was observed,
     *     else the latest value's ({@code -1} when not computed)
     * @param endLabel its label: the complete-series label, or {@link EarlyClassifier#decideIncomplete}'s at
     *     E[x | observed] ({@code -1} when not computed)
     */
    public record Grid(int[] stopT, int[] stopLabel, int endT, int endLabel) {}

    /**
     * Scores one series observed in {@code order} at every threshold of a grid of {@code m} thresholds ({@link
     * EarlyClassifier#scoreAt}): what {@link #decide} would decide at each of them, in one pass. Thresholds never
     * reached when the values run out take the label of {@link EarlyClassifier#decideIncomplete} at the last arrival,
     * as the stream decides a series on its end record. With {@code toEnd} every observed value is conditioned on
     * (after the last threshold is reached, without deciding) so that the end of a rule that never decides early is
     * known too; without it the pass stops once every threshold is reached.
     *
     * @param state a subset state of the classifier; reset here
     * @param x the complete series, time-major (C·d values, raw)
     * @param order the observed time-major indices in arrival order
     */
    public static Grid scoreGrid(
            EarlyClassifier classifier,
            SubsetState state,
            double[] x,
            int[] order,
            EarlyClassifier.Workspace ws,
            SampleScore score,
            int m,
            boolean toEnd) {
        classifier.resetSubsetState(state);
        int channels = classifier.channels();
        int[] stopT = new int[m];
        int[] stopLabel = new int[m];
        int reached = -1;
        int k = 0;
        for (; k < order.length && reached < m - 1; k++) {
            int j = order[k];
            classifier.scoreAt(state, j / channels, j % channels, x[j], ws, score);
            int idx = Math.min(score.index(), m - 1);
            int at = state.latestPosition();
            for (int q = reached + 1; q <= idx; q++) {
                stopT[q] = at;
                stopLabel[q] = score.label();
            }
            reached = Math.max(reached, idx);
        }
        if (reached == m - 1 && !toEnd) {
            return new Grid(stopT, stopLabel, -1, -1);
        }
        // Every value conditioned on (none is left when a threshold went unreached), then the end's label, which the
        // thresholds never reached take.
        for (; k < order.length; k++) {
            int j = order[k];
            classifier.condition(state, j / channels, j % channels, x[j]);
        }
        Decision decision = Decision.labelOnly();
        classifier.decideIncomplete(state, ws, decision);
        int at = state.latestPosition();
        for (int q = reached + 1; q < m; q++) {
            stopT[q] = at;
            stopLabel[q] = decision.label();
        }
        return toEnd ? new Grid(stopT, stopLabel, at, decision.label()) : new Grid(stopT, stopLabel, -1, -1);
    }
}
