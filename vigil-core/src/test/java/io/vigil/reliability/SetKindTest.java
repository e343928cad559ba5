package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hipparchus.distribution.continuous.ChiSquaredDistribution;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Test;

class SetKindTest {
    /**
     * Tolerance on published quantile values (17 significant digits given; the inverse CDF is solved to 1e-13
     * absolute): 1e-11 relative.
     */
    private static final double QUANTILE_TOL = 1e-11;

    /**
     * Tolerance of the CDF round trip F(r(τ)) = τ: ℓ ≤ 2 use closed forms (rounding only); for ℓ ≥ 3 the inverse is
     * solved to 1e-13 in x and the χ²_ℓ density is below 0.25, so the error in τ is far below 1e-11.
     */
    private static final double ROUND_TRIP_TOL = 1e-11;

    @Test
    void chiSquareRadiiMatchPublishedQuantiles() {
        double r1 = SetKind.NB_QUADRATIC.radius(1, 0.95);
        assertEquals(3.841458820694124, r1 * r1, QUANTILE_TOL * 3.84);
        double r2 = SetKind.GAUSSIAN.radius(2, 0.9);
        assertEquals(4.605170185988091, r2 * r2, QUANTILE_TOL * 4.6);
        // χ²_2(τ) = −2 log(1 − τ) exactly.
        double r3 = SetKind.GAUSSIAN.radius(2, 0.999);
        assertEquals(-2 * Math.log(0.001), r3 * r3, QUANTILE_TOL * 14);
        double r5 = SetKind.NB_QUADRATIC.radius(5, 0.99);
        assertEquals(15.08627246938899, r5 * r5, 1e-9 * 15);
    }

    @Test
    void chebyshevRadiusIsClosedForm() {
        double r = SetKind.CHEBYSHEV.radius(7, 0.9);
        assertEquals(70.0, r * r, 1e-12);
    }

    @Test
    void boxRadiusGivesEachCoordinateMassTauToTheOneOverEll() {
        NormalDistribution n = new NormalDistribution();
        assertEquals(1.959963984540054, SetKind.NB_BOX.radius(1, 0.95), 1e-12);
        for (int ell : new int[] {1, 2, 5, 30}) {
            for (double tau : new double[] {0.001, 0.1, 0.5, 0.9, 0.999999}) {
                double z = SetKind.NB_BOX.radius(ell, tau);
                double perCoordinate = 1.0 - 2.0 * n.cumulativeProbability(-z);
                assertEquals(tau, Math.pow(perCoordinate, ell), ROUND_TRIP_TOL, "ell " + ell + " tau " + tau);
            }
        }
    }

    @Test
    void chiSquareRadiiRoundTripThroughTheCdf() {
        for (int ell : new int[] {1, 2, 3, 10, 30, 100}) {
            ChiSquaredDistribution chi = new ChiSquaredDistribution(ell);
            for (double tau : new double[] {0.001, 0.1, 0.25, 0.5, 0.9, 0.99}) {
                double r = SetKind.NB_QUADRATIC.radius(ell, tau);
                assertEquals(tau, chi.cumulativeProbability(r * r), ROUND_TRIP_TOL, "ell " + ell + " tau " + tau);
            }
        }
    }

    @Test
    void chebyshevIsNeverSmallerThanTheChiSquareRadius() {
        // Markov: P(χ²_ℓ ≥ ℓ/(1−τ)) ≤ 1−τ, so the χ² quantile at τ is ≤ ℓ/(1−τ) for every τ and ℓ.
        for (int ell = 1; ell <= 60; ell++) {
            for (double tau = 0.001; tau < 1.0; tau += 0.0237) {
                double cheb = SetKind.CHEBYSHEV.radius(ell, tau);
                double chi = SetKind.NB_QUADRATIC.radius(ell, tau);
                assertTrue(cheb >= chi, "ell " + ell + " tau " + tau + ": " + cheb + " < " + chi);
            }
        }
    }

    @Test
    void everyRadiusIncreasesWithTau() {
        for (SetKind kind : SetKind.values()) {
            for (int ell : new int[] {1, 4, 30}) {
                double previous = 0.0;
                for (double tau = 0.01; tau < 1.0; tau += 0.01) {
                    double r = kind.radius(ell, tau);
                    assertTrue(r > previous, kind + " ell " + ell + " tau " + tau);
                    previous = r;
                }
            }
        }
    }

    @Test
    void radiiTableEqualsDirectComputationAndChecksItsRange() {
        SetRadii table = SetRadii.of(SetKind.NB_BOX, 0.9, 12);
        for (int ell = 1; ell <= 12; ell++) {
            assertEquals(SetKind.NB_BOX.radius(ell, 0.9), table.radius(ell));
        }
        assertThrows(IllegalArgumentException.class, () -> table.radius(13));
        assertThrows(IllegalArgumentException.class, () -> table.radius(0));
        assertThrows(IllegalArgumentException.class, () -> SetRadii.of(SetKind.GAUSSIAN, 1.0, 3));
        assertThrows(IllegalArgumentException.class, () -> SetKind.GAUSSIAN.radius(3, 0.0));
        assertThrows(IllegalArgumentException.class, () -> SetKind.GAUSSIAN.radius(0, 0.5));
    }

    @Test
    void cliNamesRoundTrip() {
        for (SetKind kind : SetKind.values()) {
            assertSame(kind, SetKind.fromCliName(kind.cliName()));
        }
        assertEquals("nb-quadratic", SetKind.NB_QUADRATIC.cliName());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SetKind.fromCliName("nb"));
        assertTrue(e.getMessage().contains("chebyshev, nb-quadratic, nb-box, gaussian"), e.getMessage());
    }
}
