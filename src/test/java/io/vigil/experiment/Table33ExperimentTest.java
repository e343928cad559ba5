package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class Table33ExperimentTest {
    @Test
    void resultsDoNotDependOnTheNumberOfThreads() throws InterruptedException {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 24, 60, 5);
        Table33Experiment.Config config =
                new Table33Experiment.Config(Table33Experiment.DimsMode.CV, 4, 9, TrainParams.defaults());
        Table33Experiment.DatasetResult one = run(tt, config, 1);
        Table33Experiment.DatasetResult two = run(tt, config, 2);
        assertEquals(4, one.splits().size());
        for (int s = 0; s < 4; s++) {
            Table33Experiment.SplitResult a = one.splits().get(s);
            Table33Experiment.SplitResult b = two.splits().get(s);
            assertEquals(s, a.split());
            assertEquals(Table33Experiment.splitSeed(9, s), a.seed());
            assertEquals(a.accuracy3nn(), b.accuracy3nn());
            assertEquals(a.accuracyLocalQda(), b.accuracyLocalQda());
            assertEquals(a.gamma(), b.gamma());
            assertEquals(a.dims(), b.dims());
            assertEquals(a.neighbors(), b.neighbors());
            assertTrue(a.accuracy3nn() > 0.6, "CBF 3-NN accuracy " + a.accuracy3nn());
        }
        assertEquals(24, one.trainSize());
        assertEquals(60, one.testSize());
    }

    private static Table33Experiment.DatasetResult run(TrainTest tt, Table33Experiment.Config config, int threads)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            return Table33Experiment.run("CBF", tt.train(), tt.test(), config, pool, Progress.none());
        } finally {
            pool.shutdownNow();
        }
    }
}
