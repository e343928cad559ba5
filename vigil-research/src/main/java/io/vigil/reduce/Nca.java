package io.vigil.reduce;

import io.vigil.ldg.LinearMaps;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.hipparchus.optim.nonlinear.scalar.GoalType;

/**
 * Neighbourhood components analysis (Goldberger, Roweis, Hinton and Salakhutdinov, NIPS 17, 2004; Parrish 2012,
 * §2.2.4, eq. 2.10): the ℓ×d map A maximises the expected number of series that a stochastic leave-one-out nearest
 * neighbour classifies correctly in the reduced space,
 *
 * <pre>
 *   f(A) = Σi pi,  pi = Σ{j: gj = gi} pij,  pij = exp(−‖Axi − Axj‖²) / Σ{k ≠ i} exp(−‖Axi − Axk‖²),  pii = 0,
 * </pre>
 *
 * by gradient ascent on the paper's gradient ∂f/∂A = 2A Σ<sub>i</sub>(p<sub>i</sub>Σ<sub>k</sub>p<sub>ik</sub>x<sub>ik
 * </sub>x<sub>ik</sub>ᵀ − Σ<sub>j: g_j = g_i</sub>p<sub>ij</sub>x<sub>ij</sub>x<sub>ij</sub>ᵀ), x<sub>ij</sub> = x<sub>i
 * </sub> − x<sub>j</sub>. The double sum is evaluated as 2ZᵀLX with Z = XAᵀ and L the Laplacian-like matrix of the
 * weights w<sub>ik</sub> = p<sub>i</sub>p<sub>ik</sub> − [g<sub>k</sub> = g<sub>i</sub>]p<sub>ik</sub>, which costs
 * O(n²ℓ + nℓd) per evaluation instead of O(n²d²).
 *
 * <p>Choices the paper leaves open, fixed here: the optimiser is Hipparchus's nonlinear conjugate gradient
 * (Polak–Ribière) with at most {@value #MAX_ITERATIONS} iterations and {@value #MAX_EVALUATIONS} objective evaluations,
 * stopping earlier when f changes by less than 10⁻⁶ relative; the best point evaluated is returned, so f never ends
 * below its start. A starts from the ℓ leading PCA directions, scaled so that the mean squared distance from a series
 * to its nearest neighbour in the reduced space is 1 (the softmax neither saturates nor is flat). Training sets larger
 * than {@value #MAX_SERIES} series are fitted on a seeded random subsample of that size. NCA must be re-run for each ℓ
 * (no nested solutions).
 */
public final class Nca {
    /** Conjugate-gradient iterations at most. */
    static final int MAX_ITERATIONS = 100;

    /** Objective (and gradient) evaluations at most, line searches included. */
    static final int MAX_EVALUATIONS = 600;

    /** Larger training sets are subsampled to this many series. */
    static final int MAX_SERIES = 500;

    private Nca() {}

    /**
     * The NCA map as d×ℓ columns (y = Wᵀx = Ax), ℓ = min(dims, n, d).
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1
     * @throws IllegalArgumentException on shapes or labels that do not fit
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        return fitDetailed(x, y, numClasses, dims).map();
    }

    /**
     * A fit with its objective at the start and the end.
     *
     * @param map d×ℓ
     * @param initialObjective f at the PCA start
     * @param finalObjective f at the returned map
     * @param withinBudget false when the evaluation budget ran out inside a line search
     */
    record Fit(DMatrixRMaj map, double initialObjective, double finalObjective, boolean withinBudget) {}

    static Fit fitDetailed(double[][] x, int[] y, int numClasses, int dims) {
        Labelled full = Labelled.of(x, y, numClasses, dims, "NCA");
        double[][] xs = x;
        int[] ys = y;
        if (full.n > MAX_SERIES) {
            int[] perm = new SplittableRandom(full.n * 31L + full.d)
                    .ints(0, full.n)
                    .distinct()
                    .limit(MAX_SERIES)
                    .toArray();
            xs = new double[MAX_SERIES][];
            ys = new int[MAX_SERIES];
            for (int i = 0; i < MAX_SERIES; i++) {
                xs[i] = x[perm[i]];
                ys[i] = y[perm[i]];
            }
        }
        Labelled l = Labelled.of(xs, ys, numClasses, dims, "NCA");
        double[][] xc = l.centredRows();
        DMatrixRMaj pca = Pca.directions(xc);
        int ell = Math.min(dims, pca.numCols);
        double[] a0 = initial(xc, pca, ell);
        int[] labels = ys;
        GradientSearch.Result r = GradientSearch.run(
                a0,
                (a, grad) -> objective(a, xc, labels, ell, grad),
                GoalType.MAXIMIZE,
                MAX_ITERATIONS,
                MAX_EVALUATIONS,
                null);
        DMatrixRMaj w = GradientSearch.columns(r.point(), l.d, ell);
        Eigen.fixSigns(w);
        return new Fit(w, r.startValue(), r.bestValue(), r.withinBudget());
    }

    /** PCA rows scaled so that the mean squared nearest-neighbour distance of the projected series is 1. */
    private static double[] initial(double[][] xc, DMatrixRMaj pca, int ell) {
        double[][] z = LinearMaps.project(xc, pca, ell);
        double sum = 0;
        for (int i = 0; i < z.length; i++) {
            double nearest = Double.POSITIVE_INFINITY;
            for (int j = 0; j < z.length; j++) {
                if (j != i) {
                    nearest = Math.min(nearest, LargeMargin.squared(z[i], z[j]));
                }
            }
            sum += nearest;
        }
        double mean = sum / z.length;
        return GradientSearch.rows(pca, ell, GradientSearch.startScale(mean));
    }

    /**
     * f(A) for A = ℓ×d row-major in {@code a}; when {@code grad} is not null it receives ∂f/∂A in the same layout.
     *
     * @param x n rows of length d (centring does not change f)
     */
    static double objective(double[] a, double[][] x, int[] y, int ell, double[] grad) {
        int n = x.length;
        double[][] z = GradientSearch.apply(a, x, ell);
        double[][] w = grad != null ? new double[n][n] : null;
        double[] p = new double[n];
        double f = 0;
        for (int i = 0; i < n; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < n; k++) {
                p[k] = k == i ? Double.NEGATIVE_INFINITY : -LargeMargin.squared(z[i], z[k]);
                max = Math.max(max, p[k]);
            }
            double norm = 0;
            for (int k = 0; k < n; k++) {
                p[k] = k == i ? 0 : Math.exp(p[k] - max);
                norm += p[k];
            }
            double pi = 0;
            for (int k = 0; k < n; k++) {
                p[k] /= norm;
                pi += y[k] == y[i] ? p[k] : 0;
            }
            f += pi;
            if (w != null) {
                for (int k = 0; k < n; k++) {
                    w[i][k] = pi * p[k] - (y[k] == y[i] ? p[k] : 0);
                }
            }
        }
        if (grad != null) {
            gradient(w, z, x, ell, grad);
        }
        return f;
    }

    /** 2ZᵀLX with L = D<sub>rows</sub> + D<sub>cols</sub> − W − Wᵀ. */
    private static void gradient(double[][] w, double[][] z, double[][] x, int ell, double[] grad) {
        int n = x.length;
        int d = x[0].length;
        double[] row = new double[n];
        double[] col = new double[n];
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                row[i] += w[i][k];
                col[k] += w[i][k];
            }
        }
        double[][] zl = new double[ell][n];
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) {
                double lik = (i == k ? row[i] + col[i] : 0) - w[i][k] - w[k][i];
                if (lik != 0) {
                    for (int c = 0; c < ell; c++) {
                        zl[c][k] += z[i][c] * lik;
                    }
                }
            }
        }
        Arrays.fill(grad, 0);
        for (int c = 0; c < ell; c++) {
            int off = c * d;
            for (int k = 0; k < n; k++) {
                double s = 2 * zl[c][k];
                if (s != 0) {
                    for (int t = 0; t < d; t++) {
                        grad[off + t] += s * x[k][t];
                    }
                }
            }
        }
    }
}
