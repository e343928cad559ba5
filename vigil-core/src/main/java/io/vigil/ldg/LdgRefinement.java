package io.vigil.ldg;

/**
 * What the gradient refinement of thesis Algorithm 1 did to an LDG basis ({@link GradientRefinement}), kept in the
 * model so that {@code vigil inspect} can say how far the refined B moved from the eigen solution.
 *
 * @param iterations gradient steps tried (accepted or rejected)
 * @param accepted steps that lowered the objective
 * @param objectiveBefore objective (3.4) at the eigen solution
 * @param objectiveAfter objective (3.4) at the refined basis, ≤ objectiveBefore
 */
public record LdgRefinement(int iterations, int accepted, double objectiveBefore, double objectiveAfter) {
    /** Validates. */
    public LdgRefinement {
        if (iterations < 0 || accepted < 0 || accepted > iterations) {
            throw new IllegalArgumentException(
                    "refinement iterations " + iterations + " and accepted steps " + accepted + " do not fit");
        }
        if (!Double.isFinite(objectiveBefore) || !Double.isFinite(objectiveAfter)) {
            throw new IllegalArgumentException(
                    "refinement objectives must be finite, got " + objectiveBefore + " and " + objectiveAfter);
        }
        if (objectiveAfter > objectiveBefore) {
            throw new IllegalArgumentException("the refined objective " + objectiveAfter + " exceeds the starting one "
                    + objectiveBefore + " (Algorithm 1 never increases it)");
        }
    }
}
