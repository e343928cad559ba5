package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * One-pass, numerically stable mean and scatter matrix Σ(x − x̄)(x − x̄)ᵀ of d-dimensional vectors
 * (Welford's update, with the pairwise merge of Chan, Golub &amp; LeVeque 1979 / Pébay 2008 so partial
 * results combine exactly). Never forms Σxxᵀ − n·x̄x̄ᵀ, which loses all digits when the mean is large
 * against the spread. Feeds the shrinkage covariance of the complete-series model (thesis §5.4).
 *
 * <p>Only the lower triangle is updated (the update δδᵀ·(n−1)/n is exactly symmetric); {@link
 * #scatter(DMatrixRMaj)} mirrors it. Cost O(d²/2) per vector, memory d² doubles. Not thread-safe.
 */
final class MomentAccumulator {
    private final int dimension;
    private long count;
    private final double[] mean;
    private final double[] scatter; // d×d row-major, lower triangle valid
    private final double[] delta;

    /** An empty accumulator for vectors of length {@code dimension} ≥ 1. */
    MomentAccumulator(int dimension) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be ≥ 1, got " + dimension);
        }
        if ((long) dimension * dimension > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "dimension " + dimension + " is too large for a dense " + dimension + "×" + dimension + " scatter");
        }
        this.dimension = dimension;
        this.mean = new double[dimension];
        this.scatter = new double[dimension * dimension];
        this.delta = new double[dimension];
    }

    /** Vector length d. */
    public int dimension() {
        return dimension;
    }

    /** Number of vectors added (including merged ones). */
    public long count() {
        return count;
    }

    /**
     * Adds one vector (Welford: δ = x − x̄_old, x̄ += δ/n, M += δδᵀ(n−1)/n).
     *
     * @param x length d, finite; not modified
     */
    public void add(double[] x) {
        if (x.length != dimension) {
            throw new IllegalArgumentException(
                    "vector has length " + x.length + " but the accumulator has dimension " + dimension);
        }
        for (int i = 0; i < dimension; i++) {
            if (!Double.isFinite(x[i])) {
                throw new IllegalArgumentException("vector element " + i + " is not finite: " + x[i]);
            }
        }
        count++;
        double invN = 1.0 / count;
        double w = (count - 1) * invN;
        for (int i = 0; i < dimension; i++) {
            double di = x[i] - mean[i];
            delta[i] = di;
            mean[i] += di * invN;
        }
        for (int i = 0; i < dimension; i++) {
            double wi = w * delta[i];
            int row = i * dimension;
            for (int j = 0; j <= i; j++) {
                scatter[row + j] += wi * delta[j];
            }
        }
    }

    /**
     * Merges another accumulator's vectors into this one: M = M_a + M_b + δδᵀ·n_a·n_b/n with δ = x̄_b − x̄_a.
     *
     * @param other same dimension; not modified
     */
    public void merge(MomentAccumulator other) {
        if (other.dimension != dimension) {
            throw new IllegalArgumentException("cannot merge an accumulator of dimension " + other.dimension
                    + " into one of dimension " + dimension);
        }
        if (other.count == 0) {
            return;
        }
        long n = count + other.count;
        double w = (double) count * other.count / n;
        double fb = (double) other.count / n;
        for (int i = 0; i < dimension; i++) {
            double di = other.mean[i] - mean[i];
            delta[i] = di;
            mean[i] += di * fb;
        }
        for (int i = 0; i < dimension; i++) {
            double wi = w * delta[i];
            int row = i * dimension;
            for (int j = 0; j <= i; j++) {
                scatter[row + j] += other.scatter[row + j] + wi * delta[j];
            }
        }
        count = n;
    }

    /**
     * Copies the mean.
     *
     * @param out length d, overwritten
     */
    public void mean(double[] out) {
        if (out.length != dimension) {
            throw new IllegalArgumentException(
                    "output has length " + out.length + " but the accumulator has dimension " + dimension);
        }
        System.arraycopy(mean, 0, out, 0, dimension);
    }

    /**
     * Copies the scatter matrix Σ(x − x̄)(x − x̄)ᵀ (exactly symmetric).
     *
     * @param out d×d, overwritten
     */
    public void scatter(DMatrixRMaj out) {
        if (out.numRows != dimension || out.numCols != dimension) {
            throw new IllegalArgumentException("output is " + out.numRows + "×" + out.numCols + " but the scatter is "
                    + dimension + "×" + dimension);
        }
        for (int i = 0; i < dimension; i++) {
            for (int j = 0; j <= i; j++) {
                double v = scatter[i * dimension + j];
                out.data[i * dimension + j] = v;
                out.data[j * dimension + i] = v;
            }
        }
    }
}
