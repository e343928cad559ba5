package io.vigil.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgParams;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ℓ grid is capped by the numerical rank of the centred training data, not only by the counts d and n − 1:
 * z-normalised series each sum to 0, so their centred data have rank d − 1 even when d ≤ n.
 */
class TrainerRankTest {
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final int D = 4;

    /**
     * Six classes of 8 z-normalised series of length 4 (class means at random, noise std 0.3 before normalising).
     * With G = 6 every ℓ candidate {G − 1, …, G + 32} and ℓ<sub>γ</sub> exceed d, so a grid capped at min(d, n − fold −
     * 1) = 4 offers ℓ = 4 alone, one more than the rank 3 of the data.
     */
    private static Dataset zNormalised() {
        return zNormalised("z-normalised", 17);
    }

    private static Dataset zNormalised(String name, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int g = 6;
        int per = 8;
        double[][] means = new double[g][D];
        for (double[] m : means) {
            for (int t = 0; t < D; t++) {
                m[t] = 2 * rnd.nextGaussian();
            }
        }
        double[][] x = new double[g * per][];
        String[] labels = new String[g * per];
        for (int i = 0; i < x.length; i++) {
            int c = i % g;
            double[] s = new double[D];
            for (int t = 0; t < D; t++) {
                s[t] = means[c][t] + 0.3 * rnd.nextGaussian();
            }
            x[i] = zNormalise(s);
            labels[i] = "c" + c;
        }
        return Dataset.of(name, x, labels);
    }

    private static double[] zNormalise(double[] s) {
        double mean = 0;
        for (double v : s) {
            mean += v / s.length;
        }
        double var = 0;
        for (double v : s) {
            var += (v - mean) * (v - mean) / s.length;
        }
        double sd = Math.sqrt(var);
        double[] out = new double[s.length];
        for (int t = 0; t < s.length; t++) {
            out[t] = (s[t] - mean) / sd;
        }
        return out;
    }

    @Test
    void zNormalisedSeriesHaveCentredRankBelowTheirLength() {
        Dataset data = zNormalised();
        assertTrue(data.size() > D, "d ≤ n: the count bound min(d, n − 1) is d");
        assertEquals(D - 1, Ldg.spanRank(data.rows()));
        assertEquals(
                Ldg.fit(data.rows(), data.classIndices(), data.numClasses(), new LdgParams(3, 0.5))
                        .rank(),
                Ldg.spanRank(data.rows()),
                "the rank the fit itself supplies (primal form, n > d)");
        double[][] few = Arrays.copyOf(data.rows(), 3);
        assertEquals(2, Ldg.spanRank(few), "kernel form (n ≤ d): n − 1");
    }

    @Test
    void defaultSelectionTrainsAndChoosesAnEllWithinTheRank() {
        VigilModel m = Trainer.train(zNormalised(), TrainParams.builder().build(), T0, Progress.none(), 1);
        assertEquals(D - 1, m.dims(), "the only candidate left is the rank");
        double[] candidates = m.selection().dims().candidates();
        assertTrue(candidates.length > 0 && Arrays.stream(candidates).allMatch(l -> l <= D - 1), "none above the rank");
        assertTrue(m.selection().cvAccuracy() > 0.5, "scored: " + m.selection().cvAccuracy());
    }

    @Test
    void givenProtocolWithEitherNeighbourRuleTrains() {
        for (NeighborSelection rule : NeighborSelection.values()) {
            TrainParams p = TrainParams.builder()
                    .protocol(SelectionProtocol.GIVEN)
                    .neighborSelection(rule)
                    .build();
            VigilModel m = Trainer.train(zNormalised(), p, T0, Progress.none(), 1);
            assertEquals(D - 1, m.dims(), rule.cliName());
        }
    }

    @Test
    void sparseLdgKeepsItsEllWithinTheRank() {
        TrainParams p = TrainParams.builder()
                .protocol(SelectionProtocol.GIVEN)
                .reducer(Reducer.SPARSE_LDG)
                .gamma(0.5)
                .neighbors(4)
                .qdaNeighbors(4)
                .sparsity(0.01)
                .build();
        VigilModel m = Trainer.train(zNormalised(), p, T0, Progress.none(), 1);
        assertEquals(D - 1, m.dims());
    }

    @Test
    void kernelLdgCapsEllAtTheKernelRank() {
        // poly of degree 1 is the linear kernel (plus a constant): its centred kernel matrix has the data's rank.
        TrainParams p = TrainParams.builder()
                .protocol(SelectionProtocol.GIVEN)
                .reducer(Reducer.KERNEL_LDG)
                .kernel("poly")
                .kernelParam(1)
                .build();
        VigilModel m = Trainer.train(zNormalised(), p, T0, Progress.none(), 1);
        assertEquals(D - 1, m.dims());
    }

    @Test
    void transferLdgCapsEllAtTheRankOfThePooledSeries() {
        TrainParams p = TrainParams.builder().reducer(Reducer.TRANSFER_LDG).build();
        VigilModel m = TransferTrainer.train(zNormalised(), zNormalised("source", 18), p, T0, Progress.none(), 1)
                .model();
        assertEquals(D - 1, m.dims());
    }

    @Test
    void givenEllAboveTheRankStaysAClearError() {
        TrainParams p =
                TrainParams.builder().protocol(SelectionProtocol.GIVEN).dims(D).build();
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Trainer.train(zNormalised(), p, T0, Progress.none(), 1));
        assertEquals("ℓ = 4 exceeds the LDG rank 3 of this training set (48 series of length 4)", e.getMessage());
    }
}
