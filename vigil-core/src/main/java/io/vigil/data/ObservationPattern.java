package io.vigil.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which values of a series are observed and in what order they arrive: each value missing at random with probability
 * P, channels that arrive K steps late, channels dropped entirely, and optionally a shuffled arrival order. Pure and
 * seeded per series id, so a replay to the stream, an offline evaluation and a calibration replay of the same series
 * see exactly the same values in the same order. Immutable.
 *
 * <p>Values are named by their time-major index t·C + c ({@link Dataset}). Without shuffling, value (t, c) arrives
 * at step t + K_c (K_c its channel's lag, 0 by default), ties in channel order: C channels interleaved by time. With
 * shuffling the observed values arrive in a uniformly random order. Whether a value is missing is drawn per value
 * in index order from the series' own random stream, independently of lags, drops and shuffling, so adding a lag
 * never changes which values are missing.
 */
public final class ObservationPattern {
    private static final ObservationPattern COMPLETE = new ObservationPattern(0.0, Map.of(), Set.of(), false, 0L);

    private final double missing;
    private final Map<Integer, Integer> lags;
    private final Set<Integer> dropped;
    private final boolean shuffled;
    private final long seed;

    private ObservationPattern(
            double missing, Map<Integer, Integer> lags, Set<Integer> dropped, boolean shuffled, long seed) {
        this.missing = missing;
        this.lags = lags;
        this.dropped = dropped;
        this.shuffled = shuffled;
        this.seed = seed;
    }

    /** Every value observed, channels interleaved by time: the prefix order. */
    public static ObservationPattern complete() {
        return COMPLETE;
    }

    /** A builder starting from {@link #complete()}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Parses channel lags {@code C:K[,C:K…]} (channel index, steps late), as the command line takes them.
     *
     * @throws IllegalArgumentException naming the bad entry
     */
    public static Map<Integer, Integer> parseLags(String text) {
        Map<Integer, Integer> out = new TreeMap<>();
        for (String part : text.split(",", -1)) {
            String[] ck = part.trim().split(":", -1);
            if (ck.length != 2) {
                throw new IllegalArgumentException("channel lag '" + part + "' is not C:K (channel:steps)");
            }
            int c;
            int k;
            try {
                c = Integer.parseInt(ck[0].trim());
                k = Integer.parseInt(ck[1].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("channel lag '" + part + "' is not C:K with whole numbers");
            }
            if (c < 0 || k < 0) {
                throw new IllegalArgumentException("channel lag '" + part + "' needs channel ≥ 0 and steps ≥ 0");
            }
            if (out.put(c, k) != null) {
                throw new IllegalArgumentException("channel " + c + " has two lags in '" + text + "'");
            }
        }
        return out;
    }

    /** Probability P that a value is missing. */
    public double missing() {
        return missing;
    }

    /** Lag K_c in steps per channel index (absent: 0). */
    public Map<Integer, Integer> lags() {
        return lags;
    }

    /** Channel indices never observed. */
    public Set<Integer> dropped() {
        return dropped;
    }

    /** Whether the observed values arrive in a random order. */
    public boolean shuffled() {
        return shuffled;
    }

    /** The seed the per-series streams are derived from. */
    public long seed() {
        return seed;
    }

    /**
     * True when every value is observed in the prefix order (channels interleaved by time): nothing missing,
     * lagged, dropped or shuffled.
     */
    public boolean isComplete() {
        return missing == 0.0
                && dropped.isEmpty()
                && !shuffled
                && lags.values().stream().allMatch(k -> k == 0);
    }

    /**
     * Refuses a lagged or dropped channel the data do not have, and dropping every channel, naming the option that
     * sets it ({@code --channel-lag}, {@code --drop-channel}).
     *
     * @throws IllegalArgumentException when the pattern does not fit data of {@code channels} channels
     */
    public void checkChannels(int channels) {
        for (int c : lags.keySet()) {
            if (c >= channels) {
                throw new IllegalArgumentException("--channel-lag: channel " + c
                        + " is not a channel of the data (channels 0.." + (channels - 1) + ")");
            }
        }
        for (int c : dropped) {
            if (c >= channels) {
                throw new IllegalArgumentException("--drop-channel: channel " + c
                        + " is not a channel of the data (channels 0.." + (channels - 1) + ")");
            }
        }
        if (dropped.size() == channels) {
            throw new IllegalArgumentException("--drop-channel: dropping every channel of the data (channels 0.."
                    + (channels - 1) + ") leaves nothing to observe");
        }
    }

    /**
     * The observed values of one series in arrival order, as time-major indices t·C + c.
     *
     * @param seriesId the series' id (its random streams are seeded by it and {@link #seed()})
     * @param channels C ≥ 1
     * @param length values per series C·d
     * @throws IllegalArgumentException when a lagged or dropped channel is not below C, or the length is not a
     *     multiple of C
     */
    public int[] order(String seriesId, int channels, int length) {
        Objects.requireNonNull(seriesId, "seriesId");
        if (channels < 1 || length < 1 || length % channels != 0) {
            throw new IllegalArgumentException(
                    "length " + length + " is not a positive multiple of " + channels + " channels");
        }
        for (int c : lags.keySet()) {
            requireChannel(c, channels, "lagged");
        }
        for (int c : dropped) {
            requireChannel(c, channels, "dropped");
        }
        SplittableRandom missingDraws = new SplittableRandom(mix(seed, hash(seriesId)));
        SplittableRandom orderDraws = missingDraws.split();
        int[] lag = new int[channels];
        boolean[] drop = new boolean[channels];
        for (Map.Entry<Integer, Integer> e : lags.entrySet()) {
            lag[e.getKey()] = e.getValue();
        }
        for (int c : dropped) {
            drop[c] = true;
        }
        int[] kept = new int[length];
        int n = 0;
        for (int j = 0; j < length; j++) {
            boolean absent = missing > 0 && missingDraws.nextDouble() < missing;
            if (!absent && !drop[j % channels]) {
                kept[n++] = j;
            }
        }
        kept = Arrays.copyOf(kept, n);
        if (shuffled) {
            for (int i = n - 1; i > 0; i--) {
                int k = orderDraws.nextInt(i + 1);
                int tmp = kept[i];
                kept[i] = kept[k];
                kept[k] = tmp;
            }
            return kept;
        }
        // Arrival step t + K_c, then channel; (step, channel) names the value, since t = step − K_c.
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            int c = kept[i] % channels;
            keys[i] = ((long) (kept[i] / channels + lag[c]) << 32) | c;
        }
        Arrays.sort(keys);
        for (int i = 0; i < n; i++) {
            int c = (int) (keys[i] & 0xFFFFFFFFL);
            kept[i] = ((int) (keys[i] >>> 32) - lag[c]) * channels + c;
        }
        return kept;
    }

    private static void requireChannel(int c, int channels, String what) {
        if (c >= channels) {
            throw new IllegalArgumentException(
                    what + " channel " + c + " is not a channel of the data (channels 0.." + (channels - 1) + ")");
        }
    }

    /** FNV-1a over the id's UTF-8 bytes: stable across JVMs and runs, unlike {@link String#hashCode} in spirit. */
    private static long hash(String id) {
        long h = 0xcbf29ce484222325L;
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x100000001b3L;
        }
        return h;
    }

    private static long mix(long a, long b) {
        long z = a * 0x9E3779B97F4A7C15L + b;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObservationPattern p
                && Double.compare(missing, p.missing) == 0
                && lags.equals(p.lags)
                && dropped.equals(p.dropped)
                && shuffled == p.shuffled
                && seed == p.seed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(missing, lags, dropped, shuffled, seed);
    }

    /** E.g. {@code missing=0.2 lag=1:3 drop=[2] shuffled seed=7}, or {@code complete}. */
    @Override
    public String toString() {
        if (isComplete()) {
            return "complete";
        }
        StringBuilder b = new StringBuilder("missing=").append(missing);
        if (!lags.isEmpty()) {
            b.append(" lag=");
            lags.forEach((c, k) -> b.append(c).append(':').append(k).append(','));
            b.setLength(b.length() - 1);
        }
        if (!dropped.isEmpty()) {
            b.append(" drop=").append(dropped);
        }
        if (shuffled) {
            b.append(" shuffled");
        }
        return b.append(" seed=").append(seed).toString();
    }

    /** Builds an {@link ObservationPattern}; every setter validates its argument. */
    public static final class Builder {
        private double missing;
        private final Map<Integer, Integer> lags = new TreeMap<>();
        private final Set<Integer> dropped = new TreeSet<>();
        private boolean shuffled;
        private long seed;

        private Builder() {}

        /** Each value missing at random with probability P, 0 ≤ P &lt; 1. */
        public Builder missing(double p) {
            if (!(p >= 0.0 && p < 1.0)) {
                throw new IllegalArgumentException("missing probability must be in [0, 1), got " + p);
            }
            this.missing = p;
            return this;
        }

        /** Channel {@code channel} arrives {@code steps} steps late. */
        public Builder lag(int channel, int steps) {
            if (channel < 0 || steps < 0) {
                throw new IllegalArgumentException(
                        "a channel lag needs channel ≥ 0 and steps ≥ 0, got " + channel + ":" + steps);
            }
            lags.put(channel, steps);
            return this;
        }

        /** Every lag of {@code lagsByChannel} ({@link #parseLags}). */
        public Builder lags(Map<Integer, Integer> lagsByChannel) {
            lagsByChannel.forEach(this::lag);
            return this;
        }

        /** Channel {@code channel} is never observed. */
        public Builder drop(int channel) {
            if (channel < 0) {
                throw new IllegalArgumentException("a dropped channel must be ≥ 0, got " + channel);
            }
            dropped.add(channel);
            return this;
        }

        /** Observed values arrive in a random order. */
        public Builder shuffled(boolean value) {
            this.shuffled = value;
            return this;
        }

        /** The seed the per-series random streams are derived from (with the series id). */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        public ObservationPattern build() {
            return new ObservationPattern(
                    missing,
                    Collections.unmodifiableMap(new TreeMap<>(lags)),
                    Collections.unmodifiableSet(new TreeSet<>(dropped)),
                    shuffled,
                    seed);
        }
    }
}
