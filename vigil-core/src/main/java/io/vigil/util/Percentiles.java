package io.vigil.util;

import java.util.Collection;
import org.hipparchus.stat.descriptive.rank.Percentile;

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
        double[] v = values.stream().mapToDouble(Number::doubleValue).toArray();
        // Hipparchus' R_1 estimator is the inverse of the empirical distribution function: the nearest rank.
        return v.length == 0
                ? Double.NaN
                : new Percentile()
                        .withEstimationType(Percentile.EstimationType.R_1)
                        .evaluate(v, 100 * p);
    }
}
