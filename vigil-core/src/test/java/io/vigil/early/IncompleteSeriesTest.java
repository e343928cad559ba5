package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A trained multichannel model classifies a series with values missing at random from E[Y | observed] (the
 * complete-series rule applied to the conditional mean, thesis ch. 5): with 20 % of the values of a three-channel
 * series never observed, and the rest arriving in a random order, the label agrees with the complete series' label
 * for nearly every series, and observing everything in any order gives exactly the complete label's features.
 */
class IncompleteSeriesTest {
    @Test
    void twentyPercentMissingInRandomOrderMostlyKeepsTheCompleteLabel() {
        TrainTest data = SyntheticData.generate(SyntheticKind.MULTI_CBF, 60, 60, 21L);
        Dataset train = data.train();
        VigilModel base = Trainer.train(
                train,
                TrainParams.builder()
                        .gamma(0.3)
                        .dims(4)
                        .neighbors(8)
                        .qdaNeighbors(8)
                        .build(),
                Instant.parse("2026-01-01T00:00:00Z"),
                Progress.none());
        VigilModel model = EarlyModelTrainer.addSections(base, train, EarlyModelTrainer.Params.defaults());
        CompleteSeriesSection section =
                model.section(CompleteSeriesSection.class).orElseThrow();
        SubsetConditioner conditioner = SubsetConditioner.of(section.joint(), model.basis());
        Standardizer std = model.standardizer().orElseThrow();
        LocalQda qda = model.localQda();
        LocalQda.Workspace ws = qda.newWorkspace();
        SubsetState state = conditioner.newState();
        int d = model.length();
        double[] y = new double[model.dims()];
        double[] my = new double[model.dims()];
        SplittableRandom rnd = new SplittableRandom(5);
        int agree = 0;
        double maxDiff = 0;
        Dataset test = data.test();
        for (int i = 0; i < test.size(); i++) {
            double[] x = test.series(i);
            model.project(x, y);
            int complete = qda.predict(y, ws);
            int[] order = shuffled(d, rnd);
            conditioner.reset(state);
            for (int j : order) {
                if (rnd.nextDouble() >= 0.2) {
                    conditioner.observe(state, j, std.apply(j, x[j]));
                }
            }
            conditioner.conditionalMean(state, my);
            agree += qda.predict(my, ws) == complete ? 1 : 0;
            conditioner.reset(state);
            for (int j : order) {
                conditioner.observe(state, j, std.apply(j, x[j]));
            }
            conditioner.conditionalMean(state, my);
            for (int k = 0; k < my.length; k++) {
                maxDiff = Math.max(maxDiff, Math.abs(my[k] - y[k]));
            }
        }
        assertTrue(agree >= 54, agree + " of 60 labels from 80 % of the values agree with the complete label");
        assertTrue(maxDiff < 1e-6, "all values observed: m_y = Bᵀs(x) up to rounding, max difference " + maxDiff);
    }

    private static int[] shuffled(int n, SplittableRandom rnd) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        return order;
    }
}
