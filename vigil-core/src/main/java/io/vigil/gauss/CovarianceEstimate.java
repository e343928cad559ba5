package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * The result of {@link ShrinkageCovariance#estimate}: sample mean, shrunk covariance (exactly
 * symmetric) and what the shrinkage did. Immutable: accessors return copies.
 */
public final class CovarianceEstimate {
    private final double[] mean;
    private final DMatrixRMaj covariance;
    private final Shrinkage shrinkage;

    CovarianceEstimate(double[] mean, DMatrixRMaj covariance, Shrinkage shrinkage) {
        this.mean = mean;
        this.covariance = covariance;
        this.shrinkage = shrinkage;
    }

    /** The sample mean x̄ (copy). */
    public double[] mean() {
        return mean.clone();
    }

    /** Σ̂ = (1 − δ)S + δμI (copy). */
    public DMatrixRMaj covariance() {
        return covariance.copy();
    }

    /** Method, target, μ, δ and n. */
    public Shrinkage shrinkage() {
        return shrinkage;
    }

    double[] meanRef() {
        return mean;
    }

    DMatrixRMaj covarianceRef() {
        return covariance;
    }
}
