package io.vigil.early;

/**
 * One sample's outcome at every threshold at once ({@link EarlyClassifier#score}), in caller-owned storage: the label
 * the rule would announce and the largest index of the threshold grid at which it announces it (−1: at none; the
 * grid size: the series is complete).
 */
public final class SampleScore {
    int label = Decision.NO_DECISION;
    int index = -1;

    /** The label the rule announces at every threshold up to {@link #index()}. */
    public int label() {
        return label;
    }

    /** The largest grid index at which the rule decides (−1: none; grid size: complete series). */
    public int index() {
        return index;
    }

    void set(int label, int index) {
        this.label = label;
        this.index = index;
    }
}
