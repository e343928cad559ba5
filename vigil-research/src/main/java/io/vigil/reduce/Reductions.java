package io.vigil.reduce;

import java.util.function.ToDoubleBiFunction;

/** Shared shape checks, the projection y = Wᵀx of the linear reductions and the expansion of the kernel ones. */
public final class Reductions {
    private Reductions() {}

    /** d of non-empty rectangular rows of finite values; names the first ragged row or non-finite value. */
    static int checkRows(double[][] rows) {
        return checkRows(rows, "a reduction's");
    }

    /** As {@link #checkRows(double[][])}, naming whose values they are in the non-finite message ({@code what}). */
    static int checkRows(double[][] rows, String what) {
        if (rows.length == 0 || rows[0].length == 0) {
            throw new IllegalArgumentException("a reduction needs at least one row of at least one value");
        }
        int d = rows[0].length;
        for (int i = 1; i < rows.length; i++) {
            if (rows[i].length != d) {
                throw new IllegalArgumentException(
                        "row " + i + " has " + rows[i].length + " values but row 0 has " + d);
            }
        }
        checkFinite(rows, what);
        return d;
    }

    /** Throws when a value is NaN or infinite, naming the row and column ({@code what}: whose values they are). */
    static void checkFinite(double[][] rows, String what) {
        for (int i = 0; i < rows.length; i++) {
            for (int t = 0; t < rows[i].length; t++) {
                if (!Double.isFinite(rows[i][t])) {
                    throw new IllegalArgumentException(
                            what + " value [" + i + "][" + t + "] is " + rows[i][t] + ", not finite");
                }
            }
        }
    }

    static double[] mean(double[][] rows) {
        int d = rows[0].length;
        double[] mean = new double[d];
        for (int i = 0; i < rows.length; i++) {
            for (int t = 0; t < d; t++) {
                mean[t] += (rows[i][t] - mean[t]) / (i + 1);
            }
        }
        return mean;
    }

    /**
     * Rows mapped by a kernel expansion over the training series: coordinate c &lt; {@code dims} of a row x is
     * Σ<sub>i</sub> coef[c][i]·k(train<sub>i</sub>, x). The caller checks {@code dims} against its map.
     *
     * @throws IllegalArgumentException when a row's length is not the training series'
     */
    static double[][] projectByKernel(
            double[][] rows,
            double[][] train,
            double[][] coef,
            int dims,
            ToDoubleBiFunction<double[], double[]> kernel) {
        int n = train.length;
        int d = train[0].length;
        double[][] out = new double[rows.length][dims];
        double[] kq = new double[n];
        for (int q = 0; q < rows.length; q++) {
            if (rows[q].length != d) {
                throw new IllegalArgumentException(
                        "row " + q + " has " + rows[q].length + " values but the map expects " + d);
            }
            for (int i = 0; i < n; i++) {
                kq[i] = kernel.applyAsDouble(train[i], rows[q]);
            }
            for (int c = 0; c < dims; c++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += coef[c][i] * kq[i];
                }
                out[q][c] = s;
            }
        }
        return out;
    }
}
