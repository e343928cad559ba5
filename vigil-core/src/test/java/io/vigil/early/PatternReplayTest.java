package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.gauss.SubsetState;
import io.vigil.model.VigilModel;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Offline replay under an observation pattern ({@link EarlyReplay#run(EarlyClassifier, Dataset, ObservationPattern,
 * String)}): each series' decision is what {@link EarlyClassifier#observeAt} and, when the values run out, {@link
 * EarlyClassifier#decideIncomplete} give on the pattern's arrival order for that series' id, at t = the position of
 * the latest value observed ({@link Decision#position()}); the complete pattern is the prefix replay.
 */
class PatternReplayTest {
    private final VigilModel model = EarlyFixtures.MultiChannel.MODEL;
    private final Dataset test = EarlyFixtures.MultiChannel.DATA.test();

    @Test
    void eachSeriesIsDecidedAsItsOwnArrivalOrderDecidesIt() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        ObservationPattern pattern =
                ObservationPattern.builder().missing(0.2).lag(1, 5).seed(9).build();
        List<SeriesDecision> replayed =
                EarlyReplay.run(c, test, pattern, "MultiCBF/test/").decisions();
        EarlyClassifier.Workspace ws = c.newWorkspace();
        Decision decision = Decision.labelOnly();
        SubsetState state = c.newSubsetState();
        int undecided = 0;
        for (int i = 0; i < test.size(); i++) {
            double[] x = test.series(i);
            int[] order = pattern.order("MultiCBF/test/" + i, 3, x.length);
            c.resetSubsetState(state);
            int k = 0;
            boolean decided = false;
            while (!decided && k < order.length) {
                int j = order[k++];
                decided = c.observeAt(state, j / 3, j % 3, x[j], ws, decision);
            }
            if (!decided) {
                c.decideIncomplete(state, ws, decision);
                undecided++;
            }
            int latest = Arrays.stream(order, 0, k).max().getAsInt() + 1;
            SeriesDecision d = replayed.get(i);
            assertEquals(decision.label(), d.label(), "series " + i);
            assertEquals(latest, d.t(), "the latest position observed in series " + i);
            assertEquals(latest, decision.position(), "series " + i);
            assertEquals(decided && state.observedCount() < x.length, d.early());
        }
        assertEquals(true, undecided < test.size(), "some series decided early");
    }

    @Test
    void theCompletePatternIsThePrefixReplay() {
        EarlyClassifier c = EarlyClassifier.of(model, DecisionParams.defaults());
        assertEquals(
                EarlyReplay.replay(c, test),
                EarlyReplay.run(c, test, ObservationPattern.complete(), "MultiCBF/test/")
                        .decisions());
    }
}
