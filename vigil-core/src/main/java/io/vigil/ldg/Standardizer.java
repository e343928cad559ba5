package io.vigil.ldg;

import java.util.Objects;

/**
 * Per-feature standardisation z = (x − mean)/scale with statistics from the training data only (thesis
 * §3.4: "the training data is standard normalized so that each feature has a mean of zero and standard
 * deviation of one"); the same transform must then be applied to test data and streamed samples, so it is
 * part of the model. Immutable.
 *
 * <p>Statistics are one-pass (Welford); the scale is the sample standard deviation (n − 1 denominator,
 * as MATLAB's {@code zscore}). A feature with zero variance — exactly constant, or a spread not above
 * {@link #ZERO_SPREAD_RTOL} of its magnitude, or only one training row — gets scale 1, so it is centred
 * but never divided by (near) zero.
 */
public final class Standardizer {
    /**
     * A standard deviation at or below 1e-12 × (|mean| + 1e-300) is rounding noise of a constant feature
     * (values equal to ~16 digits, summed in a different order), not variation worth amplifying by 1e12.
     */
    static final double ZERO_SPREAD_RTOL = 1e-12;

    private final double[] means;
    private final double[] scales;

    private Standardizer(double[] means, double[] scales) {
        this.means = means;
        this.scales = scales;
    }

    /**
     * Estimates means and scales from training rows.
     *
     * @param x n×d rows, n ≥ 1, finite; not modified
     */
    public static Standardizer fit(double[][] x) {
        Objects.requireNonNull(x, "x");
        if (x.length == 0) {
            throw new IllegalArgumentException("cannot standardise with 0 training rows");
        }
        int d = x[0].length;
        double[] mean = new double[d];
        double[] m2 = new double[d];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != d) {
                throw new IllegalArgumentException("row " + i + " has " + x[i].length + " features but row 0 has " + d);
            }
            double count = i + 1;
            for (int t = 0; t < d; t++) {
                double v = x[i][t];
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("x[" + i + "][" + t + "] = " + v + " is not finite");
                }
                double delta = v - mean[t];
                mean[t] += delta / count;
                m2[t] += delta * (v - mean[t]);
            }
        }
        double[] scale = new double[d];
        int n = x.length;
        for (int t = 0; t < d; t++) {
            double sd = n > 1 ? Math.sqrt(m2[t] / (n - 1)) : 0.0;
            scale[t] = sd > ZERO_SPREAD_RTOL * (Math.abs(mean[t]) + Double.MIN_NORMAL) ? sd : 1.0;
        }
        return new Standardizer(mean, scale);
    }

    /**
     * Estimates one mean and one scale per channel, pooled over time, for vectors of C channels in the time-major
     * layout (value t·C + c is channel c at time t, see {@code io.vigil.data.Dataset}): channels measured in
     * different units (acceleration, angular rate) then weigh alike in every distance, while the shape over time
     * within a channel is kept. The result is an ordinary per-feature standardiser whose features repeat their
     * channel's statistics, so it applies, streams and persists as any other.
     *
     * @param x n×(C·d) rows, n ≥ 1, finite; not modified
     * @param channels C ≥ 1, dividing the row length
     */
    public static Standardizer fitPerChannel(double[][] x, int channels) {
        Objects.requireNonNull(x, "x");
        if (x.length == 0) {
            throw new IllegalArgumentException("cannot standardise with 0 training rows");
        }
        int len = x[0].length;
        if (channels < 1 || len % channels != 0) {
            throw new IllegalArgumentException(len + " features are not " + channels + " channels of equal length");
        }
        double[] mean = new double[channels];
        double[] m2 = new double[channels];
        long[] count = new long[channels];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != len) {
                throw new IllegalArgumentException(
                        "row " + i + " has " + x[i].length + " features but row 0 has " + len);
            }
            for (int k = 0; k < len; k++) {
                double v = x[i][k];
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("x[" + i + "][" + k + "] = " + v + " is not finite");
                }
                int c = k % channels;
                count[c]++;
                double delta = v - mean[c];
                mean[c] += delta / count[c];
                m2[c] += delta * (v - mean[c]);
            }
        }
        double[] means = new double[len];
        double[] scales = new double[len];
        for (int k = 0; k < len; k++) {
            int c = k % channels;
            double sd = count[c] > 1 ? Math.sqrt(m2[c] / (count[c] - 1)) : 0.0;
            means[k] = mean[c];
            scales[k] = sd > ZERO_SPREAD_RTOL * (Math.abs(mean[c]) + Double.MIN_NORMAL) ? sd : 1.0;
        }
        return new Standardizer(means, scales);
    }

    /**
     * Rebuilds a standardiser, e.g. from a model file.
     *
     * @throws IllegalArgumentException if the lengths differ, a mean is not finite, or a scale is not
     *     finite and positive
     */
    public static Standardizer of(double[] means, double[] scales) {
        Objects.requireNonNull(means, "means");
        Objects.requireNonNull(scales, "scales");
        if (means.length != scales.length) {
            throw new IllegalArgumentException(
                    means.length + " means but " + scales.length + " scales; they must have the same length");
        }
        for (int t = 0; t < means.length; t++) {
            if (!Double.isFinite(means[t])) {
                throw new IllegalArgumentException("mean " + t + " is " + means[t]);
            }
            if (!(scales[t] > 0) || !Double.isFinite(scales[t])) {
                throw new IllegalArgumentException(
                        "scale " + t + " is " + scales[t] + "; scales must be finite and > 0");
            }
        }
        return new Standardizer(means.clone(), scales.clone());
    }

    /** The number of features d. */
    public int dim() {
        return means.length;
    }

    /** Per-feature training means; a copy. */
    public double[] means() {
        return means.clone();
    }

    /** Per-feature scales (standard deviations, 1 for zero-variance features); a copy. */
    public double[] scales() {
        return scales.clone();
    }

    /** out[t] = (in[t] − mean[t]) / scale[t]; {@code out} may be {@code in}. Allocation-free. */
    public void apply(double[] in, double[] out) {
        if (in.length != means.length || out.length != means.length) {
            throw new IllegalArgumentException("in has " + in.length + " and out " + out.length
                    + " values but the standardiser has " + means.length + " features");
        }
        for (int t = 0; t < means.length; t++) {
            out[t] = (in[t] - means[t]) / scales[t];
        }
    }

    /** Standardises every row into new arrays; {@code x} is not modified. */
    public double[][] apply(double[][] x) {
        double[][] out = new double[x.length][means.length];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != means.length) {
                throw new IllegalArgumentException("row " + i + " has " + x[i].length
                        + " values but the standardiser has " + means.length + " features");
            }
            apply(x[i], out[i]);
        }
        return out;
    }

    /**
     * Standardises one value of one feature — O(1), for streaming a series sample by sample; gives the same
     * bits as {@link #apply(double[], double[])}.
     */
    public double apply(int feature, double value) {
        if (feature < 0 || feature >= means.length) {
            throw new IllegalArgumentException(
                    "feature " + feature + " is outside 0.." + (means.length - 1) + " (" + means.length + " features)");
        }
        return (value - means[feature]) / scales[feature];
    }
}
