package io.vigil.watch;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A {@link KeyWatcher}'s checkpoint: its counters, window grid and ring, the alarm groups, and the values of the last
 * D samples in arrival order, from which {@link KeyWatcher#restore} rebuilds every open window's session by feeding it
 * again the values it was fed (the sessions themselves are never serialised). Size O(C·D + ⌈D/S⌉). The arrays are
 * owned by the state; do not modify them.
 *
 * <p><b>Serialised form</b> ({@link #writeTo}, no Java serialisation): format version (1), then the fields in order,
 * each array as an int length and its elements, big-endian.
 */
public record KeyWatcherState(
        long anchor,
        long nextStart,
        long frontier,
        long lastTime,
        long[] counters,
        long[] channelCount,
        long[] slotStart,
        boolean[] slotOpen,
        long[] seen,
        long[] timeSample,
        long[] time,
        int[] logChannel,
        long[] logSample,
        double[] logValue,
        long[] merger) {
    private static final int VERSION = 1;

    /** Writes the serialised form. */
    public void writeTo(DataOutput out) throws IOException {
        out.writeByte(VERSION);
        out.writeLong(anchor);
        out.writeLong(nextStart);
        out.writeLong(frontier);
        out.writeLong(lastTime);
        for (long[] a : new long[][] {counters, channelCount, slotStart}) {
            writeLongs(out, a);
        }
        out.writeInt(slotOpen.length);
        for (boolean b : slotOpen) {
            out.writeBoolean(b);
        }
        for (long[] a : new long[][] {seen, timeSample, time}) {
            writeLongs(out, a);
        }
        out.writeInt(logChannel.length);
        for (int c : logChannel) {
            out.writeInt(c);
        }
        writeLongs(out, logSample);
        out.writeInt(logValue.length);
        for (double v : logValue) {
            out.writeDouble(v);
        }
        writeLongs(out, merger);
    }

    /**
     * Reads the serialised form.
     *
     * @throws IOException when the bytes are not a watcher state of this version
     */
    public static KeyWatcherState readFrom(DataInput in) throws IOException {
        int version = in.readUnsignedByte();
        if (version != VERSION) {
            throw new IOException("key watcher state has format version " + version + ", expected " + VERSION);
        }
        long anchor = in.readLong();
        long nextStart = in.readLong();
        long frontier = in.readLong();
        long lastTime = in.readLong();
        long[] counters = readLongs(in);
        long[] channelCount = readLongs(in);
        long[] slotStart = readLongs(in);
        boolean[] slotOpen = new boolean[length(in)];
        for (int i = 0; i < slotOpen.length; i++) {
            slotOpen[i] = in.readBoolean();
        }
        long[] seen = readLongs(in);
        long[] timeSample = readLongs(in);
        long[] time = readLongs(in);
        int[] logChannel = new int[length(in)];
        for (int i = 0; i < logChannel.length; i++) {
            logChannel[i] = in.readInt();
        }
        long[] logSample = readLongs(in);
        double[] logValue = new double[length(in)];
        for (int i = 0; i < logValue.length; i++) {
            logValue[i] = in.readDouble();
        }
        long[] merger = readLongs(in);
        return new KeyWatcherState(
                anchor,
                nextStart,
                frontier,
                lastTime,
                counters,
                channelCount,
                slotStart,
                slotOpen,
                seen,
                timeSample,
                time,
                logChannel,
                logSample,
                logValue,
                merger);
    }

    private static void writeLongs(DataOutput out, long[] a) throws IOException {
        out.writeInt(a.length);
        for (long v : a) {
            out.writeLong(v);
        }
    }

    private static long[] readLongs(DataInput in) throws IOException {
        long[] a = new long[length(in)];
        for (int i = 0; i < a.length; i++) {
            a[i] = in.readLong();
        }
        return a;
    }

    private static int length(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1 << 26) {
            throw new IOException("key watcher state has an array of length " + n);
        }
        return n;
    }
}
