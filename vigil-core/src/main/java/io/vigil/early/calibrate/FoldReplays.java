package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.PatternReplay;
import io.vigil.early.SampleScore;
import io.vigil.gauss.SeriesState;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Pass 2 of a {@link CrossFitCalibrator} run: every rule and classifier replayed over a fold's held-out series at every
 * threshold of the grid at once ({@link EarlyClassifier#score}), each series' stopping sample and label per threshold,
 * and the curve those replays give (disagreements with the complete-series label, monotonised disagreements, correct
 * labels, mean t/d).
 */
final class FoldReplays {
    private FoldReplays() {}

    /** A rule and classifier to replay. */
    record CurveSpec(DecisionParams params) {}

    /** One held-out series' replay: per threshold the stopping sample and label; its complete and true labels. */
    record SeriesReplay(int[] stopT, int[] stopLabel, int complete, int truth, int length) {}

    /**
     * Every curve's replay of the fold's held-out series: per series and threshold the sample at which the rule first
     * decides and its label. The curves share the fold's estimator.
     */
    static List<List<SeriesReplay>> replay(
            CalibrationFolds.Fold f,
            Dataset train,
            CalibrationSection inflation,
            List<CurveSpec> specs,
            double[] grid,
            ObservationPattern pattern) {
        int m = grid.length;
        VigilModel sub = f.model().toBuilder().section(inflation).build();
        List<List<SeriesReplay>> out = new ArrayList<>();
        SampleScore score = new SampleScore();
        for (CurveSpec spec : specs) {
            EarlyClassifier c = EarlyClassifier.forReplay(sub, spec.params(), grid, f.estimator());
            EarlyClassifier.Workspace ws = c.newWorkspace();
            List<SeriesReplay> series = new ArrayList<>();
            if (!pattern.isComplete()) {
                for (int i : f.heldOut()) {
                    series.add(replayUnder(c, ws, score, train, i, pattern, m));
                }
                out.add(series);
                continue;
            }
            SeriesState state = c.newState();
            int d = c.length();
            for (int i : f.heldOut()) {
                double[] x = train.series(i);
                state.reset();
                int[] stopT = new int[m];
                int[] stopLabel = new int[m];
                int reached = -1;
                for (int t = 0; t < d && reached < m - 1; t++) {
                    c.score(state, x[t], ws, score, reached);
                    int idx = Math.min(score.index(), m - 1);
                    for (int j = reached + 1; j <= idx; j++) {
                        stopT[j] = t + 1;
                        stopLabel[j] = score.label();
                    }
                    reached = Math.max(reached, idx);
                }
                series.add(new SeriesReplay(stopT, stopLabel, c.completeLabel(x, ws), train.classOf(i), d));
            }
            out.add(series);
        }
        return out;
    }

    /**
     * One held-out series observed under {@code pattern} (seeded by its id {@code DATASET/train/INDEX}, as {@code
     * vigil replay} names the row): per threshold the position at which the rule first decides and its label ({@link
     * PatternReplay#scoreGrid}: the latest value's position in the time-major order, as the stream and {@link
     * EarlyReplay} report t; thresholds never reached when the values run out take the label the stream gives the
     * series on its end record).
     */
    static SeriesReplay replayUnder(
            EarlyClassifier c,
            EarlyClassifier.Workspace ws,
            SampleScore score,
            Dataset train,
            int i,
            ObservationPattern pattern,
            int m) {
        double[] x = train.series(i);
        int[] order = pattern.order(train.name() + "/train/" + i, c.channels(), c.length());
        PatternReplay.Grid g = PatternReplay.scoreGrid(c, c.newSubsetState(), x, order, ws, score, m, false);
        return new SeriesReplay(g.stopT(), g.stopLabel(), c.completeLabel(x, ws), train.classOf(i), c.length());
    }

    /** A curve from its replays, in fold order: per threshold, disagreements, correct labels, Σ t/d. */
    static CalibrationSection.Curve curve(DecisionParams dp, List<SeriesReplay> replays, int m) {
        int[] disagree = new int[m];
        int[] monotone = new int[m];
        int[] correct = new int[m];
        double[] fraction = new double[m];
        for (SeriesReplay r : replays) {
            boolean later = false;
            for (int j = m - 1; j >= 0; j--) {
                boolean differs = r.stopLabel()[j] != r.complete();
                later |= differs;
                disagree[j] += differs ? 1 : 0;
                monotone[j] += later ? 1 : 0;
                correct[j] += r.stopLabel()[j] == r.truth() ? 1 : 0;
                fraction[j] += (double) r.stopT()[j] / r.length();
            }
        }
        return new CalibrationSection.Curve(
                dp.rule(),
                dp.classifier(),
                dp.set(),
                dp.estimator(),
                replays.size(),
                disagree,
                correct,
                fraction,
                monotone);
    }
}
