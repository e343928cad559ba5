package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * Estimates the conditional mean m_y and covariance R_y of the LDG features Y = BᵀX of the complete
 * series X given its prefix x(1..t) — the two moments every τ-set of thesis §5.2 needs (§5.4). The
 * estimator is immutable and shared; the per-series {@link SeriesState} is updated one sample at a
 * time in O(d + ℓ) per component, allocation-free (docs/method.md §3.1).
 *
 * <p>Typical use: {@code s = est.newState(); for each sample: est.update(s, x); est.conditionalMean(s,
 * m); est.conditionalCovariance(s, r);} All methods check that the state's dimensions match.
 */
public interface CompleteSeriesEstimator {
    /** Which estimator this is ({@code joint} or {@code gmm}). */
    EstimatorType type();

    /** Series length d. */
    int length();

    /** Reduced dimension ℓ (columns of B). */
    int reducedDimension();

    /** Number of Gaussian components G (1 for {@code joint}). */
    int components();

    /** A fresh state at t = 0. */
    SeriesState newState();

    /**
     * Observes the next sample x_{t+1}. O(t + ℓ) per component, no allocation.
     *
     * @param x the sample, finite
     * @throws IllegalArgumentException when x is not finite or the state's dimensions differ
     * @throws IllegalStateException when the state already holds all d samples
     */
    void update(SeriesState state, double x);

    /**
     * m_y(t) = E[BᵀX | x_1..x_t].
     *
     * @param out length ℓ, overwritten
     */
    void conditionalMean(SeriesState state, double[] out);

    /**
     * R_y(t) = Cov[BᵀX | x_1..x_t], packed (see {@link SymmetricPacked}).
     *
     * @param packedOut at least ℓ(ℓ+1)/2 values, overwritten from offset 0
     */
    void conditionalCovariance(SeriesState state, double[] packedOut);

    /**
     * R_y(t) as a dense symmetric matrix.
     *
     * @param out ℓ×ℓ, overwritten
     */
    void conditionalCovariance(SeriesState state, DMatrixRMaj out);

    /** log p(x_1..x_t) under the estimator's model (0 at t = 0). */
    double logLikelihood(SeriesState state);

    /** The basis B the features are computed with (copy). */
    DMatrixRMaj basis();

    /**
     * Fits either estimator to labelled complete training series.
     *
     * @param type {@code joint} ignores the labels; {@code gmm} fits one Gaussian per class
     * @param rows n×d training series; not modified
     * @param classOf class index 0..classCount−1 of each row (ignored by {@code joint}, may be null then)
     * @param classCount G
     * @param basis B, d×ℓ; copied
     * @param shrinkage covariance shrinkage for every Gaussian
     */
    static CompleteSeriesEstimator fit(
            EstimatorType type,
            double[][] rows,
            int[] classOf,
            int classCount,
            DMatrixRMaj basis,
            ShrinkageParams shrinkage) {
        switch (type) {
            case JOINT:
                return JointGaussianEstimator.fit(rows, basis, shrinkage);
            case GMM:
                return GaussianMixtureEstimator.fit(rows, classOf, classCount, basis, shrinkage);
            default:
                throw new IllegalArgumentException("unhandled estimator type " + type);
        }
    }
}
