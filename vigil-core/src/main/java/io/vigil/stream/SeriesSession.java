package io.vigil.stream;

import io.vigil.gauss.SeriesState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * What a stream job keeps for one series between samples (one per key in Flink managed state).
 *
 * <p>While the series is undecided ({@link Phase#COLLECTING}) it holds the early classifier's {@link SeriesState}
 * (the innovations of the conditional Gaussian, thesis §5.4, docs/method.md §3.1) and the raw prefix x(1:t), so that
 * after a model upgrade the series can be replayed under the new model instead of being lost (the innovations
 * belong to the old model and cannot be turned back into samples without it). Once a decision is out
 * ({@link Phase#DECIDED}) the classifier state is dropped and only a marker remains: how many samples were
 * consumed, so that duplicates and t &gt; d are still recognised and the series ends at t = d. Samples that
 * arrive ahead of the next expected t wait in a small reorder buffer (at most the configured window).
 *
 * <p>A consumed sample outside the training range ({@link io.vigil.early.RangeGuard}) sets {@link #outOfRange}, which
 * marks the record the series gets and travels with the session through checkpoints.
 *
 * <p><b>Serialised form</b> ({@link #writeTo}): format version (3), the 64-bit model tag (which model and
 * estimator the classifier state belongs to, so state from another model is recognised after a restore), phase,
 * consumed t, highest t seen, last activity, registered timer and the event time of the last consumed sample
 * (epoch ms), a flags byte (bit 0: {@link #outOfRange}), the {@link SeriesState} and the t prefix values when
 * collecting, then the buffered samples. Size: 47 bytes for a decided marker; 47 + 17 + 8·G·(t + ℓ + 1) + 8·t while
 * collecting (joint Gaussian, G = 1: d = 128, ℓ = 5 at most 2,160 bytes; d = 1,024, ℓ = 30 at most 16,696 bytes),
 * plus 32 + |value| bytes per buffered sample. Version 2 (no flags byte) is still read, with the flag clear, and
 * version 1 (no prefix, no sample time): such sessions cannot be replayed and restart.
 *
 * <p><b>Any order</b> (a multichannel model: values of any channel and t in any order, missing ones never
 * conditioned on): the session keeps {@link ObservedValues} instead of the classifier state, prefix and reorder
 * buffer — which values arrived, and the values in arrival order while collecting — and is written as format 4:
 * the same fixed part with flag bit 1 set, then the observed values, then 0 buffered samples. Size 47 + 4 +
 * 8·⌈D/64⌉ + (collecting: 4 + 12 per value) bytes (C = 3, d = 128: at most 4,727 bytes; decided: 99 bytes).
 * Univariate sessions are still written as format 3, byte for byte as before; a build that reads only up to format
 * 3 refuses format 4 naming the version.
 */
public final class SeriesSession {
    /** Leading byte of the serialised form of a series observed in any order (a multichannel model). */
    public static final byte FORMAT_VERSION_ANY_ORDER = 4;

    /** Leading byte of the serialised form of a univariate (prefix) series. */
    public static final byte FORMAT_VERSION = 3;

    /** The previous format (no flags byte), still read. */
    static final byte FORMAT_VERSION_2 = 2;

    /** The first format (no prefix, no sample time, no flags byte), still read. */
    static final byte FORMAT_VERSION_1 = 1;

    /** Bit of the flags byte: a consumed sample was outside the training range. */
    private static final int FLAG_OUT_OF_RANGE = 1;

    /** Bit of the flags byte (format 4): the series is observed in any order ({@link ObservedValues}). */
    private static final int FLAG_ANY_ORDER = 2;

    /** Timer field value when no timer is registered. */
    public static final long NO_TIMER = Long.MIN_VALUE;

    /** Bytes of the fixed part of the serialised form. */
    static final int FIXED_BYTES = 1 + 8 + 1 + 4 + 4 + 8 + 8 + 8 + 1 + 4;

    /** Initial capacity of the prefix array; it doubles as samples arrive (amortised O(1), capped at d). */
    private static final int INITIAL_PREFIX = 16;

    /** Serialised size of a decided marker with nothing buffered. */
    public static final int DECIDED_SIZE_BYTES = FIXED_BYTES;

    /** Largest serialised size while collecting (t = d, nothing buffered) for d, ℓ and G components. */
    public static long maxSerializedSizeBytes(int length, int reducedDimension, int components) {
        return FIXED_BYTES + SeriesState.maxSerializedSizeBytes(length, reducedDimension, components) + 8L * length;
    }

    /**
     * Largest serialised size of a series of D = C·d values observed in any order, while collecting (all D values
     * kept, an upper bound: the D-th value ends the series) or after its decision.
     */
    public static long anyOrderSizeBytes(int values, boolean decided) {
        return FIXED_BYTES + ObservedValues.sizeBytes(values, decided ? -1 : values);
    }

    /** Where a series is in its life. */
    public enum Phase {
        /** No decision yet: the classifier state is kept and updated per sample. */
        COLLECTING,
        /** The decision is out; only the marker is kept until t = d or expiry. */
        DECIDED
    }

    private long modelTag;
    private Phase phase;
    private int consumed;
    private int highest;
    private long lastActivity;
    private long timerAt = NO_TIMER;
    private long lastSampleTime;
    private boolean outOfRange;
    private SeriesState state;
    private double[] prefix;
    private BufferedSample[] buffer;
    private int buffered;
    /** The values of a series observed in any order, or null for a prefix series. */
    private ObservedValues observed;

    private SeriesSession() {}

    /** A new series of D = C·d values observed in any order, collecting. */
    public static SeriesSession startAnyOrder(long modelTag, int length) {
        SeriesSession s = new SeriesSession();
        s.modelTag = modelTag;
        s.phase = Phase.COLLECTING;
        s.observed = ObservedValues.start(length);
        return s;
    }

    /** Whether the series is observed in any order (a multichannel model) rather than as a prefix. */
    public boolean isAnyOrder() {
        return observed != null;
    }

    /** The any-order values (null for a prefix series). */
    ObservedValues observed() {
        return observed;
    }

    /** A new series, collecting, with a fresh classifier state. */
    public static SeriesSession start(long modelTag, SeriesState state) {
        SeriesSession s = new SeriesSession();
        s.modelTag = modelTag;
        s.phase = Phase.COLLECTING;
        s.state = Objects.requireNonNull(state, "state");
        s.prefix = new double[INITIAL_PREFIX];
        return s;
    }

    /** The tag of the model and estimator the state belongs to. */
    public long modelTag() {
        return modelTag;
    }

    /** The phase. */
    public Phase phase() {
        return phase;
    }

    /** Samples consumed in order so far (the t of the last one), 0..d. */
    public int consumed() {
        return consumed;
    }

    /** The highest t seen (consumed or buffered). */
    public int highest() {
        return highest;
    }

    /** Processing time (epoch ms) of the last sample. */
    public long lastActivity() {
        return lastActivity;
    }

    /** The registered expiry timer (epoch ms), or {@link #NO_TIMER}. */
    public long timerAt() {
        return timerAt;
    }

    /** Records the registered expiry timer. */
    public void timerAt(long at) {
        this.timerAt = at;
    }

    /** Event time (epoch ms) of the last consumed sample, 0 before the first. */
    public long lastSampleTime() {
        return lastSampleTime;
    }

    /**
     * True when the raw prefix x(1:{@link #consumed}) is kept, so the series can be replayed under another model:
     * collecting sessions written by this version; not decided markers nor sessions read from format version 1.
     */
    public boolean hasPrefix() {
        return prefix != null;
    }

    /** The prefix value x(t), 1 ≤ t ≤ {@link #consumed} (requires {@link #hasPrefix}). */
    public double prefixValue(int t) {
        if (prefix == null || t < 1 || t > consumed) {
            throw new IndexOutOfBoundsException("prefix value t=" + t + " of a session consumed up to " + consumed
                    + (prefix == null ? " without a stored prefix" : ""));
        }
        return prefix[t - 1];
    }

    /**
     * This session under another model: the tag is replaced and the classifier state with {@code fresh} (at t =
     * 0), the prefix and buffered samples are kept and {@link #consumed} goes back to 0, so the caller replays the
     * prefix through the new classifier. A decided marker only takes the tag.
     */
    SeriesSession adopt(long newTag, SeriesState fresh) {
        SeriesSession a = copy();
        a.modelTag = newTag;
        if (observed != null) {
            a.outOfRange = false;
            return a; // the copy's conditioned state is rebuilt under the new model from the kept values
        }
        if (phase == Phase.COLLECTING) {
            a.state = Objects.requireNonNull(fresh, "fresh");
            a.consumed = 0;
            a.outOfRange = false; // the replay checks the prefix against the new model's training range
        }
        return a;
    }

    /** The classifier state while collecting, else null. */
    public SeriesState state() {
        return state;
    }

    /** True when a consumed sample was outside the training range (the series' record is marked). */
    public boolean outOfRange() {
        return outOfRange;
    }

    void markOutOfRange() {
        outOfRange = true;
    }

    /** Samples waiting in the reorder buffer. */
    public int bufferedCount() {
        return buffered;
    }

    void touch(long now) {
        lastActivity = now;
    }

    void seen(int t) {
        highest = Math.max(highest, t);
    }

    void consumedUpTo(int t) {
        consumed = t;
    }

    /** Records x(t) (t = {@link #consumed} + 1 in a collecting session with a prefix) and its event time. */
    void record(int t, double value, long sampleTime) {
        lastSampleTime = sampleTime;
        if (prefix == null) {
            return;
        }
        if (t > prefix.length) {
            prefix = Arrays.copyOf(prefix, Math.max(t, 2 * prefix.length));
        }
        prefix[t - 1] = value;
    }

    void decided() {
        phase = Phase.DECIDED;
        state = null;
        prefix = null;
        if (observed != null) {
            observed.decided();
        }
    }

    void lastSampleTime(long sampleTime) {
        lastSampleTime = sampleTime;
    }

    /**
     * Buffered samples always have consumed &lt; t ≤ consumed + window with window ≤ {@value
     * SessionSettings#MAX_REORDER_WINDOW}, so slot t mod 64 never collides.
     */
    private static int slot(int t) {
        return t & (SessionSettings.MAX_REORDER_WINDOW - 1);
    }

    boolean isBuffered(int t) {
        return buffered > 0 && buffer[slot(t)] != null && buffer[slot(t)].t() == t;
    }

    void buffer(BufferedSample b) {
        if (buffer == null) {
            buffer = new BufferedSample[SessionSettings.MAX_REORDER_WINDOW];
        }
        if (buffer[slot(b.t())] != null) {
            throw new IllegalStateException("reorder slot of t=" + b.t() + " holds t=" + buffer[slot(b.t())].t());
        }
        buffer[slot(b.t())] = b;
        buffered++;
    }

    /** Removes and returns the buffered sample with this t, or null. */
    BufferedSample takeBuffered(int t) {
        if (!isBuffered(t)) {
            return null;
        }
        BufferedSample b = buffer[slot(t)];
        buffer[slot(t)] = null;
        buffered--;
        return b;
    }

    /** The buffered samples in t order (a new array). */
    public BufferedSample[] bufferedSamples() {
        if (buffered == 0) {
            return new BufferedSample[0];
        }
        return Arrays.stream(buffer)
                .filter(Objects::nonNull)
                .sorted((a, b) -> Integer.compare(a.t(), b.t()))
                .toArray(BufferedSample[]::new);
    }

    /** Bytes {@link #writeTo} writes now. */
    public int serializedSizeBytes() {
        if (observed != null) {
            return FIXED_BYTES + observed.serializedSizeBytes();
        }
        int size = FIXED_BYTES + (state == null ? 0 : state.serializedSizeBytes() + 8 * consumed);
        for (BufferedSample b : bufferedSamples()) {
            size += 4 + 8 + 8 + 4 + 8 + 4 + b.raw().length;
        }
        return size;
    }

    /** Writes the versioned binary form (see the class comment). */
    public void writeTo(DataOutput out) throws IOException {
        out.writeByte(observed == null ? FORMAT_VERSION : FORMAT_VERSION_ANY_ORDER);
        out.writeLong(modelTag);
        out.writeByte(phase == Phase.COLLECTING ? 0 : 1);
        out.writeInt(consumed);
        out.writeInt(highest);
        out.writeLong(lastActivity);
        out.writeLong(timerAt);
        out.writeLong(lastSampleTime);
        out.writeByte((outOfRange ? FLAG_OUT_OF_RANGE : 0) | (observed != null ? FLAG_ANY_ORDER : 0));
        if (observed != null) {
            observed.writeTo(out);
            out.writeInt(0);
            return;
        }
        if (phase == Phase.COLLECTING) {
            state.writeTo(out);
            if (prefix == null) {
                throw new IllegalStateException("a collecting session read from format 1 has no prefix to write");
            }
            for (int i = 0; i < consumed; i++) {
                out.writeDouble(prefix[i]);
            }
        }
        out.writeInt(buffered);
        for (BufferedSample b : bufferedSamples()) {
            out.writeInt(b.t());
            out.writeDouble(b.value());
            out.writeLong(b.timestamp());
            out.writeInt(b.partition());
            out.writeLong(b.offset());
            out.writeInt(b.raw().length);
            out.write(b.raw());
        }
    }

    /**
     * Reads a session written by {@link #writeTo}.
     *
     * @throws IOException on an unknown format version or corrupt content, naming what is wrong
     */
    public static SeriesSession read(DataInput in) throws IOException {
        byte version = in.readByte();
        if (version < FORMAT_VERSION_1 || version > FORMAT_VERSION_ANY_ORDER) {
            throw new IOException("unknown series session format version " + version + "; this build reads "
                    + FORMAT_VERSION_1 + " to " + FORMAT_VERSION_ANY_ORDER);
        }
        SeriesSession s = new SeriesSession();
        s.modelTag = in.readLong();
        byte phase = in.readByte();
        if (phase != 0 && phase != 1) {
            throw new IOException("corrupt series session: phase byte " + phase);
        }
        s.phase = phase == 0 ? Phase.COLLECTING : Phase.DECIDED;
        s.consumed = in.readInt();
        s.highest = in.readInt();
        if (s.consumed < 0 || s.highest < s.consumed) {
            throw new IOException("corrupt series session: consumed " + s.consumed + ", highest " + s.highest);
        }
        s.lastActivity = in.readLong();
        s.timerAt = in.readLong();
        if (version >= FORMAT_VERSION_2) {
            s.lastSampleTime = in.readLong();
        }
        if (version >= FORMAT_VERSION) {
            int flags = in.readUnsignedByte();
            int known = version == FORMAT_VERSION_ANY_ORDER ? FLAG_OUT_OF_RANGE | FLAG_ANY_ORDER : FLAG_OUT_OF_RANGE;
            if ((flags & ~known) != 0) {
                throw new IOException("corrupt series session: unknown flags " + flags);
            }
            s.outOfRange = (flags & FLAG_OUT_OF_RANGE) != 0;
            if ((flags & FLAG_ANY_ORDER) != 0) {
                s.observed = ObservedValues.read(in, s.phase == Phase.COLLECTING);
                if (in.readInt() != 0) {
                    throw new IOException("corrupt series session: buffered samples in a series observed in any order");
                }
                return s;
            }
        }
        if (s.phase == Phase.COLLECTING) {
            s.state = SeriesState.read(in);
            if (version >= FORMAT_VERSION_2) {
                s.prefix = new double[Math.max(INITIAL_PREFIX, s.consumed)];
                for (int i = 0; i < s.consumed; i++) {
                    s.prefix[i] = in.readDouble();
                }
            }
        }
        int n = in.readInt();
        if (n < 0 || n > SessionSettings.MAX_REORDER_WINDOW) {
            throw new IOException("corrupt series session: " + n + " buffered samples");
        }
        BufferedSample[] samples = new BufferedSample[n];
        for (int i = 0; i < n; i++) {
            int t = in.readInt();
            double value = in.readDouble();
            long ts = in.readLong();
            int partition = in.readInt();
            long offset = in.readLong();
            int len = in.readInt();
            if (len < 0 || len > 1 << 24) {
                throw new IOException("corrupt series session: buffered sample of " + len + " bytes");
            }
            byte[] raw = new byte[len];
            in.readFully(raw);
            samples[i] = new BufferedSample(t, value, ts, partition, offset, raw);
        }
        for (BufferedSample b : samples) {
            if (b.t() <= s.consumed || b.t() > s.consumed + SessionSettings.MAX_REORDER_WINDOW || s.isBuffered(b.t())) {
                throw new IOException(
                        "corrupt series session: buffered t=" + b.t() + " (again?) with consumed " + s.consumed);
            }
            s.buffer(b);
        }
        return s;
    }

    /** A deep copy (the classifier state is copied; buffered samples are immutable and shared). */
    public SeriesSession copy() {
        SeriesSession c = new SeriesSession();
        c.modelTag = modelTag;
        c.phase = phase;
        c.consumed = consumed;
        c.highest = highest;
        c.lastActivity = lastActivity;
        c.timerAt = timerAt;
        c.lastSampleTime = lastSampleTime;
        c.outOfRange = outOfRange;
        c.state = state == null ? null : state.copy();
        c.prefix = prefix == null ? null : prefix.clone();
        c.buffer = buffer == null ? null : buffer.clone();
        c.buffered = buffered;
        c.observed = observed == null ? null : observed.copyWithoutState();
        return c;
    }

    /** True when every field, the classifier state and the buffered samples are equal. */
    public boolean contentEquals(SeriesSession o) {
        return o != null
                && modelTag == o.modelTag
                && phase == o.phase
                && consumed == o.consumed
                && highest == o.highest
                && lastActivity == o.lastActivity
                && timerAt == o.timerAt
                && lastSampleTime == o.lastSampleTime
                && outOfRange == o.outOfRange
                && prefixEquals(o)
                && (observed == null ? o.observed == null : o.observed != null && observed.contentEquals(o.observed))
                && (state == null ? o.state == null : o.state != null && state.contentEquals(o.state))
                && Arrays.equals(bufferedSamples(), o.bufferedSamples());
    }

    private boolean prefixEquals(SeriesSession o) {
        if (prefix == null || o.prefix == null) {
            return prefix == o.prefix;
        }
        return Arrays.equals(prefix, 0, consumed, o.prefix, 0, consumed);
    }

    @Override
    public String toString() {
        return "SeriesSession{" + phase + ", consumed=" + consumed + ", highest=" + highest + ", buffered=" + buffered
                + (outOfRange ? ", out of range" : "") + "}";
    }
}
