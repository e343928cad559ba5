package io.vigil.reduce;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Checked labelled training rows and their class statistics, shared by the supervised reductions: the between-class
 * and within-class scatter of thesis eqs. (2.5)–(2.6), S<sub>b</sub> = (1/n)Σ<sub>c</sub> n<sub>c</sub>(μ<sub>c</sub> −
 * μ)(μ<sub>c</sub> − μ)ᵀ and S<sub>w</sub> = (1/n)Σ<sub>i</sub>(x<sub>i</sub> − μ<sub>g_i</sub>)(x<sub>i</sub> −
 * μ<sub>g_i</sub>)ᵀ.
 */
final class Labelled {
    final double[][] x;
    final int[] y;
    final int n;
    final int d;
    final int numClasses;
    final int[] counts;
    final double[][] means;
    final double[] overall;
    /** Classes with at least one series (G in the thesis's rank bounds). */
    final int present;

    private Labelled(double[][] x, int[] y, int d, int numClasses, int[] counts, double[][] means, int present) {
        this.x = x;
        this.y = y;
        this.n = x.length;
        this.d = d;
        this.numClasses = numClasses;
        this.counts = counts;
        this.means = means;
        this.overall = Reductions.mean(x);
        this.present = present;
    }

    /**
     * Checks shapes and labels.
     *
     * @param method named in the messages
     * @throws IllegalArgumentException on empty, ragged or non-finite rows, a label count that is not the row count, a label
     *     outside 0..numClasses−1, dims &lt; 1, or fewer than two classes with series
     */
    static Labelled of(double[][] x, int[] y, int numClasses, int dims, String method) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        int d = Reductions.checkRows(x, method + ": training");
        int n = x.length;
        if (y.length != n) {
            throw new IllegalArgumentException(method + ": x has " + n + " rows but y has " + y.length + " labels");
        }
        if (dims < 1) {
            throw new IllegalArgumentException(method + ": dims must be ≥ 1, got " + dims);
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException(method + ": numClasses must be ≥ 1, got " + numClasses);
        }
        int[] counts = new int[numClasses];
        double[][] means = new double[numClasses][d];
        for (int i = 0; i < n; i++) {
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException(
                        method + ": y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
            }
            int c = y[i];
            counts[c]++;
            for (int t = 0; t < d; t++) {
                means[c][t] += (x[i][t] - means[c][t]) / counts[c];
            }
        }
        int present = 0;
        for (int c : counts) {
            present += c > 0 ? 1 : 0;
        }
        if (present < 2) {
            throw new IllegalArgumentException(
                    method + " needs two classes with series, got " + present + " among " + n + " series");
        }
        return new Labelled(x, y, d, numClasses, counts, means, present);
    }

    /** n×d rows minus their class means: S<sub>w</sub> = (1/n)XᵀX of this. */
    DMatrixRMaj classCentred() {
        DMatrixRMaj out = new DMatrixRMaj(n, d);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                out.data[i * d + t] = x[i][t] - means[y[i]][t];
            }
        }
        return out;
    }

    /** The rows minus the overall mean, as n rows of length d. */
    double[][] centredRows() {
        double[][] out = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                out[i][t] = x[i][t] - overall[t];
            }
        }
        return out;
    }

    /** n×d rows minus the overall mean. */
    DMatrixRMaj centred() {
        return new DMatrixRMaj(centredRows());
    }

    /** d×present factor B of S<sub>b</sub> = BBᵀ: columns √(n<sub>c</sub>/n)(μ<sub>c</sub> − μ). */
    DMatrixRMaj betweenFactor() {
        DMatrixRMaj b = new DMatrixRMaj(d, present);
        int k = 0;
        for (int c = 0; c < numClasses; c++) {
            if (counts[c] == 0) {
                continue;
            }
            double w = Math.sqrt((double) counts[c] / n);
            for (int t = 0; t < d; t++) {
                b.set(t, k, w * (means[c][t] - overall[t]));
            }
            k++;
        }
        return b;
    }

    /** S<sub>w</sub>, d×d (thesis eq. 2.6). */
    DMatrixRMaj within() {
        DMatrixRMaj xc = classCentred();
        DMatrixRMaj sw = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(xc, xc, sw);
        CommonOps_DDRM.scale(1.0 / n, sw);
        return sw;
    }

    /** S<sub>b</sub>, d×d (thesis eq. 2.5). */
    DMatrixRMaj between() {
        DMatrixRMaj b = betweenFactor();
        DMatrixRMaj sb = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransB(b, b, sb);
        return sb;
    }
}
