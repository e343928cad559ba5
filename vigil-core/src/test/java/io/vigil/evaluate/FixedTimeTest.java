package io.vigil.evaluate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Fixed-time baselines decide exactly at t = ⌈f·d⌉, and the cross-validated f follows the training data. */
class FixedTimeTest {
    private static final TrainTest CBF = SyntheticData.generate(SyntheticKind.CBF, 30, 25, 11L);

    @Test
    void everyDecisionIsAtTheChosenPrefixLength() {
        Dataset train = CBF.train();
        for (PrefixClassifier c : new PrefixClassifier[] {
            PrefixClassifiers.oneNn(),
            PrefixClassifiers.localQda(new PrefixClassifiers.LdgQdaSettings(8, 0.3, 4, 8, false))
        }) {
            EarlyPrediction[] p = FixedTime.predict(
                    c, train.rows(), train.classIndices(), 3, CBF.test().rows(), 0.3);
            for (EarlyPrediction e : p) {
                assertEquals(39, e.t(), "ceil(0.3 * 128)");
            }
            int[] atT = c.fitPredict(
                    Prefixes.of(train.rows(), 39),
                    train.classIndices(),
                    3,
                    Prefixes.of(CBF.test().rows(), 39));
            assertArrayEquals(
                    atT, Arrays.stream(p).mapToInt(EarlyPrediction::label).toArray());
            int[] full = c.fitPredict(
                    train.rows(), train.classIndices(), 3, CBF.test().rows());
            assertArrayEquals(
                    full,
                    Arrays.stream(p).mapToInt(EarlyPrediction::completeLabel).toArray());
        }
    }

    /** When the class is fixed by the first sample and the rest is noise, 10 % of d already scores the best HM. */
    @Test
    void crossValidationPicksTheEarliestInformativeFraction() {
        java.util.Random rnd = new java.util.Random(4);
        int n = 40;
        int d = 50;
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int t = 0; t < d; t++) {
                x[i][t] = t < 5 ? (y[i] == 0 ? -3 : 3) + 0.1 * rnd.nextGaussian() : 3 * rnd.nextGaussian();
            }
        }
        assertEquals(0.1, FixedTime.chooseFraction(PrefixClassifiers.oneNn(), x, y, 2, 1L), 0.0);
        double f = FixedTime.chooseFraction(
                PrefixClassifiers.oneNn(), CBF.train().rows(), CBF.train().classIndices(), 3, 1L);
        assertTrue(Arrays.stream(FixedTime.CANDIDATES).anyMatch(c -> c == f), "f = " + f);
        assertTrue(f < 1.0, "t = d has HM 0 and is never the best when anything is learnt early");
    }

    @Test
    void prefixLengthsRoundUp() {
        assertEquals(39, Prefixes.length(0.3, 128));
        assertEquals(3, Prefixes.length(0.1, 24));
        assertEquals(24, Prefixes.length(1.0, 24));
        assertEquals(1, Prefixes.length(0.01, 24));
        assertThrows(IllegalArgumentException.class, () -> Prefixes.length(0, 24));
        assertThrows(IllegalArgumentException.class, () -> Prefixes.length(1.5, 24));
    }
}
