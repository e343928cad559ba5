package io.vigil.reliability;

import java.util.Arrays;

/**
 * Quadratic discriminants of local QDA with diagonal class covariances (docs/method.md §2, thesis §2.1.2 and §5.6.1):
 *
 * <pre>  f_g(y) = −Σ_i (y_i − μ_gi)²/σ²_gi − Σ_i log σ²_gi + 2 log p_g.</pre>
 *
 * <p>Local QDA fits the class Gaussians around the conditional mean of each sample (§5.6.1), so this is a mutable,
 * reusable buffer: the caller refills the classes per sample with {@link #setClass} (inputs copied, nothing
 * allocated) and hands it to the decision rule, which holds them fixed for the min/max checks. Not thread-safe.
 */
public final class DiagonalQuadraticDiscriminants implements Discriminants {
    private static final double LN2 = Math.log(2.0);

    private final int numClasses;
    private final int dim;
    private final double[][] mean;
    private final double[][] invVar;
    private final double[][] var;
    private final double[] constant;
    private final double[] logPrior;
    private final boolean[] filled;

    /**
     * Creates G empty classes of dimension ℓ; every class must be {@link #setClass set} before use.
     *
     * @throws IllegalArgumentException unless G ≥ 1 and ℓ ≥ 1
     */
    public DiagonalQuadraticDiscriminants(int numClasses, int dim) {
        if (numClasses < 1 || dim < 1) {
            throw new IllegalArgumentException(
                    "need at least one class and one dimension, got " + numClasses + " classes, dimension " + dim);
        }
        this.numClasses = numClasses;
        this.dim = dim;
        this.mean = new double[numClasses][dim];
        this.invVar = new double[numClasses][dim];
        this.var = new double[numClasses][dim];
        this.constant = new double[numClasses];
        this.logPrior = new double[numClasses];
        this.filled = new boolean[numClasses];
    }

    /**
     * Builds discriminants from arrays (copied).
     *
     * @param means G×ℓ class means
     * @param variances G×ℓ diagonal class variances, all &gt; 0 (local QDA adds 1e-4 before this point)
     * @param logPriors G values log p_g
     */
    public static DiagonalQuadraticDiscriminants of(double[][] means, double[][] variances, double[] logPriors) {
        if (means.length == 0) {
            throw new IllegalArgumentException("no classes");
        }
        if (variances.length != means.length || logPriors.length != means.length) {
            throw new IllegalArgumentException("there are " + means.length + " means, " + variances.length
                    + " variance vectors and " + logPriors.length + " log priors");
        }
        DiagonalQuadraticDiscriminants d = new DiagonalQuadraticDiscriminants(means.length, means[0].length);
        for (int g = 0; g < means.length; g++) {
            d.setClass(g, means[g], variances[g], logPriors[g]);
        }
        return d;
    }

    /**
     * Sets class g's Gaussian.
     *
     * @param mean μ_g, length ℓ (copied)
     * @param variance σ²_g, length ℓ, every entry finite and &gt; 0 (copied)
     * @param logPriorG log p_g, finite
     * @throws IllegalArgumentException on wrong lengths or invalid values
     */
    public void setClass(int g, double[] mean, double[] variance, double logPriorG) {
        if (g < 0 || g >= numClasses) {
            throw new IllegalArgumentException("class " + g + " is outside 0.." + (numClasses - 1));
        }
        if (mean.length != dim || variance.length != dim) {
            throw new IllegalArgumentException("class " + g + ": the mean has " + mean.length
                    + " entries and the variance " + variance.length + ", the dimension is " + dim);
        }
        if (!Double.isFinite(logPriorG)) {
            throw new IllegalArgumentException("class " + g + ": log prior is " + logPriorG);
        }
        if (filled[g]
                && Double.doubleToLongBits(logPrior[g]) == Double.doubleToLongBits(logPriorG)
                && Arrays.equals(this.mean[g], mean)
                && Arrays.equals(this.var[g], variance)) {
            // The same class Gaussian as stored (bitwise; local QDA's set is often unchanged from one sample to
            // the next): every derived value would be recomputed identically.
            return;
        }
        // log|Σ_g| = Σ log σ²_gi as the log of a product kept in [1, 2)·2^exponent: one logarithm per class instead of
        // ℓ (this runs per sample and class when local QDA refits around each conditional mean), no overflow.
        this.filled[g] = false; // until every value is checked and stored (a throw leaves the class unset)
        double mantissa = 1.0;
        long exponent = 0;
        for (int i = 0; i < dim; i++) {
            double v = variance[i];
            if (!(v > 0.0) || Double.isInfinite(v) || !Double.isFinite(mean[i])) {
                throw new IllegalArgumentException(
                        "class " + g + ", coordinate " + i + ": mean " + mean[i] + ", variance " + v);
            }
            this.mean[g][i] = mean[i];
            this.var[g][i] = v;
            this.invVar[g][i] = 1.0 / v;
            mantissa *= v;
            int e = Math.getExponent(mantissa);
            mantissa = Math.scalb(mantissa, -e);
            exponent += e;
        }
        double logDet = Math.log(mantissa) + exponent * LN2;
        this.logPrior[g] = logPriorG;
        this.constant[g] = -logDet + 2.0 * logPriorG;
        this.filled[g] = true;
    }

    @Override
    public int numClasses() {
        return numClasses;
    }

    @Override
    public int dimension() {
        return dim;
    }

    /** μ_gi. */
    public double mean(int g, int i) {
        return mean[g][i];
    }

    /** σ²_gi. */
    public double variance(int g, int i) {
        return var[g][i];
    }

    /** log p_g. */
    public double logPrior(int g) {
        return logPrior[g];
    }

    /** log|Σ_g| = Σ_i log σ²_gi. */
    public double logDeterminant(int g) {
        return 2.0 * logPrior[g] - constant[g];
    }

    @Override
    public double value(int g, double[] y) {
        check(g, y.length);
        double[] mu = mean[g];
        double[] iv = invVar[g];
        double s = constant[g];
        for (int i = 0; i < dim; i++) {
            double u = y[i] - mu[i];
            s -= u * u * iv[i];
        }
        return s;
    }

    @Override
    public double expand(int g, double[] m, double[] grad, double[] curv) {
        check(g, m.length);
        double[] mu = mean[g];
        double[] iv = invVar[g];
        double s = constant[g];
        for (int i = 0; i < dim; i++) {
            double u = m[i] - mu[i];
            s -= u * u * iv[i];
            grad[i] = -2.0 * u * iv[i];
            curv[i] = -iv[i];
        }
        return s;
    }

    private void check(int g, int len) {
        if (!filled[g]) {
            throw new IllegalStateException("class " + g + " has not been set");
        }
        if (len != dim) {
            throw new IllegalArgumentException(
                    "the point has " + len + " entries, the discriminants have dimension " + dim);
        }
    }
}
