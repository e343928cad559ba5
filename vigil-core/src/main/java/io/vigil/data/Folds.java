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
     * Grouped, class-stratified k-fold: no group (e.g. the recording a window was cut from) has points on both sides
     * of any fold, and the classes are spread over the folds as evenly as the groups allow.
     *
     * <p>When every group holds one point this is {@link #stratifiedKFold} with the same arguments, fold for fold.
     * Otherwise the groups are shuffled (Fisher–Yates with {@code new SplittableRandom(seed)}), stably sorted by
     * decreasing size, and each in turn joins the fold where it least increases Σ_c Σ_f (a_fc − n_c/k)² / n_c — a_fc
     * the points of class c in fold f, n_c those of class c in all — so that a rare class weighs as much as a common
     * one; ties go to the fold with fewer points, then the lower index. An empty fold always costs least, so the first
     * k groups open the k folds and no fold is empty.
     *
     * <p>Rule for few groups: k is capped at the number m of groups (then every fold holds one group: leave one group
     * out); m ≥ 2 is required.
     *
     * @param y class index of each of the n points, in 0..numClasses−1
     * @param groups group of each point (any int; equal values are one group)
     * @return min(k, m) arrays of test indices, each sorted ascending; together a partition of 0..n−1
     * @throws IllegalArgumentException when the points form fewer than 2 groups, or on bad arguments
     */
    public static int[][] groupedKFold(int[] y, int numClasses, int[] groups, int k, long seed) {
        Objects.requireNonNull(y, "y");
        Objects.requireNonNull(groups, "groups");
        int n = y.length;
        if (groups.length != n) {
            throw new IllegalArgumentException(groups.length + " groups for " + n + " points");
        }
        int[] groupOf = groupIndex(groups);
        int m = 0;
        for (int g : groupOf) {
            m = Math.max(m, g + 1);
        }
        if (m == n) {
            return stratifiedKFold(y, numClasses, k, seed);
        }
        if (k < 2) {
            throw new IllegalArgumentException("k-fold needs k >= 2, got " + k);
        }
        if (m < 2) {
            throw new IllegalArgumentException(
                    "grouped cross-validation needs points of at least 2 groups (recordings), got " + m
                            + ": a window model's folds never split a recording, so train on at least 2 recordings");
        }
        int[][] count = new int[m][numClasses];
        int[] size = new int[m];
        int[] total = new int[numClasses];
        for (int i = 0; i < n; i++) {
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
            }
            count[groupOf[i]][y[i]]++;
            size[groupOf[i]]++;
            total[y[i]]++;
        }
        int folds = Math.min(k, m);
        Integer[] order = new Integer[m];
        for (int g = 0; g < m; g++) {
            order[g] = g;
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = m - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            Integer t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        java.util.Arrays.sort(order, (a, b) -> Integer.compare(size[b], size[a]));
        int[][] inFold = new int[folds][numClasses];
        int[] foldSize = new int[folds];
        int[] foldOfGroup = new int[m];
        for (int g : order) {
            int best = -1;
            double bestCost = Double.POSITIVE_INFINITY;
            for (int f = 0; f < folds; f++) {
                double cost = 0;
                for (int c = 0; c < numClasses; c++) {
                    if (count[g][c] > 0) {
                        double expected = (double) total[c] / folds;
                        cost += count[g][c] * (2 * (inFold[f][c] - expected) + count[g][c]) / total[c];
                    }
                }
                if (cost < bestCost || (cost == bestCost && foldSize[f] < foldSize[best])) {
                    best = f;
                    bestCost = cost;
                }
            }
            foldOfGroup[g] = best;
            foldSize[best] += size[g];
            for (int c = 0; c < numClasses; c++) {
                inFold[best][c] += count[g][c];
            }
        }
        int[][] out = new int[folds][];
        int[] fill = new int[folds];
        for (int f = 0; f < folds; f++) {
            out[f] = new int[foldSize[f]];
        }
        for (int i = 0; i < n; i++) {
            int f = foldOfGroup[groupOf[i]];
            out[f][fill[f]++] = i;
        }
        return out;
    }

    /** One fold per group, in order of first appearance (leave one group out); one point per group: {@link #leaveOneOut}. */
    public static int[][] leaveOneGroupOut(int[] groups) {
        int[] groupOf = groupIndex(groups);
        int m = 0;
        for (int g : groupOf) {
            m = Math.max(m, g + 1);
        }
        if (m == groups.length) {
            return leaveOneOut(groups.length);
        }
        if (m < 2) {
            throw new IllegalArgumentException(
                    "leave-one-group-out needs points of at least 2 groups (recordings), got " + m);
        }
        int[] sizes = new int[m];
        for (int g : groupOf) {
            sizes[g]++;
        }
        int[][] out = new int[m][];
        int[] fill = new int[m];
        for (int g = 0; g < m; g++) {
            out[g] = new int[sizes[g]];
        }
        for (int i = 0; i < groupOf.length; i++) {
            out[groupOf[i]][fill[groupOf[i]]++] = i;
        }
        return out;
    }

    /** Dense group indices 0..m−1 in order of first appearance. */
    private static int[] groupIndex(int[] groups) {
        java.util.Map<Integer, Integer> index = new java.util.HashMap<>();
        int[] out = new int[groups.length];
        for (int i = 0; i < groups.length; i++) {
            out[i] = index.computeIfAbsent(groups[i], g -> index.size());
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
