package io.vigil.reliability;

/**
 * What one {@link QuadraticMinMax} call found, in caller-owned storage so that the solver keeps no per-call state:
 * the value (the minimum or maximum; for {@link QuadraticMinMax#minAtLeastZero} an attained value), the certified
 * bound on it (a lower bound on a minimum, an upper bound on a maximum), and the secular-equation iterations.
 */
final class MinMaxResult {
    double value = Double.NaN;
    double bound = Double.NaN;
    int iterations;
    boolean converged = true;

    /** The minimum or maximum (an attained value after an early-exiting sign test). */
    public double value() {
        return value;
    }

    /**
     * The certified bound: a lower bound on the minimum after {@link QuadraticMinMax#minimum} or {@link
     * QuadraticMinMax#minAtLeastZero}, an upper bound on the maximum after {@link QuadraticMinMax#maximum}. Equal to
     * the value up to the gap tolerance ({@link DiagonalTrustRegion#GAP_REL}·scale) when {@link #converged()}.
     */
    public double bound() {
        return bound;
    }

    /** Secular-equation iterations (0 for closed forms). */
    public int iterations() {
        return iterations;
    }

    /**
     * Whether the duality-gap tolerance was met (always true for closed forms; false only if the iteration cap was
     * hit, which the tests never observe).
     */
    public boolean converged() {
        return converged;
    }
}
