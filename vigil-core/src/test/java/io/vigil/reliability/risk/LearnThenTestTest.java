package io.vigil.reliability.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LearnThenTestTest {
    /**
     * A synthetic stream with a known risk curve: each series has a latent difficulty u ~ U(0, 1) and the rule at
     * threshold λ_j disagrees with the complete label exactly when u &lt; r(λ_j), with r decreasing in λ — the nested
     * structure of a stopping rule. Over 2,000 repetitions the certified rule's true risk exceeds α in at most δ of
     * them (plus three binomial standard errors of the repetition count), and the certified rule is not needlessly
     * conservative.
     */
    @Test
    void certifiedRiskExceedsAlphaAtMostDeltaOfTheTime() {
        int m = 40;
        double[] trueRisk = new double[m];
        for (int j = 0; j < m; j++) {
            trueRisk[j] = 0.4 * (1 - (double) j / (m - 1)); // 0.4 at λ_0 down to 0 at the most conservative
        }
        double alpha = 0.1;
        double delta = 0.1;
        int reps = 2000;
        SplittableRandom rnd = new SplittableRandom(42);
        for (int n : new int[] {30, 100, 400}) {
            int violations = 0;
            double chosenRisk = 0;
            for (int rep = 0; rep < reps; rep++) {
                int[] k = new int[m];
                for (int i = 0; i < n; i++) {
                    double u = rnd.nextDouble();
                    for (int j = 0; j < m; j++) {
                        k[j] += u < trueRisk[j] ? 1 : 0;
                    }
                }
                LearnThenTest.Result r = LearnThenTest.certify(n, k, alpha, delta);
                if (r.certified() && trueRisk[r.index()] > alpha) {
                    violations++;
                }
                chosenRisk += trueRisk[r.index()];
            }
            double bound = delta + 3 * Math.sqrt(delta * (1 - delta) / reps);
            assertTrue((double) violations / reps <= bound, "n = " + n + ": " + violations + " violations");
            // With 400 series the average chosen rule sits close to the α boundary, not at the conservative end.
            if (n == 400) {
                assertTrue(chosenRisk / reps > 0.06, "too conservative: mean risk " + chosenRisk / reps);
            }
        }
    }

    @Test
    void zeroErrorsCertifyExactlyDownToTheSmallestCertifiableAlpha() {
        int n = 23;
        double delta = 0.1;
        double smallest = LearnThenTest.smallestCertifiableAlpha(n, delta);
        assertEquals(1 - Math.pow(0.1, 1.0 / 23), smallest, 1e-15);
        int[] none = new int[5];
        assertTrue(LearnThenTest.certify(n, none, smallest * 1.001, delta).certified());
        LearnThenTest.Result r = LearnThenTest.certify(n, none, smallest * 0.999, delta);
        assertFalse(r.certified());
        assertEquals(4, r.index(), "uncertified: the most conservative rule");
    }

    @Test
    void fixedSequenceStopsAtTheFirstFailure() {
        // Thresholds ascending; the walk starts at the most conservative (last) and stops at index 2's failure, so
        // index 0 — which would pass on its own — is not certified.
        int[] k = {0, 0, 30, 0, 0};
        LearnThenTest.Result r = LearnThenTest.certify(100, k, 0.1, 0.1);
        assertTrue(r.certified());
        assertEquals(3, r.index());
    }

    @Test
    void requiredReliabilityIsTheBoundaryOfCertification() {
        // n = 30, α = 0.2: P(Bin ≤ 2) = 0.044 ≤ 0.1 < P(Bin ≤ 3) = 0.123, so k* = 2 and 28/30 is needed.
        assertEquals(
                1 - 2.0 / 30, LearnThenTest.requiredReliability(30, 0.2, 0.1).getAsDouble(), 1e-15);
        for (int n : new int[] {5, 16, 23, 30, 67, 300}) {
            for (double alpha : new double[] {0.01, 0.05, 0.1, 0.2, 0.5}) {
                OptionalDouble r = LearnThenTest.requiredReliability(n, alpha, 0.1);
                if (r.isEmpty()) {
                    assertFalse(
                            LearnThenTest.certify(n, new int[] {0}, alpha, 0.1).certified(),
                            "cannot be certified: not even with no disagreement, n=" + n + " α=" + alpha);
                    continue;
                }
                int k = (int) Math.round((1 - r.getAsDouble()) * n);
                assertTrue(LearnThenTest.certify(n, new int[] {k}, alpha, 0.1).certified(), "n=" + n + " α=" + alpha);
                if (k + 1 <= n) {
                    assertFalse(
                            LearnThenTest.certify(n, new int[] {k + 1}, alpha, 0.1)
                                    .certified(),
                            "one more disagreement fails: n=" + n + " α=" + alpha);
                }
            }
        }
        assertTrue(
                LearnThenTest.requiredReliability(16, 0.1, 0.1).isEmpty(),
                "cannot be certified: 1 − 0.1^{1/16} = 0.134 > 0.1");
        // 0.9^22 = 0.0985 ≤ 0.1 < P(Bin(22, 0.1) ≤ 1) = 0.339: certifiable, but only with no disagreement at all.
        assertEquals(OptionalDouble.of(1.0), LearnThenTest.requiredReliability(22, 0.1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> LearnThenTest.requiredReliability(0, 0.2, 0.1));
    }

    /**
     * With no disagreement, N series certify α at δ once (1 − α)^N ≤ δ: N = ⌈ln δ / ln(1 − α)⌉ = 22 at α = δ = 0.1 and
     * 39 at δ = 0.1/6 (Bonferroni over six curves). At a positive rate the N returned certifies and fewer series of
     * the same rate nearby do not; a rate at or above α never certifies.
     */
    @Test
    void seriesNeededAtAGivenRate() {
        assertEquals(22, LearnThenTest.seriesNeeded(0, 0.1, 0.1, 1, 1000).getAsInt());
        assertEquals(39, LearnThenTest.seriesNeeded(0, 0.1, 0.1 / 6, 1, 1000).getAsInt());
        int n = LearnThenTest.seriesNeeded(0.05, 0.1, 0.1, 1, 100_000).getAsInt();
        int k = (int) Math.floor(0.05 * n + 1e-9);
        assertTrue(LearnThenTest.certify(n, new int[] {k}, 0.1, 0.1).certified());
        int fewer = n - 1;
        assertFalse(LearnThenTest.certify(fewer, new int[] {(int) Math.floor(0.05 * fewer + 1e-9)}, 0.1, 0.1)
                .certified());
        assertTrue(LearnThenTest.seriesNeeded(0.1, 0.1, 0.1, 1, 100_000).isEmpty());
        assertTrue(LearnThenTest.seriesNeeded(0.2, 0.1, 0.1, 1, 100_000).isEmpty());
        assertTrue(LearnThenTest.seriesNeeded(0, 0.1, 0.1, 1, 21).isEmpty(), "capped below the 22 needed");
    }

    /**
     * One disagreement among 23 replayed series does not certify α = 0.1 at δ = 0.1 (P(Bin(23, 0.1) ≤ 1) = 0.315),
     * yet ⌊23⁻¹·22⌋ = 0 makes 22 series "certify" at that rate; searched above the 23 replayed, the N returned
     * certifies with the disagreements the rate gives there, and so do the ⌊N/23⌋ ≥ 1 it counts.
     */
    @Test
    void seriesNeededIsSearchedAboveTheReplayedSeries() {
        double rate = 1.0 / 23;
        assertFalse(LearnThenTest.certify(23, new int[] {1}, 0.1, 0.1).certified());
        assertEquals(22, LearnThenTest.seriesNeeded(rate, 0.1, 0.1, 1, 1000).getAsInt(), "the rounding artefact");
        int n = LearnThenTest.seriesNeeded(rate, 0.1, 0.1, 24, 100_000).getAsInt();
        assertTrue(n > 23, "more series than replayed: " + n);
        int k = (int) Math.floor(rate * n + 1e-9);
        assertTrue(k >= 1, "at least the one disagreement seen: " + k);
        assertTrue(LearnThenTest.certify(n, new int[] {k}, 0.1, 0.1).certified());
        for (int m = 24; m < n; m++) {
            assertFalse(
                    LearnThenTest.certify(m, new int[] {(int) Math.floor(rate * m + 1e-9)}, 0.1, 0.1)
                            .certified(),
                    "N is the first above 23: " + m);
        }
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> LearnThenTest.certify(0, new int[] {0}, 0.1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> LearnThenTest.certify(5, new int[] {}, 0.1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> LearnThenTest.certify(5, new int[] {6}, 0.1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> LearnThenTest.certify(5, new int[] {0}, 1.0, 0.1));
    }
}
