package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.PatternReplay;
import io.vigil.early.SampleScore;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetState;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import java.util.Arrays;

/**
 * A calibrated rule replayed once over a test set at every threshold of its model's calibration grid ({@link
 * EarlyClassifier#score}, as cross-fitting replays held-out series), so that the decisions at any τ — under any
 * certificate of the same cross-fit, whose thresholds lie on that grid — are read off instead of replayed again. The
 * guarantee experiment evaluates several certificates and τ per model this way; the decisions are those of {@link
 * io.vigil.early.EarlyReplay} at the certified threshold.
 */
final class GridReplay {
    private final int length;
    private final int[][] stopT;
    private final int[][] stopLabel;
    private final int[] endT;
    private final int[] endLabel;
    private final int[] complete;
    private final int[] truth;

    private GridReplay(
            int length, int[][] stopT, int[][] stopLabel, int[] endT, int[] endLabel, int[] complete, int[] truth) {
        this.length = length;
        this.stopT = stopT;
        this.stopLabel = stopLabel;
        this.endT = endT;
        this.endLabel = endLabel;
        this.complete = complete;
        this.truth = truth;
    }

    /**
     * Replays {@code test} (class indices in the model's order) with {@code params}' rule, classifier, set and
     * estimator on a calibrated model.
     *
     * @throws IllegalArgumentException when the model has no calibration section
     */
    static GridReplay run(VigilModel model, DecisionParams params, Dataset test) {
        return run(model, params, test, ObservationPattern.complete(), "");
    }

    /**
     * As {@link #run(VigilModel, DecisionParams, Dataset)} with every test series observed under {@code pattern},
     * seeded per series by its id {@code idPrefix + INDEX} as {@link io.vigil.early.EarlyReplay} seeds it ({@link
     * PatternReplay#scoreGrid}): a rule that never decides early decides where the values run out, at E[x | observed]
     * when some never came.
     */
    static GridReplay run(
            VigilModel model, DecisionParams params, Dataset test, ObservationPattern pattern, String idPrefix) {
        double[] grid = model.section(CalibrationSection.class)
                .orElseThrow(() -> new IllegalArgumentException("a grid replay needs a calibrated model"))
                .thresholds();
        int m = grid.length;
        EarlyClassifier c = EarlyClassifier.forReplay(model, params, grid);
        if (!pattern.isComplete()) {
            return runUnder(c, test, pattern, idPrefix, m);
        }
        EarlyClassifier.Workspace ws = c.newWorkspace();
        SeriesState state = c.newState();
        SampleScore score = new SampleScore();
        int d = c.length();
        int n = test.size();
        int[][] stopT = new int[n][m];
        int[][] stopLabel = new int[n][m];
        int[] complete = new int[n];
        int[] truth = new int[n];
        for (int i = 0; i < n; i++) {
            double[] x = test.series(i);
            state.reset();
            int reached = -1;
            for (int t = 0; t < d && reached < m - 1; t++) {
                c.score(state, x[t], ws, score, reached);
                int idx = Math.min(score.index(), m - 1);
                for (int j = reached + 1; j <= idx; j++) {
                    stopT[i][j] = t + 1;
                    stopLabel[i][j] = score.label();
                }
                reached = Math.max(reached, idx);
            }
            complete[i] = c.completeLabel(x, ws);
            truth[i] = test.classOf(i);
        }
        int[] endT = new int[n];
        Arrays.fill(endT, d);
        return new GridReplay(d, stopT, stopLabel, endT, complete.clone(), complete, truth);
    }

    private static GridReplay runUnder(
            EarlyClassifier c, Dataset test, ObservationPattern pattern, String idPrefix, int m) {
        EarlyClassifier.Workspace ws = c.newWorkspace();
        SubsetState state = c.newSubsetState();
        SampleScore score = new SampleScore();
        int n = test.size();
        int[][] stopT = new int[n][];
        int[][] stopLabel = new int[n][];
        int[] endT = new int[n];
        int[] endLabel = new int[n];
        int[] complete = new int[n];
        int[] truth = new int[n];
        for (int i = 0; i < n; i++) {
            double[] x = test.series(i);
            int[] order = pattern.order(idPrefix + i, c.channels(), c.length());
            PatternReplay.Grid g = PatternReplay.scoreGrid(c, state, x, order, ws, score, m, true);
            stopT[i] = g.stopT();
            stopLabel[i] = g.stopLabel();
            endT[i] = g.endT();
            endLabel[i] = g.endLabel();
            complete[i] = c.completeLabel(x, ws);
            truth[i] = test.classOf(i);
        }
        return new GridReplay(c.length(), stopT, stopLabel, endT, endLabel, complete, truth);
    }

    /**
     * The decisions at these thresholds (of a model from the same cross-fit, with the replayed rule): at the grid
     * index they certify, or where the values run out when τ is not certified.
     *
     * @throws IllegalArgumentException when the thresholds were not mapped by the calibration
     */
    GuaranteeExperiment.Point at(DecisionThresholds th) {
        if (!th.calibrated()) {
            throw new IllegalArgumentException("uncalibrated thresholds are not on the replayed grid");
        }
        return point(th.tau(), th.certified(), th.neverEarly() ? -1 : th.index());
    }

    /**
     * The decisions at the grid's least conservative threshold, certified or not: the earliest the rule can decide
     * (its "earliest possible decision"), reported with τ = that threshold and {@code certified} false.
     */
    GuaranteeExperiment.Point earliest(double lowestThreshold) {
        return point(lowestThreshold, false, 0);
    }

    /**
     * The decisions at grid index j, or where the values run out when j &lt; 0 (t = d with the complete-series label
     * when every value is observed).
     */
    private GuaranteeExperiment.Point point(double tau, boolean certified, int j) {
        int reliable = 0;
        int correct = 0;
        long sumT = 0;
        boolean early = j >= 0;
        for (int i = 0; i < complete.length; i++) {
            int label = early ? stopLabel[i][j] : endLabel[i];
            sumT += early ? stopT[i][j] : endT[i];
            reliable += label == complete[i] ? 1 : 0;
            correct += label == truth[i] ? 1 : 0;
        }
        int n = complete.length;
        return new GuaranteeExperiment.Point(tau, certified, n, reliable, correct, sumT / (double) n / length);
    }

    /** The classifier's accuracy on the complete series. */
    double fullAccuracy() {
        int correct = 0;
        for (int i = 0; i < complete.length; i++) {
            correct += complete[i] == truth[i] ? 1 : 0;
        }
        return correct / (double) complete.length;
    }
}
