package io.vigil.reliability;

/**
 * Immutable table of set radii r(ℓ, τ) for one {@link SetKind} and one τ, for every ℓ = 1..maxDim (thesis §5.2). The
 * chi-square and normal quantiles behind the radii cost a root-finding each; tabulating them once per (kind, τ) keeps
 * them out of the per-sample path. Thread-safe.
 */
final class SetRadii {
    private final SetKind kind;
    private final double tau;
    private final double[] radius;

    private SetRadii(SetKind kind, double tau, double[] radius) {
        this.kind = kind;
        this.tau = tau;
        this.radius = radius;
    }

    /**
     * Tabulates {@link SetKind#radius(int, double)} for ℓ = 1..maxDim.
     *
     * @throws IllegalArgumentException unless maxDim ≥ 1 and 0 &lt; τ &lt; 1
     */
    public static SetRadii of(SetKind kind, double tau, int maxDim) {
        if (kind == null) {
            throw new IllegalArgumentException("set kind must not be null");
        }
        SetKind.checkArguments(maxDim, tau);
        double[] r = new double[maxDim + 1];
        for (int ell = 1; ell <= maxDim; ell++) {
            r[ell] = kind.radius(ell, tau);
        }
        return new SetRadii(kind, tau, r);
    }

    /** The set construction these radii belong to. */
    public SetKind kind() {
        return kind;
    }

    /** The mass τ. */
    public double tau() {
        return tau;
    }

    /** The largest tabulated dimension. */
    int maxDim() {
        return radius.length - 1;
    }

    /**
     * The radius for dimension ℓ (ellipsoid: {@code (y−m)ᵀE⁻¹(y−m) ≤ r²}; box: half-width r·sqrt(R_ii)).
     *
     * @throws IllegalArgumentException unless 1 ≤ ℓ ≤ maxDim
     */
    public double radius(int ell) {
        if (ell < 1 || ell >= radius.length) {
            throw new IllegalArgumentException(
                    "dimension " + ell + " is outside the tabulated range 1.." + (radius.length - 1));
        }
        return radius[ell];
    }
}
