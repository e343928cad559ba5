package io.vigil.reduce;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Local Fisher discriminant analysis (Sugiyama, "Dimensionality reduction of multimodal labeled data by local Fisher
 * discriminant analysis", JMLR 8, 2007; Parrish 2012, §2.2.3, eqs. 2.8–2.9). FDA's scatter matrices are rewritten as
 * pairwise sums and the same-class pairs are weighted by an affinity A<sub>ij</sub>, so that far-apart series of one
 * class need not be pulled together and multimodal classes survive:
 *
 * <pre>
 *   S̃w = ½ Σij W̃w(i,j)(xi − xj)(xi − xj)ᵀ,  W̃w(i,j) = Aij/nc        if gi = gj = c, else 0
 *   S̃b = ½ Σij W̃b(i,j)(xi − xj)(xi − xj)ᵀ,  W̃b(i,j) = Aij(1/n − 1/nc) if gi = gj = c, else 1/n
 * </pre>
 *
 * with the paper's local-scaling affinity A<sub>ij</sub> = exp(−‖x<sub>i</sub> − x<sub>j</sub>‖²/(σ<sub>i</sub>σ
 * <sub>j</sub>)), σ<sub>i</sub> the distance from x<sub>i</sub> to its 7th nearest neighbour within its class (the
 * (min(7, n<sub>c</sub> − 1))th in a smaller class; a class of one series has no same-class pair, so its σ is never
 * used). With every A<sub>ij</sub> = 1 these are n·S<sub>w</sub> and n·S<sub>b</sub> and LFDA is FDA, as the paper notes.
 * The directions solve S̃<sub>b</sub>φ = λS̃<sub>w</sub>φ (φᵀS̃<sub>w</sub>φ = 1), largest λ first, and are
 * weighted by √λ as in the paper's recommended "weighted" embedding; unlike FDA there can be more than G − 1.
 *
 * <p>Small samples: S̃<sub>w</sub> has rank at most n − G, so when n − G &lt; d it is replaced by S̃<sub>w</sub> +
 * εI with a ridge ε = ρ·tr(S̃<sub>w</sub>)/d, ρ relative to its mean eigenvalue: {@link #fit(double[][], int[], int,
 * int)} uses ρ = {@value #RIDGE}, small enough to leave well-determined directions alone; the thesis's "Regularized
 * LFDA" cross-validates ε, which {@link #fit(double[][], int[], int, int, double)} allows (the Table 3.3 harness
 * searches {@link #RIDGE_GRID}). Both matrices are of
 * the form XᵀLX with a Laplacian L, so they live in the span of the centred series; the problem is solved exactly on
 * an orthonormal basis of that span (r ≤ n − 1 dimensions instead of d).
 */
public final class Lfda {
    /** The paper's neighbour for local scaling: σ<sub>i</sub> is the distance to the 7th nearest neighbour. */
    static final int LOCAL_SCALING_NEIGHBOR = 7;

    /** Default ridge ρ: ε = ρ · tr(S̃<sub>w</sub>)/d added to the local within-class scatter when n − G &lt; d. */
    public static final double RIDGE = 1e-3;

    /** Ridge candidates ρ of the thesis's regularised LFDA, from almost none to ten times the mean eigenvalue. */
    public static final double[] RIDGE_GRID = {1e-3, 1e-2, 1e-1, 1, 10};

    /** A same-class affinity from the two series' index and their squared distance. */
    @FunctionalInterface
    interface Affinity {
        double of(int i, int j, double squaredDistance);
    }

    private Lfda() {}

    /**
     * The weighted LFDA directions, d×min(dims, r) with r ≤ min(n − 1, d) the dimension of the centred series' span.
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1
     * @throws IllegalArgumentException on shapes or labels that do not fit
     * @throws IllPosedReductionException when n − G ≥ d (no ridge) but the local within-class scatter is singular
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        return fit(x, y, numClasses, dims, RIDGE);
    }

    /**
     * As {@link #fit(double[][], int[], int, int)} with ridge ρ (ε = ρ·tr(S̃<sub>w</sub>)/d when n − G &lt; d).
     *
     * @throws IllegalArgumentException when ρ is not positive and finite
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims, double ridge) {
        if (!(ridge > 0) || Double.isInfinite(ridge)) {
            throw new IllegalArgumentException("LFDA ridge must be positive and finite, got " + ridge);
        }
        return fitPairs(x, y, numClasses, dims, null, ridge).vectors();
    }

    /**
     * As {@link #fit} with the given same-class affinity (null: local scaling), returning the √λ-weighted directions
     * and their generalised eigenvalues λ.
     */
    static Eigen.Pairs fitPairs(double[][] x, int[] y, int numClasses, int dims, Affinity affinity) {
        return fitPairs(x, y, numClasses, dims, affinity, RIDGE);
    }

    private static Eigen.Pairs fitPairs(
            double[][] x, int[] y, int numClasses, int dims, Affinity affinity, double ridge) {
        Labelled l = Labelled.of(x, y, numClasses, dims, "LFDA");
        int n = l.n;
        double[][] dist = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (y[i] == y[j]) {
                    double s = 0;
                    for (int t = 0; t < l.d; t++) {
                        double e = x[i][t] - x[j][t];
                        s += e * e;
                    }
                    dist[i][j] = s;
                    dist[j][i] = s;
                }
            }
        }
        Affinity a = affinity != null ? affinity : localScaling(l, dist);
        double[][] ww = new double[n][n];
        double[][] wb = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i == j) {
                    continue;
                }
                if (y[i] == y[j]) {
                    double aij = a.of(i, j, dist[i][j]);
                    int nc = l.counts[y[i]];
                    ww[i][j] = aij / nc;
                    wb[i][j] = aij * (1.0 / n - 1.0 / nc);
                } else {
                    wb[i][j] = 1.0 / n;
                }
            }
        }
        DMatrixRMaj q = Pca.directions(x);
        int r = q.numCols;
        DMatrixRMaj z = new DMatrixRMaj(n, r);
        CommonOps_DDRM.mult(l.centred(), q, z);
        DMatrixRMaj sw = laplacianScatter(ww, z);
        DMatrixRMaj sb = laplacianScatter(wb, z);
        if (n - l.present < l.d) {
            double eps = ridge * CommonOps_DDRM.trace(sw) / l.d;
            for (int k = 0; k < r; k++) {
                sw.add(k, k, eps);
            }
        }
        Eigen.Pairs p = Eigen.generalized(sb, sw, "local within-class scatter is singular", n, l.d);
        int ell = Math.min(dims, r);
        DMatrixRMaj phi = Eigen.leading(p.vectors(), ell);
        double[] lambda = Arrays.copyOf(p.values(), ell);
        for (int k = 0; k < ell; k++) {
            double f = Math.sqrt(Math.max(lambda[k], 0));
            for (int t = 0; t < r; t++) {
                phi.set(t, k, phi.get(t, k) * f);
            }
        }
        DMatrixRMaj w = new DMatrixRMaj(l.d, ell);
        CommonOps_DDRM.mult(q, phi, w);
        Eigen.fixSigns(w);
        return new Eigen.Pairs(w, lambda);
    }

    /** A<sub>ij</sub> = exp(−‖x<sub>i</sub> − x<sub>j</sub>‖²/(σ<sub>i</sub>σ<sub>j</sub>)), σ from same-class distances. */
    private static Affinity localScaling(Labelled l, double[][] dist) {
        int n = l.n;
        double[] sigma = new double[n];
        for (int i = 0; i < n; i++) {
            int nc = l.counts[l.y[i]];
            if (nc < 2) {
                continue;
            }
            double[] same = new double[nc - 1];
            int k = 0;
            for (int j = 0; j < n; j++) {
                if (j != i && l.y[j] == l.y[i]) {
                    same[k++] = dist[i][j];
                }
            }
            Arrays.sort(same);
            sigma[i] = Math.sqrt(same[Math.min(LOCAL_SCALING_NEIGHBOR, nc - 1) - 1]);
        }
        return (i, j, d2) -> {
            double s = sigma[i] * sigma[j];
            if (s > 0) {
                return Math.exp(-d2 / s);
            }
            // Repeated series: σ = 0 only when the neighbour coincides; a coincident pair is maximally affine.
            return d2 == 0 ? 1 : 0;
        };
    }

    /** ½ Σ W(i,j)(zi − zj)(zi − zj)ᵀ = Zᵀ(D − W)Z for symmetric W, D its row sums. */
    static DMatrixRMaj laplacianScatter(double[][] w, DMatrixRMaj z) {
        int n = w.length;
        DMatrixRMaj lap = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            double deg = 0;
            for (int j = 0; j < n; j++) {
                deg += w[i][j];
                lap.set(i, j, -w[i][j]);
            }
            lap.add(i, i, deg);
        }
        DMatrixRMaj lz = new DMatrixRMaj(n, z.numCols);
        CommonOps_DDRM.mult(lap, z, lz);
        DMatrixRMaj s = new DMatrixRMaj(z.numCols, z.numCols);
        CommonOps_DDRM.multTransA(z, lz, s);
        Eigen.symmetrize(s);
        return s;
    }
}
