package io.vigil.experiment;

import io.vigil.evaluate.Binomial;
import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * The two statistics {@link GuaranteeReport} needs beyond counting: a standard error of a mean over pairs that come in
 * dependent clusters (the τ of one trained model share its data and its conformal draw), and the power of the report's
 * one-sided 5 % binomial check.
 */
final class GuaranteeStatistics {
    /** The shortfall below τ the power of the binomial check is stated against. */
    static final double SHORTFALL = 0.05;

    private GuaranteeStatistics() {}

    /**
     * The cluster-robust standard error of the pooled mean m = ΣS_g / ΣN_g over G clusters (the sandwich estimator
     * of a mean with the G/(G − 1) small-sample factor, Cameron &amp; Miller 2015): √(G/(G − 1) · Σ_g (S_g − m·N_g)²)
     * / ΣN_g. NaN with fewer than two non-empty clusters.
     *
     * @param sums per cluster, the sum S_g of its values
     * @param counts per cluster, its number N_g of values
     */
    static double clusteredSe(double[] sums, int[] counts) {
        if (sums.length != counts.length) {
            throw new IllegalArgumentException(sums.length + " cluster sums for " + counts.length + " counts");
        }
        int clusters = 0;
        double total = 0;
        long n = 0;
        for (int g = 0; g < sums.length; g++) {
            if (counts[g] > 0) {
                clusters++;
                total += sums[g];
                n += counts[g];
            }
        }
        if (clusters < 2) {
            return Double.NaN;
        }
        double mean = total / n;
        double ss = 0;
        for (int g = 0; g < sums.length; g++) {
            double r = sums[g] - mean * counts[g];
            ss += r * r;
        }
        return Math.sqrt(clusters / (clusters - 1.0) * ss) / n;
    }

    /**
     * The probability that the report's check — test reliability significantly below τ, one-sided binomial at 5 %
     * ({@link GuaranteeExperiment.Point#significantlyBelow}) — fires on n test series whose true reliability is τ −
     * {@link #SHORTFALL}: P(Bin(n, τ − 0.05) ≤ k*), k* the largest count the check calls below (0 when none is).
     */
    static double power(int n, double tau) {
        if (n < 1 || !(tau > SHORTFALL && tau < 1)) {
            throw new IllegalArgumentException("power needs n ≥ 1 and τ in (0.05, 1), got " + n + " and " + tau);
        }
        int critical = -1;
        while (critical + 1 <= n && Binomial.pBelow(critical + 1, n, tau) < 0.05) {
            critical++;
        }
        return critical < 0 ? 0.0 : new BinomialDistribution(n, tau - SHORTFALL).cumulativeProbability(critical);
    }
}
