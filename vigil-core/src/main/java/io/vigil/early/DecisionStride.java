package io.vigil.early;

/**
 * How often the early-decision rule is evaluated along a series of length d: every sample updates the per-series
 * state (the innovations of docs/method.md §3.1, O(r) work), but the conditional mean, local QDA's class Gaussians and
 * the rule's set or probability (thesis §5.3) are formed only every s = ⌈d / {@value #MAX_CHECKS}⌉ samples and at
 * t = d. A series is thus checked at most {@value #MAX_CHECKS} times whatever its length, so the cost of a series and
 * of cross-fitted calibration stays that of d ≈ 1,000 at d = 20,000, and the earliness lost is below one
 * stride, 0.1 % of d. Series of up to {@value #MAX_CHECKS} samples are checked at every sample, as before. Derived
 * from d alone, so evaluate, the stream job and calibration decide at the same samples.
 */
public final class DecisionStride {
    /** Most rule evaluations per series (besides t = d). */
    public static final int MAX_CHECKS = 1000;

    private DecisionStride() {}

    /**
     * The stride s for series of length d: 1 up to {@value #MAX_CHECKS}, else ⌈d / {@value #MAX_CHECKS}⌉.
     *
     * @throws IllegalArgumentException when d &lt; 1
     */
    public static int of(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("series length must be at least 1, got " + length);
        }
        return (length + MAX_CHECKS - 1) / MAX_CHECKS;
    }

    /**
     * Whether the rule is evaluated once the series holds {@code observed} samples: when {@code observed} is a
     * multiple of the stride or completes the series.
     */
    public static boolean checks(int observed, int stride, int length) {
        return observed == length || observed % stride == 0;
    }
}
