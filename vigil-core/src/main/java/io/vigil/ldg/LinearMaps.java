package io.vigil.ldg;

import org.ejml.data.DMatrixRMaj;

/** The projection y = Wᵀx of rows by a linear map W (d×r) — an LDG basis B or a comparison reducer's map. */
public final class LinearMaps {
    private LinearMaps() {}

    /**
     * Rows mapped by the first {@code dims} columns of W (d×r): y = W[:, 0..dims)ᵀ x.
     *
     * @throws IllegalArgumentException when a row's length is not W's row count or dims is outside 1..r
     */
    public static double[][] project(double[][] rows, DMatrixRMaj w, int dims) {
        if (dims < 1 || dims > w.numCols) {
            throw new IllegalArgumentException("dims = " + dims + " but the map has " + w.numCols + " columns");
        }
        double[][] out = new double[rows.length][dims];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length != w.numRows) {
                throw new IllegalArgumentException(
                        "row " + i + " has " + rows[i].length + " values but the map expects " + w.numRows);
            }
            for (int k = 0; k < dims; k++) {
                double s = 0;
                for (int t = 0; t < w.numRows; t++) {
                    s += rows[i][t] * w.data[t * w.numCols + k];
                }
                out[i][k] = s;
            }
        }
        return out;
    }
}
