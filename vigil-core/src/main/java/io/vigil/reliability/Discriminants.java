package io.vigil.reliability;

/**
 * The class discriminants f_1..f_G of a classifier ĝ(y) = argmax_g f_g(y) (thesis (5.6)) that are at most quadratic
 * with a diagonal Hessian: linear SVM (f_g = w_gᵀy + b_g) or local QDA with diagonal covariances (docs/method.md §2).
 * The reliable decision rule only needs each f_g's exact second-order expansion about the set's centre, from which the
 * two-class differences f_c − f_h (5.14) are formed.
 */
public interface Discriminants {
    /** The number of classes G. */
    int numClasses();

    /** The dimension ℓ of the feature space. */
    int dimension();

    /**
     * f_g(y).
     *
     * @param y a point, length ℓ (not modified)
     */
    double value(int g, double[] y);

    /**
     * Writes the exact expansion f_g(m + u) = f_g(m) + Σ_i grad_i u_i + Σ_i curv_i u_i² (exact because f_g is at most
     * quadratic with diagonal Hessian 2·diag(curv)).
     *
     * @param m expansion point, length ℓ (not modified)
     * @param grad receives ∇f_g(m) in its first ℓ entries
     * @param curv receives half the Hessian diagonal in its first ℓ entries
     * @return f_g(m)
     */
    double expand(int g, double[] m, double[] grad, double[] curv);
}
