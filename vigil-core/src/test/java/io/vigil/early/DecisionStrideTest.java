package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.gauss.SeriesState;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecisionStrideTest {
    private static final TrainTest LONG = EarlyFixtures.LongSeries.DATA;
    private static final VigilModel LONG_MODEL = EarlyFixtures.LongSeries.MODEL;

    @Test
    void strideIsOneUpToAThousandSamplesThenTheCeilingOfDOverAThousand() {
        assertEquals(1, DecisionStride.of(1));
        assertEquals(1, DecisionStride.of(1000));
        assertEquals(2, DecisionStride.of(1001));
        assertEquals(3, DecisionStride.of(2500));
        assertEquals(20, DecisionStride.of(20_000));
        assertThrows(IllegalArgumentException.class, () -> DecisionStride.of(0));
        assertTrue(DecisionStride.checks(6, 3, 2500));
        assertFalse(DecisionStride.checks(7, 3, 2500));
        assertTrue(DecisionStride.checks(2500, 3, 2500), "the complete series is always checked");
    }

    @Test
    void longSeriesAreCheckedOnlyAtStridePointsAndStillEndWithOneDecision() {
        for (ClassifierKind kind : List.of(ClassifierKind.LOCAL_QDA, ClassifierKind.LINEAR_SVM, ClassifierKind.KNN)) {
            DecisionRule rule = kind == ClassifierKind.KNN ? DecisionRule.PROBABILITY : DecisionRule.SET;
            EarlyClassifier c = EarlyClassifier.of(
                    LONG_MODEL,
                    DecisionParams.defaults()
                            .withClassifier(kind)
                            .withRule(rule)
                            .withTau(0.5));
            assertEquals(3, c.stride());
            int d = c.length();
            List<SeriesDecision> decisions = EarlyReplay.replay(c, LONG.test());
            int early = 0;
            for (SeriesDecision s : decisions) {
                assertTrue(s.t() % 3 == 0 || s.t() == d, kind + ": decided at t = " + s.t());
                early += s.early() ? 1 : 0;
            }
            assertTrue(early > 0, kind + ": no series decided early at tau 0.5");
            // observe() itself says NO_DECISION between stride points, whatever the rule would say there.
            EarlyClassifier.Workspace ws = c.newWorkspace();
            Decision decision = Decision.labelOnly();
            SeriesState state = c.newState();
            double[] x = LONG.test().series(0);
            for (int t = 1; t < d; t++) {
                boolean decided = c.observe(state, x[t - 1], ws, decision);
                if (t % 3 != 0) {
                    assertFalse(decided, kind + ": decided between stride points at t = " + t);
                    assertEquals(Decision.NO_DECISION, decision.label());
                }
            }
            assertTrue(c.observe(state, x[d - 1], ws, decision), kind + ": the last sample always decides");
        }
    }

    @Test
    void scoresAreReportedOnlyAtStridePoints() {
        EarlyClassifier c =
                EarlyClassifier.forReplay(LONG_MODEL, DecisionParams.defaults().withTau(0.5), new double[] {0.5, 0.9});
        EarlyClassifier.Workspace ws = c.newWorkspace();
        SeriesState state = c.newState();
        SampleScore score = new SampleScore();
        double[] x = LONG.test().series(1);
        for (int t = 1; t <= c.length(); t++) {
            c.score(state, x[t - 1], ws, score);
            if (t % 3 != 0 && t != c.length()) {
                assertEquals(-1, score.index(), "t = " + t);
            }
        }
        assertEquals(2, score.index(), "the complete series scores past the grid");
    }
}
