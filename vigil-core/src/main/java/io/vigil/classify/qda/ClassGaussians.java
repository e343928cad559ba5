package io.vigil.classify.qda;

/**
 * The class Gaussians local QDA finds around a query (thesis §2.1.2, §5.6.1): per class g the mean μ_g, the
 * diagonal variances diag(Σ_g) (ridge {@value LocalQda#COVARIANCE_RIDGE} included) of its k nearest class-g
 * training points, and log p_g. A class without training points has NaN mean and variances and log prior −∞.
 * A caller-owned holder, filled by {@link ClassGaussianSearch#find} and {@link LocalQda#classGaussians}, so
 * that per-sample queries allocate nothing; the arrays returned by the accessors are views.
 */
public final class ClassGaussians {
    final double[][] means;
    final double[][] variances;
    final double[] logPriors;

    /** Storage for G classes in ℓ dimensions. */
    public ClassGaussians(int numClasses, int dim) {
        if (numClasses < 1 || dim < 1) {
            throw new IllegalArgumentException(
                    "class Gaussians need ≥ 1 class and dimension ≥ 1, got " + numClasses + " and " + dim);
        }
        this.means = new double[numClasses][dim];
        this.variances = new double[numClasses][dim];
        this.logPriors = new double[numClasses];
    }

    /** Number of classes G. */
    public int numClasses() {
        return logPriors.length;
    }

    /** Dimension ℓ. */
    public int dim() {
        return means[0].length;
    }

    /** μ_g (a view; do not modify). */
    public double[] mean(int g) {
        return means[g];
    }

    /** diag(Σ_g), ridge included (a view; do not modify). */
    public double[] variance(int g) {
        return variances[g];
    }

    /** log p_g. */
    public double logPrior(int g) {
        return logPriors[g];
    }
}
