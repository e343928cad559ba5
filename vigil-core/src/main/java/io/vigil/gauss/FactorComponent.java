package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * One Gaussian a·I + W Wᵀ around x̄ of a {@link SubsetConditioner} and its projections on B (immutable), with the
 * innovation that conditions its factor form on one more observed coordinate (docs/method.md §7).
 */
final class FactorComponent {
    final int rank;
    final double noise;
    final double[] mean; // x̄, D
    final double[] factor; // W, D×r row-major
    final double[] initialG; // BᵀW, ℓ×r row-major
    final double[] initialMean; // Bᵀx̄, ℓ
    final double[] initialCov; // BᵀΣB, ℓ×ℓ row-major
    private final double[] basis; // B, D×ℓ row-major (shared with the conditioner)
    private final int reduced;

    FactorComponent(double[] mean, double noise, double[] factor, int rank, double[] basis, int reduced) {
        this.basis = basis;
        this.reduced = reduced;
        int d = mean.length;
        int l = reduced;
        int r = rank;
        this.rank = rank;
        this.noise = noise;
        this.mean = mean;
        this.factor = factor;
        this.initialG = new double[l * r];
        this.initialMean = new double[l];
        for (int j = 0; j < d; j++) {
            for (int k = 0; k < l; k++) {
                double b = basis[j * l + k];
                initialMean[k] += b * mean[j];
                for (int i = 0; i < r; i++) {
                    initialG[k * r + i] += b * factor[j * r + i];
                }
            }
        }
        this.initialCov = new double[l * l];
        for (int k = 0; k < l; k++) {
            for (int m = 0; m <= k; m++) {
                double s = 0;
                for (int i = 0; i < r; i++) {
                    s += initialG[k * r + i] * initialG[m * r + i];
                }
                double bb = 0;
                for (int j = 0; j < d; j++) {
                    bb += basis[j * l + k] * basis[j * l + m];
                }
                s += noise * bb;
                initialCov[k * l + m] = s;
                initialCov[m * l + k] = s;
            }
        }
    }

    /** The factor form of a complete-series Gaussian in either form, reduced to at most maxRank directions. */
    static FactorComponent of(SeriesGaussian gaussian, double[] basis, int reduced, int maxRank) {
        int d = gaussian.length();
        double[] mean;
        double a;
        double[] w;
        int r;
        if (gaussian instanceof LowRankGaussian low) {
            DMatrixRMaj u = low.factor();
            mean = low.mean();
            a = low.identityScale();
            w = u.data;
            r = u.numCols;
        } else {
            JointGaussian dense = (JointGaussian) gaussian;
            w = dense.unitLower().data;
            double[] diag = dense.innovationVariances();
            for (int t = 0; t < d; t++) {
                double root = Math.sqrt(diag[t]);
                for (int s = t; s < d; s++) {
                    w[s * d + t] *= root;
                }
            }
            mean = dense.mean();
            a = 0.0;
            r = d;
        }
        if (r > maxRank && maxRank < d) {
            ProbabilisticPca.Reduced q = ProbabilisticPca.reduce(w, d, r, a, maxRank);
            return new FactorComponent(mean, q.noise(), q.factor(), q.rank(), basis, reduced);
        }
        return new FactorComponent(mean, a, w, r, basis, reduced);
    }

    /**
     * One innovation of this component's factor form (the steps in {@link SubsetConditioner}'s class comment); returns the innovation e.
     * Allocation-free.
     */
    double update(SubsetState.Block b, double[] p, double[] q, int index, double x) {
        int r = rank;
        int l = reduced;
        int wRow = index * r;
        int bRow = index * l;
        double[] cov = b.latentCov;
        double s2 = noise;
        double predicted = mean[index];
        // P and R_y are kept in their lower triangles only (symmetric by construction, half the downdate work):
        // p = P w_j as the lower triangle's rows, then its strict upper part (row k, column i < k) as axpys.
        for (int i = 0; i < r; i++) {
            double acc = 0;
            int row = i * r;
            for (int k = 0; k <= i; k++) {
                acc += cov[row + k] * factor[wRow + k];
            }
            p[i] = acc;
        }
        for (int k = 1; k < r; k++) {
            double wk = factor[wRow + k];
            int row = k * r;
            for (int i = 0; i < k; i++) {
                p[i] += cov[row + i] * wk;
            }
        }
        for (int i = 0; i < r; i++) {
            s2 += factor[wRow + i] * p[i];
            predicted += factor[wRow + i] * b.latentMean[i];
        }
        double e = x - predicted;
        double[] g = b.gain;
        for (int k = 0; k < l; k++) {
            double acc = noise * basis[bRow + k];
            int row = k * r;
            for (int i = 0; i < r; i++) {
                acc += g[row + i] * p[i];
            }
            q[k] = acc;
        }
        double inv = 1.0 / s2;
        double step = e * inv;
        for (int i = 0; i < r; i++) {
            b.latentMean[i] += p[i] * step;
            double pi = p[i] * inv;
            int row = i * r;
            for (int k = 0; k <= i; k++) {
                cov[row + k] -= pi * p[k];
            }
        }
        for (int k = 0; k < l; k++) {
            b.mean[k] += q[k] * step;
            double qk = q[k] * inv;
            int row = k * l;
            for (int m = 0; m <= k; m++) {
                b.cov[row + m] -= qk * q[m];
            }
            double bk = basis[bRow + k];
            int gRow = k * r;
            for (int i = 0; i < r; i++) {
                g[gRow + i] -= bk * factor[wRow + i];
            }
        }
        b.logLikelihood += -0.5 * Math.log(2.0 * Math.PI * s2) - 0.5 * e * step;
        return e;
    }
}
