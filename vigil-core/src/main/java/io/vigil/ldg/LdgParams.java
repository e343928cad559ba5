package io.vigil.ldg;

/**
 * Parameters of one LDG fit (thesis §3.1, eq. 3.12).
 *
 * @param neighbors k, the number of nearest same-class and other-class training points whose mean
 *     μ<sub>i,j</sub> stands in for the local Gaussian of class j at x<sub>i</sub> (§3.1). Capped per
 *     class by the class size (minus one for the point's own class). Must be ≥ 1; the thesis picks it
 *     by 5-fold CV of local QDA on the original data, typical values 1..128.
 * @param gamma γ in [0, 1], the weight of the between-class term A against the within-class term V
 *     in V − γA (eq. 3.12). γ = 0 only shrinks within-class scatter, γ = 1 is the Jensen bound (3.7)
 *     itself; the thesis cross-validates γ over {0.01, 0.1, 0.3, 0.5, 0.7, 0.9} (§3.5.2).
 */
public record LdgParams(int neighbors, double gamma) {
    /** A default neighbourhood size when nothing has been cross-validated yet. */
    public static final int DEFAULT_NEIGHBORS = 5;

    /** A default γ in the middle of the thesis's grid. */
    public static final double DEFAULT_GAMMA = 0.5;

    /** Validates the ranges documented on the record components. */
    public LdgParams {
        if (neighbors < 1) {
            throw new IllegalArgumentException("neighbors must be >= 1, got " + neighbors);
        }
        if (!(gamma >= 0.0 && gamma <= 1.0)) {
            throw new IllegalArgumentException("gamma must be in [0, 1], got " + gamma);
        }
    }

    /** The defaults {@value #DEFAULT_NEIGHBORS} neighbours and γ = {@value #DEFAULT_GAMMA}. */
    public static LdgParams defaults() {
        return new LdgParams(DEFAULT_NEIGHBORS, DEFAULT_GAMMA);
    }
}
