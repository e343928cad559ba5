package io.vigil.evaluate;

/**
 * One early decision of a baseline: the class announced after t samples and the class the same method gives the
 * complete series (its label at t = d), so reliability can be judged by the same event as Vigil's rule.
 *
 * @param label announced class index
 * @param t samples seen when the label was announced, 1..d
 * @param completeLabel the method's label for the complete series
 */
public record EarlyPrediction(int label, int t, int completeLabel) {
    /** Validates t ≥ 1 and non-negative labels. */
    public EarlyPrediction {
        if (t < 1 || label < 0 || completeLabel < 0) {
            throw new IllegalArgumentException(
                    "early prediction needs t >= 1 and labels >= 0, got t = " + t + ", label = " + label);
        }
    }
}
