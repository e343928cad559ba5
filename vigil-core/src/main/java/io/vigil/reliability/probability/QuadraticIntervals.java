package io.vigil.reliability.probability;

import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * Unions of closed intervals of one variable u for the exact ℓ = 1 case of {@link ClassProbability}: the set where a
 * two-class difference a + bu + qu² is ≥ 0 (at most two intervals, from numerically stable roots), intersected with
 * a union kept in caller-supplied storage, and the normal CDF at ±∞. Holds only its scratch buffer; one per
 * {@link ClassProbability}.
 */
final class QuadraticIntervals {
    private static final NormalDistribution NORMAL = new NormalDistribution();

    private final double[] scratch;

    /** @param capacity doubles of the largest union, two per interval */
    QuadraticIntervals(int capacity) {
        this.scratch = new double[capacity];
    }

    static double cdf(double x) {
        if (x == Double.NEGATIVE_INFINITY) {
            return 0.0;
        }
        if (x == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        return NORMAL.cumulativeProbability(x);
    }

    /**
     * Intersects the sorted disjoint closed intervals {@code set[0..2count)} with {u : a + bu + qu² ≥ 0}; returns
     * the new count (written back into {@code set}).
     */
    int intersect(double[] set, int count, double a, double b, double q) {
        int np;
        double lo1 = 0;
        double hi1 = 0;
        double lo2 = 0;
        double hi2 = 0;
        if (q == 0) {
            if (b == 0) {
                if (a >= 0) {
                    return count;
                }
                return 0;
            }
            double root = -a / b;
            np = 1;
            if (b > 0) {
                lo1 = root;
                hi1 = Double.POSITIVE_INFINITY;
            } else {
                lo1 = Double.NEGATIVE_INFINITY;
                hi1 = root;
            }
        } else {
            double disc = b * b - 4 * q * a;
            if (disc < 0) {
                if (q > 0) {
                    return count; // always ≥ 0
                }
                return 0; // never ≥ 0
            }
            double sq = Math.sqrt(disc);
            // Stable roots: r1 = (−b − sign(b)·√disc)/(2q), r2 = a/(q·r1) (or ±√(−a/q) when b = 0).
            double r1;
            double r2;
            if (b == 0) {
                r1 = -Math.sqrt(Math.max(0, -a / q));
                r2 = -r1;
            } else {
                double t = -0.5 * (b + Math.copySign(sq, b));
                r1 = t / q;
                r2 = a / t;
            }
            double lo = Math.min(r1, r2);
            double hi = Math.max(r1, r2);
            if (q > 0) {
                np = 2;
                lo1 = Double.NEGATIVE_INFINITY;
                hi1 = lo;
                lo2 = hi;
                hi2 = Double.POSITIVE_INFINITY;
            } else {
                np = 1;
                lo1 = lo;
                hi1 = hi;
            }
        }
        int out = 0;
        for (int k = 0; k < count; k++) {
            double a0 = set[2 * k];
            double b0 = set[2 * k + 1];
            out = clip(a0, b0, lo1, hi1, out);
            if (np == 2) {
                out = clip(a0, b0, lo2, hi2, out);
            }
        }
        System.arraycopy(scratch, 0, set, 0, 2 * out);
        return out;
    }

    private int clip(double a0, double b0, double lo, double hi, int out) {
        double l = Math.max(a0, lo);
        double h = Math.min(b0, hi);
        if (l <= h) {
            scratch[2 * out] = l;
            scratch[2 * out + 1] = h;
            return out + 1;
        }
        return out;
    }
}
