package io.vigil.ldg;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Orthonormal bases of the span of centred training data, from either side of the thin factorisation
 * X<sub>c</sub> = W S Uᵀ (docs/method.md §1): the kernel side eigendecomposes the m×m centred Gram matrix
 * K = X<sub>c</sub>X<sub>c</sub>ᵀ (never d×d), the primal side the d×d scatter X<sub>c</sub>ᵀX<sub>c</sub>. Both keep
 * only directions with eigenvalue above {@link #RANK_RTOL} × the largest, so B stays inside the data span
 * and the spurious zero-eigenvalue directions (the constant vector of K, the null space of the scatter)
 * are never offered.
 */
final class Spans {
    /**
     * Relative eigenvalue threshold of the data span. Eigenvalues of K (or of the scatter) are squared
     * singular values σ² of the centred data; a direction with σ²/σ²<sub>max</sub> ≤ 1e-10
     * (σ/σ<sub>max</sub> ≤ 1e-5) carries a variance indistinguishable from the rounding of the Gram entries
     * (each a length-d dot product with relative error ≈ d·ε ≈ 4e-12 for d = 20,000), and a basis vector
     * U = X<sub>c</sub>W/σ built from it would amplify that rounding by 1/σ². Above it, the residual
     * non-orthonormality (≲ ε·σ²<sub>max</sub>/σ² ≤ 2e-6) is removed by one Cholesky re-orthonormalisation.
     */
    static final double RANK_RTOL = 1e-10;

    private Spans() {}

    /** Kernel-side span: K = W Λ Wᵀ, columns of W with λ above the threshold, largest first. */
    record KernelSpan(DMatrixRMaj w, double[] sigma) {
        int rank() {
            return sigma.length;
        }

        /** Coordinates Y = W S of the training points in the basis U = X<sub>c</sub>ᵀ W S⁻¹ (m×r). */
        DMatrixRMaj coordinates() {
            int m = w.numRows;
            int r = rank();
            DMatrixRMaj y = new DMatrixRMaj(m, r);
            for (int i = 0; i < m; i++) {
                for (int c = 0; c < r; c++) {
                    y.data[i * r + c] = w.data[i * r + c] * sigma[c];
                }
            }
            return y;
        }

        /**
         * α = W S⁻¹ u (m×r'): the coefficients with B = X<sub>c</sub>ᵀ α for eigenvectors u (r×r') of the
         * span problem.
         */
        DMatrixRMaj coefficients(DMatrixRMaj u) {
            int m = w.numRows;
            int r = rank();
            DMatrixRMaj ws = new DMatrixRMaj(m, r);
            for (int i = 0; i < m; i++) {
                for (int c = 0; c < r; c++) {
                    ws.data[i * r + c] = w.data[i * r + c] / sigma[c];
                }
            }
            DMatrixRMaj alpha = new DMatrixRMaj(m, u.numCols);
            CommonOps_DDRM.mult(ws, u, alpha);
            return alpha;
        }
    }

    /**
     * Eigendecomposes a centred Gram matrix and keeps the data span.
     *
     * @param k m×m symmetric, already double-centred (H K H); not modified
     * @throws IllegalArgumentException if the data span has dimension 0 (all points coincide)
     */
    static KernelSpan kernel(DMatrixRMaj k) {
        int m = k.numRows;
        Kernels.SortedEigen e = Kernels.symmetricEigen(k, true, "the " + m + "×" + m + " centred kernel matrix");
        double[] v = e.values();
        int r = rank(v);
        if (r == 0) {
            throw new IllegalArgumentException("the training rows span no direction: all " + m
                    + " points coincide after centring, so LDG has nothing to reduce");
        }
        DMatrixRMaj w = new DMatrixRMaj(m, r);
        double[] sigma = new double[r];
        for (int c = 0; c < r; c++) {
            int src = m - 1 - c;
            sigma[c] = Math.sqrt(v[src]);
            for (int i = 0; i < m; i++) {
                w.data[i * r + c] = e.vectors().data[i * m + src];
            }
        }
        return new KernelSpan(w, sigma);
    }

    /**
     * Primal-side span from the d×d scatter: null (meaning U = I, the whole space) when the scatter has
     * full numerical rank, so B is then exactly the eigenvectors of the d×d matrix V − γA; otherwise the
     * d×r matrix of eigenvectors above the threshold, largest first.
     *
     * @throws IllegalArgumentException if the data span has dimension 0
     */
    static DMatrixRMaj primal(DMatrixRMaj scatter) {
        int d = scatter.numRows;
        String what = "the " + d + "×" + d + " scatter matrix";
        double[] v = Kernels.symmetricEigen(scatter, false, what).values();
        double max = v[d - 1];
        if (!(max > 0)) {
            throw new IllegalArgumentException(
                    "the training rows span no direction: all points coincide, so LDG has nothing to reduce");
        }
        if (v[0] > RANK_RTOL * max) {
            return null;
        }
        Kernels.SortedEigen e = Kernels.symmetricEigen(scatter, true, what);
        v = e.values();
        int r = rank(v);
        DMatrixRMaj u = new DMatrixRMaj(d, r);
        for (int c = 0; c < r; c++) {
            int src = d - 1 - c;
            for (int i = 0; i < d; i++) {
                u.data[i * r + c] = e.vectors().data[i * d + src];
            }
        }
        return u;
    }

    /**
     * The dimension of the data span kept by {@link #kernel} and {@link #primal}: the number of eigenvalues above
     * {@link #RANK_RTOL} × the largest (0 when the largest is not positive).
     *
     * @param ascending eigenvalues of a centred Gram matrix or scatter, ascending
     */
    static int rank(double[] ascending) {
        int m = ascending.length;
        double max = ascending[m - 1];
        int r = 0;
        while (r < m && ascending[m - 1 - r] > RANK_RTOL * max && max > 0) {
            r++;
        }
        return r;
    }

    /** {@link #rank} of a symmetric matrix from its eigenvalues alone (no eigenvectors). */
    static int rankOf(DMatrixRMaj symmetric, String what) {
        return rank(Kernels.symmetricEigen(symmetric, false, what).values());
    }

    /** Replaces a symmetric matrix by H K H with H = I − 11ᵀ/m (double centring), in place. */
    static void doubleCentre(DMatrixRMaj k) {
        int m = k.numRows;
        double[] a = k.data;
        double[] rowMean = new double[m];
        double total = 0;
        for (int i = 0; i < m; i++) {
            double s = 0;
            for (int j = 0; j < m; j++) {
                s += a[i * m + j];
            }
            rowMean[i] = s / m;
            total += rowMean[i];
        }
        total /= m;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                a[i * m + j] = a[i * m + j] - rowMean[i] - rowMean[j] + total;
            }
        }
        Kernels.symmetrize(k);
    }
}
