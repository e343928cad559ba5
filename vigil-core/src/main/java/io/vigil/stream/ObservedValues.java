package io.vigil.stream;

import io.vigil.gauss.SubsetState;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;

/**
 * What a series observed in any order keeps ({@link SeriesSession} of a multichannel model): which of its D = C·d
 * values have arrived (one bit each, kept until the series ends, so duplicates are recognised after the decision
 * too) and, while undecided, the values themselves in arrival order as (time-major index, value) pairs — 12 bytes
 * per value — from which the early classifier's conditioned state is rebuilt after a restore or a model upgrade.
 * The conditioned state itself ({@link SubsetState}: q² + ℓq + ℓ² doubles, q ≤ 32, plus the prefix path's state
 * and D doubles for a time-major prefix) is transient: kept beside the values in memory, never
 * serialised, rebuilt by the tracker when absent (one prefix-path update per value while on the prefix, O(q² +
 * ℓq + ℓ²) per value after it) unless {@link ConditionedStates} still holds it for exactly these values.
 *
 * <p><b>Serialised form</b>: int D, the ⌈D/64⌉ words of the arrival bit set, then, while collecting, int n and n
 * pairs (int index, double value).
 */
final class ObservedValues {
    /** Initial capacity of the arrival arrays; they double as values arrive (capped at D). */
    private static final int INITIAL = 16;

    private final int length;
    private final BitSet seen;
    private int count;
    private int[] order;
    private double[] values;
    private int kept;
    private SubsetState subset;

    private ObservedValues(int length, BitSet seen, int count) {
        this.length = length;
        this.seen = seen;
        this.count = count;
    }

    /** Nothing observed yet of D values, keeping values (collecting). */
    static ObservedValues start(int length) {
        ObservedValues v = new ObservedValues(length, new BitSet(length), 0);
        v.order = new int[Math.min(INITIAL, length)];
        v.values = new double[v.order.length];
        return v;
    }

    /** D. */
    int length() {
        return length;
    }

    /** Values seen (before and after the decision). */
    int count() {
        return count;
    }

    boolean seen(int index) {
        return seen.get(index);
    }

    /** The highest 1-based t seen on channel {@code c} of C, 0 when none. */
    int highestOn(int c, int channels) {
        for (int i = seen.length() - 1; i >= 0; i = seen.previousSetBit(i - 1)) {
            if (i % channels == c) {
                return i / channels + 1;
            }
        }
        return 0;
    }

    /** Marks a value as seen and, while collecting, keeps it. */
    void add(int index, double value) {
        seen.set(index);
        if (order != null) {
            int n = arrivals();
            if (n == order.length) {
                int cap = Math.min(length, 2 * order.length);
                order = Arrays.copyOf(order, cap);
                values = Arrays.copyOf(values, cap);
            }
            order[n] = index;
            values[n] = value;
            kept++;
        }
        count++;
    }

    /** Values kept in arrival order (0 once decided). */
    int arrivals() {
        return order == null ? 0 : kept;
    }

    /** The time-major index of the i-th kept value. */
    int indexAt(int i) {
        return order[i];
    }

    /** The i-th kept value. */
    double valueAt(int i) {
        return values[i];
    }

    /** The conditioned state kept beside the values, or null when it must be rebuilt. */
    SubsetState subset() {
        return subset;
    }

    void subset(SubsetState s) {
        subset = s;
    }

    /** After the decision: only the arrival bits remain. */
    void decided() {
        order = null;
        values = null;
        kept = 0;
        subset = null;
    }

    /** For a model upgrade: the same arrivals, the conditioned state to be rebuilt under the new model. */
    ObservedValues copyWithoutState() {
        ObservedValues c = new ObservedValues(length, (BitSet) seen.clone(), count);
        if (order != null) {
            c.order = order.clone();
            c.values = values.clone();
            c.kept = kept;
        }
        return c;
    }

    int serializedSizeBytes() {
        return sizeBytes(length, order == null ? -1 : kept);
    }

    /** Serialised size for D values with {@code kept} values kept while collecting, or -1 once decided. */
    static int sizeBytes(int length, int kept) {
        return 4 + 8 * ((length + 63) / 64) + (kept < 0 ? 0 : 4 + 12 * kept);
    }

    void writeTo(DataOutput out) throws IOException {
        out.writeInt(length);
        long[] words = Arrays.copyOf(seen.toLongArray(), (length + 63) / 64);
        for (long w : words) {
            out.writeLong(w);
        }
        if (order != null) {
            out.writeInt(kept);
            for (int i = 0; i < kept; i++) {
                out.writeInt(order[i]);
                out.writeDouble(values[i]);
            }
        }
    }

    /**
     * Reads what {@link #writeTo} wrote.
     *
     * @param collecting whether the values follow the bits
     * @throws IOException on corrupt content, naming it
     */
    static ObservedValues read(DataInput in, boolean collecting) throws IOException {
        int length = in.readInt();
        if (length < 1 || length > 1 << 24) {
            throw new IOException("corrupt series session: " + length + " values per series");
        }
        long[] words = new long[(length + 63) / 64];
        for (int i = 0; i < words.length; i++) {
            words[i] = in.readLong();
        }
        BitSet seen = BitSet.valueOf(words);
        if (seen.length() > length) {
            throw new IOException("corrupt series session: value " + (seen.length() - 1) + " of " + length + " seen");
        }
        ObservedValues v = new ObservedValues(length, seen, seen.cardinality());
        if (collecting) {
            int n = in.readInt();
            if (n != v.count) {
                throw new IOException("corrupt series session: " + n + " values kept but " + v.count + " seen");
            }
            v.order = new int[Math.max(Math.min(INITIAL, length), n)];
            v.values = new double[v.order.length];
            for (int i = 0; i < n; i++) {
                int index = in.readInt();
                if (index < 0 || index >= length || !seen.get(index)) {
                    throw new IOException("corrupt series session: kept value index " + index + " not seen");
                }
                v.order[i] = index;
                v.values[i] = in.readDouble();
            }
            v.kept = n;
        }
        return v;
    }

    /**
     * Whether {@code o} keeps exactly these values in the same arrival order (both collecting): then a conditioned
     * state built from either is the other's too ({@link ConditionedStates}). Values are compared bit for bit.
     */
    boolean sameArrivals(ObservedValues o) {
        return order != null
                && o.order != null
                && length == o.length
                && kept == o.kept
                && Arrays.equals(order, 0, kept, o.order, 0, kept)
                && Arrays.equals(values, 0, kept, o.values, 0, kept);
    }

    boolean contentEquals(ObservedValues o) {
        return length == o.length
                && count == o.count
                && seen.equals(o.seen)
                && arrivals() == o.arrivals()
                && (order == null) == (o.order == null)
                && (order == null
                        || (Arrays.equals(order, 0, kept, o.order, 0, kept)
                                && Arrays.equals(values, 0, kept, o.values, 0, kept)));
    }
}
