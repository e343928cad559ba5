package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The reduced-rank (probabilistic-PCA) form σ²·I + W_q W_qᵀ of a Gaussian covariance Σ = a·I + W Wᵀ, W of size D×r:
 * the maximum-likelihood PPCA fit of Tipping &amp; Bishop (1999, J. R. Stat. Soc. B 61:611–622, eqs. 7–8) with Σ as
 * the sample covariance. With λ_1 ≥ … ≥ λ_r the eigenvalues of W Wᵀ and u_i its unit eigenvectors,
 *
 * <pre>
 *   σ² = a + (Σ_{i&gt;q} λ_i) / (D − q),      W_q = [u_1 … u_q] · diag(λ_i − (σ² − a))^{1/2}
 * </pre>
 *
 * i.e. the mean of Σ's D − q smallest eigenvalues becomes the isotropic term and the q largest are kept exactly (σ² +
 * |w_i|² = a + λ_i). It is the Gaussian of this form closest to N(x̄, Σ) in Kullback–Leibler divergence KL(N(Σ) ‖
 * N(Σ_q)) (the PPCA log-likelihood is −KL up to a constant), preserves tr Σ, and is positive definite whenever Σ is
 * (σ² ≥ a, and σ² &gt; 0 when anything is discarded from a positive definite Σ). The eigenvectors come from the r×r
 * Gram matrix WᵀW = V Λ Vᵀ (u_i = W v_i / √λ_i), so the cost is O(D·r² + r³) once, never D×D beyond r = D.
 */
final class ProbabilisticPca {
    private ProbabilisticPca() {}

    /** σ² and W_q (D×q row-major) of the reduced form. */
    record Reduced(double noise, double[] factor, int rank) {}

    /**
     * The reduced form keeping {@code q} directions.
     *
     * @param w W, D×r row-major; not modified
     * @param d D
     * @param r r
     * @param a a ≥ 0
     * @param q 1 ≤ q &lt; min(r, D)
     */
    static Reduced reduce(double[] w, int d, int r, double a, int q) {
        if (q < 1 || q >= r || q >= d) {
            throw new IllegalArgumentException("the reduced rank q must be in 1.." + (Math.min(r, d) - 1) + " (D = " + d
                    + ", r = " + r + "), got " + q);
        }
        DMatrixRMaj wm = DMatrixRMaj.wrap(d, r, w);
        DMatrixRMaj gram = new DMatrixRMaj(r, r);
        CommonOps_DDRM.multInner(wm, gram);
        GramSpectrum spec = GramSpectrum.of(gram);
        double[] lambda = spec.values();
        double discarded = 0.0;
        for (int i = q; i < r; i++) {
            discarded += lambda[i];
        }
        double extra = discarded / (d - q);
        double[] v = spec.vectors().data;
        double[] out = new double[d * q];
        for (int k = 0; k < q; k++) {
            double scale = lambda[k] > 0.0 ? Math.sqrt(Math.max(0.0, lambda[k] - extra) / lambda[k]) : 0.0;
            for (int j = 0; j < d; j++) {
                double s = 0.0;
                int row = j * r;
                for (int m = 0; m < r; m++) {
                    s += w[row + m] * v[m * r + k];
                }
                out[j * q + k] = s * scale;
            }
        }
        return new Reduced(a + extra, out, q);
    }
}
