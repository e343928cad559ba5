package io.vigil.gauss;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The conditional moments of the LDG features Y = BᵀX of a complete series given its prefix, in the
 * innovations form (thesis §5.4.1 eq. 5.19; docs/method.md §3.1). Immutable; built once per Gaussian and
 * LDG basis, shared by every series (thread-safe).
 *
 * <p>With Σ = L D Lᵀ and X − x̄ = L e, the innovations e_t = x_t − E[x_t | x_1..x_{t−1}] are independent
 * N(0, D_t) and E[X | x_1..x_t] = E[X | x_1..x_{t−1}] + L[:,t]·e_t. With P = BᵀL (ℓ×d, column p_t):
 *
 * <ul>
 *   <li>prediction: E[x_t | x_1..x_{t−1}] = x̄_t + Σ_{s&lt;t} L[t,s]·e_s — O(t) per sample (dense L), O(min(t + 1,
 *       r)) in the low-rank form;
 *   <li>mean: m_y(t) = m_y(t−1) + p_t·e_t, m_y(0) = Bᵀx̄ — O(ℓ) per sample;
 *   <li>covariance: R_y(t) = R_y(t−1) − D_t p_t p_tᵀ, which does not depend on the observed values and is
 *       tabulated here for t = 0..d. It is evaluated backward as R_y(t) = Σ_{s&gt;t} D_s p_s p_sᵀ
 *       (1-based s), a sum of positive semidefinite terms: the same matrices as the forward recursion,
 *       but without its cancellation, positive semidefinite up to rounding, and exactly 0 at t = d;
 *   <li>log-likelihood of the prefix: log p(x_1..x_t) = Σ_s log N(e_s; 0, D_s) (for the GMM posterior,
 *       eq. 5.20).
 * </ul>
 *
 * No matrix is inverted per sample. These equal the direct formulas m = x̄ + Σ_xz Σ_zz⁻¹(z − z̄),
 * R = Σ_xx − Σ_xz Σ_zz⁻¹ Σ_zx, m_y = Bᵀm, R_y = BᵀRB (tested for every t).
 *
 * <p>Two implementations differ only in the prediction and in how P is formed: {@link DenseConditionalModel}
 * (dense L of a {@link JointGaussian}: O(t) prediction, P in O(d²ℓ)) and {@link LowRankConditionalModel}
 * (semiseparable L of a {@link LowRankGaussian}: O(min(t + 1, r)) prediction from a running r-vector kept in the
 * {@link SeriesState}, P in O(d·ℓ·r)). The R_y table, the mean update and the log-density are shared.
 *
 * <p>Memory: the R_y table takes 8·(d+1)·ℓ(ℓ+1)/2 bytes (3.8 MB at d = 1,024, ℓ = 30; 0.5 MB at d = 128;
 * 74 MB at d = 20,000, ℓ = 30), P 8·d·ℓ bytes, plus the Gaussian's factors. B need not have orthonormal
 * columns; the formulas hold for any d×ℓ matrix.
 *
 * <p>Time indices: "t" counts observed samples, 0..d; the sample arriving when t have been seen is
 * x_{t+1} in 1-based notation, index t in Java arrays.
 */
public abstract sealed class ConditionalModel permits DenseConditionalModel, LowRankConditionalModel {
    private final SeriesGaussian gaussian;
    private final DMatrixRMaj basis;
    private final int length;
    private final int reduced;
    private final int packedSize;
    private final double[] halfInvD;
    private final double[] logNormConst;
    private final double[] projT; // P transposed: row t (length ℓ) = p_t
    private final double[] initialMean; // m_y(0) = Bᵀx̄
    private final double[] covTable; // (d+1) rows of ℓ(ℓ+1)/2, row t = R_y(t) packed

    /**
     * @param mean x̄ (length d)
     * @param diag D (length d, &gt; 0)
     * @param projT P transposed, d×ℓ row-major (row t = p_t); kept
     */
    ConditionalModel(SeriesGaussian gaussian, DMatrixRMaj basis, double[] mean, double[] diag, double[] projT) {
        this.gaussian = gaussian;
        this.basis = basis;
        this.length = gaussian.length();
        this.reduced = basis.numCols;
        this.packedSize = SymmetricPacked.size(reduced);
        this.projT = projT;
        int d = length;
        int l = reduced;
        this.halfInvD = new double[d];
        this.logNormConst = new double[d];
        for (int t = 0; t < d; t++) {
            halfInvD[t] = 0.5 / diag[t];
            logNormConst[t] = -0.5 * Math.log(2.0 * Math.PI * diag[t]);
        }
        double[] b = basis.data;
        this.initialMean = new double[l];
        for (int s = 0; s < d; s++) {
            double xs = mean[s];
            int bRow = s * l;
            for (int k = 0; k < l; k++) {
                initialMean[k] += b[bRow + k] * xs;
            }
        }
        long tableSize = (long) (d + 1) * packedSize;
        if (tableSize > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("conditional covariance table for d = " + d + ", ℓ = " + l + " needs "
                    + tableSize + " doubles, more than one Java array holds");
        }
        this.covTable = new double[(int) tableSize];
        int q = packedSize;
        for (int t = d - 1; t >= 0; t--) {
            int dst = t * q;
            System.arraycopy(covTable, dst + q, covTable, dst, q);
            double dt = diag[t];
            int pRow = t * l;
            int p = dst;
            for (int i = 0; i < l; i++) {
                double wi = dt * projT[pRow + i];
                for (int j = 0; j <= i; j++) {
                    covTable[p++] += wi * projT[pRow + j];
                }
            }
        }
    }

    /**
     * Builds the model for a Gaussian in either form and an LDL basis.
     *
     * @param gaussian the complete-series Gaussian (eq. 5.19)
     * @param basis B, d×ℓ with ℓ ≥ 1, finite; copied
     * @throws IllegalArgumentException when B's row count differs from the series length, or B has
     *     non-finite entries
     */
    public static ConditionalModel build(SeriesGaussian gaussian, DMatrixRMaj basis) {
        Objects.requireNonNull(gaussian, "gaussian");
        checkBasis(basis, gaussian.length());
        if (gaussian instanceof JointGaussian dense) {
            return new DenseConditionalModel(dense, basis.copy());
        }
        return LowRankConditionalModel.of((LowRankGaussian) gaussian, basis.copy());
    }

    static void checkBasis(DMatrixRMaj basis, int d) {
        if (basis.numRows != d) {
            throw new IllegalArgumentException("B has " + basis.numRows + " rows but the series has " + d + " samples");
        }
        if (basis.numCols < 1) {
            throw new IllegalArgumentException("B has no columns (ℓ = 0)");
        }
        JointGaussian.requireFinite(basis.data, "B");
    }

    /** Series length d. */
    public int length() {
        return length;
    }

    /** Reduced dimension ℓ. */
    public int reducedDimension() {
        return reduced;
    }

    /** The Gaussian this model was built from (for persistence). */
    public SeriesGaussian gaussian() {
        return gaussian;
    }

    /** B (copy). */
    public DMatrixRMaj basis() {
        return basis.copy();
    }

    /**
     * m_y(0) = Bᵀx̄, the feature mean before any sample.
     *
     * @param out length ℓ, overwritten
     */
    void initialMean(double[] out) {
        checkLength(out, reduced, "mean output");
        System.arraycopy(initialMean, 0, out, 0, reduced);
    }

    /**
     * R_y(t) = Cov(BᵀX | x_1..x_t) packed (see {@link SymmetricPacked}).
     *
     * @param t samples observed, 0..d
     * @param packedOut at least ℓ(ℓ+1)/2 values, overwritten from offset 0
     */
    public void conditionalCovariance(int t, double[] packedOut) {
        checkTime(t);
        if (packedOut.length < packedSize) {
            throw new IllegalArgumentException("packed output has " + packedOut.length + " values but ℓ = " + reduced
                    + " needs ℓ(ℓ+1)/2 = " + packedSize);
        }
        System.arraycopy(covTable, t * packedSize, packedOut, 0, packedSize);
    }

    /**
     * R_y(t) as a dense symmetric matrix.
     *
     * @param t samples observed, 0..d
     * @param out ℓ×ℓ, overwritten
     */
    public void conditionalCovariance(int t, DMatrixRMaj out) {
        checkTime(t);
        checkSquare(out, reduced);
        unpackRow(t, out.data);
    }

    /** The whole R_y table, (d+1)·ℓ(ℓ+1)/2 values, row t = R_y(t) packed (copy; for checks). */
    double[] covarianceTable() {
        return covTable.clone();
    }

    /** P = BᵀL as a new ℓ×d matrix (column t is the gain of innovation t on m_y). */
    public DMatrixRMaj projectedFactor() {
        DMatrixRMaj p = new DMatrixRMaj(reduced, length);
        for (int t = 0; t < length; t++) {
            for (int k = 0; k < reduced; k++) {
                p.data[k * length + t] = projT[t * reduced + k];
            }
        }
        return p;
    }

    /**
     * The innovation of the sample at index t, e_t = x − E[x_t | x_1..x_{t−1}], advancing any per-series working
     * vector of the form to t + 1.
     *
     * @param innovations e_0..e_{t−1} at {@code innovations[off..off+t)}
     * @param work the form's working vector at {@code work[workOff..workOff+workSize())}, valid for t samples
     */
    abstract double innovation(int t, double x, double[] innovations, int off, double[] work, int workOff);

    /** Length of the per-series working vector {@link #innovation} needs (0 for the dense form). */
    abstract int workSize();

    /**
     * Recomputes the working vector for t samples from the stored innovations (after a restore, copy or reset).
     */
    abstract void restoreWork(int t, double[] innovations, int off, double[] work, int workOff);

    /** shift[off..off+ℓ) += p_t·e. O(ℓ). */
    void accumulateMean(int t, double e, double[] shift, int off) {
        int pRow = t * reduced;
        for (int k = 0; k < reduced; k++) {
            shift[off + k] += projT[pRow + k] * e;
        }
    }

    /** log N(e; 0, D_t). */
    double logDensity(int t, double e) {
        return logNormConst[t] - halfInvD[t] * e * e;
    }

    double initialMean(int k) {
        return initialMean[k];
    }

    /** The R_y table itself (read-only by contract); row t starts at {@code t·ℓ(ℓ+1)/2}. */
    double[] tableRef() {
        return covTable;
    }

    void unpackRow(int t, double[] dense) {
        int l = reduced;
        int p = t * packedSize;
        for (int i = 0; i < l; i++) {
            for (int j = 0; j <= i; j++) {
                double v = covTable[p++];
                dense[i * l + j] = v;
                dense[j * l + i] = v;
            }
        }
    }

    private void checkTime(int t) {
        if (t < 0 || t > length) {
            throw new IllegalArgumentException("t = " + t + " is outside 0.." + length);
        }
    }

    static void checkLength(double[] out, int expected, String what) {
        if (out.length != expected) {
            throw new IllegalArgumentException(what + " has length " + out.length + " but ℓ = " + expected);
        }
    }

    static void checkSquare(DMatrixRMaj out, int l) {
        if (out.numRows != l || out.numCols != l) {
            throw new IllegalArgumentException(
                    "covariance output is " + out.numRows + "×" + out.numCols + " but ℓ×ℓ = " + l + "×" + l);
        }
    }
}
