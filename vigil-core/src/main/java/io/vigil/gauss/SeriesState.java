package io.vigil.gauss;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The mutable per-series state of a {@link CompleteSeriesEstimator}: everything the incremental
 * conditional moments (docs/method.md §3.1) need about the prefix seen so far. It is what a streaming
 * job keeps per key; the estimator itself is immutable and shared.
 *
 * <p>For each of the G components (G = 1 for {@code joint}, G classes for {@code gmm}) it holds the
 * innovations e_0..e_{t−1} under that component, the mean shift m_y(t) − m_y(0) = Σ_s p_s e_s (so a
 * reset state is all zeros and needs no model), and the running log-likelihood log p(x_1..x_t).
 *
 * <p><b>Serialised form</b> ({@link #writeTo}, no Java serialisation): byte format version (1), int d,
 * int ℓ, int G, int t, then per component the t innovations, then G·ℓ mean shifts, then G
 * log-likelihoods, all big-endian. Size {@code 17 + 8·G·(t + ℓ + 1)} bytes, at most
 * {@code 17 + 8·G·(d + ℓ + 1)} at t = d (joint, d = 1,024, ℓ = 30: 8,457 bytes; gmm with G = 5: 42,217).
 * In memory the state holds G·(d + ℓ + 1) + 2ℓ + G doubles (the last 2ℓ + G are transient scratch for
 * the mixture moments), plus, for Gaussians in the {@link CovarianceForm#LOW_RANK} form, a transient working
 * vector of Σ_g r_g doubles (the running E[z | x_1..x_t] of each component, {@link LowRankConditionalModel}):
 * it is derived from the innovations, never serialised, and recomputed in O(t·Σ_g r_g) when missing or stale
 * (after {@link #reset}, {@link #copyFrom}, {@link #readFrom} or {@link #copy}, or when another estimator
 * updates the state). Not thread-safe: one series, one thread at a time.
 *
 * <p><b>Accelerator slot.</b> A consumer of the state may keep one derived, transient object beside it under a
 * typed {@link Slot} ({@link #attach}, {@link #accelerator}), e.g. the early classifier's local-QDA search (thesis
 * §5.6.1 refits class Gaussians around m_y every sample): with the joint estimator the dot products of m_y with
 * the n training points, advanced by m_y's known step (docs/method.md §3.1; ≈ 13 KB per series for n = 1,000, G =
 * 10, ℓ = 30), with the GMM estimator a neighbour cache (≈ 22 KB for G = 10, ℓ = 30, k = 32). The slot key is
 * owned by the consumer, so an object is only ever handed back to the consumer (and the type) that put it there.
 * The accelerator is never serialised and is not part of {@link #contentEquals}; {@link #copy} does not carry
 * it, and {@link #reset}, {@link #copyFrom} and {@link #readFrom} keep it, so it must be correct for any content
 * of the state (validated by what it stores) or be rebuilt lazily when missing. This package knows nothing of
 * what is kept there.
 */
public final class SeriesState {
    /** Leading byte of the serialised form. */
    public static final byte FORMAT_VERSION = 1;

    private static final int HEADER_BYTES = 1 + 4 * Integer.BYTES;

    private final int length;
    private final int reduced;
    private final int components;
    int time;
    final double[] innovations; // G × d, component g at offset g·d
    final double[] meanShift; // G × ℓ
    final double[] logLikelihood; // G
    final double[] scratchMean; // ℓ, transient
    final double[] scratchDiff; // ℓ, transient
    final double[] scratchPosterior; // G, transient
    private Slot<?> acceleratorSlot; // transient, see the class comment
    private Object accelerator; // transient, of the slot's type
    double[] work; // transient working vectors of the low-rank form, see the class comment
    Object workOwner; // token of the estimator the work vector belongs to (not the estimator: no retention)
    int workTime = -1; // the t the work vector is valid for; −1: stale

    /**
     * An empty state (t = 0) for series of length d, ℓ features and G components.
     *
     * @throws IllegalArgumentException when a size is &lt; 1 or d exceeds {@link SeriesGaussian#MAX_LENGTH}
     */
    public SeriesState(int length, int reducedDimension, int components) {
        if (length < 1 || length > SeriesGaussian.MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "series length must be in 1.." + SeriesGaussian.MAX_LENGTH + ", got " + length);
        }
        if (reducedDimension < 1) {
            throw new IllegalArgumentException("reduced dimension ℓ must be ≥ 1, got " + reducedDimension);
        }
        if (components < 1) {
            throw new IllegalArgumentException("component count G must be ≥ 1, got " + components);
        }
        if ((long) components * length > Integer.MAX_VALUE - 8
                || (long) components * reducedDimension > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "state for G = " + components + ", d = " + length + ", ℓ = " + reducedDimension + " is too large");
        }
        this.length = length;
        this.reduced = reducedDimension;
        this.components = components;
        this.innovations = new double[components * length];
        this.meanShift = new double[components * reducedDimension];
        this.logLikelihood = new double[components];
        this.scratchMean = new double[reducedDimension];
        this.scratchDiff = new double[reducedDimension];
        this.scratchPosterior = new double[components];
    }

    /** Series length d. */
    public int length() {
        return length;
    }

    /** Reduced dimension ℓ. */
    public int reducedDimension() {
        return reduced;
    }

    /** Number of components G. */
    public int components() {
        return components;
    }

    /** Samples observed so far, 0..d. */
    public int time() {
        return time;
    }

    /** True once all d samples have been observed. */
    public boolean isComplete() {
        return time == length;
    }

    /** The innovation e_s under component g, s &lt; {@link #time()}. */
    public double innovation(int component, int s) {
        if (component < 0 || component >= components) {
            throw new IllegalArgumentException("component " + component + " is outside 0.." + (components - 1));
        }
        if (s < 0 || s >= time) {
            throw new IllegalArgumentException("innovation index " + s + " is outside 0.." + (time - 1));
        }
        return innovations[component * length + s];
    }

    /** The running log-likelihood log p(x_1..x_t | component g) (0 at t = 0). */
    double componentLogLikelihood(int component) {
        if (component < 0 || component >= components) {
            throw new IllegalArgumentException("component " + component + " is outside 0.." + (components - 1));
        }
        return logLikelihood[component];
    }

    /**
     * The accelerator kept under {@code slot}, or null when there is none or another slot's (always null after
     * {@link #read} and {@link #copy}).
     */
    @SuppressWarnings("unchecked") // attach(Slot<T>, T) is the only writer: the value has the slot's type
    public <T> T accelerator(Slot<T> slot) {
        return acceleratorSlot == slot ? (T) accelerator : null;
    }

    /**
     * Keeps a derived, transient object under {@code slot} (see the class comment), replacing any previous one.
     *
     * @param value the accelerator, or null to drop it
     */
    public <T> void attach(Slot<T> slot, T value) {
        acceleratorSlot = value == null ? null : slot;
        accelerator = value;
    }

    /**
     * The typed key of a {@link SeriesState}'s accelerator slot; identity-based, so each consumer (e.g. each
     * early classifier) makes its own and gets back only what it kept.
     *
     * @param <T> the type of the accelerator
     */
    public static final class Slot<T> {
        private final String name;

        /** A new key; {@code name} is for diagnostics only. */
        public Slot(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return "SeriesState.Slot[" + name + "]";
        }
    }

    /** Back to t = 0 (all zeros); allocation-free. Keeps the accelerator. */
    public void reset() {
        Arrays.fill(innovations, 0.0);
        Arrays.fill(meanShift, 0.0);
        Arrays.fill(logLikelihood, 0.0);
        time = 0;
        workTime = -1;
    }

    /** A deep copy (same dimensions and content). */
    public SeriesState copy() {
        SeriesState c = new SeriesState(length, reduced, components);
        c.copyFrom(this);
        return c;
    }

    /**
     * Overwrites this state with another of the same dimensions.
     *
     * @throws IllegalArgumentException when the dimensions differ
     */
    void copyFrom(SeriesState other) {
        requireSameShape(other.length, other.reduced, other.components);
        System.arraycopy(other.innovations, 0, innovations, 0, innovations.length);
        System.arraycopy(other.meanShift, 0, meanShift, 0, meanShift.length);
        System.arraycopy(other.logLikelihood, 0, logLikelihood, 0, logLikelihood.length);
        time = other.time;
        workTime = -1;
    }

    /** True when dimensions, t and every stored value are equal (bitwise for doubles). */
    public boolean contentEquals(SeriesState other) {
        if (other.length != length || other.reduced != reduced || other.components != components) {
            return false;
        }
        if (other.time != time) {
            return false;
        }
        for (int g = 0; g < components; g++) {
            if (!Arrays.equals(
                    innovations, g * length, g * length + time, other.innovations, g * length, g * length + time)) {
                return false;
            }
        }
        return Arrays.equals(meanShift, other.meanShift) && Arrays.equals(logLikelihood, other.logLikelihood);
    }

    /** Bytes {@link #writeTo} writes now: {@code 17 + 8·G·(t + ℓ + 1)}. */
    public int serializedSizeBytes() {
        return HEADER_BYTES + Double.BYTES * components * (time + reduced + 1);
    }

    /** The largest serialised size, at t = d: {@code 17 + 8·G·(d + ℓ + 1)} bytes. */
    public static long maxSerializedSizeBytes(int length, int reducedDimension, int components) {
        return HEADER_BYTES + (long) Double.BYTES * components * (length + reducedDimension + 1);
    }

    /** Writes the versioned binary form (see the class comment). */
    public void writeTo(DataOutput out) throws IOException {
        out.writeByte(FORMAT_VERSION);
        out.writeInt(length);
        out.writeInt(reduced);
        out.writeInt(components);
        out.writeInt(time);
        for (int g = 0; g < components; g++) {
            int off = g * length;
            for (int s = 0; s < time; s++) {
                out.writeDouble(innovations[off + s]);
            }
        }
        for (double v : meanShift) {
            out.writeDouble(v);
        }
        for (double v : logLikelihood) {
            out.writeDouble(v);
        }
    }

    /**
     * Reads a state written by {@link #writeTo} into this one; its dimensions must match.
     *
     * @throws IOException on an unknown format version, mismatched dimensions (both sizes named), an
     *     out-of-range t, non-finite values or a truncated stream ({@link java.io.EOFException}); this
     *     state is unchanged then unless the stream ended or was corrupt midway through the values
     */
    void readFrom(DataInput in) throws IOException {
        int[] header = readHeader(in);
        if (header[0] != length || header[1] != reduced || header[2] != components) {
            throw new IOException("stored series state has d = " + header[0] + ", ℓ = " + header[1] + ", G = "
                    + header[2] + " but this estimator has d = " + length + ", ℓ = " + reduced + ", G = "
                    + components);
        }
        readBody(in, header[3]);
    }

    /**
     * Reads a state written by {@link #writeTo}, taking the dimensions from the stream.
     *
     * @throws IOException as {@link #readFrom}, or when the stored dimensions are out of range
     */
    public static SeriesState read(DataInput in) throws IOException {
        int[] header = readHeader(in);
        SeriesState s = new SeriesState(header[0], header[1], header[2]);
        s.readBody(in, header[3]);
        return s;
    }

    private static int[] readHeader(DataInput in) throws IOException {
        byte version = in.readByte();
        if (version != FORMAT_VERSION) {
            throw new IOException(
                    "unknown series state format version " + version + "; this build reads version " + FORMAT_VERSION);
        }
        int d = in.readInt();
        int l = in.readInt();
        int g = in.readInt();
        int t = in.readInt();
        if (d < 1 || d > SeriesGaussian.MAX_LENGTH || l < 1 || l > SeriesGaussian.MAX_LENGTH || g < 1 || g > 1 << 16) {
            throw new IOException("corrupt series state: d = " + d + ", ℓ = " + l + ", G = " + g);
        }
        if (t < 0 || t > d) {
            throw new IOException("corrupt series state: t = " + t + " is outside 0.." + d);
        }
        return new int[] {d, l, g, t};
    }

    private void readBody(DataInput in, int t) throws IOException {
        for (int g = 0; g < components; g++) {
            int off = g * length;
            for (int s = 0; s < t; s++) {
                innovations[off + s] = readFinite(in, "innovation");
            }
            Arrays.fill(innovations, off + t, off + length, 0.0);
        }
        for (int i = 0; i < meanShift.length; i++) {
            meanShift[i] = readFinite(in, "mean shift");
        }
        for (int i = 0; i < logLikelihood.length; i++) {
            logLikelihood[i] = readFinite(in, "log-likelihood");
        }
        time = t;
        workTime = -1;
    }

    private static double readFinite(DataInput in, String what) throws IOException {
        double v = in.readDouble();
        if (!Double.isFinite(v)) {
            throw new IOException("corrupt series state: non-finite " + what + " " + v);
        }
        return v;
    }

    /** True when the working vector belongs to {@code owner}, has length {@code size} and is valid for t. */
    boolean workValid(Object owner, int size) {
        return workOwner == owner && workTime == time && work != null && work.length == size;
    }

    /**
     * Claims the working vector for {@code owner} at the current t, allocating it only when it is missing or of
     * another length; the caller fills it (its content is unspecified).
     */
    double[] claimWork(Object owner, int size) {
        if (work == null || work.length != size) {
            work = new double[size];
        }
        workOwner = owner;
        workTime = time;
        return work;
    }

    void requireSameShape(int d, int l, int g) {
        if (d != length || l != reduced || g != components) {
            throw new IllegalArgumentException("series state has d = " + length + ", ℓ = " + reduced + ", G = "
                    + components + " but the estimator has d = " + d + ", ℓ = " + l + ", G = " + g);
        }
    }
}
