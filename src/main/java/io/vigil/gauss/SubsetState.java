package io.vigil.gauss;

import java.util.BitSet;

/**
 * The mutable per-series state of a {@link SubsetConditioner}: which coordinates were observed, the posterior of
 * the latent factors (mean and covariance), B_Uᵀ W_U over the coordinates still unobserved, the conditional moments
 * m_y and R_y, and the log-likelihood of the observed values. Not thread-safe: one series, one thread at a time.
 */
public final class SubsetState {
    final double[] latentMean; // f̂, r
    final double[] latentCov; // P, r×r
    final double[] gain; // G = B_Uᵀ W_U, ℓ×r
    final double[] mean; // m_y, ℓ
    final double[] cov; // R_y, ℓ×ℓ
    final double[] scratchLatent; // r
    final double[] scratchFeature; // ℓ
    final BitSet observed;
    private final int length;
    int count;
    double logLikelihood;
    double firstInnovation;
    int lastIndex = -1;

    SubsetState(int length, int rank, int reduced) {
        this.length = length;
        this.latentMean = new double[rank];
        this.latentCov = new double[rank * rank];
        this.gain = new double[reduced * rank];
        this.mean = new double[reduced];
        this.cov = new double[reduced * reduced];
        this.scratchLatent = new double[rank];
        this.scratchFeature = new double[reduced];
        this.observed = new BitSet(length);
    }

    /** Number of observed coordinates |O|. */
    public int observedCount() {
        return count;
    }

    /** |O| / D: the fraction of the complete series observed. */
    public double observedFraction() {
        return (double) count / length;
    }

    /** Whether coordinate {@code index} has been observed. */
    public boolean isObserved(int index) {
        return observed.get(index);
    }

    /**
     * The innovation x_j − E[x_j] of the first value observed (0 before any): a number every replay of the same
     * values in the same order reproduces bit for bit, so it can seed per-series randomness.
     */
    public double firstInnovation() {
        return firstInnovation;
    }

    /** The coordinate observed last, or −1 before any. */
    public int lastIndex() {
        return lastIndex;
    }

    /** The highest coordinate observed + 1 (its 1-based position in the time-major order), or 0 before any. */
    public int latestPosition() {
        return observed.length();
    }

    /** log p(x_O), the Gaussian log-density of the observed values (0 before any). */
    public double logLikelihood() {
        return logLikelihood;
    }

    void requireShape(int d, int r, int l) {
        if (d != length || r * r != latentCov.length || l != mean.length) {
            throw new IllegalArgumentException("subset state has another shape than the conditioner (D = " + d
                    + ", r = " + r + ", ℓ = " + l + ")");
        }
    }
}
