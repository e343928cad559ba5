package io.vigil.select;

import java.util.Arrays;
import java.util.TreeSet;

/**
 * Candidate grids and the choice rules of model selection (docs/method.md §1, thesis §3.4–3.5). Pure
 * functions, package-private; {@link Trainer} documents the resulting protocol.
 */
final class Grids {
    private Grids() {}

    /**
     * Thesis §3.5: the small-sample-size problem "arises whenever n &lt; d + G" (the within-class scatter
     * then has rank ≤ n − G &lt; d). For such data γ is chosen at ℓ = G − 1, otherwise at ℓ = G + 5.
     */
    static boolean isSmallSample(int n, int d, int numClasses) {
        return n < d + numClasses;
    }

    /** ℓ at which γ is scored: G−1 for small-sample data, G+5 otherwise, clamped to [1, maxDims]. */
    static int gammaDims(int n, int d, int numClasses, int maxDims) {
        int l = isSmallSample(n, d, numClasses) ? numClasses - 1 : numClasses + 5;
        return clamp(l, maxDims);
    }

    /**
     * Thesis §3.5.2's candidate dimensions {G−1, G, G+1, G+2, G+4, G+8, G+16, G+32}, each clamped to [1,
     * maxDims], deduplicated, ascending.
     */
    static int[] dimsCandidates(int numClasses, int maxDims) {
        int[] offsets = {-1, 0, 1, 2, 4, 8, 16, 32};
        TreeSet<Integer> set = new TreeSet<>();
        for (int o : offsets) {
            set.add(clamp(numClasses + o, maxDims));
        }
        return set.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The k grid up to the first value ≥ the largest class size: that value already means "every point of
     * the class" (k is capped per class), so larger ones would only repeat its score. Never empty.
     */
    static int[] capGrid(int[] grid, int maxClassSize) {
        int end = 0;
        while (end < grid.length && (end == 0 || grid[end - 1] < maxClassSize)) {
            end++;
        }
        return Arrays.copyOf(grid, end);
    }

    /**
     * Index of the maximum; ties go to the LAST (largest candidate of an ascending grid). A NaN score (not scored)
     * ranks below every number.
     */
    static int argmaxPreferLast(double[] scores) {
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (key(scores[i]) >= key(scores[best])) {
                best = i;
            }
        }
        return best;
    }

    /**
     * Index of the maximum; ties go to the FIRST (smallest candidate of an ascending grid). A NaN score (not scored)
     * ranks below every number.
     */
    static int argmaxPreferFirst(double[] scores) {
        int best = 0;
        for (int i = 1; i < scores.length; i++) {
            if (key(scores[i]) > key(scores[best])) {
                best = i;
            }
        }
        return best;
    }

    private static double key(double score) {
        return Double.isNaN(score) ? Double.NEGATIVE_INFINITY : score;
    }

    static int clamp(int l, int maxDims) {
        return Math.max(1, Math.min(l, maxDims));
    }

    static int indexOf(int[] values, int v) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == v) {
                return i;
            }
        }
        return -1;
    }
}
