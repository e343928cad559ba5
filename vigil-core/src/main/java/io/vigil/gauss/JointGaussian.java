package io.vigil.gauss;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;

/**
 * The joint Gaussian model of a complete series, X ~ N(x̄, Σ) (thesis eq. 5.19), held as Σ = L D Lᵀ
 * with L unit lower-triangular and D diagonal &gt; 0. That factorisation is the innovations form of
 * sequential observation (docs/method.md §3.1): with X − x̄ = L e, the innovations e_t are independent
 * N(0, D_t), which is what makes the conditional moments incremental ({@link ConditionalModel}).
 * Immutable.
 *
 * <p><b>How L and D are computed.</b> Σ is first symmetrised explicitly, (Σ + Σᵀ)/2, so rounding
 * asymmetry cannot make it look indefinite. A Cholesky factorisation Σ = C Cᵀ (EJML) is backward stable
 * for positive-definite matrices without pivoting (Higham, <i>Accuracy and Stability</i>, Thm 10.3);
 * L = C·diag(c_tt)⁻¹ and D_t = c_tt² then cost one rounding per entry, so L D Lᵀ reproduces Σ as well
 * as C Cᵀ does. Computing the LDLᵀ form directly gives nothing more and loses the cheap positive
 * definiteness test. A pivot D_t below {@code 16·d·ε·max_i Σ_ii} is treated as zero (it is within the
 * Cholesky backward error), and a factorisation that fails or has such a pivot is retried with a
 * ridge λI, λ = ρ·tr(Σ)/d for ρ = 1e-10, 1e-8, …, 1e-2 in turn; the ridge and the reason are recorded
 * in {@link #fitInfo()}. If even ρ = 1e-2 fails, {@link CovarianceFitException} reports why.
 *
 * <p>Storage: x̄ and D (d doubles each) and the strict lower triangle of L packed by rows, entry (s, t)
 * for t &lt; s at {@code s(s−1)/2 + t} — d(d−1)/2 doubles (4.2 MB at d = 1,024). This is the {@link
 * CovarianceForm#DENSE} form; {@link LowRankGaussian} holds the same shrinkage estimate in O(d·n).
 */
public final class JointGaussian implements SeriesGaussian {
    /** Largest series length of the dense form: a dense d×d covariance must fit one Java array. */
    public static final int MAX_LENGTH = 46_340;

    /**
     * Pivots D_t below {@code PIVOT_FLOOR_PER_DIMENSION · d · max_i Σ_ii} count as zero: the Cholesky
     * backward error is bounded by γ_{d+1}·|C||Cᵀ| ≈ (d+1)·ε·max Σ_ii elementwise (Higham Thm 10.3), so a
     * smaller pivot is indistinguishable from rounding noise; the factor 16 = 8 × 2 allows for the
     * symmetrisation and the shrinkage arithmetic before it.
     */
    static final double PIVOT_FLOOR_PER_DIMENSION = 16.0 * Math.ulp(1.0);

    private final int length;
    private final double[] mean;
    private final double[] strictLower;
    private final double[] diag;
    private final FitInfo fitInfo;

    private JointGaussian(double[] mean, double[] strictLower, double[] diag, FitInfo fitInfo) {
        this.length = mean.length;
        this.mean = mean;
        this.strictLower = strictLower;
        this.diag = diag;
        this.fitInfo = fitInfo;
    }

    /**
     * Fits N(x̄, Σ̂) to n complete training series with a shrinkage covariance (thesis eq. 5.19).
     *
     * @param rows n ≥ 2 series of length d (n×d), finite; not modified
     * @param params shrinkage (default {@link ShrinkageParams#defaults()})
     * @throws IllegalArgumentException on bad shapes or values
     * @throws CovarianceFitException when no positive-definite covariance can be formed
     */
    public static JointGaussian fit(double[][] rows, ShrinkageParams params) {
        CovarianceEstimate est = ShrinkageCovariance.estimate(rows, params);
        return fromCovariance(est.meanRef(), est.covarianceRef(), est.shrinkage());
    }

    /**
     * Builds the model from a given mean and covariance, factorising Σ = L D Lᵀ as described in the
     * class comment.
     *
     * @param mean x̄, length d; copied
     * @param covariance Σ, d×d, symmetric up to rounding, finite; not modified
     * @param shrinkage how Σ was obtained ({@link Shrinkage#external()} if not by shrinkage here)
     * @throws IllegalArgumentException on shape mismatch or non-finite entries
     * @throws CovarianceFitException when Σ is not positive definite even with the largest ridge
     */
    public static JointGaussian fromCovariance(double[] mean, DMatrixRMaj covariance, Shrinkage shrinkage) {
        Objects.requireNonNull(shrinkage, "shrinkage");
        int d = mean.length;
        checkLength(d);
        if (covariance.numRows != d || covariance.numCols != d) {
            throw new IllegalArgumentException(
                    "covariance is " + covariance.numRows + "×" + covariance.numCols + " but the mean has length " + d);
        }
        requireFinite(mean, "mean");
        requireFinite(covariance.data, "covariance");
        DMatrixRMaj sym = new DMatrixRMaj(d, d);
        double trace = 0.0;
        double maxDiag = 0.0;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (covariance.get(i, j) + covariance.get(j, i));
                sym.data[i * d + j] = v;
                sym.data[j * d + i] = v;
            }
            double v = covariance.get(i, i);
            sym.data[i * d + i] = v;
            trace += v;
            maxDiag = Math.max(maxDiag, v);
        }
        double scale = trace / d;
        if (!(scale > 0.0)) {
            throw new CovarianceFitException(
                    "covariance has trace " + trace + " ≤ 0: it cannot be positive definite, no ridge scale");
        }
        double[] strictLower = new double[d * (d - 1) / 2];
        double[] diag = new double[d];
        FitInfo info = FitInfo.of(shrinkage);
        String failure = tryFactor(sym, 0.0, maxDiag, strictLower, diag);
        if (failure != null) {
            double top = maxDiag;
            info = RidgeLadder.climb(
                    shrinkage, scale, failure, ridge -> tryFactor(sym, ridge, top + ridge, strictLower, diag));
        }
        return new JointGaussian(mean.clone(), strictLower, diag, info);
    }

    /**
     * Restores a model from stored factors (the model file keeps x̄, L, D and the fit info).
     *
     * @param mean x̄, length d; copied
     * @param unitLower L, d×d, unit diagonal, zero above it, finite; not modified
     * @param innovationVariances D, length d, finite and &gt; 0; copied
     * @param fitInfo as recorded at fit time
     * @throws IllegalArgumentException on any shape or value violation
     */
    public static JointGaussian fromFactors(
            double[] mean, DMatrixRMaj unitLower, double[] innovationVariances, FitInfo fitInfo) {
        int d = mean.length;
        checkLength(d);
        if (unitLower.numRows != d || unitLower.numCols != d) {
            throw new IllegalArgumentException(
                    "L is " + unitLower.numRows + "×" + unitLower.numCols + " but the mean has length " + d);
        }
        double[] packed = new double[d * (d - 1) / 2];
        int p = 0;
        for (int s = 0; s < d; s++) {
            for (int t = 0; t < d; t++) {
                double v = unitLower.get(s, t);
                if (t < s) {
                    packed[p++] = v;
                } else if (t == s && v != 1.0) {
                    throw new IllegalArgumentException("L must have a unit diagonal; L[" + s + "," + s + "] = " + v);
                } else if (t > s && v != 0.0) {
                    throw new IllegalArgumentException(
                            "L must be lower triangular; L[" + s + "," + t + "] = " + v + " above the diagonal");
                }
            }
        }
        return fromPackedFactors(mean, packed, innovationVariances, fitInfo);
    }

    /**
     * Restores a model from stored factors with L given as its packed strict lower triangle (row s holds
     * L[s, 0..s−1] at offset s(s−1)/2; see {@link #strictLowerPacked()}).
     *
     * @param mean x̄, length d; copied
     * @param strictLowerPacked d(d−1)/2 finite values; copied
     * @param innovationVariances D, length d, finite and &gt; 0; copied
     * @param fitInfo as recorded at fit time
     * @throws IllegalArgumentException on any shape or value violation
     */
    public static JointGaussian fromPackedFactors(
            double[] mean, double[] strictLowerPacked, double[] innovationVariances, FitInfo fitInfo) {
        Objects.requireNonNull(fitInfo, "fitInfo");
        int d = mean.length;
        checkLength(d);
        int expected = d * (d - 1) / 2;
        if (strictLowerPacked.length != expected) {
            throw new IllegalArgumentException("packed strict lower triangle has " + strictLowerPacked.length
                    + " values but length " + d + " needs d(d−1)/2 = " + expected);
        }
        if (innovationVariances.length != d) {
            throw new IllegalArgumentException(
                    "D has length " + innovationVariances.length + " but the mean has length " + d);
        }
        requireFinite(mean, "mean");
        requireFinite(strictLowerPacked, "L");
        for (int t = 0; t < d; t++) {
            double v = innovationVariances[t];
            if (!(v > 0.0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("D[" + t + "] must be finite and > 0, got " + v);
            }
        }
        return new JointGaussian(mean.clone(), strictLowerPacked.clone(), innovationVariances.clone(), fitInfo);
    }

    /**
     * Cholesky of sym + ridge·I into (strictLower, diag); returns null on success or the failure reason.
     */
    private static String tryFactor(
            DMatrixRMaj sym, double ridge, double maxDiag, double[] strictLower, double[] diag) {
        int d = sym.numRows;
        DMatrixRMaj work = sym.copy();
        if (ridge > 0.0) {
            for (int i = 0; i < d; i++) {
                work.data[i * d + i] += ridge;
            }
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        if (!chol.decompose(work)) {
            return "Cholesky factorisation failed";
        }
        DMatrixRMaj c = chol.getT(null);
        double floor = PIVOT_FLOOR_PER_DIMENSION * d * maxDiag;
        for (int t = 0; t < d; t++) {
            double ctt = c.data[t * d + t];
            double dt = ctt * ctt;
            if (!(dt > floor) || !Double.isFinite(dt)) {
                return RidgeLadder.pivotFailure(t, dt, floor);
            }
            diag[t] = dt;
        }
        for (int s = 1; s < d; s++) {
            int base = s * (s - 1) / 2;
            for (int t = 0; t < s; t++) {
                strictLower[base + t] = c.data[s * d + t] / c.data[t * d + t];
            }
        }
        return null;
    }

    private static void checkLength(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("series length must be ≥ 1, got " + d);
        }
        if (d > MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "series length " + d + " exceeds the supported maximum " + MAX_LENGTH + " (dense d×d covariance)");
        }
    }

    static void requireFinite(double[] v, String what) {
        for (int i = 0; i < v.length; i++) {
            if (!Double.isFinite(v[i])) {
                throw new IllegalArgumentException(what + " has a non-finite value at index " + i + ": " + v[i]);
            }
        }
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public CovarianceForm form() {
        return CovarianceForm.DENSE;
    }

    @Override
    public double[] mean() {
        return mean.clone();
    }

    /** L as a dense unit lower-triangular d×d matrix (new matrix). */
    DMatrixRMaj unitLower() {
        int d = length;
        DMatrixRMaj l = new DMatrixRMaj(d, d);
        for (int s = 0; s < d; s++) {
            int base = s * (s - 1) / 2;
            for (int t = 0; t < s; t++) {
                l.data[s * d + t] = strictLower[base + t];
            }
            l.data[s * d + s] = 1.0;
        }
        return l;
    }

    /** The strict lower triangle of L packed by rows: L[s, t], t &lt; s, at s(s−1)/2 + t (copy). */
    public double[] strictLowerPacked() {
        return strictLower.clone();
    }

    @Override
    public double[] innovationVariances() {
        return diag.clone();
    }

    /** Σ_ss = D_s + Σ_{t&lt;s} L[s, t]² D_t, from the factors without forming Σ. */
    @Override
    public double[] marginalVariances() {
        double[] v = new double[length];
        for (int s = 0; s < length; s++) {
            int base = s * (s - 1) / 2;
            double sum = diag[s];
            for (int t = 0; t < s; t++) {
                double l = strictLower[base + t];
                sum += l * l * diag[t];
            }
            v[s] = sum;
        }
        return v;
    }

    @Override
    public FitInfo fitInfo() {
        return fitInfo;
    }

    @Override
    public double logDeterminant() {
        double s = 0.0;
        for (double v : diag) {
            s += Math.log(v);
        }
        return s;
    }

    /** Σ = L D Lᵀ reconstructed densely (new d×d matrix; O(d³), for tests and reports). */
    @Override
    public DMatrixRMaj covariance() {
        int d = length;
        DMatrixRMaj l = unitLower();
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = 0.0;
                for (int k = 0; k <= j; k++) {
                    sum += l.data[i * d + k] * diag[k] * l.data[j * d + k];
                }
                out.data[i * d + j] = sum;
                out.data[j * d + i] = sum;
            }
        }
        return out;
    }

    /** True when mean, L, D and the fit record are bit-identical (what a save → load round trip keeps). */
    public boolean sameFactors(JointGaussian o) {
        return Arrays.equals(o.mean, mean)
                && Arrays.equals(o.diag, diag)
                && Arrays.equals(o.strictLower, strictLower)
                && o.fitInfo.equals(fitInfo);
    }

    /** The same factors with another mean and fit record (the mixture's pooled fallback for a class). */
    JointGaussian withMean(double[] classMean, FitInfo info) {
        if (classMean.length != length) {
            throw new IllegalArgumentException("mean has length " + classMean.length + " but d = " + length);
        }
        return new JointGaussian(classMean.clone(), strictLower, diag, Objects.requireNonNull(info, "info"));
    }

    /** The same factors with another fit record (e.g. a fallback note added by the mixture fit). */
    JointGaussian withFitInfo(FitInfo info) {
        return new JointGaussian(mean, strictLower, diag, Objects.requireNonNull(info, "info"));
    }

    double[] meanRef() {
        return mean;
    }

    double[] strictLowerRef() {
        return strictLower;
    }

    double[] diagRef() {
        return diag;
    }
}
