package io.vigil.reliability;

import org.ejml.data.DMatrixRMaj;

/**
 * Builds the set A of one {@link SetKind} at one τ from the conditional mean m and covariance R of the unseen complete
 * series in LDG space (thesis §5.2; docs/method.md §3.2). Immutable and thread-safe; the radii are tabulated once per
 * (kind, τ) for every ℓ ≤ maxDim, so building a set per sample costs O(ℓ) (diagonal kinds) or one O(ℓ³/6) Cholesky
 * (full kinds) and no quantile evaluation.
 */
public final class SetConstruction {
    private final SetRadii radii;

    /**
     * @param kind the construction
     * @param tau the required mass, 0 &lt; τ &lt; 1
     * @param maxDim the largest ℓ that will be used
     */
    public SetConstruction(SetKind kind, double tau, int maxDim) {
        this.radii = SetRadii.of(kind, tau, maxDim);
    }

    /** The construction. */
    public SetKind kind() {
        return radii.kind();
    }

    /** The mass τ. */
    public double tau() {
        return radii.tau();
    }

    /** The tabulated radii. */
    public SetRadii radii() {
        return radii;
    }

    /**
     * Fills {@code out} with the set for centre m and full covariance R. The naive-Bayes kinds use only diag(R); the
     * Chebyshev and Gaussian kinds factor R.
     *
     * @param m conditional mean, length ℓ (not modified)
     * @param r conditional covariance, ℓ×ℓ (not modified)
     * @param out the set to overwrite (its maxDim must be ≥ ℓ)
     * @throws IllegalArgumentException on mismatched sizes or an invalid covariance (see {@link TauSet})
     */
    public void build(double[] m, DMatrixRMaj r, TauSet out) {
        int ell = m.length;
        if (r.numRows != ell || r.numCols != ell) {
            throw new IllegalArgumentException(
                    "R is " + r.numRows + "×" + r.numCols + ", the conditional mean m has " + ell + " entries");
        }
        double radius = radii.radius(ell);
        SetKind kind = radii.kind();
        if (kind.usesFullCovariance()) {
            out.setFullEllipsoid(m, r, radius);
        } else {
            out.setDiagonalOfCovariance(m, r, radius, kind.isBox());
        }
    }

    /**
     * Fills {@code out} with the set for centre m and a diagonal covariance diag(variances) (R known to be diagonal, or
     * only its diagonal available). For the Chebyshev and Gaussian kinds this is the axis-aligned ellipsoid with their
     * radius.
     *
     * @param m conditional mean, length ℓ (not modified)
     * @param variances diagonal of R, length ℓ (not modified)
     * @param out the set to overwrite
     * @throws IllegalArgumentException on mismatched lengths or negative variances
     */
    void buildDiagonal(double[] m, double[] variances, TauSet out) {
        if (variances.length != m.length) {
            throw new IllegalArgumentException(
                    "the variance vector has " + variances.length + " entries, the conditional mean m has " + m.length);
        }
        double radius = radii.radius(m.length);
        if (radii.kind().isBox()) {
            out.setBox(m, variances, radius);
        } else {
            out.setDiagonalEllipsoid(m, variances, radius);
        }
    }
}
