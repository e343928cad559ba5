package io.vigil.ldg;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * Transfer LDG (thesis chapter 4, eq. 4.3): a linear map fitted on a few labelled target-domain series and many
 * source-domain series so that the target classes separate and each target class lands on its source class. With
 * Δ<sub>i,j</sub> = x<sub>i</sub> − μ<sub>i,j</sub>, μ<sub>i,j</sub> the mean of the k nearest class-j <em>source</em>
 * series of x<sub>i</sub> (the point itself excluded) and priors p<sub>j</sub> of the source domain,
 *
 * <pre>
 *   B = argmin_{BᵀB = I} (1 − α) Σ_{i ∈ target} w_i(B) + α Σ_{i ∈ source} w_i(B),
 *   w_i(B) = (1 − p_{g_i}) ‖BᵀΔ_{i,g_i}‖² − γ Σ_{j ≠ g_i} p_j ‖BᵀΔ_{i,j}‖²          (4.3, the common ½ dropped)
 * </pre>
 *
 * solved, like {@link Ldg}, by the smallest eigenvectors of the weighted scatter of the Δ's on the span of the pooled
 * series. α weighs the source domain's own LDG term (α = 0: only target points, against source neighbours); γ trades
 * bringing same-class source and target together against pushing target points from other-class source neighbours.
 */
public final class TransferLdg {
    private TransferLdg() {}

    /**
     * The parameters of (4.3).
     *
     * @param neighbors k ≥ 1 source neighbours per class (capped per class at what the source domain holds)
     * @param alpha α ∈ [0, 1]
     * @param gamma γ ∈ [0, 1]
     */
    public record Params(int neighbors, double alpha, double gamma) {
        /** Validates. */
        public Params {
            if (neighbors < 1) {
                throw new IllegalArgumentException("transfer LDG needs at least 1 neighbour, got " + neighbors);
            }
            if (!(alpha >= 0 && alpha <= 1)) {
                throw new IllegalArgumentException("α must lie in [0, 1], got " + alpha);
            }
            if (!(gamma >= 0 && gamma <= 1)) {
                throw new IllegalArgumentException("γ must lie in [0, 1], got " + gamma);
            }
        }
    }

    /**
     * Fits (4.3).
     *
     * @param target n<sub>t</sub> ≥ 1 target-domain rows of length d
     * @param source source-domain rows of the same length, every class present
     * @return every direction of the pooled span, ascending eigenvalue (the first ℓ are B for every ℓ)
     * @throws IllegalArgumentException on lengths that differ, classes out of range, or a class missing from the source
     */
    public static LdgBasis fit(
            double[][] target, int[] targetY, double[][] source, int[] sourceY, int numClasses, Params params) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(source, "source");
        if (target.length == 0) {
            throw new IllegalArgumentException("transfer LDG needs at least one target-domain series");
        }
        int d = Ldg.checkTrainingSet(source, sourceY, numClasses);
        if (target[0].length != d) {
            throw new IllegalArgumentException("target series have length " + target[0].length
                    + " but source series have length " + d + "; both domains need the same length");
        }
        int nt = target.length;
        int ns = source.length;
        double[][] pooled = new double[nt + ns][];
        int[] y = new int[nt + ns];
        System.arraycopy(target, 0, pooled, 0, nt);
        System.arraycopy(targetY, 0, y, 0, nt);
        System.arraycopy(source, 0, pooled, nt, ns);
        System.arraycopy(sourceY, 0, y, nt, ns);
        Ldg.checkTrainingSet(pooled, y, numClasses);
        int[] sourceCounts = new int[numClasses];
        for (int c : sourceY) {
            sourceCounts[c]++;
        }
        double[] priors = new double[numClasses];
        for (int j = 0; j < numClasses; j++) {
            if (sourceCounts[j] == 0) {
                throw new IllegalArgumentException("class index " + j
                        + " has no source-domain series: its target points have no source neighbours");
            }
            priors[j] = (double) sourceCounts[j] / ns;
        }
        int[][][] sets = sourceNeighbours(pooled, y, nt, numClasses, params.neighbors());
        double[] weight = new double[nt + ns];
        Arrays.fill(weight, 0, nt, 1 - params.alpha());
        Arrays.fill(weight, nt, nt + ns, params.alpha());
        return Ldg.fitOnSpan(pooled, d, Ldg.Form.AUTO, coords -> {
            DMatrixRMaj m = scatter(coords, y, sets, weight, priors, params.gamma());
            return Kernels.symmetricEigen(
                    m,
                    true,
                    "the transfer LDG matrix of (4.3) (γ = " + params.gamma() + ", α = " + params.alpha() + ")");
        });
    }

    /**
     * For every pooled point i and class j: the k nearest class-j source points (pooled indices ≥ nt), by (squared
     * distance, index), i itself excluded.
     */
    private static int[][][] sourceNeighbours(double[][] pooled, int[] y, int nt, int g, int k) {
        int n = pooled.length;
        double[][] dist = Kernels.pairwise(pooled, true);
        int[][][] sets = new int[n][g][];
        Integer[] order = new Integer[n - nt];
        for (int i = 0; i < n; i++) {
            for (int s = 0; s < order.length; s++) {
                order[s] = nt + s;
            }
            double[] di = dist[i];
            Arrays.sort(order, (a, b) -> {
                int c = Double.compare(di[a], di[b]);
                return c != 0 ? c : Integer.compare(a, b);
            });
            int[] fill = new int[g];
            int[][] chosen = new int[g][k];
            for (int q : order) {
                if (q == i) {
                    continue;
                }
                int j = y[q];
                if (fill[j] < k) {
                    chosen[j][fill[j]++] = q;
                }
            }
            for (int j = 0; j < g; j++) {
                sets[i][j] = Arrays.copyOf(chosen[j], fill[j]);
            }
        }
        return sets;
    }

    /** Σ_i weight_i [(1 − p_{g_i}) δ_{i,g_i}δ_{i,g_i}ᵀ − γ Σ_{j≠g_i} p_j δ_{i,j}δ_{i,j}ᵀ] on the coordinates (r×r). */
    private static DMatrixRMaj scatter(
            DMatrixRMaj coords, int[] y, int[][][] sets, double[] weight, double[] priors, double gamma) {
        int n = coords.numRows;
        int r = coords.numCols;
        double[] m = new double[r * r];
        double[] delta = new double[r];
        for (int i = 0; i < n; i++) {
            if (weight[i] == 0) {
                continue;
            }
            for (int j = 0; j < priors.length; j++) {
                int[] nb = sets[i][j];
                if (nb.length == 0) {
                    continue;
                }
                double w = weight[i] * (j == y[i] ? 1 - priors[j] : -gamma * priors[j]);
                if (w == 0) {
                    continue;
                }
                for (int c = 0; c < r; c++) {
                    double mean = 0;
                    for (int q : nb) {
                        mean += coords.data[q * r + c];
                    }
                    delta[c] = coords.data[i * r + c] - mean / nb.length;
                }
                for (int a = 0; a < r; a++) {
                    double wa = w * delta[a];
                    for (int b = 0; b < r; b++) {
                        m[a * r + b] += wa * delta[b];
                    }
                }
            }
        }
        DMatrixRMaj out = new DMatrixRMaj(r, r);
        out.data = m;
        Kernels.symmetrize(out);
        return out;
    }
}
