package io.vigil.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** lmca and kernel-lmca are selectable peers, run at ℓ = G − 1 and beat chance (1/3) on synthetic CBF clearly. */
    @Test
    void lmcaPeersRunAtGMinusOne() throws InterruptedException {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 24, 45, 5);
        Table33Experiment.Config config =
                new Table33Experiment.Config(Table33Experiment.DimsMode.G_MINUS_1, 2, 3, TrainParams.defaults());
        for (String name : List.of("lmca", "kernel-lmca")) {
            Table33Experiment.Peer peer = Table33Experiment.Peer.of(name).orElseThrow();
            ExecutorService pool = Executors.newFixedThreadPool(1);
            try {
                Table33Experiment.DatasetResult r =
                        Table33Experiment.runPeer("CBF", tt.train(), tt.test(), config, peer, pool, Progress.none());
                for (Table33Experiment.SplitResult s : r.splits()) {
                    assertEquals(2, s.dims(), name + ": G - 1 dims");
                    assertTrue(s.accuracy3nn() > 0.6, name + " 3-NN accuracy " + s.accuracy3nn());
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void anInterruptedRunResumesFromItsCacheAndOnlyTheSameSettingsReuseIt(@TempDir Path dir) throws Exception {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 24, 60, 5);
        Table33Experiment.Config config =
                new Table33Experiment.Config(Table33Experiment.DimsMode.G_MINUS_1, 3, 9, TrainParams.defaults());
        Table33Experiment.DatasetResult fresh = run(tt, config, 1, SplitCache.none());
        SplitCache first = SplitCache.at(dir, true);
        Table33Experiment.DatasetResult computed = run(tt, config, 1, first);
        assertEquals(0, first.reused());
        assertEquals(outcomes(fresh), outcomes(computed), "the cache does not change what a split computes");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(dir)) {
            files = walk.filter(f -> f.toString().endsWith(".csv")).sorted().toList();
        }
        assertEquals(3, files.size(), "one file per split: " + files);
        // An interrupted run: split 1 never finished, split 2's file was cut short.
        Files.delete(files.get(1));
        Files.writeString(files.get(2), "split,seed\n2,");
        SplitCache second = SplitCache.at(dir, true);
        Table33Experiment.DatasetResult resumed = run(tt, config, 2, second);
        assertEquals(1, second.reused(), "only the intact split is taken from disk");
        assertEquals(outcomes(computed), outcomes(resumed), "resumed results equal the uninterrupted ones exactly");
        assertEquals(computed.splits().get(0), resumed.splits().get(0), "a cached split keeps even its fit time");
        SplitCache third = SplitCache.at(dir, true);
        run(tt, config, 1, third);
        assertEquals(3, third.reused(), "the recomputed splits were kept");
        SplitCache otherSeed = SplitCache.at(dir, true);
        run(tt, new Table33Experiment.Config(config.dims(), 3, 10, config.params()), 1, otherSeed);
        assertEquals(0, otherSeed.reused(), "another base seed is another key");
        SplitCache otherParams = SplitCache.at(dir, true);
        run(
                tt,
                new Table33Experiment.Config(
                        config.dims(),
                        3,
                        9,
                        config.params().toBuilder().standardize(true).build()),
                1,
                otherParams);
        assertEquals(0, otherParams.reused(), "other training parameters are another key");
        SplitCache otherData = SplitCache.at(dir, true);
        run(SyntheticData.generate(SyntheticKind.CBF, 24, 60, 6), config, 1, otherData);
        assertEquals(0, otherData.reused(), "other data under the same name is another key");
        SplitCache noResume = SplitCache.at(dir, false);
        run(tt, config, 1, noResume);
        assertEquals(0, noResume.reused(), "--no-resume recomputes every split");
    }

    /** Every field but the wall time, which no two runs share. */
    private static List<Table33Experiment.SplitResult> outcomes(Table33Experiment.DatasetResult r) {
        return r.splits().stream()
                .map(x -> new Table33Experiment.SplitResult(
                        x.split(),
                        x.seed(),
                        x.accuracy3nn(),
                        x.accuracy1nn(),
                        x.accuracyLocalQda(),
                        x.cvAccuracy(),
                        0,
                        x.gamma(),
                        x.dims(),
                        x.neighbors(),
                        x.qdaNeighbors()))
                .toList();
    }

    private static Table33Experiment.DatasetResult run(TrainTest tt, Table33Experiment.Config config, int threads)
            throws InterruptedException {
        return run(tt, config, threads, SplitCache.none());
    }

    private static Table33Experiment.DatasetResult run(
            TrainTest tt, Table33Experiment.Config config, int threads, SplitCache cache) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            return Table33Experiment.run("CBF", tt.train(), tt.test(), config, pool, Progress.none(), cache);
        } finally {
            pool.shutdownNow();
        }
    }
}
