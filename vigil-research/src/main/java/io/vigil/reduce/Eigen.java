package io.vigil.reduce;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Symmetric and symmetric-definite generalised eigenproblems on EJML's symmetric QR algorithm, with eigenvectors as
 * sorted columns and a fixed sign (largest-magnitude entry positive) so maps are reproducible.
 */
final class Eigen {
    /**
     * An m×m positive semi-definite scatter counts as singular when its smallest eigenvalue is at most this many times
     * m·ε·(largest eigenvalue), ε = 2⁻⁵² the double-precision machine epsilon: the eigenvalues that rounding leaves in place of
     * the exact zeros of a rank-deficient XᵀX are of order m·ε times the largest, and a factor of 100 keeps them all on
     * the singular side while an ill-conditioned but regular scatter (condition up to ~10¹¹ for m ≈ 100) is still solved,
     * as the thesis's own runs solved it.
     */
    static final double SINGULAR_FACTOR = 100;

    /** True when {@code min} is at most {@link #SINGULAR_FACTOR}·m·ε·max, or max is not positive. */
    static boolean singular(double min, double max, int m) {
        return !(max > 0) || min <= SINGULAR_FACTOR * Math.max(m, 1) * Math.ulp(1.0) * max;
    }

    private Eigen() {}

    /**
     * Eigenpairs sorted by value.
     *
     * @param vectors the eigenvectors as columns, unit length
     * @param values the eigenvalues in the same order
     */
    record Pairs(DMatrixRMaj vectors, double[] values) {}

    /** All eigenpairs of a symmetric matrix, largest (descending) or smallest (ascending) first. */
    static Pairs symmetric(DMatrixRMaj m, boolean descending) {
        int n = m.numRows;
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, true, true);
        if (!eig.decompose(m.copy())) {
            throw new IllegalStateException(
                    "the symmetric eigendecomposition of a " + n + "×" + n + " matrix did not converge");
        }
        Integer[] order = new Integer[n];
        double[] values = new double[n];
        for (int k = 0; k < n; k++) {
            order[k] = k;
            values[k] = eig.getEigenvalue(k).getReal();
        }
        Arrays.sort(
                order,
                (a, b) -> descending ? Double.compare(values[b], values[a]) : Double.compare(values[a], values[b]));
        DMatrixRMaj v = new DMatrixRMaj(n, n);
        double[] sorted = new double[n];
        for (int k = 0; k < n; k++) {
            sorted[k] = values[order[k]];
            DMatrixRMaj e = eig.getEigenVector(order[k]);
            for (int t = 0; t < n; t++) {
                v.set(t, k, e.get(t, 0));
            }
        }
        fixSigns(v);
        return new Pairs(v, sorted);
    }

    /**
     * The generalised eigenpairs S<sub>b</sub>φ = λS<sub>w</sub>φ, largest λ first, φᵀS<sub>w</sub>φ = 1: with
     * S<sub>w</sub> = VΛVᵀ, φ = VΛ<sup>−1/2</sup>u for the eigenvectors u of Λ<sup>−1/2</sup>VᵀS<sub>b</sub>VΛ<sup>−1/2</sup>.
     *
     * @param what the condition named when S<sub>w</sub> is singular
     * @param n training series, for the message
     * @param d series length, for the message
     * @throws IllPosedReductionException when S<sub>w</sub> is {@link #singular}
     */
    static Pairs generalized(DMatrixRMaj sb, DMatrixRMaj sw, String what, int n, int d) {
        int m = sw.numRows;
        Pairs w = symmetric(sw, true);
        double max = w.values()[0];
        double min = w.values()[m - 1];
        if (singular(min, max, m)) {
            throw new IllPosedReductionException(what, n, d);
        }
        DMatrixRMaj white = w.vectors().copy();
        for (int k = 0; k < m; k++) {
            double s = 1 / Math.sqrt(w.values()[k]);
            for (int t = 0; t < m; t++) {
                white.set(t, k, white.get(t, k) * s);
            }
        }
        DMatrixRMaj tmp = new DMatrixRMaj(m, m);
        DMatrixRMaj inner = new DMatrixRMaj(m, m);
        CommonOps_DDRM.multTransA(white, sb, tmp);
        CommonOps_DDRM.mult(tmp, white, inner);
        symmetrize(inner);
        Pairs u = symmetric(inner, true);
        DMatrixRMaj phi = new DMatrixRMaj(m, m);
        CommonOps_DDRM.mult(white, u.vectors(), phi);
        fixSigns(phi);
        return new Pairs(phi, u.values());
    }

    /** (M + Mᵀ)/2 in place, against rounding in products that are symmetric in exact arithmetic. */
    static void symmetrize(DMatrixRMaj m) {
        for (int i = 0; i < m.numRows; i++) {
            for (int j = i + 1; j < m.numCols; j++) {
                double s = (m.get(i, j) + m.get(j, i)) / 2;
                m.set(i, j, s);
                m.set(j, i, s);
            }
        }
    }

    /** Flips each column so that its largest-magnitude entry is positive. */
    static void fixSigns(DMatrixRMaj v) {
        for (int k = 0; k < v.numCols; k++) {
            int big = 0;
            for (int t = 1; t < v.numRows; t++) {
                big = Math.abs(v.get(t, k)) > Math.abs(v.get(big, k)) ? t : big;
            }
            if (v.get(big, k) < 0) {
                for (int t = 0; t < v.numRows; t++) {
                    v.set(t, k, -v.get(t, k));
                }
            }
        }
    }

    /** The first {@code cols} columns of m. */
    static DMatrixRMaj leading(DMatrixRMaj m, int cols) {
        DMatrixRMaj out = new DMatrixRMaj(m.numRows, cols);
        CommonOps_DDRM.extract(m, 0, m.numRows, 0, cols, out, 0, 0);
        return out;
    }
}
