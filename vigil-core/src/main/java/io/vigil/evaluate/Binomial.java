package io.vigil.evaluate;

import org.hipparchus.distribution.continuous.BetaDistribution;
import org.hipparchus.distribution.discrete.BinomialDistribution;

/** Binomial statistics for reports: exact (Clopper–Pearson) intervals and one-sided tests of a rate against τ. */
public final class Binomial {
    private Binomial() {}

    /**
     * The two-sided exact 1 − α interval for a rate with k successes in n trials: Beta quantiles (Clopper &amp;
     * Pearson 1934), via Hipparchus.
     *
     * @return {lower, upper}
     */
    public static double[] clopperPearson(int k, int n, double alpha) {
        if (n < 1 || k < 0 || k > n) {
            throw new IllegalArgumentException("need 0 ≤ k ≤ n and n ≥ 1, got k = " + k + ", n = " + n);
        }
        double lo = k == 0 ? 0.0 : new BetaDistribution(k, n - k + 1).inverseCumulativeProbability(alpha / 2);
        double hi = k == n ? 1.0 : new BetaDistribution(k + 1, n - k).inverseCumulativeProbability(1 - alpha / 2);
        return new double[] {lo, hi};
    }

    /**
     * The one-sided p-value of "the rate is at least τ" given k successes in n: P(Bin(n, τ) ≤ k). Below 0.05 the
     * empirical rate is significantly below τ.
     */
    public static double pBelow(int k, int n, double tau) {
        return new BinomialDistribution(n, tau).cumulativeProbability(k);
    }
}
