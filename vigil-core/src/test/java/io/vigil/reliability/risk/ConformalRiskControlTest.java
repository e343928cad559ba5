package io.vigil.reliability.risk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class ConformalRiskControlTest {
    /**
     * By hand, n = 23, α = 0.1: the bound (k + 1)/24 ≤ 0.1 holds for k ≤ 1.4, so k = 0 or 1 passes (1/24 = 0.042,
     * 2/24 = 0.083) and k = 2 does not (3/24 = 0.125). Monotonised counts 5, 4, 2, 1, 1, 0 (ascending threshold): from
     * the most conservative end 0 and 1 and 1 pass, 2 fails, so the least conservative passing index is 3.
     */
    @Test
    void choosesTheLeastConservativeThresholdWhoseCorrectedRiskIsAtMostAlpha() {
        ConformalRiskControl.Result r = ConformalRiskControl.certify(23, new int[] {5, 4, 2, 1, 1, 0}, 0.1);
        assertTrue(r.certified());
        assertEquals(3, r.index());
        assertEquals(2.0 / 24, r.bound(), 1e-15);
        // The comparison of docs/method.md §6: at n = 23, α = 0.1 PAC at δ = 0.1 needs 0 disagreements, CRC allows 1.
        assertEquals(OptionalDouble.of(1 - 1.0 / 23), ConformalRiskControl.requiredReliability(23, 0.1));
        assertEquals(OptionalDouble.of(1.0), LearnThenTest.requiredReliability(23, 0.1, 0.1));
    }

    /** Nothing passes: the most conservative index, uncertified (the rule then waits for t = d). */
    @Test
    void uncertifiedWhenEvenTheMostConservativeThresholdFails() {
        ConformalRiskControl.Result r = ConformalRiskControl.certify(23, new int[] {9, 6, 3}, 0.1);
        assertFalse(r.certified());
        assertEquals(2, r.index());
        assertEquals(4.0 / 24, r.bound(), 1e-15);
    }

    /**
     * "Cannot be certified" (α &lt; 1/(n + 1): 9 series at α = 0.09, bound 1/10 with no disagreement) is a state of its
     * own, distinct from "certifiable with no disagreement" (1.0: 10 series, 1/11 = 0.0909 ≤ 0.1 &lt; 2/11).
     */
    @Test
    void cannotBeCertifiedIsDistinctFromNeedingNoDisagreement() {
        assertTrue(ConformalRiskControl.requiredReliability(9, 0.09).isEmpty());
        assertEquals(OptionalDouble.of(1.0), ConformalRiskControl.requiredReliability(10, 0.1));
        assertEquals(0.1, ConformalRiskControl.smallestCertifiableAlpha(9), 1e-15);
        for (int n : new int[] {5, 9, 23, 30, 100}) {
            for (double alpha : new double[] {0.01, 0.05, 0.1, 0.2}) {
                OptionalDouble need = ConformalRiskControl.requiredReliability(n, alpha);
                if (need.isEmpty()) {
                    assertFalse(ConformalRiskControl.certify(n, new int[] {0}, alpha)
                            .certified());
                    continue;
                }
                int k = (int) Math.round((1 - need.getAsDouble()) * n);
                assertTrue(ConformalRiskControl.certify(n, new int[] {k}, alpha).certified());
                if (k < n) {
                    assertFalse(ConformalRiskControl.certify(n, new int[] {k + 1}, alpha)
                            .certified());
                }
            }
        }
    }

    /**
     * (⌊rate·N⌋ + 1)/(N + 1) ≤ α by hand: rate 0 at α = 0.1 needs N = 9 (1/10); rate 0.05 at α = 0.1: N = 9 gives
     * (0 + 1)/10 = 0.1, passing; at α = 0.05 rate 0.03 needs ⌊0.03N⌋ + 1 ≤ 0.05(N + 1): N = 19 gives 1/20 = 0.05.
     */
    @Test
    void seriesNeededAtAGivenRate() {
        assertEquals(9, ConformalRiskControl.seriesNeeded(0, 0.1, 1, 1000).getAsInt());
        assertEquals(9, ConformalRiskControl.seriesNeeded(0.05, 0.1, 1, 1000).getAsInt());
        assertEquals(19, ConformalRiskControl.seriesNeeded(0.03, 0.05, 1, 1000).getAsInt());
        assertTrue(ConformalRiskControl.seriesNeeded(0.1, 0.1, 1, 1000).isEmpty());
        // Searched from 10 up: rate 0.05 at α = 0.1 gives (0 + 1)/(N + 1) ≤ 0.1 for N = 10..19, so 10.
        assertEquals(10, ConformalRiskControl.seriesNeeded(0.05, 0.1, 10, 1000).getAsInt());
        // 2 of 21 replayed: (2 + 1)/22 > 0.1; from 22 on, ⌊2N/21⌋ = 2 until N = 31: (2 + 1)/(N + 1) ≤ 0.1 at N = 29.
        assertEquals(
                29, ConformalRiskControl.seriesNeeded(2.0 / 21, 0.1, 22, 1000).getAsInt());
    }

    /**
     * The randomised form by hand, n = 23, α = 0.2: α(n + 1) = 4.8, so (k + U)/24 ≤ 0.2 allows k ≤ 4.8 − U
     * disagreements: 4 when U ≤ 0.8, 3 when U &gt; 0.8 — and 3 at U = 1, the non-randomised form. Counts 6, 5, 4, 3, 0:
     * index 2 (4 disagreements) at U = 0.5, index 3 at U = 0.9 and at U = 1, with bound (k + U)/24.
     */
    @Test
    void theDrawReplacesTheLossBoundOfTheUnseenSeries() {
        int[] counts = {6, 5, 4, 3, 0};
        ConformalRiskControl.Result low = ConformalRiskControl.certify(23, counts, 0.2, 0.5);
        assertEquals(2, low.index());
        assertEquals(4.5 / 24, low.bound(), 1e-15);
        assertEquals(3, ConformalRiskControl.certify(23, counts, 0.2, 0.9).index());
        assertEquals(ConformalRiskControl.certify(23, counts, 0.2), ConformalRiskControl.certify(23, counts, 0.2, 1.0));
        assertEquals(OptionalDouble.of(1 - 4.0 / 23), ConformalRiskControl.requiredReliability(23, 0.2, 0.5));
        assertEquals(OptionalDouble.of(1 - 3.0 / 23), ConformalRiskControl.requiredReliability(23, 0.2, 0.9));
        // n = 9 at α = 0.09: 1/10 > α, so no U = 1 certificate; a draw U ≤ 0.9 certifies with no disagreement.
        assertTrue(ConformalRiskControl.requiredReliability(9, 0.09).isEmpty());
        assertEquals(OptionalDouble.of(1.0), ConformalRiskControl.requiredReliability(9, 0.09, 0.9));
        assertEquals(0.05, ConformalRiskControl.smallestCertifiableAlpha(9, 0.5), 1e-15);
        // (⌊0.05 N⌋ + 0.5)/(N + 1) ≤ 0.1 from N = 4 (0.5/5).
        assertEquals(
                4, ConformalRiskControl.seriesNeeded(0.05, 0.1, 1, 1000, 0.5).getAsInt());
    }

    /**
     * The identity the randomised form rests on (class comment): with U uniform on (0, 1], the number of disagreements
     * allowed plus one, r + 1 = ⌊α(n + 1) − U⌋ + 1, has mean α(n + 1) exactly — checked on a midpoint grid of 10⁴
     * draws (the midpoint rule errs by at most 10⁻⁴ on a step function of U with one unit jump) over n and α. With U = 1
     * it is ⌈α(n + 1)⌉ − 1 ≤ α(n + 1), up to one short.
     */
    @Test
    void theAllowedDisagreementsHaveMeanAlphaTimesNPlusOne() {
        int grid = 10_000;
        for (int n : new int[] {9, 16, 20, 23, 30, 50, 67}) {
            for (double alpha : new double[] {0.05, 0.1, 0.2}) {
                double sum = 0;
                for (int i = 0; i < grid; i++) {
                    double u = (i + 0.5) / grid;
                    sum += allowed(n, alpha, u) + 1;
                }
                assertEquals(alpha * (n + 1), sum / grid, 1.5e-4, "n = " + n + ", α = " + alpha);
                int conservative = allowed(n, alpha, 1.0) + 1;
                assertTrue(conservative <= alpha * (n + 1) + 1e-9 && conservative > alpha * (n + 1) - 1 - 1e-9);
            }
        }
    }

    /** How many of n disagreements {@link ConformalRiskControl#requiredReliability} allows at α and U; −1 for none. */
    private static int allowed(int n, double alpha, double u) {
        OptionalDouble r = ConformalRiskControl.requiredReliability(n, alpha, u);
        return r.isEmpty() ? -1 : (int) Math.round((1 - r.getAsDouble()) * n);
    }

    @Test
    void rejectsCountsThatAreNotMonotonised() {
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(10, new int[] {1, 2}, 0.1));
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(10, new int[] {11}, 0.1));
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(0, new int[] {0}, 0.1));
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(10, new int[] {0}, 1.0));
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(10, new int[] {0}, 0.1, 0.0));
        assertThrows(IllegalArgumentException.class, () -> ConformalRiskControl.certify(10, new int[] {0}, 0.1, 1.5));
    }
}
