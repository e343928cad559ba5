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

/** TEASER with 1-NN slaves on generated data: v orders earliness, prefix lengths, slave probabilities. */
class TeaserTest {
    @Test
    void moreConsecutiveAgreementsNeverDecideEarlier() {
        for (Teaser.Master master : Teaser.Master.values()) {
            moreConsecutiveAgreementsNeverDecideEarlier(master);
        }
    }

    private static void moreConsecutiveAgreementsNeverDecideEarlier(Teaser.Master master) {
        TrainTest tt = SyntheticData.generate(SyntheticKind.SYNTHETIC_CONTROL, 60, 60, 9L);
        Dataset train = tt.train();
        Teaser teaser = Teaser.fit(train.rows(), train.classIndices(), 6, Teaser.DEFAULT_PREFIXES, 0, master, 2L);
        assertEquals(master, teaser.master());
        assertTrue(teaser.v() >= 1 && teaser.v() <= Teaser.MAX_V);
        assertEquals(master == Teaser.Master.LINEAR, Double.isNaN(teaser.gamma()));
        int strictlyLater = 0;
        int early = 0;
        for (double[] q : tt.test().rows()) {
            EarlyPrediction one = teaser.predict(q, 1);
            EarlyPrediction three = teaser.predict(q, 3);
            assertTrue(three.t() >= one.t(), one + " vs " + three);
            assertEquals(one.completeLabel(), three.completeLabel());
            strictlyLater += three.t() > one.t() ? 1 : 0;
            early += one.t() < 60 ? 1 : 0;
        }
        assertTrue(early > 0, master + ": v = 1 decides some series before d");
        assertTrue(strictlyLater > 0, master + ": v = 3 waits longer on some series");
    }

    @Test
    void aGivenVIsKeptAndDecisionsFallOnPrefixLengths() {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 30, 20, 5L);
        Dataset train = tt.train();
        Teaser teaser = Teaser.fit(train.rows(), train.classIndices(), 3, 16, 2, 2L);
        assertEquals(2, teaser.v());
        int[] lengths = teaser.prefixLengths();
        assertEquals(16, lengths.length);
        assertEquals(128, lengths[15]);
        for (double[] q : tt.test().rows()) {
            int t = teaser.predict(q).t();
            assertTrue(java.util.Arrays.stream(lengths).anyMatch(l -> l == t), "t = " + t);
            assertTrue(t >= lengths[1] || t == 128, "v = 2 needs two prefixes");
        }
    }

    @Test
    void prefixLengthsAreDistinctAndEndAtD() {
        assertArrayEquals(
                new int[] {2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 14, 15, 16, 17, 18, 20, 21, 22, 23, 24},
                Teaser.prefixLengths(24, 20));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5}, Teaser.prefixLengths(5, 20));
    }

    @Test
    void slaveProbabilitiesFollowInverseDistances() {
        double[] f = Teaser.probabilities(new double[] {1, 4, Double.POSITIVE_INFINITY});
        assertEquals(2.0 / 3, f[0], 1e-12);
        assertEquals(1.0 / 3, f[1], 1e-12);
        assertEquals(0.0, f[2], 0.0);
        assertEquals(1.0 / 3, f[3], 1e-12, "gap between the two largest");
        assertArrayEquals(new double[] {0, 1, 0, 1}, Teaser.probabilities(new double[] {2, 0, 0}), 0.0);
    }

    @Test
    void decideCountsOnlyConsecutiveAcceptedAgreements() {
        Teaser.Trace tr =
                new Teaser.Trace(new int[] {0, 0, 1, 1, 1, 2}, new boolean[] {true, false, true, true, true, true});
        assertEquals(0, Teaser.decide(tr, 1));
        assertEquals(3, Teaser.decide(tr, 2), "the rejection at 1 restarts the count");
        assertEquals(4, Teaser.decide(tr, 3));
        assertEquals(5, Teaser.decide(tr, 4), "never reached: the last prefix decides");
    }

    @Test
    void badInputIsRejected() {
        double[][] x = {{0, 1}, {1, 0}, {0, 2}, {2, 0}};
        int[] y = {0, 1, 0, 1};
        assertThrows(IllegalArgumentException.class, () -> Teaser.fit(x, y, 2, 20, 6, 1L));
        assertThrows(IllegalArgumentException.class, () -> Teaser.fit(x, y, 2, 0, 1, 1L));
        Teaser t = Teaser.fit(x, y, 2, 2, 1, 1L);
        assertThrows(IllegalArgumentException.class, () -> t.predict(new double[] {0, 1}, 0));
        assertThrows(IllegalArgumentException.class, () -> t.predict(new double[] {0, 1, 2}));
        assertEquals(Teaser.Master.LINEAR, Teaser.Master.parse("Linear"));
        assertThrows(IllegalArgumentException.class, () -> Teaser.Master.parse("poly"));
    }
}
