package io.vigil.gauss;

import io.vigil.util.EnumNames;

/**
 * The matrix a shrinkage covariance estimate is pulled toward. Only the scaled identity μI with
 * μ = tr(S)/d (Ledoit &amp; Wolf 2004) is implemented; the enum makes the target explicit in model files.
 * Persist by {@link #id()}, never by ordinal.
 */
public enum ShrinkageTarget {
    /** μI with μ = tr(S)/d, the mean sample variance. */
    SCALED_IDENTITY("scaled-identity");

    private final String id;

    ShrinkageTarget(String id) {
        this.id = id;
    }

    /** Stable name for model files. */
    public String id() {
        return id;
    }

    /**
     * Parses an {@link #id()} (case-insensitive).
     *
     * @throws IllegalArgumentException when {@code id} is unknown
     */
    public static ShrinkageTarget fromId(String id) {
        return EnumNames.parse(ShrinkageTarget.class, id, ShrinkageTarget::id, "shrinkage target");
    }
}
