package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Transfer LDG (thesis chapter 4): the illustrative example of §4.4 (Figure 4.3) and bad input. */
class TransferLdgTest {
    private static final double[][] SOURCE_MEANS = {{-1, -2}, {1, 2}};
    private static final double[][] TARGET_MEANS = {{-1.2, 2}, {0.5, 2}};
    private static final double[] STD = {Math.sqrt(0.2), Math.sqrt(0.3)};

    /** Thirty points per class of one domain, covariance diag(0.2, 0.3) (§4.4). */
    private static double[][] domain(double[][] means, int[] y, SplittableRandom r) {
        double[][] x = new double[60][2];
        for (int i = 0; i < 60; i++) {
            y[i] = i % 2;
            for (int t = 0; t < 2; t++) {
                x[i][t] = means[y[i]][t] + STD[t] * r.nextGaussian();
            }
        }
        return x;
    }

    /** Angle of the 1-D map from the horizontal axis, in degrees within [0, 90]. */
    private static double angle(double gamma) {
        SplittableRandom r = new SplittableRandom(44);
        int[] ys = new int[60];
        int[] yt = new int[60];
        double[][] source = domain(SOURCE_MEANS, ys, r);
        double[][] target = domain(TARGET_MEANS, yt, r);
        LdgBasis b = TransferLdg.fit(target, yt, source, ys, 2, new TransferLdg.Params(5, 0.0, gamma));
        return Math.toDegrees(Math.atan(Math.abs(b.component(1, 0) / b.component(0, 0))));
    }

    /**
     * Figure 4.3: with γ = 0 the map keeps the target scatter and the same-class source–target gaps small — class one's
     * gap (−0.2, 4) is vertical, so B is near the horizontal axis; γ = 1 also pushes target points from other-class
     * source points (gaps (−2.2, 0) and (1.5, 4)), which tilts B by about 30° (smallest eigenvector of the population
     * matrix [[−6.8, −6.8], [−6.8, 0]]: 31.7°); γ = 0.5 lies between.
     */
    @Test
    void illustrativeExampleTiltsWithGammaAsFigure43Shows() {
        double a0 = angle(0.0);
        double a5 = angle(0.5);
        double a1 = angle(1.0);
        assertTrue(a0 < 8, "γ = 0: " + a0 + "° from horizontal");
        assertTrue(a1 > 20 && a1 < 45, "γ = 1: " + a1 + "°");
        assertTrue(a0 < a5 && a5 < a1, "γ = 0.5 between: " + a0 + " < " + a5 + " < " + a1);
    }

    @Test
    void alphaOneIsLdgOnTheSourceAloneUpToItsWeights() {
        SplittableRandom r = new SplittableRandom(7);
        int[] ys = new int[60];
        int[] yt = new int[60];
        double[][] source = domain(SOURCE_MEANS, ys, r);
        double[][] target = domain(TARGET_MEANS, yt, r);
        LdgBasis onlySource = TransferLdg.fit(target, yt, source, ys, 2, new TransferLdg.Params(5, 1.0, 0.5));
        LdgBasis moved = TransferLdg.fit(
                new double[][] {{40, -40}}, new int[] {0}, source, ys, 2, new TransferLdg.Params(5, 1.0, 0.5));
        // With α = 1 target points carry no weight, so where they lie cannot move B (only the span they add).
        assertEquals(Math.abs(onlySource.component(0, 0)), Math.abs(moved.component(0, 0)), 1e-9);
    }

    @Test
    void badInputIsNamed() {
        double[][] source = {{0, 1}, {1, 0}, {2, 2}};
        int[] ys = {0, 0, 1};
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> TransferLdg.fit(
                                new double[][] {{0, 1, 2}},
                                new int[] {0},
                                source,
                                ys,
                                2,
                                new TransferLdg.Params(1, 0, 0.5)))
                .getMessage()
                .contains("both domains need the same length"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> TransferLdg.fit(
                                new double[][] {{0, 1}},
                                new int[] {2},
                                source,
                                ys,
                                3,
                                new TransferLdg.Params(1, 0, 0.5)))
                .getMessage()
                .contains("class index 2 has no source-domain series"));
        assertThrows(IllegalArgumentException.class, () -> new TransferLdg.Params(1, 1.5, 0.5));
    }
}
