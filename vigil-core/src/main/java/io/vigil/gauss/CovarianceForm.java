package io.vigil.gauss;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a Gaussian of the complete-series model holds its covariance (docs/method.md §3.1). Both forms
 * give the same conditional moments up to rounding; they differ in cost. Persist by {@link #id()}, never by
 * ordinal.
 *
 * <ul>
 *   <li>{@link #DENSE}: Σ = L D Lᵀ with a dense unit lower-triangular L ({@link JointGaussian}): d(d−1)/2 doubles
 *       stored, O(d³) to fit, O(t) per sample.
 *   <li>{@link #LOW_RANK}: Σ = a·I + U Uᵀ with U of rank r ≤ n − 1 ({@link LowRankGaussian}), exact for the
 *       shrinkage estimate of n series toward a scaled identity: d·r doubles stored, O(n²d + r²d) to fit, O(r)
 *       per sample.
 *   <li>{@link #AUTO}: {@link #resolve} chooses per Gaussian.
 * </ul>
 */
public enum CovarianceForm {
    /** Dense LDLᵀ factors. */
    DENSE("dense"),
    /** Scaled identity plus a low-rank term, with a semiseparable LDLᵀ ({@link SemiseparableLdl}). */
    LOW_RANK("low-rank"),
    /** Low-rank when it is cheaper or the dense form does not fit, dense otherwise ({@link #resolve}). */
    AUTO("auto");

    /**
     * Longest series {@link #AUTO} fits densely whatever n is. A dense fit holds about four d×d double matrices
     * (scatter, symmetrised copy, Cholesky work and factor): 0.5 GB at d = 4,096, already 3.2 GB at d = 10,000; and a
     * dense model file stores d(d−1)/2 doubles per Gaussian (90 MB of Base64 at d = 4,096).
     */
    public static final int AUTO_DENSE_MAX_LENGTH = 4096;

    private final String id;

    CovarianceForm(String id) {
        this.id = id;
    }

    /** The command-line and model-file name. */
    public String id() {
        return id;
    }

    /**
     * The concrete form for a Gaussian fitted to {@code n} series of length {@code d}. {@link #AUTO} gives {@link
     * #LOW_RANK} when the rank bound r = min(n − 1, d) is at most d/2 — then the low-rank form is cheaper in every
     * respect: per sample 2r ≤ d flops against the dense path's t (d/2 on average), fit O(n²d) against O(d³), d·r
     * against d²/2 doubles — or when d exceeds {@link #AUTO_DENSE_MAX_LENGTH}; otherwise {@link #DENSE}.
     *
     * @throws IllegalArgumentException when n &lt; 1 or d &lt; 1
     */
    public CovarianceForm resolve(int n, int d) {
        if (n < 1 || d < 1) {
            throw new IllegalArgumentException("need n ≥ 1 series of length d ≥ 1, got n = " + n + ", d = " + d);
        }
        if (this != AUTO) {
            return this;
        }
        long rank = Math.min(n - 1L, d);
        return 2 * rank <= d || d > AUTO_DENSE_MAX_LENGTH ? LOW_RANK : DENSE;
    }

    /**
     * Parses an {@link #id()} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the valid ids when {@code id} is unknown
     */
    public static CovarianceForm fromId(String id) {
        String key = id.trim().toLowerCase(Locale.ROOT);
        for (CovarianceForm f : values()) {
            if (f.id.equals(key)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown covariance form '" + id + "'; expected one of "
                + Arrays.stream(values()).map(CovarianceForm::id).collect(Collectors.joining(", ")));
    }
}
