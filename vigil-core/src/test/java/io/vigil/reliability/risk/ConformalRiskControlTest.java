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
        // n = 9 at α = 0.09: α(n + 1) = 0.9 < 1, so no U = 1 certificate, and a draw U ≤ 0.9 would certify on the
        // draw alone: nothing is certified whatever U.
        assertTrue(ConformalRiskControl.requiredReliability(9, 0.09).isEmpty());
        assertTrue(ConformalRiskControl.requiredReliability(9, 0.09, 0.9).isEmpty());
        assertEquals(0.1, ConformalRiskControl.smallestCertifiableAlpha(9, 0.5), 1e-15);
        // (⌊0.05 N⌋ + 0.5)/(N + 1) ≤ 0.1 from N = 4 (0.5/5), but ⌊0.1 (N + 1)⌋ ≥ 1 first at N = 9.
        assertEquals(
                9, ConformalRiskControl.seriesNeeded(0.05, 0.1, 1, 1000, 0.5).getAsInt());
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
                if (ConformalRiskControl.drawDecides(n, alpha)) {
                    // α(n + 1) < 1: nothing is certified whatever U, so the expected rate is 0 ≤ α.
                    assertEquals(-1, allowed(n, alpha, 0.01), "n = " + n + ", α = " + alpha);
                    continue;
                }
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

    /**
     * 1 − 0.9 is 0.09999999999999998 in binary, so (0 + 1)/10 ≤ α held false without the comparison's slack: with
     * U = 1 and no disagreement τ = 0.9 must be certified on 9 series ((0 + 1)/(9 + 1) = 0.1) and not on 8 (1/9);
     * likewise τ = 0.8 on 4 series (1/5) and τ = 0.95 on 19 (1/20). Learn-then-Test gets the same slack on p ≤ δ.
     */
    @Test
    void theBoundaryOfOneMinusTauIsNotLostToRounding() {
        assertTrue(1 - 0.9 < 0.1, "the premise: 1 − 0.9 rounds below 0.1");
        assertTrue(ConformalRiskControl.certify(9, new int[] {0}, 1 - 0.9).certified());
        assertFalse(ConformalRiskControl.certify(8, new int[] {0}, 1 - 0.9).certified());
        assertTrue(ConformalRiskControl.certify(4, new int[] {0}, 1 - 0.8).certified());
        assertFalse(ConformalRiskControl.certify(3, new int[] {0}, 1 - 0.8).certified());
        assertTrue(ConformalRiskControl.certify(19, new int[] {0}, 1 - 0.95).certified());
        assertFalse(ConformalRiskControl.certify(18, new int[] {0}, 1 - 0.95).certified());
        assertEquals(OptionalDouble.of(1.0), ConformalRiskControl.requiredReliability(9, 1 - 0.9));
        assertEquals(9, ConformalRiskControl.seriesNeeded(0.0, 1 - 0.9, 1, 100).getAsInt());
        assertEquals(9, ConformalRiskControl.seriesForAnyCertificate(1 - 0.9));
        assertEquals(19, ConformalRiskControl.seriesForAnyCertificate(1 - 0.95));
        assertEquals(0.1, ConformalRiskControl.smallestCertifiableAlpha(9), 0.0);
    }

    /**
     * Where ⌊α(n + 1)⌋ = 0 the draw alone would decide (16 series at τ = 0.95: α(n + 1) = 0.85, so U ≤ 0.85 would
     * certify with no disagreement): nothing is certified whatever U; one series more than {@link
     * ConformalRiskControl#seriesForAnyCertificate} allows, and the randomised form then certifies as before.
     */
    @Test
    void nothingIsCertifiedWhereTheDrawAloneWouldDecide() {
        double alpha = 1 - 0.95;
        assertTrue(ConformalRiskControl.drawDecides(16, alpha));
        for (double u : new double[] {1e-9, 0.1, 0.5, 0.85, 1.0}) {
            assertFalse(
                    ConformalRiskControl.certify(16, new int[] {0, 0}, alpha, u).certified(), "U = " + u);
            assertTrue(ConformalRiskControl.requiredReliability(16, alpha, u).isEmpty(), "U = " + u);
        }
        assertFalse(ConformalRiskControl.drawDecides(19, alpha));
        assertTrue(ConformalRiskControl.certify(19, new int[] {0}, alpha, 0.5).certified());
        assertTrue(ConformalRiskControl.certify(19, new int[] {0}, alpha, 1.0).certified());
    }

    /**
     * The reproducible draw: the same seed and fingerprint give the same U in (0, 1]; another seed or other data
     * another U; over 2,000 seeds the draws look uniform (mean within 0.02 of 1/2: the standard error is 0.0065).
     */
    @Test
    void theDerivedDrawIsReproducibleAndSpreadOverTheUnitInterval() {
        String fp = "sha256:00ff";
        double u = ConformalRiskControl.derivedDraw(42L, fp);
        assertEquals(u, ConformalRiskControl.derivedDraw(42L, fp), 0.0);
        assertTrue(u > 0 && u <= 1);
        assertTrue(u != ConformalRiskControl.derivedDraw(43L, fp));
        assertTrue(u != ConformalRiskControl.derivedDraw(42L, "sha256:00fe"));
        double sum = 0;
        for (long s = 0; s < 2000; s++) {
            double v = ConformalRiskControl.derivedDraw(s, fp);
            assertTrue(v > 0 && v <= 1);
            sum += v;
        }
        assertEquals(0.5, sum / 2000, 0.02);
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
