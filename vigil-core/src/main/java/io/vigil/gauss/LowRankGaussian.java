package io.vigil.gauss;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * A complete-series Gaussian X ~ N(x̄, Σ) (thesis eqs. 5.19–5.20) with Σ = a·I + U Uᵀ, U of size d×r: exactly the
 * shrinkage estimate of n series toward a scaled identity, a = δμ, U = √((1 − δ)/n)·X_cᵀ rotated to lower-trapezoidal
 * form ({@link LowRankShrinkage}; r = n − 1, as the centred rows sum to zero). Nothing here is d×d: d·r doubles are
 * stored, the innovations form comes from the semiseparable LDLᵀ of {@link SemiseparableLdl} (O(d·r²), computed
 * once on first use and kept), and sequential conditioning costs O(r) per sample ({@link ConditionalModel}).
 * Immutable and thread-safe.
 *
 * <p><b>Positive definiteness.</b> Every pivot is D_t ≥ a (eq. 11 of {@link SemiseparableLdl}), so Σ is positive
 * definite whenever a is above the pivot floor {@code 16·d·ε·max_t Σ_tt} that the dense fit uses ({@link
 * JointGaussian#PIVOT_FLOOR_PER_DIMENSION}). When it is not — shrinkage {@code none} or a fixed intensity 0 with
 * n ≤ d, where the sample covariance is singular — the fit computes the pivots, and if one is below the floor it
 * adds the dense fit's ridge ladder λ = ρ·tr(Σ)/d, ρ = 1e-10, 1e-8, …, 1e-2, to a, recording it in {@link #fitInfo()}.
 * The Gaussian is then nearly degenerate off the training span (variance ≈ λ there): after ≈ n samples the
 * conditional covariance of the rest is close to λ·BᵀB, and early decisions come correspondingly soon.
 */
public final class LowRankGaussian implements SeriesGaussian {
    private final int length;
    private final int rank;
    private final double[] mean;
    private final double identityScale;
    private final double[] factor; // U, d×r row-major
    private final FitInfo fitInfo;
    private volatile SemiseparableLdl ldl;

    private LowRankGaussian(double[] mean, double a, double[] factor, int rank, FitInfo fitInfo) {
        this.length = mean.length;
        this.rank = rank;
        this.mean = mean;
        this.identityScale = a;
        this.factor = factor;
        this.fitInfo = fitInfo;
    }

    /**
     * Fits N(x̄, a·I + U Uᵀ) to n complete training series with a shrinkage covariance, never forming a d×d
     * matrix: O(n²d + n³) time, O(nd) memory.
     *
     * @param rows n ≥ 2 series of length d (n×d), finite; not modified
     * @param params shrinkage
     * @throws IllegalArgumentException on bad shapes or values
     * @throws CovarianceFitException when the series are all identical, or Σ is not positive definite even with
     *     the largest ridge
     */
    public static LowRankGaussian fit(double[][] rows, ShrinkageParams params) {
        LowRankShrinkage.Estimate est = LowRankShrinkage.estimate(rows, params);
        int d = est.mean().length;
        checkLength(d);
        int r = est.rank();
        double[] u = est.factor();
        double a = est.identityScale();
        double maxRow = 0.0;
        double sumRows = 0.0;
        for (int t = 0; t < d; t++) {
            double s = SemiseparableLdl.dot(u, t * r, u, t * r, r);
            maxRow = Math.max(maxRow, s);
            sumRows += s;
        }
        double floorPerDiag = JointGaussian.PIVOT_FLOOR_PER_DIMENSION * d;
        FitInfo info = FitInfo.of(est.shrinkage());
        String failure = pivotFailure(a, u, d, r, floorPerDiag * (a + maxRow));
        if (failure != null) {
            double base = a;
            double top = maxRow;
            info = RidgeLadder.climb(
                    est.shrinkage(),
                    a + sumRows / d,
                    failure,
                    ridge -> pivotFailure(base + ridge, u, d, r, floorPerDiag * (base + ridge + top)));
            a += info.ridge();
        }
        return new LowRankGaussian(est.mean(), a, u, r, info);
    }

    /** Null when every pivot of a·I + UUᵀ exceeds {@code floor}, else the reason; O(1) when a alone clears it. */
    private static String pivotFailure(double a, double[] u, int d, int r, double floor) {
        if (a > floor) {
            return null; // every D_t ≥ a
        }
        double[] pivots = SemiseparableLdl.pivots(a, u, d, r);
        for (int t = 0; t < d; t++) {
            if (!(pivots[t] > floor) || !Double.isFinite(pivots[t])) {
                return RidgeLadder.pivotFailure(t, pivots[t], floor);
            }
        }
        return null;
    }

    /**
     * Restores a model from stored factors (the model file keeps x̄, a, U and the fit info).
     *
     * @param mean x̄, length d; copied
     * @param identityScale a, finite and ≥ 0 (0 only for a U of full row rank, checked when the LDLᵀ is formed)
     * @param factor U, d×r (r ≥ 0), finite; copied
     * @param fitInfo as recorded at fit time
     * @throws IllegalArgumentException on any shape or value violation
     */
    public static LowRankGaussian fromFactors(
            double[] mean, double identityScale, DMatrixRMaj factor, FitInfo fitInfo) {
        Objects.requireNonNull(fitInfo, "fitInfo");
        int d = mean.length;
        checkLength(d);
        if (factor.numRows != d) {
            throw new IllegalArgumentException("U has " + factor.numRows + " rows but the mean has length " + d);
        }
        if (!(identityScale >= 0.0) || Double.isInfinite(identityScale)) {
            throw new IllegalArgumentException("identity scale a must be finite and ≥ 0, got " + identityScale);
        }
        JointGaussian.requireFinite(mean, "mean");
        double[] u = Arrays.copyOf(factor.data, factor.getNumElements());
        JointGaussian.requireFinite(u, "U");
        return new LowRankGaussian(mean.clone(), identityScale, u, factor.numCols, fitInfo);
    }

    private static void checkLength(int d) {
        if (d < 1 || d > MAX_LENGTH) {
            throw new IllegalArgumentException("series length must be in 1.." + MAX_LENGTH + ", got " + d);
        }
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public CovarianceForm form() {
        return CovarianceForm.LOW_RANK;
    }

    @Override
    public double[] mean() {
        return mean.clone();
    }

    /** a, the scaled-identity part of Σ (shrinkage δμ plus any ridge). */
    public double identityScale() {
        return identityScale;
    }

    /** r, the number of columns of U. */
    public int rank() {
        return rank;
    }

    /** U as a new d×r matrix. */
    public DMatrixRMaj factor() {
        return new DMatrixRMaj(length, rank, true, factor.clone());
    }

    /** Σ_ss = a + Σ_k U[s, k]², without forming Σ. */
    @Override
    public double[] marginalVariances() {
        double[] v = new double[length];
        for (int s = 0; s < length; s++) {
            v[s] = identityScale + SemiseparableLdl.dot(factor, s * rank, factor, s * rank, rank);
        }
        return v;
    }

    @Override
    public FitInfo fitInfo() {
        return fitInfo;
    }

    @Override
    public double[] innovationVariances() {
        return ldl().diagRef().clone();
    }

    @Override
    public double logDeterminant() {
        double s = 0.0;
        for (double v : ldl().diagRef()) {
            s += Math.log(v);
        }
        return s;
    }

    /** a·I + U Uᵀ (new d×d matrix; O(d²r), for tests and reports on short series). */
    @Override
    public DMatrixRMaj covariance() {
        return scaledIdentityPlusGram(identityScale, factor, length, rank);
    }

    /**
     * a·I + F Fᵀ for a d×r factor F stored row-major, as a new d×d matrix (O(d²r)); shared with {@link
     * SubsetConditioner#covariance}.
     */
    static DMatrixRMaj scaledIdentityPlusGram(double a, double[] factor, int d, int r) {
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double v = SemiseparableLdl.dot(factor, i * r, factor, j * r, r);
                if (i == j) {
                    v += a;
                }
                out.data[i * d + j] = v;
                out.data[j * d + i] = v;
            }
        }
        return out;
    }

    /** True when mean, a, U and the fit record are bit-identical (what a save → load round trip keeps). */
    public boolean sameFactors(LowRankGaussian o) {
        return o.rank == rank
                && Arrays.equals(o.mean, mean)
                && Double.compare(o.identityScale, identityScale) == 0
                && Arrays.equals(o.factor, factor)
                && o.fitInfo.equals(fitInfo);
    }

    /**
     * The semiseparable LDLᵀ, computed on first use (O(d·r²)) and kept.
     *
     * @throws IllegalArgumentException when a pivot is not positive (only possible for a = 0 from a corrupt file)
     */
    SemiseparableLdl ldl() {
        SemiseparableLdl l = ldl;
        if (l == null) {
            synchronized (this) {
                l = ldl;
                if (l == null) {
                    l = SemiseparableLdl.factor(identityScale, factor, length, rank);
                    double[] piv = l.diagRef();
                    for (int t = 0; t < length; t++) {
                        if (!(piv[t] > 0.0) || !Double.isFinite(piv[t])) {
                            throw new IllegalArgumentException("a·I + UUᵀ is not positive definite: pivot D[" + t
                                    + "] = " + piv[t] + " (a = " + identityScale + ", r = " + rank + ")");
                        }
                    }
                    ldl = l;
                }
            }
        }
        return l;
    }

    /** The same covariance with another mean and fit record (the mixture's pooled fallback for a class). */
    LowRankGaussian withMean(double[] classMean, FitInfo info) {
        if (classMean.length != length) {
            throw new IllegalArgumentException("mean has length " + classMean.length + " but d = " + length);
        }
        return new LowRankGaussian(classMean.clone(), identityScale, factor, rank, info);
    }

    LowRankGaussian withFitInfo(FitInfo info) {
        return new LowRankGaussian(mean, identityScale, factor, rank, Objects.requireNonNull(info, "info"));
    }

    double[] meanRef() {
        return mean;
    }

    double[] factorRef() {
        return factor;
    }
}
