package io.vigil.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Linear resampling: exact on straight lines, endpoints kept, identity at the same length, bad lengths named. */
class ResampleTest {
    @Test
    void aStraightLineIsResampledExactlyAndEndpointsAreKept() {
        double[] x = new double[70];
        for (int i = 0; i < x.length; i++) {
            x[i] = 2 + 0.5 * i;
        }
        double[] y = Resample.linear(x, 65);
        assertEquals(65, y.length);
        for (int j = 0; j < y.length; j++) {
            // Sample j lies at i = j·69/64 of the original axis; one rounding per product and sum.
            assertEquals(2 + 0.5 * j * 69.0 / 64, y[j], 1e-12, "sample " + j);
        }
        assertEquals(x[0], y[0]);
        assertEquals(x[69], y[64]);
    }

    @Test
    void upsamplingInterpolatesBetweenNeighbours() {
        assertArrayEquals(new double[] {0, 0.5, 1, 3, 5}, Resample.linear(new double[] {0, 1, 5}, 5), 1e-15);
    }

    @Test
    void sameLengthDataSetIsReturnedAsItIs() {
        Dataset ds = Dataset.of("x", new double[][] {{1, 2, 3}, {4, 5, 6}}, new String[] {"a", "b"});
        assertSame(ds, Resample.linear(ds, 3));
        Dataset longer = Resample.linear(ds, 5);
        assertEquals(5, longer.length());
        assertEquals(ds.classNames(), longer.classNames());
        assertArrayEquals(ds.classIndices(), longer.classIndices());
    }

    @Test
    void seriesOrTargetsShorterThanTwoAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Resample.linear(new double[] {1}, 4));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Resample.linear(new double[] {1, 2}, 1));
        assertEquals("resampling needs series of at least 2 samples, got 2 -> 1", e.getMessage());
    }
}
