package io.vigil.evaluate;

/**
 * A classifier trained on the first t samples of the training series and applied to the first t samples of
 * the test series: the fixed-time baselines of thesis figures 5.6–5.11.
 */
@FunctionalInterface
public interface PrefixClassifier {
    /**
     * Fits on {@code train} and labels {@code test}; all rows have the same length t.
     *
     * @param train training prefixes
     * @param y class index of each training prefix
     * @param numClasses G
     * @param test test prefixes
     * @return a class index per test prefix
     */
    int[] fitPredict(double[][] train, int[] y, int numClasses, double[][] test);
}
