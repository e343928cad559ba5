package io.vigil.util;

import java.util.Arrays;
import java.util.Collection;

/** Nearest-rank percentiles of latency samples (the definition load tools report: an observed value). */
public final class Percentiles {
    private Percentiles() {}

    /**
     * The nearest-rank p-quantile: the smallest value with at least p·n values at or below it; NaN when empty.
     *
     * @param p in (0, 1]
     */
    public static double nearestRank(Collection<? extends Number> values, double p) {
        if (!(p > 0 && p <= 1)) {
            throw new IllegalArgumentException("p must be in (0, 1], got " + p);
        }
        double[] sorted = values.stream().mapToDouble(Number::doubleValue).toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        Arrays.sort(sorted);
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }
}
