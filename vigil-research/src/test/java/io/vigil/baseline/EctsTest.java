package io.vigil.baseline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.evaluate.EarlyPrediction;
import org.junit.jupiter.api.Test;

/**
 * ECTS on a hand-built case whose nearest and reverse-nearest neighbours are worked out below, and on generated CBF.
 *
 * <p>Series (d = 3), classes A A B A: x0 = (0, 4, 0), x1 = (1, 0, 0), x2 = (−5, 0, 0), x3 = (1000, −1000, 0).
 * Squared distances after t = 1: d01 = 1, d02 = 25, d12 = 36, d03 = 10⁶, d13 = 998001, d23 = 1010025, so
 * NN¹ = (x1, x0, x0, x1). After t = 2 (and t = 3, the last samples being equal): d01 = 17, d02 = 41, d12 = 36,
 * d03 = 2008016, d13 = 1998001, d23 = 2010025, so NN² = NN³ = (x1, x0, x1, x1). Reverse neighbours:
 * RNN¹ = ({x1, x2}, {x0, x3}, ∅, ∅), RNN³ = ({x1}, {x0, x2, x3}, ∅, ∅). Hence MPL(x0) = MPL(x1) = 2 (their RNN
 * sets change after t = 1) and MPL(x2) = MPL(x3) = 3 (empty RNN at d). Clustering: x0 and x1 are mutual nearest
 * (17) and both A, so S = {x0, x1} forms; S is 1-NN consistent at every ℓ and RNN^ℓ(S) = {x2, x3} for all ℓ, so
 * MPL(S) = 1 with support |S|/|A| = 2/3. The next candidates S–x2 are of different classes: clustering stops.
 */
class EctsTest {
    private static final double[][] X = {{0, 4, 0}, {1, 0, 0}, {-5, 0, 0}, {1000, -1000, 0}};
    private static final int[] Y = {0, 0, 1, 0};

    @Test
    void reverseNearestNeighbourMplMatchesTheHandCount() {
        double[][] full = new double[4][4];
        int[][] nn = Ects.nearestNeighbours(X, full);
        assertArrayEquals(new int[] {1, 0, 0, 1}, nn[0]);
        assertArrayEquals(new int[] {1, 0, 1, 1}, nn[1]);
        assertArrayEquals(new int[] {1, 0, 1, 1}, nn[2]);
        assertEquals(17.0, full[0][1], 0.0);
        assertArrayEquals(new int[] {2, 2, 3, 3}, Ects.seriesMpl(nn, 4, 3));
        assertEquals(1, Ects.clusterMpl(nn, new int[] {0, 1}, 4, 3));
        assertEquals(-1, Ects.clusterMpl(nn, new int[] {2}, 4, 3), "x2 is not 1-NN consistent on its own");
    }

    @Test
    void clusterRelaxationLowersMplOnlyWhenSupportIsMet() {
        assertArrayEquals(new int[] {1, 1, 3, 3}, Ects.fit(X, Y, 2, 0.0).minimumPredictionLengths());
        assertArrayEquals(new int[] {1, 1, 3, 3}, Ects.fit(X, Y, 2, 2.0 / 3).minimumPredictionLengths());
        assertArrayEquals(new int[] {2, 2, 3, 3}, Ects.fit(X, Y, 2, 0.9).minimumPredictionLengths());
    }

    @Test
    void aTestSeriesWaitsForItsNeighboursMpl() {
        Ects relaxed = Ects.fit(X, Y, 2, 0.0);
        Ects strict = Ects.fit(X, Y, 2, 0.9);
        double[] nearX1 = {0.9, 0, 0};
        assertEquals(new EarlyPrediction(0, 1, 0), relaxed.predict(nearX1));
        assertEquals(new EarlyPrediction(0, 2, 0), strict.predict(nearX1));
        double[] nearX2 = {-4, 0, 0};
        assertEquals(new EarlyPrediction(1, 3, 1), relaxed.predict(nearX2), "x2's MPL is d");
    }

    @Test
    void onCbfTheDecisionIsTheNearestNeighboursLabelAtOrAfterItsMpl() {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 30, 20, 3L);
        Dataset train = tt.train();
        Ects ects = Ects.fit(train.rows(), train.classIndices(), 3, Ects.DEFAULT_SUPPORT);
        int[] mpl = ects.minimumPredictionLengths();
        for (int m : mpl) {
            assertTrue(m >= 1 && m <= 128, "MPL " + m);
        }
        int early = 0;
        for (double[] q : tt.test().rows()) {
            EarlyPrediction p = ects.predict(q);
            int nearest = nearest(train.rows(), q, p.t());
            assertEquals(train.classOf(nearest), p.label());
            assertTrue(p.t() >= mpl[nearest]);
            assertEquals(train.classOf(nearest(train.rows(), q, 128)), p.completeLabel());
            early += p.t() < 128 ? 1 : 0;
        }
        assertTrue(early > 0, "some CBF series are decided before d");
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Ects.fit(X, Y, 2, 1.5));
        assertThrows(IllegalArgumentException.class, () -> Ects.fit(new double[][] {{1, 2}}, new int[] {0}, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Ects.fit(X, Y, 2, 0).predict(new double[] {1, 2}));
    }

    private static int nearest(double[][] train, double[] q, int t) {
        int best = 0;
        double bestD = Double.POSITIVE_INFINITY;
        for (int j = 0; j < train.length; j++) {
            double s = 0;
            for (int k = 0; k < t; k++) {
                s += (q[k] - train[j][k]) * (q[k] - train[j][k]);
            }
            if (s < bestD) {
                bestD = s;
                best = j;
            }
        }
        return best;
    }
}
