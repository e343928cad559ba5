package io.vigil.reliability;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.chol.CholeskyDecompositionInner_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * The set A of the reliable decision rule (5.2) for one sample: a centre m (the conditional mean) and a shape from the
 * conditional covariance, scaled by a radius r (thesis §5.2; see {@link SetKind} for the four constructions).
 *
 * <ul>
 *   <li>{@link Shape#DIAGONAL_ELLIPSOID}: {@code Σ_i (y_i − m_i)²/E_ii ≤ r²}; coordinates with E_ii = 0 are fixed at
 *       m_i.
 *   <li>{@link Shape#FULL_ELLIPSOID}: {@code {m + Cz : ‖z‖ ≤ r}} with CCᵀ = E (Cholesky factor, or
 *       U·diag(sqrt λ) when E is only semidefinite) — the same set as {@code (y−m)ᵀE⁻¹(y−m) ≤ r²} restricted to the
 *       range of E.
 *   <li>{@link Shape#BOX}: {@code |y_i − m_i| ≤ r·sqrt(E_ii)}.
 *   <li>{@link Shape#POINT}: A = {m}, when E = 0 (the series is complete) or r = 0.
 * </ul>
 *
 * <p>Mutable and reusable: one instance per worker, refilled per sample with the {@code set...} methods, which copy
 * their inputs (never modified) into buffers sized for {@code maxDim} at construction. Apart from the factorisation of a
 * full covariance (O(ℓ³/6), done once per sample and shared by all G−1 checks) nothing here allocates after
 * construction. Not thread-safe.
 */
public final class TauSet {
    /** The geometric type of the set. */
    public enum Shape {
        /** The single point m. */
        POINT,
        /** Axis-aligned ellipsoid (diagonal E). */
        DIAGONAL_ELLIPSOID,
        /** Ellipsoid with a full positive semidefinite E, stored through a factor C with CCᵀ = E. */
        FULL_ELLIPSOID,
        /** Axis-aligned box. */
        BOX
    }

    /**
     * Relative tolerance for negative variances/eigenvalues: a conditional covariance obtained by rank-one downdates
     * (docs/method.md §3.1) can round to tiny negative values of order ℓ·ε·max R_jj; anything below −1e-12·max R_jj is
     * not rounding but an invalid input.
     */
    static final double NEGATIVE_VARIANCE_TOL = 1e-12;

    /**
     * Relative rank threshold for a full covariance: an eigenvalue with |λ| ≤ 1e-12·λ_max is indistinguishable from
     * rounding (a computed eigenvalue carries an absolute error of order ℓ·ε·λ_max) and its direction is treated as
     * known exactly. The set loses at most an extent r·1e-6·sqrt(λ_max) there. The same threshold on the squared
     * Cholesky pivots (relative to the largest variance) sends nearly singular matrices to the eigen path, so the
     * factor never has columns made of rounding noise.
     */
    static final double RANK_TOL = 1e-12;

    private final int maxDim;
    private int dim;
    private Shape shape = Shape.POINT;
    /** The shape the set has for a positive radius (POINT only when no coordinate is free). */
    private Shape baseShape = Shape.POINT;

    private double radius;
    private final double[] center;
    /** Standard deviations sqrt(E_ii) (diagonal ellipsoid and box). */
    private final double[] sd;
    /** Indices i with sd_i &gt; 0 (diagonal ellipsoid and box); the first {@code numActive} entries are valid. */
    private final int[] active;
    /** Number of free coordinates: active coordinates (diagonal shapes) or columns of the factor (full). */
    private int numActive;
    /** Factor C (ℓ×k, row-major in a maxDim×maxDim buffer reshaped to ℓ×k) of a full ellipsoid. */
    private final DMatrixRMaj factor;
    /** True when the factor is the lower Cholesky factor, false when it is U·diag(sqrt λ). */
    private boolean factorIsCholesky;
    /** Upper bound on the largest eigenvalue of E (exact for the eigen factor; Gershgorin/trace for Cholesky). */
    private double lambdaMaxBound;

    /** The symmetrised covariance E of a full ellipsoid (for the O(ℓ²) curvature bound of the solver). */
    private final DMatrixRMaj cov;

    private final DMatrixRMaj work;
    private final CholeskyDecompositionInner_DDRM cholesky = new CholeskyDecompositionInner_DDRM(true);
    private final SymmetricEigenPool eigenPool;
    private final double[] scratch;

    /**
     * Creates an empty set (a point at the origin of dimension 0) with buffers for dimension up to {@code maxDim}.
     *
     * @throws IllegalArgumentException if maxDim &lt; 1
     */
    public TauSet(int maxDim) {
        if (maxDim < 1) {
            throw new IllegalArgumentException("maxDim must be at least 1, got " + maxDim);
        }
        this.maxDim = maxDim;
        this.center = new double[maxDim];
        this.sd = new double[maxDim];
        this.active = new int[maxDim];
        this.factor = new DMatrixRMaj(maxDim, maxDim);
        this.work = new DMatrixRMaj(maxDim, maxDim);
        this.cov = new DMatrixRMaj(maxDim, maxDim);
        this.scratch = new double[maxDim];
        this.eigenPool = new SymmetricEigenPool(maxDim);
    }

    /** The largest dimension the buffers hold. */
    int maxDim() {
        return maxDim;
    }

    /** The dimension ℓ of the current set. */
    public int dimension() {
        return dim;
    }

    /** The shape of the current set. */
    public Shape shape() {
        return shape;
    }

    /** The radius r of the current set. */
    public double radius() {
        return radius;
    }

    /** Coordinate i of the centre m. */
    public double center(int i) {
        return center[i];
    }

    /** Copies the centre m into {@code out[0..ℓ)}. */
    void copyCenter(double[] out) {
        System.arraycopy(center, 0, out, 0, dim);
    }

    /**
     * Sets A = {y : Σ_i (y_i − m_i)²/E_ii ≤ r²} (the naive-Bayes quadratic set (5.4), or a Chebyshev/Gaussian set when R
     * is diagonal). Zero variances fix the coordinate at m_i; all-zero variances give the point {m}.
     *
     * @param m centre, length ℓ (copied)
     * @param variances diagonal of E, length ℓ, ≥ 0 (copied)
     * @param radius r ≥ 0
     * @throws IllegalArgumentException on mismatched lengths, ℓ &gt; maxDim, NaN, negative variance or radius
     */
    public void setDiagonalEllipsoid(double[] m, double[] variances, double radius) {
        setDiagonal(m, variances, radius, Shape.DIAGONAL_ELLIPSOID);
    }

    /**
     * Sets A = {y : |y_i − m_i| ≤ r·sqrt(E_ii)} (the naive-Bayes box (5.5), with r from {@link SetKind#NB_BOX}).
     *
     * @param m centre, length ℓ (copied)
     * @param variances diagonal of E, length ℓ, ≥ 0 (copied)
     * @param radius half-width in standard deviations, ≥ 0
     * @throws IllegalArgumentException on mismatched lengths, ℓ &gt; maxDim, NaN, negative variance or radius
     */
    public void setBox(double[] m, double[] variances, double radius) {
        setDiagonal(m, variances, radius, Shape.BOX);
    }

    private void setDiagonal(double[] m, double[] variances, double radius, Shape kind) {
        int ell = checkCenter(m);
        if (variances.length != ell) {
            throw new IllegalArgumentException(
                    "the variance vector has " + variances.length + " entries, the centre m has " + ell);
        }
        setDiagonal(m, variances, ell, radius, kind);
    }

    /**
     * Builds a diagonal shape from the diagonal of a full covariance (naive-Bayes kinds given a full R), without
     * allocating.
     */
    void setDiagonalOfCovariance(double[] m, DMatrixRMaj covariance, double radius, boolean box) {
        int ell = checkCenter(m);
        if (covariance.numRows != ell || covariance.numCols != ell) {
            throw new IllegalArgumentException("the covariance is " + covariance.numRows + "×" + covariance.numCols
                    + ", the centre m has " + ell + " entries");
        }
        for (int i = 0; i < ell; i++) {
            scratch[i] = covariance.unsafe_get(i, i);
        }
        setDiagonal(m, scratch, ell, radius, box ? Shape.BOX : Shape.DIAGONAL_ELLIPSOID);
    }

    private void setDiagonal(double[] m, double[] variances, int ell, double radius, Shape kind) {
        checkRadius(radius);
        double maxVar = 0.0;
        for (int i = 0; i < ell; i++) {
            double v = variances[i];
            if (Double.isNaN(v) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("variance " + i + " is " + v);
            }
            maxVar = Math.max(maxVar, v);
        }
        int k = 0;
        for (int i = 0; i < ell; i++) {
            double v = variances[i];
            if (v < -NEGATIVE_VARIANCE_TOL * maxVar || (v < 0 && maxVar == 0.0)) {
                throw new IllegalArgumentException("variance " + i + " is negative: " + v);
            }
            if (v > 0.0) {
                sd[i] = Math.sqrt(v);
                active[k++] = i;
            } else {
                sd[i] = 0.0;
            }
        }
        System.arraycopy(m, 0, center, 0, ell);
        this.dim = ell;
        this.radius = radius;
        this.numActive = k;
        this.baseShape = k == 0 ? Shape.POINT : kind;
        this.shape = radius == 0.0 ? Shape.POINT : baseShape;
        this.lambdaMaxBound = maxVar;
    }

    /**
     * Sets A = {m + Cz : ‖z‖ ≤ r} with CCᵀ = E, i.e. {(y−m)ᵀE⁻¹(y−m) ≤ r²} (Chebyshev (5.3) or the exact Gaussian set).
     * E is symmetrised; a positive definite E is factored by Cholesky, a semidefinite or nearly singular one (a
     * direction known exactly) by the symmetric eigendecomposition with the null directions (|λ| ≤ {@link
     * #RANK_TOL}·λ_max) dropped; E = 0 gives the point {m}.
     *
     * @param m centre, length ℓ (copied)
     * @param covariance E, ℓ×ℓ, symmetric positive semidefinite up to rounding (not modified)
     * @param radius r ≥ 0
     * @throws IllegalArgumentException on mismatched sizes, ℓ &gt; maxDim, NaN, negative radius, or an eigenvalue of E
     *     below −1e-12·λ_max (not a covariance)
     */
    public void setFullEllipsoid(double[] m, DMatrixRMaj covariance, double radius) {
        int ell = checkCenter(m);
        if (covariance.numRows != ell || covariance.numCols != ell) {
            throw new IllegalArgumentException("the covariance is " + covariance.numRows + "×" + covariance.numCols
                    + ", the centre m has " + ell + " entries");
        }
        checkRadius(radius);
        work.reshape(ell, ell);
        cov.reshape(ell, ell);
        double trace = 0.0;
        double gershgorin = 0.0;
        double maxDiag = 0.0;
        for (int i = 0; i < ell; i++) {
            double rowSum = 0.0;
            for (int j = 0; j < ell; j++) {
                double v = 0.5 * (covariance.unsafe_get(i, j) + covariance.unsafe_get(j, i));
                if (Double.isNaN(v) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("covariance entry (" + i + "," + j + ") is " + v);
                }
                work.unsafe_set(i, j, v);
                cov.unsafe_set(i, j, v);
                rowSum += Math.abs(v);
            }
            double d = work.unsafe_get(i, i);
            trace += d;
            maxDiag = Math.max(maxDiag, d);
            gershgorin = Math.max(gershgorin, rowSum);
        }
        System.arraycopy(m, 0, center, 0, ell);
        this.dim = ell;
        this.radius = radius;
        if (maxDiag <= 0.0) {
            for (int i = 0; i < ell; i++) {
                if (work.unsafe_get(i, i) < 0.0) {
                    throw new IllegalArgumentException(
                            "covariance diagonal entry " + i + " is negative: " + work.unsafe_get(i, i));
                }
            }
            // A PSD matrix with zero diagonal is zero.
            pointShape();
            return;
        }
        factor.reshape(ell, ell);
        if (cholesky.decompose(work) && wellConditionedPivots(ell, maxDiag)) {
            // decompose() factors in place; copy the lower triangle and zero the rest.
            for (int i = 0; i < ell; i++) {
                for (int j = 0; j < ell; j++) {
                    factor.unsafe_set(i, j, j <= i ? work.unsafe_get(i, j) : 0.0);
                }
            }
            numActive = ell;
            factorIsCholesky = true;
            lambdaMaxBound = Math.min(trace, gershgorin);
        } else {
            factorSemidefinite(covariance, ell);
        }
        this.baseShape = numActive == 0 ? Shape.POINT : Shape.FULL_ELLIPSOID;
        this.shape = radius == 0.0 ? Shape.POINT : baseShape;
    }

    private boolean wellConditionedPivots(int ell, double maxDiag) {
        for (int i = 0; i < ell; i++) {
            double p = work.unsafe_get(i, i);
            if (p * p <= RANK_TOL * maxDiag) {
                return false;
            }
        }
        return true;
    }

    private void factorSemidefinite(DMatrixRMaj covariance, int ell) {
        for (int i = 0; i < ell; i++) {
            for (int j = 0; j < ell; j++) {
                work.unsafe_set(i, j, 0.5 * (covariance.unsafe_get(i, j) + covariance.unsafe_get(j, i)));
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eigen = eigenPool.forSize(ell);
        if (!eigen.decompose(work)) {
            throw new IllegalStateException("symmetric eigendecomposition of the " + ell + "×" + ell
                    + " covariance did not converge (EJML SymmetricQRAlgorithm)");
        }
        double lambdaMax = 0.0;
        for (int j = 0; j < ell; j++) {
            lambdaMax = Math.max(lambdaMax, eigen.getEigenvalue(j).real);
        }
        int k = 0;
        for (int j = 0; j < ell; j++) {
            double lambda = eigen.getEigenvalue(j).real;
            if (lambda < -NEGATIVE_VARIANCE_TOL * lambdaMax || (lambda < 0 && lambdaMax == 0.0)) {
                throw new IllegalArgumentException("the covariance is not positive semidefinite: eigenvalue " + lambda
                        + " (largest " + lambdaMax + ")");
            }
            if (lambda > RANK_TOL * lambdaMax) {
                active[k++] = j;
            }
        }
        factor.reshape(ell, k);
        for (int c = 0; c < k; c++) {
            int j = active[c];
            DMatrixRMaj u = eigen.getEigenVector(j);
            double s = Math.sqrt(eigen.getEigenvalue(j).real);
            for (int i = 0; i < ell; i++) {
                factor.unsafe_set(i, c, u.data[i] * s);
            }
        }
        numActive = k;
        factorIsCholesky = false;
        lambdaMaxBound = lambdaMax;
    }

    private void pointShape() {
        numActive = 0;
        shape = Shape.POINT;
        baseShape = Shape.POINT;
        lambdaMaxBound = 0.0;
    }

    /**
     * Changes the radius, keeping centre and shape (used by the largest-τ search, where only r depends on τ).
     *
     * @throws IllegalArgumentException if r is negative or NaN
     */
    public void setRadius(double radius) {
        checkRadius(radius);
        this.radius = radius;
        this.shape = radius == 0.0 ? Shape.POINT : baseShape;
    }

    /**
     * Whether y lies in A up to a relative tolerance (diagnostics and tests; not on the hot path).
     *
     * @param relTol relative slack on the radius and on exactly-known coordinates
     */
    public boolean contains(double[] y, double relTol) {
        if (y.length != dim) {
            throw new IllegalArgumentException("the point has " + y.length + " entries, the set has dimension " + dim);
        }
        double scale = 1.0;
        for (int i = 0; i < dim; i++) {
            scale = Math.max(scale, Math.abs(center[i]));
        }
        double fixedTol = relTol * scale;
        switch (shape) {
            case POINT:
                for (int i = 0; i < dim; i++) {
                    if (Math.abs(y[i] - center[i]) > fixedTol) {
                        return false;
                    }
                }
                return true;
            case BOX:
                for (int i = 0; i < dim; i++) {
                    double half = radius * sd[i];
                    if (Math.abs(y[i] - center[i]) > half * (1 + relTol) + fixedTol) {
                        return false;
                    }
                }
                return true;
            case DIAGONAL_ELLIPSOID: {
                double q = 0.0;
                for (int i = 0; i < dim; i++) {
                    double u = y[i] - center[i];
                    if (sd[i] == 0.0) {
                        if (Math.abs(u) > fixedTol) {
                            return false;
                        }
                    } else {
                        q += (u / sd[i]) * (u / sd[i]);
                    }
                }
                return Math.sqrt(q) <= radius * (1 + relTol);
            }
            case FULL_ELLIPSOID:
                return containsFull(y, relTol, fixedTol);
            default:
                throw new IllegalStateException("unhandled shape " + shape);
        }
    }

    private boolean containsFull(double[] y, double relTol, double fixedTol) {
        double zz = 0.0;
        if (factorIsCholesky) {
            // Forward substitution C z = y − m.
            for (int i = 0; i < dim; i++) {
                double s = y[i] - center[i];
                for (int j = 0; j < i; j++) {
                    s -= factor.unsafe_get(i, j) * scratch[j];
                }
                scratch[i] = s / factor.unsafe_get(i, i);
                zz += scratch[i] * scratch[i];
            }
            return Math.sqrt(zz) <= radius * (1 + relTol);
        }
        // C = U diag(sqrt λ) with orthonormal U: z_c = u_cᵀ(y−m)/sqrt λ_c, and the residual (y−m) − Σ_c u_c u_cᵀ(y−m)
        // off the range of E must vanish (formed as a vector: a difference of squared norms would lose half the
        // digits).
        for (int i = 0; i < dim; i++) {
            scratch[i] = y[i] - center[i];
        }
        for (int c = 0; c < numActive; c++) {
            double colNorm2 = 0.0;
            double proj = 0.0;
            for (int i = 0; i < dim; i++) {
                double f = factor.unsafe_get(i, c);
                colNorm2 += f * f;
                proj += f * (y[i] - center[i]);
            }
            // proj = sqrt λ·u_cᵀ(y−m) and colNorm2 = λ: proj/colNorm2 = z_c, and (proj/colNorm2)·f_i = u_ci·u_cᵀ(y−m).
            double zc = proj / colNorm2;
            zz += zc * zc;
            for (int i = 0; i < dim; i++) {
                scratch[i] -= proj / colNorm2 * factor.unsafe_get(i, c);
            }
        }
        double resid = 0.0;
        for (int i = 0; i < dim; i++) {
            resid += scratch[i] * scratch[i];
        }
        return Math.sqrt(resid) <= fixedTol && Math.sqrt(zz) <= radius * (1 + relTol);
    }

    private int checkCenter(double[] m) {
        int ell = m.length;
        if (ell < 1) {
            throw new IllegalArgumentException("the centre m is empty");
        }
        if (ell > maxDim) {
            throw new IllegalArgumentException(
                    "the centre m has " + ell + " entries, this set holds at most maxDim = " + maxDim);
        }
        for (int i = 0; i < ell; i++) {
            if (Double.isNaN(m[i]) || Double.isInfinite(m[i])) {
                throw new IllegalArgumentException("centre coordinate " + i + " is " + m[i]);
            }
        }
        return ell;
    }

    private static void checkRadius(double radius) {
        if (!(radius >= 0.0) || Double.isInfinite(radius)) {
            throw new IllegalArgumentException("radius must be finite and non-negative, got " + radius);
        }
    }

    // ---- package-private views for the solver ----

    int numActive() {
        return numActive;
    }

    int activeIndex(int c) {
        return active[c];
    }

    double sd(int i) {
        return sd[i];
    }

    DMatrixRMaj factor() {
        return factor;
    }

    DMatrixRMaj covariance() {
        return cov;
    }

    double lambdaMaxBound() {
        return lambdaMaxBound;
    }
}
