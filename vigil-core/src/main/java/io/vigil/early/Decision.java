package io.vigil.early;

/**
 * The outcome of one {@link EarlyClassifier#observe} (or {@link EarlyClassifier#observeAt}) call, in caller-owned storage (reused from sample to sample,
 * so the per-sample path allocates nothing): the announced class or "wait", and — when the caller asked for it at
 * construction — the largest τ at which the announced label is reliable (thesis §5.7), computed by {@code observe}
 * at the moment it decides, from the same set and discriminants — and where the call was: the (t, channel) of the
 * value it observed and the fraction of the series observed.
 */
public final class Decision {
    /** {@link #label()} while the decision must wait. */
    public static final int NO_DECISION = -1;

    private final boolean computesReliability;
    int label = NO_DECISION;
    double reliability = Double.NaN;
    /** Coordinate (time-major index t·C + c) of the value the last call observed, −1 before any. */
    private int index = -1;

    private int channels = 1;
    private int observed;
    private int position;
    private int length = 1;

    private Decision(boolean computesReliability) {
        this.computesReliability = computesReliability;
    }

    /** Storage for the label alone (offline replays and benchmarks: no reliability search). */
    public static Decision labelOnly() {
        return new Decision(false);
    }

    /** Storage for the label and, when a class is announced, its reliability (what a decision record carries). */
    public static Decision withReliability() {
        return new Decision(true);
    }

    boolean computesReliability() {
        return computesReliability;
    }

    /** Whether the last call announced a class. */
    public boolean decided() {
        return label != NO_DECISION;
    }

    /** The announced class index, or {@link #NO_DECISION}. */
    public int label() {
        return label;
    }

    /**
     * The largest τ at which the announced label holds (1 at t = d).
     *
     * @throws IllegalStateException when the last call did not decide or this storage was made {@link #labelOnly()}
     */
    public double reliability() {
        if (!decided()) {
            throw new IllegalStateException("the last observe() call did not decide");
        }
        if (!computesReliability) {
            throw new IllegalStateException("this decision storage was made labelOnly(); use withReliability()");
        }
        return reliability;
    }

    /**
     * The 0-based time index t of the value the last call observed (the one that triggered the decision, or, for
     * {@link EarlyClassifier#decideIncomplete}, the last value observed); −1 before any value.
     */
    public int time() {
        return index < 0 ? -1 : index / channels;
    }

    /** The 0-based channel index of that value; −1 before any value. */
    public int channel() {
        return index < 0 ? -1 : index % channels;
    }

    /** Values of the series observed so far. */
    public int observed() {
        return observed;
    }

    /** The fraction of the series' C·d values observed so far (0..1). */
    public double observedFraction() {
        return (double) observed / length;
    }

    /**
     * The 1-based position, in the complete time-major stream of C·d values, of the latest value observed so far:
     * t·C + c + 1 for the highest (0-based t, channel c) seen; the prefix length for a prefix, 0 before any value. The
     * decision's t: a value missing before it does not make it smaller, so t/(C·d) is the fraction of the series'
     * time elapsed when values arrive in time order (the stream and {@code vigil evaluate} both report it).
     */
    public int position() {
        return position;
    }

    /**
     * Records where the last call was: coordinate {@code index} of C channels, {@code observed} of {@code length}
     * values, the latest at {@code position}.
     */
    void at(int index, int channels, int observed, int position, int length) {
        this.index = index;
        this.channels = channels;
        this.observed = observed;
        this.position = position;
        this.length = length;
    }

    void set(int label, double reliability) {
        this.label = label;
        this.reliability = reliability;
    }
}
