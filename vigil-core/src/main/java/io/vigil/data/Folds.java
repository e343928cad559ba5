package io.vigil.data;

import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Cross-validation folds for model selection (thesis §3.4: 5-fold CV for k, leave-one-out for γ and ℓ).
 * Each fold is given by its sorted test indices; the training part is the complement. Deterministic for a
 * given seed.
 */
public final class Folds {
    private Folds() {}

    /**
     * Stratified k-fold split: each class's indices are shuffled (Fisher–Yates with
     * {@code new SplittableRandom(seed)}, classes in index order) and dealt round-robin to the folds, the
     * deal continuing from class to class, so every fold gets ⌊n/k⌋ or ⌈n/k⌉ points and each class is
     * spread as evenly as its size allows.
     *
     * <p>Rule for small n: k is capped at n (then every fold holds one point, i.e. leave-one-out in a
     * shuffled order); k must be at least 2.
     *
     * @param y class index of each of the n points, in 0..numClasses−1
     * @return min(k, n) arrays of test indices, each sorted ascending; together a partition of 0..n−1
     */
    public static int[][] stratifiedKFold(int[] y, int numClasses, int k, long seed) {
        Objects.requireNonNull(y, "y");
        int n = y.length;
        if (k < 2) {
            throw new IllegalArgumentException("k-fold needs k >= 2, got " + k);
        }
        if (n < 2) {
            throw new IllegalArgumentException("cross-validation needs at least 2 points, got " + n);
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be >= 1, got " + numClasses);
        }
        int[] counts = new int[numClasses];
        for (int i = 0; i < n; i++) {
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
            }
            counts[y[i]]++;
        }
        int folds = Math.min(k, n);
        SplittableRandom random = new SplittableRandom(seed);
        int[] foldOf = new int[n];
        int[] sizes = new int[folds];
        int deal = 0;
        for (int c = 0; c < numClasses; c++) {
            int[] members = new int[counts[c]];
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (y[i] == c) {
                    members[m++] = i;
                }
            }
            for (int i = members.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = members[i];
                members[i] = members[j];
                members[j] = t;
            }
            for (int member : members) {
                int f = deal++ % folds;
                foldOf[member] = f;
                sizes[f]++;
            }
        }
        int[][] out = new int[folds][];
        int[] fill = new int[folds];
        for (int f = 0; f < folds; f++) {
            out[f] = new int[sizes[f]];
        }
        for (int i = 0; i < n; i++) {
            out[foldOf[i]][fill[foldOf[i]]++] = i;
        }
        return out;
    }

    /**
     * A stratified holdout: from each class of n_c points, round(fraction · n_c) points chosen uniformly (Fisher–Yates
     * with {@code new SplittableRandom(seed)}, classes in index order), at most n_c − 1 so that every class keeps a
     * point on the other side. A class of one point gives none.
     *
     * @param y class index of each of the n points, in 0..numClasses−1
     * @param fraction the share held out, in (0, 1)
     * @return the held-out indices, sorted ascending (possibly empty)
     */
    public static int[] stratifiedHoldout(int[] y, int numClasses, double fraction, long seed) {
        Objects.requireNonNull(y, "y");
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("the holdout fraction must lie in (0, 1), got " + fraction);
        }
        int n = y.length;
        boolean[] out = new boolean[n];
        SplittableRandom random = new SplittableRandom(seed);
        int total = 0;
        for (int c = 0; c < numClasses; c++) {
            int[] members = new int[n];
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (y[i] < 0 || y[i] >= numClasses) {
                    throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
                }
                if (y[i] == c) {
                    members[m++] = i;
                }
            }
            int take = (int) Math.min(m - 1L, Math.round(fraction * m));
            for (int i = m - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = members[i];
                members[i] = members[j];
                members[j] = t;
            }
            for (int k = 0; k < take; k++) {
                out[members[k]] = true;
                total++;
            }
        }
        int[] held = new int[total];
        int f = 0;
        for (int i = 0; i < n; i++) {
            if (out[i]) {
                held[f++] = i;
            }
        }
        return held;
    }

    /** n folds, fold i holding only point i. */
    public static int[][] leaveOneOut(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("leave-one-out needs at least 2 points, got " + n);
        }
        int[][] out = new int[n][];
        for (int i = 0; i < n; i++) {
            out[i] = new int[] {i};
        }
        return out;
    }

    /**
     * The training indices of a fold: 0..n−1 without {@code test}, ascending.
     *
     * @throws IllegalArgumentException if a test index is out of range or repeated
     */
    public static int[] complement(int[] test, int n) {
        boolean[] in = new boolean[n];
        for (int i : test) {
            if (i < 0 || i >= n) {
                throw new IllegalArgumentException("test index " + i + " is outside 0.." + (n - 1));
            }
            if (in[i]) {
                throw new IllegalArgumentException("test index " + i + " appears twice in the fold");
            }
            in[i] = true;
        }
        int[] out = new int[n - test.length];
        int o = 0;
        for (int i = 0; i < n; i++) {
            if (!in[i]) {
                out[o++] = i;
            }
        }
        return out;
    }

    /** The listed rows (a training or test part of a fold); the row arrays are shared, not copied. */
    public static double[][] rows(double[][] x, int[] indices) {
        double[][] out = new double[indices.length][];
        for (int i = 0; i < indices.length; i++) {
            out[i] = x[indices[i]];
        }
        return out;
    }

    /** Copies the listed labels. */
    public static int[] labels(int[] y, int[] indices) {
        int[] out = new int[indices.length];
        for (int i = 0; i < indices.length; i++) {
            out[i] = y[indices[i]];
        }
        return out;
    }
}
