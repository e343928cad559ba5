package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.gauss.SeriesState;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The probability rule stops its quasi-Monte-Carlo points on a confidence interval, per threshold; the calibration
 * scores a whole grid of thresholds in one pass and settles only those above what a series has already passed. Both
 * must be the same rule: per series and threshold, the sample and label of the first decision of a replay that scores
 * the grid (as cross-fitting does) equal those of a classifier deciding at that threshold alone (as evaluate and the
 * stream do).
 */
class ProbabilityRuleReplayTest {
    /** Grid indices compared with a classifier of their own: 0.02, 0.2, …, 0.98, 0.99, 0.999 (the replay scores all). */
    private static final int[] CHECKED = {0, 9, 19, 29, 39, 44, 46, 48, 49, 52};

    @Test
    void oneScoringPassDecidesAsEveryThresholdOnItsOwn() {
        VigilModel model = EarlyFixtures.CBF_MODEL;
        assertTrue(model.section(CalibrationSection.class).isEmpty(), "thresholds are the τ given");
        Dataset all = EarlyFixtures.CBF.test();
        Dataset test = Dataset.of(
                all.name(), Arrays.copyOf(all.rows(), 30), Arrays.copyOf(all.classIndices(), 30), all.classNames());
        double[] grid = CalibrationParams.defaultThresholds();
        int early = 0;
        for (ClassifierKind kind : List.of(ClassifierKind.LOCAL_QDA, ClassifierKind.LINEAR_SVM, ClassifierKind.KNN)) {
            DecisionParams p = DecisionParams.defaults().withClassifier(kind).withRule(DecisionRule.PROBABILITY);
            EarlyClassifier replay = EarlyClassifier.forReplay(model, p, grid);
            EarlyClassifier.Workspace ws = replay.newWorkspace();
            SeriesState state = replay.newState();
            SampleScore score = new SampleScore();
            List<List<SeriesDecision>> alone = new ArrayList<>();
            for (int j : CHECKED) {
                alone.add(EarlyReplay.replay(EarlyClassifier.of(model, p.withTau(grid[j])), test));
            }
            int d = replay.length();
            for (int i = 0; i < test.size(); i++) {
                double[] x = test.series(i);
                int m = grid.length;
                int[] stopT = new int[m];
                int[] stopLabel = new int[m];
                state.reset();
                int reached = -1;
                for (int t = 0; t < d && reached < m - 1; t++) {
                    replay.score(state, x[t], ws, score, reached);
                    int idx = Math.min(score.index(), m - 1);
                    for (int j = reached + 1; j <= idx; j++) {
                        stopT[j] = t + 1;
                        stopLabel[j] = score.label();
                    }
                    reached = Math.max(reached, idx);
                }
                for (int k = 0; k < CHECKED.length; k++) {
                    SeriesDecision s = alone.get(k).get(i);
                    String what = kind + ", series " + i + ", λ = " + grid[CHECKED[k]];
                    assertEquals(s.t(), stopT[CHECKED[k]], what + ": decision sample");
                    assertEquals(s.label(), stopLabel[CHECKED[k]], what + ": label");
                    early += s.early() ? 1 : 0;
                }
            }
        }
        assertTrue(early > 100, "series decided early: " + early);
    }
}
