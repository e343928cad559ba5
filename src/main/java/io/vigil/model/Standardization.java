package io.vigil.model;

import java.util.Arrays;

/**
 * Per-feature standardisation x'_t = (x_t − mean_t) / scale_t with training statistics, as the thesis does
 * before LDG (§3.4: "each feature has a mean of zero and standard deviation of one"). Kept in the model so
 * test and streaming series get exactly the training transform.
 *
 * @param means per-feature training means (length d)
 * @param scales per-feature scales (length d, all finite and &gt; 0)
 */
public record Standardization(double[] means, double[] scales) {
    /**
     * @throws IllegalArgumentException on different lengths or a non-positive or non-finite scale
     */
    public Standardization {
        if (means.length != scales.length) {
            throw new IllegalArgumentException(
                    "standardisation has " + means.length + " means but " + scales.length + " scales");
        }
        for (int t = 0; t < scales.length; t++) {
            if (!(scales[t] > 0) || !Double.isFinite(scales[t]) || !Double.isFinite(means[t])) {
                throw new IllegalArgumentException("standardisation feature " + t + " has mean " + means[t]
                        + " and scale " + scales[t] + "; scales must be finite and > 0");
            }
        }
        means = means.clone();
        scales = scales.clone();
    }

    /** Series length d. */
    public int length() {
        return means.length;
    }

    @Override
    public double[] means() {
        return means.clone();
    }

    @Override
    public double[] scales() {
        return scales.clone();
    }

    /** Standardised sample t of value x. */
    public double apply(int t, double x) {
        return (x - means[t]) / scales[t];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Standardization s && Arrays.equals(means, s.means) && Arrays.equals(scales, s.scales);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(means) + Arrays.hashCode(scales);
    }

    @Override
    public String toString() {
        return "Standardization[d=" + means.length + "]";
    }
}
