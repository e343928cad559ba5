package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StandardizerTest {
    /** Welford on a few values of size ~1e8 with spread ~1: error ~1e8·ε·n ≈ 1e-7 relative to the spread. */
    private static final double STAT_TOL = 1e-9;

    @Test
    void meansAndSampleStandardDeviations() {
        double[][] x = {{1, 5, 1e8 + 1}, {2, 5, 1e8 + 2}, {3, 5, 1e8 + 3}, {6, 5, 1e8 + 6}};
        Standardizer s = Standardizer.fit(x);
        assertArrayEquals(new double[] {3, 5, 1e8 + 3}, s.means(), STAT_TOL);
        double sd = Math.sqrt((4 + 1 + 0 + 9) / 3.0);
        assertEquals(sd, s.scales()[0], STAT_TOL);
        assertEquals(1.0, s.scales()[1], 0.0, "zero-variance feature gets scale 1");
        assertEquals(sd, s.scales()[2], 1e-6, "large offset: one-pass Welford keeps the spread");
        double[][] z = s.apply(x);
        assertEquals(0.0, z[2][1], 0.0);
        assertEquals((6 - 3) / sd, z[3][0], STAT_TOL);
        double[] out = new double[3];
        s.apply(x[3], out);
        assertArrayEquals(z[3], out, 0.0);
        for (int t = 0; t < 3; t++) {
            assertEquals(z[1][t], s.apply(t, x[1][t]), 0.0, "streaming form gives the same bits");
        }
    }

    @Test
    void singleRowAndRebuild() {
        Standardizer one = Standardizer.fit(new double[][] {{4, -2}});
        assertArrayEquals(new double[] {1, 1}, one.scales(), 0.0);
        Standardizer s = Standardizer.of(new double[] {1, 2}, new double[] {2, 4});
        assertEquals(1.0, s.apply(1, 6), 0.0);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Standardizer.of(new double[] {1}, new double[] {1, 2}));
        assertTrue(e.getMessage().contains("1 means") && e.getMessage().contains("2 scales"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Standardizer.of(new double[] {1}, new double[] {0}));
        e = assertThrows(IllegalArgumentException.class, () -> s.apply(new double[] {1, 2, 3}, new double[3]));
        assertTrue(e.getMessage().contains("3 values") && e.getMessage().contains("2 features"), e.getMessage());
    }
}
