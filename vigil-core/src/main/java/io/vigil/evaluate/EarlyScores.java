package io.vigil.evaluate;

/**
 * The score every baseline's parameters are chosen by on the training split: the harmonic mean of accuracy and
 * earliness, HM = 2·acc·(1 − e)/(acc + 1 − e) with e the mean t/d (Schäfer &amp; Leser 2020).
 */
public final class EarlyScores {
    private EarlyScores() {}

    /**
     * HM of accuracy and earliness.
     *
     * @param accuracy fraction correct in [0, 1]
     * @param earliness mean t/d in [0, 1]
     * @return HM, 0 when both accuracy and 1 − earliness are 0
     */
    public static double harmonicMean(double accuracy, double earliness) {
        double e = 1 - earliness;
        return accuracy + e > 0 ? 2 * accuracy * e / (accuracy + e) : 0.0;
    }

    /** HM of a list of decisions against true labels, with d the full length. */
    public static double harmonicMean(EarlyPrediction[] decisions, int[] truth, int d) {
        int correct = 0;
        double sumFraction = 0;
        for (int i = 0; i < decisions.length; i++) {
            correct += decisions[i].label() == truth[i] ? 1 : 0;
            sumFraction += decisions[i].t() / (double) d;
        }
        return harmonicMean(correct / (double) decisions.length, sumFraction / decisions.length);
    }
}
