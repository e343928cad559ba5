package io.vigil.evaluate;

import io.vigil.data.Folds;

/**
 * A fixed-time early classifier: every series is labelled after the same t = ⌈f·d⌉ samples by a classifier
 * trained on the training prefixes of that length (thesis §5.6.5, figures 5.6–5.11). Unless given, the fraction
 * f is chosen on the training split alone, by stratified k-fold cross-validation over f ∈ {0.1, 0.2, …, 1.0},
 * maximising the harmonic mean of cross-validated accuracy and earliness t/d ({@link EarlyScores}); ties go to
 * the earlier f.
 */
public final class FixedTime {
    /** The candidate fractions f searched by {@link #chooseFraction}. */
    public static final double[] CANDIDATES = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

    /** Folds of the fraction search. */
    public static final int FOLDS = 5;

    private FixedTime() {}

    /**
     * The cross-validated choice of f.
     *
     * @param classifier the per-prefix classifier
     * @param train training series, one length d
     * @param y their class indices
     * @param numClasses G
     * @param seed fold shuffling seed
     * @return the fraction with the highest cross-validated HM
     */
    public static double chooseFraction(
            PrefixClassifier classifier, double[][] train, int[] y, int numClasses, long seed) {
        int d = Prefixes.checkedLength(train, y, numClasses);
        int[][] folds = Folds.stratifiedKFold(y, numClasses, FOLDS, seed);
        double best = Double.NEGATIVE_INFINITY;
        double bestFraction = CANDIDATES[CANDIDATES.length - 1];
        for (double f : CANDIDATES) {
            int t = Prefixes.length(f, d);
            double[][] prefixes = Prefixes.of(train, t);
            int correct = 0;
            for (int[] test : folds) {
                int[] fit = Folds.complement(test, train.length);
                int[] labels = classifier.fitPredict(
                        Folds.rows(prefixes, fit), Folds.labels(y, fit), numClasses, Folds.rows(prefixes, test));
                for (int i = 0; i < test.length; i++) {
                    correct += labels[i] == y[test[i]] ? 1 : 0;
                }
            }
            double hm = EarlyScores.harmonicMean(correct / (double) train.length, t / (double) d);
            if (hm > best) {
                best = hm;
                bestFraction = f;
            }
        }
        return bestFraction;
    }

    /**
     * Labels every test series at t = ⌈f·d⌉, with its complete-series label from the same classifier at t = d.
     *
     * @param fraction f in (0, 1]
     */
    public static EarlyPrediction[] predict(
            PrefixClassifier classifier, double[][] train, int[] y, int numClasses, double[][] test, double fraction) {
        int d = Prefixes.checkedLength(train, y, numClasses);
        int t = Prefixes.length(fraction, d);
        int[] early = classifier.fitPredict(Prefixes.of(train, t), y, numClasses, Prefixes.of(test, t));
        int[] complete = t == d ? early : classifier.fitPredict(train, y, numClasses, Prefixes.of(test, d));
        EarlyPrediction[] out = new EarlyPrediction[test.length];
        for (int i = 0; i < test.length; i++) {
            out[i] = new EarlyPrediction(early[i], t, complete[i]);
        }
        return out;
    }
}
