package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * {@link ConditionalModel} of a {@link LowRankGaussian} (Σ = a·I + U Uᵀ, semiseparable L_ts = u_tᵀk_s of {@link
 * SemiseparableLdl}). Per sample, with the running r-vector ẑ_{t−1} = Σ_{s&lt;t} k_s e_s = E[z | x_1..x_{t−1}] kept
 * in the {@link SeriesState}:
 *
 * <pre>
 *   e_t = x_t − x̄_t − u_tᵀ ẑ_{t−1},   ẑ_t = ẑ_{t−1} + k_t e_t          (eqs. 6, 8 of SemiseparableLdl; O(r))
 * </pre>
 *
 * (both cut at span_t = min(t + 1, r) for the lower-trapezoidal U of a fit, see {@link SemiseparableLdl}), and the
 * projected step of the conditional mean p_t = (BᵀL)[:, t] = b_t + Σ_{s&gt;t} b_s L_st = b_t + C_t k_t with
 * C_t = Σ_{s&gt;t} b_s u_sᵀ (ℓ×r), accumulated backward over t: P costs O(d·ℓ·r) instead of the dense O(d²ℓ), and
 * is tabulated once (d×ℓ) so the mean update stays O(ℓ). The R_y(t) table then follows from p_t and D_t in O(d·ℓ²)
 * exactly as in the dense form. Memory besides the table: U and K (8·d·r bytes each), P (8·d·ℓ).
 */
final class LowRankConditionalModel extends ConditionalModel {
    private final double[] mean;
    private final double[] generators; // U rows
    private final double[] gains; // K rows
    private final int[] span; // rows t of U and K vanish from span[t] on
    private final int rank;

    private LowRankConditionalModel(LowRankGaussian gaussian, SemiseparableLdl ldl, DMatrixRMaj basis) {
        super(gaussian, basis, gaussian.meanRef(), ldl.diagRef(), projection(ldl, basis));
        this.mean = gaussian.meanRef();
        this.generators = ldl.generatorsRef();
        this.gains = ldl.gainsRef();
        this.span = ldl.spanRef();
        this.rank = ldl.rank();
    }

    static LowRankConditionalModel of(LowRankGaussian gaussian, DMatrixRMaj basis) {
        return new LowRankConditionalModel(gaussian, gaussian.ldl(), basis);
    }

    /** p_t = b_t + C_t k_t, C_t = Σ_{s&gt;t} b_s u_sᵀ, for t = d−1 down to 0. O(d·ℓ·r). */
    private static double[] projection(SemiseparableLdl ldl, DMatrixRMaj basis) {
        int d = ldl.length();
        int r = ldl.rank();
        int l = basis.numCols;
        double[] u = ldl.generatorsRef();
        double[] k = ldl.gainsRef();
        double[] b = basis.data;
        int[] span = ldl.spanRef();
        double[] c = new double[l * r]; // C_t, ℓ×r row-major
        double[] projT = new double[d * l];
        for (int t = d - 1; t >= 0; t--) {
            int bRow = t * l;
            int kRow = t * r;
            int m = span[t];
            for (int i = 0; i < l; i++) {
                projT[bRow + i] = b[bRow + i] + SemiseparableLdl.dot(c, i * r, k, kRow, m);
            }
            for (int i = 0; i < l; i++) {
                double bi = b[bRow + i];
                if (bi != 0.0) {
                    int cRow = i * r;
                    for (int j = 0; j < m; j++) {
                        c[cRow + j] += bi * u[kRow + j];
                    }
                }
            }
        }
        return projT;
    }

    @Override
    double innovation(int t, double x, double[] innovations, int off, double[] work, int workOff) {
        int row = t * rank;
        int m = span[t];
        double e = x - (mean[t] + SemiseparableLdl.dot(generators, row, work, workOff, m));
        for (int j = 0; j < m; j++) {
            work[workOff + j] += gains[row + j] * e;
        }
        return e;
    }

    @Override
    int workSize() {
        return rank;
    }

    /** ẑ_t = Σ_{s&lt;t} k_s e_s, in O(t·r). */
    @Override
    void restoreWork(int t, double[] innovations, int off, double[] work, int workOff) {
        java.util.Arrays.fill(work, workOff, workOff + rank, 0.0);
        for (int s = 0; s < t; s++) {
            double e = innovations[off + s];
            int row = s * rank;
            int m = span[s];
            for (int j = 0; j < m; j++) {
                work[workOff + j] += gains[row + j] * e;
            }
        }
    }
}
