package io.vigil.gauss;

import java.util.Objects;

/**
 * How one Gaussian of the complete-series model was obtained, for the model file and for reports: the
 * shrinkage applied, any ridge added because the covariance was not numerically positive definite,
 * and a one-line note saying why (empty when nothing unusual happened).
 *
 * @param shrinkage the shrinkage estimate that produced the covariance
 * @param ridge λ ≥ 0 added to the diagonal before factorisation (0 = none)
 * @param note reason for the ridge or for a fallback (e.g. a one-series class), or ""
 */
public record FitInfo(Shrinkage shrinkage, double ridge, String note) {
    /** Validates the fields. */
    public FitInfo {
        Objects.requireNonNull(shrinkage, "shrinkage");
        Objects.requireNonNull(note, "note");
        if (!(ridge >= 0.0) || Double.isInfinite(ridge)) {
            throw new IllegalArgumentException("ridge must be finite and ≥ 0, got " + ridge);
        }
    }

    /** Plain shrinkage, no ridge, no note. */
    public static FitInfo of(Shrinkage shrinkage) {
        return new FitInfo(shrinkage, 0.0, "");
    }

    /** The same record with a note added (joined by "; " to an existing one). */
    FitInfo withNote(String extra) {
        return new FitInfo(shrinkage, ridge, note.isEmpty() ? extra : note + "; " + extra);
    }
}
