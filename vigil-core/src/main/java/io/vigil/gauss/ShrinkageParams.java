package io.vigil.gauss;

import java.util.Objects;

/**
 * Parameters of the shrinkage covariance estimate used by every Gaussian of the complete-series model
 * (thesis §5.4; docs/method.md §3.1). Default: {@link ShrinkageMethod#LEDOIT_WOLF}.
 *
 * @param method how the intensity δ is chosen
 * @param intensity δ ∈ [0, 1] when {@code method} is {@link ShrinkageMethod#FIXED}; must be NaN
 *     (meaning "not given") for every other method
 */
public record ShrinkageParams(ShrinkageMethod method, double intensity) {
    /** Validates the combination. */
    public ShrinkageParams {
        Objects.requireNonNull(method, "method");
        if (method == ShrinkageMethod.FIXED) {
            if (!(intensity >= 0.0 && intensity <= 1.0)) {
                throw new IllegalArgumentException("fixed shrinkage intensity must be in [0, 1], got " + intensity);
            }
        } else if (!Double.isNaN(intensity)) {
            throw new IllegalArgumentException("an explicit intensity (" + intensity + ") is only allowed with method "
                    + ShrinkageMethod.FIXED.id() + ", not " + method.id());
        }
    }

    /** Ledoit–Wolf, the default. */
    public static ShrinkageParams defaults() {
        return ledoitWolf();
    }

    /** Ledoit &amp; Wolf (2004) intensity. */
    public static ShrinkageParams ledoitWolf() {
        return new ShrinkageParams(ShrinkageMethod.LEDOIT_WOLF, Double.NaN);
    }

    /** Oracle approximating shrinkage (Chen et al. 2010). */
    public static ShrinkageParams oas() {
        return new ShrinkageParams(ShrinkageMethod.OAS, Double.NaN);
    }

    /** An explicit intensity override δ ∈ [0, 1]. */
    public static ShrinkageParams fixed(double intensity) {
        return new ShrinkageParams(ShrinkageMethod.FIXED, intensity);
    }

    /** No shrinkage (the sample covariance; regularised with a reported ridge if singular). */
    public static ShrinkageParams none() {
        return new ShrinkageParams(ShrinkageMethod.NONE, Double.NaN);
    }
}
