package io.vigil.data;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Per-value bounds a file is read against, and what a value beyond them does: a model's training range (±K standard
 * deviations per t, so a test cell of 1e200 is handled like the stream handles such a sample) or a scale limit for
 * training data. Each value beyond the bounds is reported once through {@code notice}, naming file, line and column.
 *
 * @param low lower bound per time-major value index (t·C + channel), length C·d
 * @param high upper bound per index, same length
 * @param policy {@link OutOfRangePolicy#REJECT}: the value becomes missing and is filled by linear interpolation as
 *     with {@code --interpolate-missing}; {@link OutOfRangePolicy#CLIP}: the nearer bound; {@link
 *     OutOfRangePolicy#KEEP}: unchanged; {@code null}: the value is an error naming file, line and column
 * @param what how the bounds are named in messages, e.g. "the model's training range (±8 SD)"
 * @param notice receives one line per value beyond the bounds (unused when {@code policy} is null)
 */
public record ValueBounds(double[] low, double[] high, OutOfRangePolicy policy, String what, Consumer<String> notice) {
    /**
     * The largest magnitude a value read for training may have: the covariance sums add n squares, and (1e150)² ·
     * 1e8 series is still far below the largest double (1.8e308), while 1e155² already overflows. Beyond it a value is
     * an error naming file, line and column instead of a NaN deep inside the fit.
     */
    public static final double MAGNITUDE_LIMIT = 1e150;

    /** {@link #MAGNITUDE_LIMIT} as bounds for training data: an error beyond it. */
    public static ValueBounds trainingMagnitude() {
        return magnitude(
                1,
                MAGNITUDE_LIMIT,
                "±" + MAGNITUDE_LIMIT + ", the largest magnitude the training arithmetic takes (its square must not "
                        + "overflow the covariance sums); rescale the data");
    }

    /** Validates. */
    public ValueBounds {
        Objects.requireNonNull(low, "low");
        Objects.requireNonNull(high, "high");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(notice, "notice");
        if (low.length != high.length) {
            throw new IllegalArgumentException("bounds of unequal lengths " + low.length + " and " + high.length);
        }
    }

    /**
     * The same bound ±{@code limit} at every index: no value read may exceed it in magnitude (error otherwise).
     *
     * @param length values per series (C·d); values beyond it (a longer series) are checked against the same limit
     */
    public static ValueBounds magnitude(int length, double limit, String what) {
        double[] lo = new double[Math.max(1, length)];
        double[] hi = new double[lo.length];
        java.util.Arrays.fill(lo, -limit);
        java.util.Arrays.fill(hi, limit);
        return new ValueBounds(lo, hi, null, what, s -> {});
    }

    /** Whether the value at index {@code i} lies outside (an index past the bounds uses the last bound). */
    boolean outside(int i, double value) {
        int j = Math.min(i, low.length - 1);
        return value < low[j] || value > high[j];
    }

    /** The value moved to the nearer bound. */
    double clip(int i, double value) {
        int j = Math.min(i, low.length - 1);
        return Math.max(low[j], Math.min(high[j], value));
    }
}
