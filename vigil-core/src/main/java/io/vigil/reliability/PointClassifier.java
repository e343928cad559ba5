package io.vigil.reliability;

/**
 * A classifier ĝ evaluated at single points of LDG space, for rules that only need ĝ's label at sampled points (the
 * probability rule, thesis eq. 5.1) — k-nearest neighbours, which has no discriminant functions the set rule could
 * bound. Implementations may use per-thread scratch but must be safe to call from the thread that owns the caller.
 */
@FunctionalInterface
public interface PointClassifier {
    /** ĝ(y), a class index. */
    int classify(double[] y);
}
