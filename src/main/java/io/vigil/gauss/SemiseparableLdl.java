package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * The LDLᵀ factorisation Σ = L D Lᵀ (L unit lower-triangular, D diagonal) of Σ = a·I + U Uᵀ (U d×r, a &gt; 0, or a ≥ 0
 * with U of full column rank d) in semiseparable generator form: the strict lower part is L_ts = w_tᵀ v_s with
 * vectors of length r, w_t = u_t (row t of U) and v_s = k_s (a Kalman gain), computed in O(d·r²) time and O(d·r)
 * memory. Immutable.
 *
 * <p><b>Derivation</b> (sequential conditioning; method notes §3.1, thesis §5.4). Σ is the covariance of
 *
 * <pre>
 *   X = x̄ + U z + √a·ε,   z ~ N(0, I_r),  ε ~ N(0, I_d) independent.                         (5)
 * </pre>
 *
 * Given x_1..x_{t−1} the latent z is Gaussian, z ~ N(ẑ_{t−1}, P_{t−1}), and x_t = x̄_t + u_tᵀz + √a·ε_t depends on
 * the past only through z, since ε_t is independent of it — the predictor of x_t lives in the r-dimensional space
 * of z. Observing x_t is one scalar Kalman measurement of a static state:
 *
 * <pre>
 *   E[x_t | x_&lt;t] = x̄_t + u_tᵀ ẑ_{t−1},                                                         (6)
 *   D_t = Var(x_t | x_&lt;t) = a + u_tᵀ P_{t−1} u_t,                                                (7)
 *   k_t = P_{t−1} u_t / D_t,   ẑ_t = ẑ_{t−1} + k_t e_t,   e_t = x_t − E[x_t | x_&lt;t],               (8)
 *   P_t = P_{t−1} − D_t k_t k_tᵀ,   ẑ_0 = 0,  P_0 = I_r.                                           (9)
 * </pre>
 *
 * Unrolling (8), ẑ_{t−1} = Σ_{s&lt;t} k_s e_s, so by (6) x_t − x̄_t = e_t + Σ_{s&lt;t} (u_tᵀk_s)·e_s: X − x̄ = L e with
 *
 * <pre>
 *   L_ts = u_tᵀ k_s  (s &lt; t),   L_tt = 1,                                                         (10)
 * </pre>
 *
 * and the innovations e_t are independent N(0, D_t), so Σ = Cov(L e) = L D Lᵀ — the unique LDLᵀ factorisation of
 * the positive-definite Σ. Per sample the innovation needs (6) and (8): O(r) with the running r-vector ẑ.
 *
 * <p><b>Numerics.</b> The covariance update (9) subtracts and can lose positive definiteness over d steps; the
 * recursion is run in Potter's square-root form (Potter 1963; Bierman, <i>Factorization Methods for Discrete
 * Sequential Estimation</i>, 1977, ch. V): P_t = S_t S_tᵀ with S_0 = I and, for f = S_{t−1}ᵀ u_t,
 *
 * <pre>
 *   D_t = a + ‖f‖²,   P_{t−1}u_t = S_{t−1} f,   S_t = S_{t−1} − β_t (S_{t−1} f) fᵀ,   β_t = 1 / (D_t + √(a·D_t)),   (11)
 * </pre>
 *
 * since (I − β f fᵀ)² = I − f fᵀ/D_t. P stays a Gram matrix, D_t ≥ a is a sum of non-negative terms, and β is
 * written without the cancelling 1 − √(a/D_t). Each step costs 3r² multiply-adds: O(d·r²) in all, O(r²) working
 * memory besides the d×r gains.
 */
final class SemiseparableLdl {
    private final int length;
    private final int rank;
    private final double identityScale;
    private final double[] generators; // U, d×r row-major (w_t = u_t); shared, never modified
    private final double[] gains; // K, d×r row-major (v_s = k_s)
    private final double[] diag; // D

    private SemiseparableLdl(int length, int rank, double a, double[] generators, double[] gains, double[] diag) {
        this.length = length;
        this.rank = rank;
        this.identityScale = a;
        this.generators = generators;
        this.gains = gains;
        this.diag = diag;
    }

    /**
     * Factorises a·I + U Uᵀ by (11).
     *
     * @param u U, d×r row-major; kept by reference, must not be modified afterwards
     */
    static SemiseparableLdl factor(double a, double[] u, int d, int r) {
        double[] gains = new double[d * r];
        double[] diag = new double[d];
        potter(a, u, d, r, gains, diag);
        return new SemiseparableLdl(d, r, a, u, gains, diag);
    }

    /** The pivots D_t of a·I + U Uᵀ alone (for the positive-definiteness check of a fit). */
    static double[] pivots(double a, double[] u, int d, int r) {
        double[] diag = new double[d];
        potter(a, u, d, r, null, diag);
        return diag;
    }

    private static void potter(double a, double[] u, int d, int r, double[] gainsOut, double[] diagOut) {
        double[] s = new double[r * r];
        for (int i = 0; i < r; i++) {
            s[i * r + i] = 1.0;
        }
        double[] f = new double[r];
        double[] g = new double[r];
        for (int t = 0; t < d; t++) {
            int ut = t * r;
            // f = Sᵀ u_t, accumulated row by row of S (contiguous).
            java.util.Arrays.fill(f, 0.0);
            for (int i = 0; i < r; i++) {
                double ui = u[ut + i];
                if (ui != 0.0) {
                    int row = i * r;
                    for (int j = 0; j < r; j++) {
                        f[j] += ui * s[row + j];
                    }
                }
            }
            double phi = dot(f, 0, f, 0, r);
            double dt = a + phi;
            diagOut[t] = dt;
            // g = S f = P_{t−1} u_t.
            for (int i = 0; i < r; i++) {
                g[i] = dot(s, i * r, f, 0, r);
            }
            if (gainsOut != null) {
                double inv = 1.0 / dt;
                for (int i = 0; i < r; i++) {
                    gainsOut[ut + i] = g[i] * inv;
                }
            }
            double beta = 1.0 / (dt + Math.sqrt(a * dt));
            for (int i = 0; i < r; i++) {
                double c = beta * g[i];
                if (c != 0.0) {
                    int row = i * r;
                    for (int j = 0; j < r; j++) {
                        s[row + j] -= c * f[j];
                    }
                }
            }
        }
    }

    /** Σ_i x[xo+i]·y[yo+i] for i &lt; n, with four partial sums (the dot products of (6) and (11)). */
    static double dot(double[] x, int xo, double[] y, int yo, int n) {
        double s0 = 0.0;
        double s1 = 0.0;
        double s2 = 0.0;
        double s3 = 0.0;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += x[xo + i] * y[yo + i];
            s1 += x[xo + i + 1] * y[yo + i + 1];
            s2 += x[xo + i + 2] * y[yo + i + 2];
            s3 += x[xo + i + 3] * y[yo + i + 3];
        }
        for (; i < n; i++) {
            s0 += x[xo + i] * y[yo + i];
        }
        return (s0 + s1) + (s2 + s3);
    }

    int length() {
        return length;
    }

    int rank() {
        return rank;
    }

    double identityScale() {
        return identityScale;
    }

    /** U rows (read-only by contract). */
    double[] generatorsRef() {
        return generators;
    }

    /** K rows (read-only by contract). */
    double[] gainsRef() {
        return gains;
    }

    /** D (read-only by contract). */
    double[] diagRef() {
        return diag;
    }

    /** L_ts = u_tᵀ k_s for s &lt; t (10), 1 for s = t, 0 above the diagonal. */
    double unitLower(int t, int s) {
        if (s > t) {
            return 0.0;
        }
        if (s == t) {
            return 1.0;
        }
        return dot(generators, t * rank, gains, s * rank, rank);
    }

    /** L as a dense d×d matrix (new; for tests on short series). */
    DMatrixRMaj unitLower() {
        DMatrixRMaj l = new DMatrixRMaj(length, length);
        for (int t = 0; t < length; t++) {
            for (int s = 0; s <= t; s++) {
                l.data[t * length + s] = unitLower(t, s);
            }
        }
        return l;
    }
}
