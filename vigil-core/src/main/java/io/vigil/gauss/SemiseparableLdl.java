package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * The LDLᵀ factorisation Σ = L D Lᵀ (L unit lower-triangular, D diagonal) of Σ = a·I + U Uᵀ (U d×r, a &gt; 0, or a ≥ 0
 * with U of full column rank d) in semiseparable generator form: the strict lower part is L_ts = w_tᵀ v_s with
 * vectors of length r, w_t = u_t (row t of U) and v_s = k_s (a Kalman gain), computed in O(d·r²) time and O(d·r)
 * memory. Immutable.
 *
 * <p><b>Derivation</b> (sequential conditioning; docs/method.md §3.1, thesis §5.4). Σ is the covariance of
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
 *
 * <p><b>Trapezoidal U.</b> Let span_t = max_{s≤t} (1 + last non-zero index of u_s). Then J_{t−1} = P_{t−1}⁻¹ =
 * I + Σ_{s&lt;t} u_s u_sᵀ/a is the identity beyond span_{t−1}, hence so are P_{t−1} and S_{t−1}, and k_t, ẑ_t are
 * zero beyond span_t. Every loop is cut there — exactly, the omitted terms are exact zeros. For the lower-trapezoidal
 * U of {@link LowRankShrinkage} span_t = min(t + 1, r): the first r steps cost O(t²), and the per-sample
 * innovation O(min(t + 1, r)), never more than the dense form's O(t); for any other U span_t = r.
 */
final class SemiseparableLdl {
    private final int length;
    private final int rank;
    private final double identityScale;
    private final double[] generators; // U, d×r row-major (w_t = u_t); shared, never modified
    private final double[] gains; // K, d×r row-major (v_s = k_s)
    private final double[] diag; // D
    private final int[] span; // span_t (see the class comment)

    private SemiseparableLdl(
            int length, int rank, double a, double[] generators, double[] gains, double[] diag, int[] span) {
        this.length = length;
        this.rank = rank;
        this.identityScale = a;
        this.generators = generators;
        this.gains = gains;
        this.diag = diag;
        this.span = span;
    }

    /**
     * Factorises a·I + U Uᵀ by (11).
     *
     * @param u U, d×r row-major; kept by reference, must not be modified afterwards
     */
    static SemiseparableLdl factor(double a, double[] u, int d, int r) {
        double[] gains = new double[d * r];
        double[] diag = new double[d];
        int[] span = spans(u, d, r);
        potter(a, u, d, r, span, gains, diag);
        return new SemiseparableLdl(d, r, a, u, gains, diag, span);
    }

    /** The pivots D_t of a·I + U Uᵀ alone (for the positive-definiteness check of a fit). */
    static double[] pivots(double a, double[] u, int d, int r) {
        double[] diag = new double[d];
        potter(a, u, d, r, spans(u, d, r), null, diag);
        return diag;
    }

    /** span_t = max_{s≤t} (1 + last non-zero index of row s of U), 0 while every row so far is zero. */
    static int[] spans(double[] u, int d, int r) {
        int[] span = new int[d];
        int m = 0;
        for (int t = 0; t < d; t++) {
            int row = t * r;
            for (int j = r - 1; j >= m; j--) {
                if (u[row + j] != 0.0) {
                    m = j + 1;
                    break;
                }
            }
            span[t] = m;
        }
        return span;
    }

    /** Rows per block of the blocked recursion (see {@link #potter}). */
    static final int BLOCK = 32;

    /**
     * Potter's recursion (11) for t = 0..d−1, organised in blocks of {@link #BLOCK} rows so that S (r×r, 0.7 MB at
     * r = 300, 8 MB at r = 1,000) is streamed twice per block instead of three times per row. Within a block that
     * starts from S₀, S_j = S₀·T_j with T_j = I − Σ_{i&lt;j} y_i f_iᵀ (compact form of the product of the rank-one
     * factors I − β_i f_i f_iᵀ of (11) expressed in S₀'s coordinates), so
     *
     * <pre>
     *   f_j = T_jᵀ (S₀ᵀ u_j) = S₀ᵀu_j − Σ_{i&lt;j} f_i (y_iᵀ S₀ᵀu_j),   q_j = T_j f_j = f_j − Σ_{i&lt;j} y_i (f_iᵀ f_j),
     *   D_j = a + ‖f_j‖²,   k_j = S₀ q_j / D_j,   y_j = β_j q_j,   S_new = S₀ − (S₀ Y) Fᵀ,
     * </pre>
     *
     * exactly the steps of (11) (S_{j}f_j = S₀ q_j), with S₀ᵀU_b, S₀Q and the update as matrix products of
     * O(r²·b) each and O(r·b²) inside the block.
     */
    private static void potter(double a, double[] u, int d, int r, int[] span, double[] gainsOut, double[] diagOut) {
        if (r == 0) {
            java.util.Arrays.fill(diagOut, a);
            return;
        }
        double[] s = new double[r * r];
        for (int i = 0; i < r; i++) {
            s[i * r + i] = 1.0;
        }
        double[] f0 = new double[BLOCK * r]; // S₀ᵀu_j, rows
        double[] ft = new double[BLOCK * r]; // f_j, rows
        double[] yt = new double[BLOCK * r]; // y_j, rows
        double[] qt = new double[r * BLOCK]; // q_j as columns (r×b)
        double[] g = new double[4 * BLOCK]; // rows i..i+3 of S₀Q
        double[] h = new double[BLOCK]; // row i of S₀Y
        double[] beta = new double[BLOCK];
        double[] inv = new double[BLOCK];
        for (int t0 = 0; t0 < d; t0 += BLOCK) {
            int b = Math.min(BLOCK, d - t0);
            // Everything of this block lives in the leading m×m part of S (identity beyond, class comment).
            int m = span[t0 + b - 1];
            // f0 = S₀ᵀU_b, the b steps in S₀'s coordinates, then the gains and S₀'s downdate row by row.
            projectBlock(s, u, t0, b, m, r, f0);
            sequentialSteps(a, t0, b, m, r, f0, ft, yt, qt, beta, inv, diagOut);
            downdateRows(s, t0, b, m, r, ft, qt, g, h, beta, inv, gainsOut);
        }
    }

    /**
     * f0_j = S₀ᵀ u_j for the b columns j of the block starting at t0 ({@link #potter}'s first phase): one pass over the
     * rows of S₀, four j at a time so that each row of S₀ is loaded once per four outputs (every f0 entry still sums
     * over i in ascending order).
     */
    private static void projectBlock(double[] s, double[] u, int t0, int b, int m, int r, double[] f0) {
        java.util.Arrays.fill(f0, 0, b * r, 0.0);
        for (int i = 0; i < m; i++) {
            int row = i * r;
            int j = 0;
            for (; j + 3 < b; j += 4) {
                double c0 = u[(t0 + j) * r + i];
                double c1 = u[(t0 + j + 1) * r + i];
                double c2 = u[(t0 + j + 2) * r + i];
                double c3 = u[(t0 + j + 3) * r + i];
                if (c0 != 0.0 || c1 != 0.0 || c2 != 0.0 || c3 != 0.0) {
                    int f = j * r;
                    for (int k = 0; k < m; k++) {
                        double sk = s[row + k];
                        f0[f + k] += c0 * sk;
                        f0[f + r + k] += c1 * sk;
                        f0[f + 2 * r + k] += c2 * sk;
                        f0[f + 3 * r + k] += c3 * sk;
                    }
                }
            }
            for (; j < b; j++) {
                double c = u[(t0 + j) * r + i];
                if (c != 0.0) {
                    int fr = j * r;
                    for (int k = 0; k < m; k++) {
                        f0[fr + k] += c * s[row + k];
                    }
                }
            }
        }
    }

    /** {@link #potter}'s second phase: the b sequential steps of the block in S₀'s coordinates (f_j, D_j, β_j, q_j). */
    private static void sequentialSteps(
            double a,
            int t0,
            int b,
            int m,
            int r,
            double[] f0,
            double[] ft,
            double[] yt,
            double[] qt,
            double[] beta,
            double[] inv,
            double[] diagOut) {
        for (int j = 0; j < b; j++) {
            int jr = j * r;
            System.arraycopy(f0, jr, ft, jr, m);
            for (int i = 0; i < j; i++) {
                double c = dot(yt, i * r, f0, jr, m);
                if (c != 0.0) {
                    int ir = i * r;
                    for (int k = 0; k < m; k++) {
                        ft[jr + k] -= c * ft[ir + k];
                    }
                }
            }
            double dt = a + dot(ft, jr, ft, jr, m);
            diagOut[t0 + j] = dt;
            inv[j] = 1.0 / dt;
            beta[j] = 1.0 / (dt + Math.sqrt(a * dt));
            // q_j = f_j − Σ_{i<j} y_i (f_iᵀ f_j), kept in yt row j for now.
            System.arraycopy(ft, jr, yt, jr, m);
            for (int i = 0; i < j; i++) {
                double c = dot(ft, i * r, ft, jr, m);
                if (c != 0.0) {
                    int ir = i * r;
                    for (int k = 0; k < m; k++) {
                        yt[jr + k] -= c * yt[ir + k];
                    }
                }
            }
            for (int k = 0; k < m; k++) {
                double q = yt[jr + k];
                qt[k * BLOCK + j] = q;
                yt[jr + k] = beta[j] * q;
            }
        }
    }

    /**
     * {@link #potter}'s third phase, per row i of S₀: (S₀Q)[i,:] by r axpys of length b, the gains, then S[i,:] −=
     * Σ_j β_j (S₀Q)[i,j] f_j. S₀Q is formed for four rows at a time (each q_k row loaded once per four rows; sums still
     * over k ascending).
     */
    private static void downdateRows(
            double[] s,
            int t0,
            int b,
            int m,
            int r,
            double[] ft,
            double[] qt,
            double[] g,
            double[] h,
            double[] beta,
            double[] inv,
            double[] gainsOut) {
        for (int i = 0; i < m; i++) {
            int row = i * r;
            int gi = (i & 3) * BLOCK;
            if ((i & 3) == 0) {
                s0q(s, qt, i, Math.min(4, m - i), m, r, b, g);
            }
            for (int j = 0; j < b; j++) {
                if (gainsOut != null) {
                    gainsOut[(t0 + j) * r + i] = g[gi + j] * inv[j];
                }
                h[j] = beta[j] * g[gi + j];
            }
            // Four j per pass over the row, subtracted in ascending j as one at a time would.
            int j = 0;
            for (; j + 3 < b; j += 4) {
                double c0 = h[j];
                double c1 = h[j + 1];
                double c2 = h[j + 2];
                double c3 = h[j + 3];
                int f = j * r;
                for (int k = 0; k < m; k++) {
                    s[row + k] = (((s[row + k] - c0 * ft[f + k]) - c1 * ft[f + r + k]) - c2 * ft[f + 2 * r + k])
                            - c3 * ft[f + 3 * r + k];
                }
            }
            for (; j < b; j++) {
                double c = h[j];
                if (c != 0.0) {
                    int fr = j * r;
                    for (int k = 0; k < m; k++) {
                        s[row + k] -= c * ft[fr + k];
                    }
                }
            }
        }
    }

    /** Rows i0..i0+rows−1 (rows ≤ 4) of S₀Q (m×b, Q = {@code qt} as r×BLOCK columns) into g, BLOCK apart. */
    private static void s0q(double[] s, double[] qt, int i0, int rows, int m, int r, int b, double[] g) {
        java.util.Arrays.fill(g, 0.0);
        if (rows < 4) {
            for (int p = 0; p < rows; p++) {
                int row = (i0 + p) * r;
                int gp = p * BLOCK;
                for (int k = 0; k < m; k++) {
                    double sik = s[row + k];
                    if (sik != 0.0) {
                        int qr = k * BLOCK;
                        for (int j = 0; j < b; j++) {
                            g[gp + j] += sik * qt[qr + j];
                        }
                    }
                }
            }
            return;
        }
        int r0 = i0 * r;
        for (int k = 0; k < m; k++) {
            double a0 = s[r0 + k];
            double a1 = s[r0 + r + k];
            double a2 = s[r0 + 2 * r + k];
            double a3 = s[r0 + 3 * r + k];
            if (a0 != 0.0 || a1 != 0.0 || a2 != 0.0 || a3 != 0.0) {
                int qr = k * BLOCK;
                for (int j = 0; j < b; j++) {
                    double q = qt[qr + j];
                    g[j] += a0 * q;
                    g[BLOCK + j] += a1 * q;
                    g[2 * BLOCK + j] += a2 * q;
                    g[3 * BLOCK + j] += a3 * q;
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

    /** span_t: rows t of U and K are zero from this index on (read-only by contract). */
    int[] spanRef() {
        return span;
    }

    /** L_ts = u_tᵀ k_s for s &lt; t (10), 1 for s = t, 0 above the diagonal. */
    double unitLower(int t, int s) {
        if (s > t) {
            return 0.0;
        }
        if (s == t) {
            return 1.0;
        }
        return dot(generators, t * rank, gains, s * rank, span[s]);
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
