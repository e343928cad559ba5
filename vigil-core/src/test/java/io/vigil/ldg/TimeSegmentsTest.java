package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/** The segment map A and its lift: orthonormal rows, Bᵀx = B'ᵀAx, and the identity at full resolution. */
class TimeSegmentsTest {
    @Test
    void liftedBasisIsOrthonormalSegmentConstantAndProjectsAsTheReducedOne() {
        int channels = 2;
        int d = 10;
        TimeSegments seg = TimeSegments.of(channels, d, 3); // segments of 3, 3 and 4 samples
        assertEquals(6, seg.reducedLength());
        Random rnd = new Random(7);
        DMatrixRMaj raw = new DMatrixRMaj(6, 2);
        for (int i = 0; i < raw.data.length; i++) {
            raw.data[i] = rnd.nextGaussian();
        }
        DMatrixRMaj reduced = orthonormalColumns(raw);
        DMatrixRMaj b = seg.lift(reduced);
        DMatrixRMaj gram = new DMatrixRMaj(2, 2);
        CommonOps_DDRM.multTransA(b, b, gram);
        assertArrayEquals(CommonOps_DDRM.identity(2).data, gram.data, 1e-12);
        // channel 1, samples 6..9 form one segment: equal rows of B
        for (int t = 7; t < 10; t++) {
            assertEquals(b.get(6 * channels + 1, 0), b.get(t * channels + 1, 0), 0.0);
        }
        double[][] x = new double[4][channels * d];
        for (double[] row : x) {
            for (int k = 0; k < row.length; k++) {
                row[k] = rnd.nextGaussian();
            }
        }
        double[][] ax = seg.apply(x);
        for (int i = 0; i < x.length; i++) {
            for (int j = 0; j < 2; j++) {
                double full = 0;
                for (int k = 0; k < x[i].length; k++) {
                    full += b.get(k, j) * x[i][k];
                }
                double small = 0;
                for (int k = 0; k < ax[i].length; k++) {
                    small += reduced.get(k, j) * ax[i][k];
                }
                assertEquals(small, full, 1e-12);
            }
        }
    }

    @Test
    void fullResolutionIsTheIdentity() {
        TimeSegments seg = TimeSegments.of(3, 4, 4);
        double[][] x = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
        assertArrayEquals(x[0], seg.apply(x)[0], 0.0);
        assertEquals(true, seg.isFullResolution());
    }

    @Test
    void gridStartsAtFullResolutionAndKeepsCoarserCountsOnly() {
        assertEquals(List.of(100, 32, 16, 8, 4, 2, 1), TimeSegments.grid(100));
        assertEquals(List.of(20, 16, 8, 4, 2, 1), TimeSegments.grid(20));
        assertEquals(List.of(1), TimeSegments.grid(1));
        assertThrows(IllegalArgumentException.class, () -> TimeSegments.of(2, 10, 11));
        assertThrows(IllegalArgumentException.class, () -> TimeSegments.of(2, 10, 0));
    }

    private static DMatrixRMaj orthonormalColumns(DMatrixRMaj a) {
        var qr = org.ejml.dense.row.factory.DecompositionFactory_DDRM.qr(a.numRows, a.numCols);
        qr.decompose(a.copy());
        return qr.getQ(null, true);
    }
}
