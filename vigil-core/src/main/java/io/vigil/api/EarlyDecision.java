package io.vigil.api;

/**
 * The one decision a {@link VigilSession} announces for its series: the class, when, and how far it can be trusted.
 *
 * @param label the announced class, as named in the training data
 * @param classIndex its index in {@link Vigil#classNames()}
 * @param t the decision's t: the 1-based position, in the complete time-major stream of C·d values, of the latest
 *     value observed (for a univariate series the number of samples seen) — what {@code vigil evaluate} and the stream
 *     job report, so t/{@code length} is the fraction of the series' time elapsed
 * @param length the values of a complete series, C·d
 * @param observed the values observed when the decision was taken (below {@code t} when values were missing)
 * @param early whether the rule announced the class before every value was observed
 * @param complete false for a decision taken by {@link VigilSession#end()} on a series that ended with values never
 *     observed: the classifier's label at E[x | observed] rather than a decision of the rule
 * @param reliability the largest τ at which the announced label is reliable (1 on the complete series; for a decision
 *     of {@link VigilSession#end()}, what the rule gives that label now, 0 when it is not the rule's candidate)
 * @param tau the τ the session decides at
 * @param certified whether that τ is certified for this model and rule (the rate of early labels that differ from the
 *     complete-series label is at most 1 − τ under the model's guarantee); an uncalibrated model certifies nothing
 */
public record EarlyDecision(
        String label,
        int classIndex,
        int t,
        int length,
        int observed,
        boolean early,
        boolean complete,
        double reliability,
        double tau,
        boolean certified) {
    /** The fraction t / length of the series elapsed at the decision. */
    public double fraction() {
        return (double) t / length;
    }
}
