package io.vigil.gauss;

import io.vigil.util.EnumNames;

/**
 * How the covariance of a Gaussian in the complete-series model is shrunk toward the scaled identity
 * (needed because the sample covariance is singular whenever n ≤ d; docs/method.md §3.1). Persist by
 * {@link #id()}, never by ordinal.
 */
public enum ShrinkageMethod {
    /** Ledoit &amp; Wolf (2004), the asymptotically optimal intensity under Frobenius loss; the default. */
    LEDOIT_WOLF("ledoit-wolf"),
    /** Oracle approximating shrinkage, Chen, Wiesel, Eldar &amp; Hero (2010), eq. 23; for Gaussian data. */
    OAS("oas"),
    /** An intensity δ ∈ [0, 1] given explicitly. */
    FIXED("fixed"),
    /** No shrinkage (δ = 0): the plain sample covariance, regularised only if not positive definite. */
    NONE("none");

    private final String id;

    ShrinkageMethod(String id) {
        this.id = id;
    }

    /** Stable name for model files and the command line. */
    public String id() {
        return id;
    }

    /**
     * Parses an {@link #id()} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the valid ids when {@code id} is unknown
     */
    public static ShrinkageMethod fromId(String id) {
        return EnumNames.parse(ShrinkageMethod.class, id, ShrinkageMethod::id, "shrinkage method");
    }
}
