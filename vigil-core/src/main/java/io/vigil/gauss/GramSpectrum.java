package io.vigil.gauss;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Eigenvalues (descending, clamped at 0: a Gram matrix is positive semidefinite) and unit eigenvectors (columns, in
 * the same order) of a symmetric Gram matrix G = WᵀW, the r×r route to the spectrum of the D×D matrix WWᵀ that the
 * low-rank covariance forms use (shrinkage, probabilistic PCA).
 */
record GramSpectrum(double[] values, DMatrixRMaj vectors) {
    /** The spectrum of G (not modified). */
    static GramSpectrum of(DMatrixRMaj g) {
        int n = g.numRows;
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, true, true);
        if (!eig.decompose(g.copy())) {
            throw new CovarianceFitException("eigendecomposition of the " + n + "×" + n + " Gram matrix failed");
        }
        Integer[] order = new Integer[n];
        double[] raw = new double[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            raw[i] = eig.getEigenvalue(i).real;
        }
        Arrays.sort(order, (p, q) -> Double.compare(raw[q], raw[p]));
        double[] values = new double[n];
        DMatrixRMaj vectors = new DMatrixRMaj(n, n);
        for (int c = 0; c < n; c++) {
            values[c] = Math.max(0.0, raw[order[c]]);
            DMatrixRMaj v = eig.getEigenVector(order[c]);
            for (int k = 0; k < n; k++) {
                vectors.data[k * n + c] = v.data[k];
            }
        }
        return new GramSpectrum(values, vectors);
    }
}
