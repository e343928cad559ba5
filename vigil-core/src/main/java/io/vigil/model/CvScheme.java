package io.vigil.model;

import java.util.Locale;

/**
 * How cross-validation splits the training data: true leave-one-out or seeded stratified k-fold. The
 * thesis uses leave-one-out for γ and ℓ (§3.4) and five-fold for the LDG neighbour count (§3.4); leave-one-out
 * costs one LDG refit per training series, so {@link #auto(int)} keeps it for small sets only. Recorded in
 * the model file so a selection can be repeated.
 *
 * @param folds number of folds, or 0 for leave-one-out
 */
public record CvScheme(int folds) {
    /** Training sets up to this size use leave-one-out in {@link #auto}: ≤ 100 LDG refits per candidate. */
    public static final int AUTO_LOO_MAX_SIZE = 100;

    /** Fold count of {@link #auto} above {@link #AUTO_LOO_MAX_SIZE}. */
    public static final int AUTO_FOLDS = 10;

    /** Leave-one-out. */
    public static final CvScheme LOO = new CvScheme(0);

    /**
     * @throws IllegalArgumentException when folds is neither 0 (leave-one-out) nor ≥ 2
     */
    public CvScheme {
        if (folds != 0 && folds < 2) {
            throw new IllegalArgumentException("cross-validation needs 0 (leave-one-out) or ≥ 2 folds, got " + folds);
        }
    }

    /** Stratified k-fold with {@code folds} ≥ 2 folds. */
    public static CvScheme kFold(int folds) {
        if (folds < 2) {
            throw new IllegalArgumentException("k-fold cross-validation needs ≥ 2 folds, got " + folds);
        }
        return new CvScheme(folds);
    }

    /** Leave-one-out for n ≤ {@value #AUTO_LOO_MAX_SIZE}, else stratified {@value #AUTO_FOLDS}-fold. */
    public static CvScheme auto(int n) {
        return n <= AUTO_LOO_MAX_SIZE ? LOO : kFold(AUTO_FOLDS);
    }

    /** True for leave-one-out. */
    public boolean isLeaveOneOut() {
        return folds == 0;
    }

    /**
     * Parses {@code loo}, a fold count such as {@code 10}, or the {@link #toString()} form {@code
     * stratified-10-fold}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static CvScheme parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.equals("loo") || s.equals("leave-one-out")) {
            return LOO;
        }
        String digits = s.startsWith("stratified-") && s.endsWith("-fold")
                ? s.substring("stratified-".length(), s.length() - "-fold".length())
                : s;
        try {
            return kFold(Integer.parseInt(digits));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "cross-validation scheme must be 'loo' or a fold count ≥ 2, got '" + text + "'", e);
        }
    }

    /** {@code loo} or {@code stratified-K-fold}; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return isLeaveOneOut() ? "loo" : "stratified-" + folds + "-fold";
    }
}
