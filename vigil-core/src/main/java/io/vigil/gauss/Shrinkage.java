package io.vigil.gauss;

import java.util.Objects;

/**
 * What a shrinkage covariance estimate did, recorded in the model file: Σ̂ = (1 − δ)S + δ·μI where S is
 * the maximum-likelihood sample covariance (divisor n) of n series, μ = tr(S)/d the target scale and δ
 * the intensity (Ledoit &amp; Wolf 2004; docs/method.md §3.1).
 *
 * @param method how δ was chosen
 * @param target the target matrix family
 * @param targetScale μ &gt; 0
 * @param intensity δ ∈ [0, 1]
 * @param sampleCount n, the number of series the estimate used (0 when the covariance came from
 *     elsewhere, see {@link #external()})
 */
public record Shrinkage(
        ShrinkageMethod method, ShrinkageTarget target, double targetScale, double intensity, int sampleCount) {
    /** Validates the ranges. */
    public Shrinkage {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(target, "target");
        if (!(targetScale >= 0.0) || Double.isInfinite(targetScale)) {
            throw new IllegalArgumentException("shrinkage target scale must be finite and ≥ 0, got " + targetScale);
        }
        if (!(intensity >= 0.0 && intensity <= 1.0)) {
            throw new IllegalArgumentException("shrinkage intensity must be in [0, 1], got " + intensity);
        }
        if (sampleCount < 0) {
            throw new IllegalArgumentException("sample count must be ≥ 0, got " + sampleCount);
        }
    }

    /** For a covariance supplied from outside (no shrinkage applied here, n unknown). */
    public static Shrinkage external() {
        return new Shrinkage(ShrinkageMethod.NONE, ShrinkageTarget.SCALED_IDENTITY, 0.0, 0.0, 0);
    }
}
