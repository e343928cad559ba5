package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * A Gaussian model X ~ N(x̄, Σ) of complete series of length d (thesis eqs. 5.19–5.20), in one of two covariance
 * representations ({@link CovarianceForm}): dense LDLᵀ factors ({@link JointGaussian}) or a scaled identity plus a
 * low-rank term ({@link LowRankGaussian}). Either gives the innovations form of sequential observation that the
 * conditional moments are built from ({@link ConditionalModel}; docs/method.md §3.1). Immutable.
 */
public sealed interface SeriesGaussian permits JointGaussian, LowRankGaussian {
    /** Largest series length any form supports: innovations and tables index Java arrays by t. */
    int MAX_LENGTH = 1 << 24;

    /** Series length d. */
    int length();

    /** The mean x̄ (copy). */
    double[] mean();

    /** How the covariance is held. */
    CovarianceForm form();

    /** Shrinkage, ridge and note of the fit. */
    FitInfo fitInfo();

    /** D: the innovation variances Var(x_t | x_1..x_{t−1}) (new array). */
    double[] innovationVariances();

    /** The marginal variances Σ_tt = Var(x_t), t = 1..d (new array; O(d²) dense, O(d·r) low-rank). */
    double[] marginalVariances();

    /** log det Σ = Σ_t log D_t. */
    double logDeterminant();

    /** Σ as a new dense d×d matrix (O(d²) memory; for tests and reports on short series). */
    DMatrixRMaj covariance();

    /**
     * Fits N(x̄, Σ̂) to n complete training series with a shrinkage covariance in the requested form.
     *
     * @param rows n ≥ 2 series of length d (n×d), finite; not modified
     * @param params shrinkage
     * @param form {@link CovarianceForm#AUTO} is resolved with n and d ({@link CovarianceForm#resolve})
     * @throws IllegalArgumentException on bad shapes or values
     * @throws CovarianceFitException when no positive-definite covariance can be formed
     */
    static SeriesGaussian fit(double[][] rows, ShrinkageParams params, CovarianceForm form) {
        if (rows.length == 0) {
            throw new IllegalArgumentException("a covariance estimate needs at least 2 series, got 0");
        }
        return switch (form.resolve(rows.length, Math.max(1, rows[0].length))) {
            case DENSE -> JointGaussian.fit(rows, params);
            case LOW_RANK -> LowRankGaussian.fit(rows, params);
            case AUTO -> throw new IllegalStateException("AUTO resolved to AUTO");
        };
    }
}
