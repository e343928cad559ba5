package io.vigil.reduce;

import java.util.Arrays;

/**
 * The large-margin nearest-neighbour objective of Torresani and Lee (NIPS 19, 2006, eq. 1, after Weinberger, Blitzer
 * and Saul) evaluated on already mapped points z<sub>i</sub> = Lx<sub>i</sub> (or Ωk<sub>i</sub> in the kernel
 * version), shared by {@link Lmca} and {@link KernelLmca}:
 *
 * <pre>
 *   ε = Σij ηij ‖zi − zj‖² + c Σijl ηij (1 − yil) h(‖zi − zj‖² − ‖zi − zl‖² + 1),
 * </pre>
 *
 * η<sub>ij</sub> = 1 when x<sub>j</sub> is one of the k nearest same-class series of x<sub>i</sub> in the input space
 * (its target neighbours, fixed before optimisation), y<sub>il</sub> = 1 when x<sub>i</sub> and x<sub>l</sub> share a
 * class. The hinge is smoothed as the paper prescribes, "as in [8]" (Rennie and Srebro, ICML 2005): h(s) = 0 for s ≤ 0,
 * s²/2 for 0 &lt; s &lt; 1 and s − ½ for s ≥ 1, which is continuously differentiable.
 *
 * <p>Both papers' gradients (eqs. 2–4) are a sum of outer products of differences, Σ<sub>pq</sub> ω<sub>pq</sub>(x
 * <sub>p</sub> − x<sub>q</sub>)(x<sub>p</sub> − x<sub>q</sub>)ᵀ with ω<sub>ij</sub> += 1 + c·Σ<sub>l</sub>h′(s<sub>ijl
 * </sub>) and ω<sub>il</sub> −= c·h′(s<sub>ijl</sub>); this class returns the Laplacian Λ of ω (Λ = D<sub>row</sub> +
 * D<sub>col</sub> − ω − ωᵀ), so that eq. 2 is ∂ε/∂L = 2ZᵀΛX and eq. 4 is Γ = 2ZᵀΛ with Z the n×ℓ mapped points.
 */
final class LargeMargin {
    private LargeMargin() {}

    /**
     * The target neighbours: for each series the indices of its k nearest same-class series by Euclidean distance in
     * the input space (fewer when its class has fewer than k + 1 series).
     *
     * @throws IllegalArgumentException when a class with series has only one (it would have no target neighbour)
     */
    static int[][] targets(double[][] x, int[] y, int numClasses, int k, String method) {
        int n = x.length;
        int[] counts = new int[numClasses];
        for (int c : y) {
            counts[c]++;
        }
        for (int c = 0; c < numClasses; c++) {
            if (counts[c] == 1) {
                throw new IllegalArgumentException(method + " needs at least two series in every class (a target "
                        + "neighbour of the same class), but class " + c + " has one");
            }
        }
        int[][] out = new int[n][];
        double[] dist = new double[n];
        for (int i = 0; i < n; i++) {
            int same = 0;
            for (int j = 0; j < n; j++) {
                dist[j] = j != i && y[j] == y[i] ? squared(x[i], x[j]) : Double.POSITIVE_INFINITY;
                same += j != i && y[j] == y[i] ? 1 : 0;
            }
            int m = Math.min(k, same);
            Integer[] order = new Integer[n];
            for (int j = 0; j < n; j++) {
                order[j] = j;
            }
            Arrays.sort(order, (a, b) -> Double.compare(dist[a], dist[b]));
            out[i] = new int[m];
            for (int r = 0; r < m; r++) {
                out[i][r] = order[r];
            }
        }
        return out;
    }

    /**
     * ε of eq. 1 at the mapped points z (n×ℓ); when {@code laplacian} is not null it receives Λ (n×n, overwritten).
     *
     * @param targets from {@link #targets}
     * @param c weight of the margin term
     */
    static double objective(double[][] z, int[] y, int[][] targets, double c, double[][] laplacian) {
        int n = z.length;
        double[][] d2 = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double s = squared(z[i], z[j]);
                d2[i][j] = s;
                d2[j][i] = s;
            }
        }
        double[][] w = laplacian != null ? new double[n][n] : null;
        double pull = 0;
        double push = 0;
        for (int i = 0; i < n; i++) {
            for (int j : targets[i]) {
                pull += d2[i][j];
                double pairWeight = 1;
                for (int l = 0; l < n; l++) {
                    if (y[l] == y[i]) {
                        continue;
                    }
                    double s = d2[i][j] - d2[i][l] + 1;
                    if (s <= 0) {
                        continue;
                    }
                    push += s < 1 ? s * s / 2 : s - 0.5;
                    if (w != null) {
                        double dh = c * Math.min(s, 1);
                        pairWeight += dh;
                        w[i][l] -= dh;
                    }
                }
                if (w != null) {
                    w[i][j] += pairWeight;
                }
            }
        }
        if (laplacian != null) {
            for (int i = 0; i < n; i++) {
                Arrays.fill(laplacian[i], 0);
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double v = w[i][j];
                    if (v != 0) {
                        laplacian[i][i] += v;
                        laplacian[j][j] += v;
                        laplacian[i][j] -= v;
                        laplacian[j][i] -= v;
                    }
                }
            }
        }
        return pull + c * push;
    }

    /** 2ZᵀΛ, ℓ×n row-major: the paper's Γ of eq. 4 (kernel) or the factor of eq. 2 before X. */
    static double[][] twiceZtLambda(double[][] z, double[][] laplacian) {
        int n = z.length;
        int ell = z[0].length;
        double[][] out = new double[ell][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                double v = laplacian[i][j];
                if (v != 0) {
                    for (int k = 0; k < ell; k++) {
                        out[k][j] += 2 * z[i][k] * v;
                    }
                }
            }
        }
        return out;
    }

    /** Mean squared distance from a series to its target neighbours in the mapped space. */
    static double meanTargetDistance(double[][] z, int[][] targets) {
        double sum = 0;
        int count = 0;
        for (int i = 0; i < z.length; i++) {
            for (int j : targets[i]) {
                sum += squared(z[i], z[j]);
                count++;
            }
        }
        return count == 0 ? Double.NaN : sum / count;
    }

    /**
     * The median Euclidean distance over the n(n − 1)/2 pairs of rows (the mean of the middle two for an even count; 0
     * for fewer than two rows): the scale the RBF widths of KLMCA and DTDKL are set from.
     */
    static double medianDistance(double[][] x) {
        int n = x.length;
        double[] d = new double[n * (n - 1) / 2];
        int m = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                d[m++] = Math.sqrt(squared(x[i], x[j]));
            }
        }
        Arrays.sort(d);
        return m == 0 ? 0 : (m % 2 == 1 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2);
    }

    static double squared(double[] u, double[] v) {
        double s = 0;
        for (int k = 0; k < u.length; k++) {
            double e = u[k] - v[k];
            s += e * e;
        }
        return s;
    }
}
