package io.vigil.gauss;

import java.util.BitSet;

/**
 * The mutable per-series state of a {@link SubsetConditioner}: which coordinates were observed and, per Gaussian
 * component (one, or one per class for the mixture), the posterior of the latent factors (mean and covariance), B_Uᵀ
 * W_U over the coordinates still unobserved, the conditional moments m_y and R_y, and the log-likelihood of the
 * observed values; optionally the tabulated prefix state of the same
 * series, used while the values arrive as a time-major prefix ({@link #attachPrefix}). Not thread-safe: one series,
 * one thread at a time.
 */
public final class SubsetState {
    /** One Gaussian component's part: the posterior of its latent factors, its gain and its conditional moments. */
    static final class Block {
        final int rank;
        final double[] latentMean; // f̂, r
        final double[] latentCov; // P, r×r, lower triangle kept
        final double[] gain; // G = B_Uᵀ W_U, ℓ×r
        final double[] mean; // m_y, ℓ
        final double[] cov; // R_y, ℓ×ℓ, lower triangle kept
        double logLikelihood; // log N(x_O; ·) under this component

        Block(int rank, int reduced) {
            this.rank = rank;
            this.latentMean = new double[rank];
            this.latentCov = new double[rank * rank];
            this.gain = new double[reduced * rank];
            this.mean = new double[reduced];
            this.cov = new double[reduced * reduced];
        }
    }

    final Block[] blocks;
    final double[] scratchLatent; // largest r
    final double[] scratchFeature; // ℓ
    /** A mixture's p(g | x_O), m_y and R_y (lower triangle); empty for a single Gaussian. */
    final double[] posterior;

    final double[] mixtureMean;
    final double[] mixtureCov;
    /** Whether the mixture moments are those of the values conditioned on. */
    boolean mixtureReady;

    final BitSet observed;
    private final int length;
    /** The tabulated prefix state (null when none is attached) and the prefix's standardised values, D. */
    SeriesState prefix;

    double[] prefixValues;
    /** Whether the values so far are a time-major prefix decided on {@link #prefix}. */
    boolean onPrefix;
    /** Values recorded by {@link SubsetConditioner#defer} (the first ones); of them, conditioned on (the rest). */
    int deferred;

    int conditioned;
    int count;
    private SeriesState.Slot<?> acceleratorSlot; // transient, as SeriesState's
    private Object accelerator; // transient, of the slot's type
    double logLikelihood;
    double firstInnovation;
    int lastIndex = -1;

    SubsetState(int length, int[] ranks, int reduced) {
        this.length = length;
        this.blocks = new Block[ranks.length];
        int largest = 0;
        for (int g = 0; g < ranks.length; g++) {
            blocks[g] = new Block(ranks[g], reduced);
            largest = Math.max(largest, ranks[g]);
        }
        boolean mixture = ranks.length > 1;
        this.posterior = new double[mixture ? ranks.length : 0];
        this.mixtureMean = new double[mixture ? reduced : 0];
        this.mixtureCov = new double[mixture ? reduced * reduced : 0];
        this.scratchLatent = new double[largest];
        this.scratchFeature = new double[reduced];
        this.observed = new BitSet(length);
    }

    int length() {
        return length;
    }

    int reduced() {
        return scratchFeature.length;
    }

    /**
     * Attaches the tabulated prefix state of the same series to a state with nothing observed: while the values
     * arrive as a time-major prefix the caller decides on it and {@link SubsetConditioner#defer records} them here;
     * the conditioner's reset resets it too.
     *
     * @throws IllegalStateException when something was already observed
     */
    public void attachPrefix(SeriesState prefixState) {
        if (count != 0) {
            throw new IllegalStateException("a prefix state is attached before any value is observed");
        }
        this.prefix = prefixState;
        this.prefixValues = new double[length];
        this.onPrefix = true;
    }

    /** Whether the values observed so far are a time-major prefix, decided on the attached prefix state. */
    public boolean onPrefix() {
        return onPrefix;
    }

    /** The attached prefix state, or null. */
    public SeriesState prefix() {
        return prefix;
    }

    /**
     * The accelerator kept under {@code slot} (e.g. the early classifier's local-QDA search around this series' m_y),
     * or null when there is none or another slot's; as {@link SeriesState#accelerator}, never serialised.
     */
    @SuppressWarnings("unchecked") // attach(Slot<T>, T) is the only writer: the value has the slot's type
    public <T> T accelerator(SeriesState.Slot<T> slot) {
        return acceleratorSlot == slot ? (T) accelerator : null;
    }

    /** Keeps a derived, transient object under {@code slot}, replacing any previous one (null drops it). */
    public <T> void attach(SeriesState.Slot<T> slot, T value) {
        acceleratorSlot = value == null ? null : slot;
        accelerator = value;
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
     * The innovation x_j − E[x_j] of the first value observed (under the first component for a mixture; 0 before
     * any): a number every replay of the same values in the same order reproduces bit for bit, so it can seed
     * per-series randomness.
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

    /** log p(x_O), the log-density of the observed values under the Gaussian or the mixture (0 before any). */
    double logLikelihood() {
        return logLikelihood;
    }
}
