package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * Layout of symmetric ℓ×ℓ matrices stored packed: the lower triangle by rows, so element (i, j) with
 * i ≥ j sits at {@code i(i+1)/2 + j} and a matrix takes {@code ℓ(ℓ+1)/2} doubles. The conditional
 * covariances R_y(t) of the complete-series model (thesis §5.4) are tabulated and returned in this
 * layout because it halves memory and copying against a dense matrix.
 */
public final class SymmetricPacked {
    private SymmetricPacked() {}

    /** Number of doubles a packed symmetric {@code n×n} matrix takes: {@code n(n+1)/2}. */
    public static int size(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("matrix order must be ≥ 0, got " + n);
        }
        return n * (n + 1) / 2;
    }

    /** Index of element (i, j) in the packed array (either order of i and j). */
    public static int index(int i, int j) {
        return i >= j ? i * (i + 1) / 2 + j : j * (j + 1) / 2 + i;
    }

    /**
     * Expands a packed symmetric matrix into a dense one.
     *
     * @param packed at least {@code n(n+1)/2} values (read from offset 0)
     * @param out n×n, overwritten with both triangles
     */
    static void unpack(double[] packed, DMatrixRMaj out) {
        int n = out.numRows;
        if (out.numCols != n) {
            throw new IllegalArgumentException(
                    "output must be square, got " + out.numRows + "×" + out.numCols + " for a packed matrix");
        }
        if (packed.length < size(n)) {
            throw new IllegalArgumentException("packed array has " + packed.length + " values but a " + n + "×" + n
                    + " symmetric matrix needs " + size(n));
        }
        double[] o = out.data;
        int p = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double v = packed[p++];
                o[i * n + j] = v;
                o[j * n + i] = v;
            }
        }
    }

    /**
     * Packs the lower triangle of a square matrix (the upper triangle is ignored; symmetrise first if
     * it may differ).
     *
     * @param in n×n
     * @param out at least {@code n(n+1)/2} values, overwritten from offset 0
     */
    static void pack(DMatrixRMaj in, double[] out) {
        int n = in.numRows;
        if (in.numCols != n) {
            throw new IllegalArgumentException("matrix must be square, got " + in.numRows + "×" + in.numCols);
        }
        if (out.length < size(n)) {
            throw new IllegalArgumentException("packed array has " + out.length + " values but a " + n + "×" + n
                    + " symmetric matrix needs " + size(n));
        }
        int p = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                out[p++] = in.data[i * n + j];
            }
        }
    }
}
