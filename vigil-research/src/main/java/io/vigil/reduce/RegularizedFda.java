package io.vigil.reduce;

import io.vigil.gauss.CovarianceFitException;
import io.vigil.gauss.ShrinkageCovariance;
import io.vigil.gauss.ShrinkageParams;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.SingularOps_DDRM;
import org.ejml.dense.row.decomposition.TriangularSolver_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * Regularised Fisher discriminant analysis: W maximises the between-class scatter S<sub>b</sub> against a shrunk
 * within-class covariance Σ<sub>w</sub> (Ledoit–Wolf shrinkage toward a scaled identity of the pooled class-centred
 * series, {@link ShrinkageCovariance}), so it stays well posed when n &lt; d — where plain FDA's generalised eigenproblem
 * is singular ("nc" in thesis Table 3.1). With Σ<sub>w</sub> = LLᵀ and S<sub>b</sub> = BBᵀ (B's columns
 * √(n<sub>c</sub>/n)(μ<sub>c</sub> − μ)), the directions are W = L⁻ᵀU, U the left singular vectors of L⁻¹B by
 * decreasing singular value: at most G − 1 of them, and WᵀΣ<sub>w</sub>W = I, so 3-NN distances in the reduced space are
 * within-class Mahalanobis distances.
 */
public final class RegularizedFda {
    private RegularizedFda() {}

    /**
     * The discriminant directions, d×min(dims, G − 1).
     *
     * @param x n ≥ 2 training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1 (capped at G − 1, the rank of S<sub>b</sub>)
     * @throws IllegalArgumentException on shapes or labels that do not fit, naming both sizes, or a degenerate
     *     within-class scatter (every series equal to its class mean)
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        int d = Reductions.checkRows(x);
        int n = x.length;
        if (y.length != n) {
            throw new IllegalArgumentException("x has " + n + " rows but y has " + y.length + " labels");
        }
        if (dims < 1) {
            throw new IllegalArgumentException("dims must be ≥ 1, got " + dims);
        }
        int[] counts = new int[numClasses];
        double[][] means = new double[numClasses][d];
        for (int i = 0; i < n; i++) {
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
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
        if (present < 2 || n < 2) {
            throw new IllegalArgumentException("FDA needs two classes with series, got " + present + " of " + n);
        }
        double[][] centred = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                centred[i][t] = x[i][t] - means[y[i]][t];
            }
        }
        DMatrixRMaj sw;
        try {
            sw = ShrinkageCovariance.estimate(centred, ShrinkageParams.ledoitWolf())
                    .covariance();
        } catch (CovarianceFitException e) {
            throw new IllegalArgumentException("FDA: every series equals its class mean; no within-class scatter", e);
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        if (!chol.decompose(sw)) {
            throw new IllegalArgumentException("FDA: the shrunk within-class covariance is not positive definite");
        }
        DMatrixRMaj l = chol.getT(null);
        double[] overall = Reductions.mean(x);
        DMatrixRMaj a = new DMatrixRMaj(d, present);
        double[] col = new double[d];
        int k = 0;
        for (int c = 0; c < numClasses; c++) {
            if (counts[c] == 0) {
                continue;
            }
            double w = Math.sqrt((double) counts[c] / n);
            for (int t = 0; t < d; t++) {
                col[t] = w * (means[c][t] - overall[t]);
            }
            TriangularSolver_DDRM.solveL(l.data, col, d);
            for (int t = 0; t < d; t++) {
                a.set(t, k, col[t]);
            }
            k++;
        }
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(d, present, true, false, true);
        if (!svd.decompose(a)) {
            throw new IllegalStateException("FDA: the SVD of the whitened class means did not converge");
        }
        DMatrixRMaj u = svd.getU(null, false);
        DMatrixRMaj s = svd.getW(null);
        SingularOps_DDRM.descendingOrder(u, false, s, null, false);
        int ell = Math.min(dims, present - 1);
        DMatrixRMaj out = new DMatrixRMaj(d, ell);
        for (int j = 0; j < ell; j++) {
            for (int t = 0; t < d; t++) {
                col[t] = u.get(t, j);
            }
            TriangularSolver_DDRM.solveTranL(l.data, col, d);
            int big = 0;
            for (int t = 1; t < d; t++) {
                big = Math.abs(col[t]) > Math.abs(col[big]) ? t : big;
            }
            double sign = col[big] < 0 ? -1 : 1;
            for (int t = 0; t < d; t++) {
                out.set(t, j, sign * col[t]);
            }
        }
        return out;
    }
}
