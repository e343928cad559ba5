package io.vigil.early;

/**
 * The early decision for one series: the class announced at time t (1-based number of samples seen), the
 * label the same classifier gives the complete series, and the true label when known.
 *
 * @param index the series' index in its dataset
 * @param t samples seen when the decision was announced, 1..d
 * @param label the announced class index
 * @param completeLabel the classifier's label for the complete series
 * @param trueLabel the true class index, or −1 when unknown
 * @param early whether the decision came before t = d
 */
public record SeriesDecision(int index, int t, int label, int completeLabel, int trueLabel, boolean early) {
    /** Whether the early label matches the complete-series label (the reliability event). */
    public boolean reliable() {
        return label == completeLabel;
    }

    /** Whether the early label is the true label. */
    public boolean correct() {
        return label == trueLabel;
    }
}
