package io.vigil.ldg;

import java.util.Arrays;
import java.util.Objects;

/**
 * Gradient refinement of an LDG basis (thesis §3.1.1, Algorithm 1): from the eigen solution B<sub>γ</sub>, minimise
 * the smooth leave-one-out objective (3.4)
 *
 * <pre>
 *   f(B) = Σ_i log Σ_j p_j exp(−½‖BᵀΔ_ij‖²) + ½‖BᵀΔ_{i,g_i}‖²,   Δ_ij = x_i − μ_ij,   subject to BᵀB = I,
 * </pre>
 *
 * by steps along the gradient (3.5), ∇f = Σ_i (Δ_{i,g_i}Δ_{i,g_i}ᵀB − Σ_j s_ij Δ_ij Δ_ijᵀ B) with s_ij = c_ij / Σ_h
 * c_ih, each followed by re-orthonormalisation; a step that increases f is rejected and the step size halved, as
 * Algorithm 1 does. The eigen solution minimises a Jensen lower bound of this objective (§3.1.2), so the refinement
 * can only lower f.
 *
 * <p>μ_ij are the local means of {@link NeighborSets} (k nearest class-j points in the input space, the point itself
 * excluded), fixed during the descent. Nothing of size d×d or n·G×d is formed: BᵀΔ_ij = Bᵀx_i − mean of Bᵀx_m over
 * the neighbours, and the gradient is Xᵀ Q for an n×ℓ coefficient matrix Q, so one evaluation of f and ∇f costs
 * O(n·d·ℓ + n·G·k·ℓ).
 */
public final class GradientRefinement {
    private final double[][] x;
    private final NeighborSets sets;
    private final int n;
    private final int d;
    private final int g;
    private final double[] logPriors;

    private GradientRefinement(double[][] x, NeighborSets sets) {
        this.x = x;
        this.sets = sets;
        this.n = x.length;
        this.d = x[0].length;
        this.g = sets.numClasses();
        this.logPriors = new double[g];
        for (int j = 0; j < g; j++) {
            logPriors[j] = Math.log(sets.prior(j));
        }
    }

    /**
     * When the descent stops.
     *
     * @param maxIterations gradient steps tried (accepted or rejected), ≥ 1
     * @param tolerance stop once an accepted step lowers f by less than {@code tolerance·|f|}, in (0, 1)
     */
    public record Params(int maxIterations, double tolerance) {
        /** 200 tries, relative improvement 1e-6. */
        public static final Params DEFAULTS = new Params(200, 1e-6);

        /** Validates. */
        public Params {
            if (maxIterations < 1) {
                throw new IllegalArgumentException("maxIterations must be ≥ 1, got " + maxIterations);
            }
            if (!(tolerance > 0 && tolerance < 1)) {
                throw new IllegalArgumentException("tolerance must lie in (0, 1), got " + tolerance);
            }
        }
    }

    /**
     * Refines the first {@code dims} directions of {@code start}.
     *
     * @param x the n×d rows LDG was fitted on (standardised if the fit was)
     * @param y class index of each row
     * @param neighbors LDG's k (the local means μ_ij)
     * @param start the eigen solution
     * @return a basis of {@code dims} orthonormal directions carrying its {@link LdgRefinement}; the eigenvalues are
     *     the starting solution's first {@code dims}
     * @throws IllegalArgumentException on shapes that disagree
     */
    public static LdgBasis refine(
            double[][] x, int[] y, int numClasses, int neighbors, LdgBasis start, int dims, Params params) {
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(params, "params");
        int d = Ldg.checkTrainingSet(x, y, numClasses);
        if (start.inputDim() != d) {
            throw new IllegalArgumentException(
                    "the basis has " + start.inputDim() + " rows but the training series have length " + d);
        }
        if (dims < 1 || dims > start.rank()) {
            throw new IllegalArgumentException("dims = " + dims + " but the basis has " + start.rank() + " directions");
        }
        GradientRefinement problem = new GradientRefinement(x, NeighborSets.fromRows(x, y, numClasses, neighbors));
        double[][] bt = new double[dims][d];
        for (int c = 0; c < dims; c++) {
            for (int t = 0; t < d; t++) {
                bt[c][t] = start.component(t, c);
            }
        }
        LdgRefinement record = problem.descend(bt, params);
        Ldg.fixSigns(bt);
        return new LdgBasis(bt, Arrays.copyOf(start.eigenvalues(), dims), record);
    }

    /** Algorithm 1 on {@code bt} (rows of Bᵀ, orthonormal), in place. */
    private LdgRefinement descend(double[][] bt, Params params) {
        int l = bt.length;
        double[][] grad = new double[l][d];
        double f = objectiveAndGradient(bt, grad);
        double start = f;
        double gradNorm = frobenius(grad);
        if (gradNorm == 0.0) {
            return new LdgRefinement(0, 0, start, f);
        }
        // First step moves B by a tenth of its Frobenius norm √ℓ; Algorithm 1 leaves η to the user.
        double eta = 0.1 * Math.sqrt(l) / gradNorm;
        double[][] trial = new double[l][d];
        double[][] trialGrad = new double[l][d];
        int tried = 0;
        int accepted = 0;
        while (tried < params.maxIterations()) {
            tried++;
            for (int c = 0; c < l; c++) {
                for (int t = 0; t < d; t++) {
                    trial[c][t] = bt[c][t] - eta * grad[c][t];
                }
            }
            double ft = orthonormalize(trial) ? objectiveAndGradient(trial, trialGrad) : Double.POSITIVE_INFINITY;
            if (ft <= f) {
                double improvement = f - ft;
                for (int c = 0; c < l; c++) {
                    System.arraycopy(trial[c], 0, bt[c], 0, d);
                    System.arraycopy(trialGrad[c], 0, grad[c], 0, d);
                }
                f = ft;
                accepted++;
                if (improvement < params.tolerance() * Math.abs(f)) {
                    break;
                }
            } else {
                eta /= 2;
                // A step below rounding of B cannot change f any more.
                if (eta * frobenius(grad) < 1e-14 * Math.sqrt(l)) {
                    break;
                }
            }
        }
        return new LdgRefinement(tried, accepted, start, f);
    }

    /** Two Cholesky QR passes (CholeskyQR2): exact orthonormality to rounding; false when B̂ lost rank. */
    private static boolean orthonormalize(double[][] bt) {
        try {
            Ldg.reorthonormalize(bt);
            Ldg.reorthonormalize(bt);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** f(B) of (3.4) for any B (rows of Bᵀ); for tests. */
    double objective(double[][] bt) {
        return objectiveAndGradient(bt, null);
    }

    /**
     * f(B) of (3.4), and ∇f of (3.5) into {@code gradOut} (rows of ∇fᵀ) unless it is null. The log-sum-exp is shifted
     * by its largest term, so no exponential overflows or underflows to a zero sum.
     */
    double objectiveAndGradient(double[][] bt, double[][] gradOut) {
        int l = bt.length;
        double[][] p = new double[n][l]; // Bᵀx_i
        Kernels.forEach(n, (long) n * d * l, i -> {
            for (int c = 0; c < l; c++) {
                p[i][c] = Kernels.dot(bt[c], x[i], 0, d);
            }
        });
        double[][] q = gradOut == null ? null : new double[n][l];
        double[][] delta = new double[g][l]; // BᵀΔ_ij for the current i
        double[] logC = new double[g];
        double f = 0;
        for (int i = 0; i < n; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < g; j++) {
                int[] nb = sets.neighbours(i, j);
                double sq = 0;
                for (int c = 0; c < l; c++) {
                    double v = 0;
                    if (nb.length > 0) {
                        double m = 0;
                        for (int a : nb) {
                            m += p[a][c];
                        }
                        v = p[i][c] - m / nb.length;
                    }
                    delta[j][c] = v;
                    sq += v * v;
                }
                logC[j] = logPriors[j] - 0.5 * sq;
                max = Math.max(max, logC[j]);
            }
            double sum = 0;
            for (int j = 0; j < g; j++) {
                sum += Math.exp(logC[j] - max);
            }
            int own = sets.classOf(i);
            double ownSq = 0;
            for (int c = 0; c < l; c++) {
                ownSq += delta[own][c] * delta[own][c];
            }
            f += max + Math.log(sum) + 0.5 * ownSq;
            if (q == null) {
                continue;
            }
            for (int j = 0; j < g; j++) {
                double w = (j == own ? 1.0 : 0.0) - Math.exp(logC[j] - max) / sum;
                int[] nb = sets.neighbours(i, j);
                if (w == 0.0 || nb.length == 0) {
                    continue;
                }
                // w·Δ_ij (BᵀΔ_ij)ᵀ with Δ_ij = x_i − (1/|N|) Σ_m x_m: +w·BᵀΔ_ij on row i, −w·BᵀΔ_ij/|N| on each m.
                double share = w / nb.length;
                for (int c = 0; c < l; c++) {
                    q[i][c] += w * delta[j][c];
                }
                for (int a : nb) {
                    for (int c = 0; c < l; c++) {
                        q[a][c] -= share * delta[j][c];
                    }
                }
            }
        }
        if (gradOut != null) {
            int blocks = (d + 511) / 512;
            Kernels.forEach(blocks, (long) n * d * l, blk -> {
                int from = blk * 512;
                int to = Math.min(d, from + 512);
                for (int c = 0; c < l; c++) {
                    Arrays.fill(gradOut[c], from, to, 0.0);
                }
                for (int m = 0; m < n; m++) {
                    double[] xm = x[m];
                    for (int c = 0; c < l; c++) {
                        double coef = q[m][c];
                        if (coef != 0.0) {
                            double[] row = gradOut[c];
                            for (int t = from; t < to; t++) {
                                row[t] += coef * xm[t];
                            }
                        }
                    }
                }
            });
        }
        return f;
    }

    /** For tests: the problem LDG's neighbour sets define on these rows. */
    static GradientRefinement of(double[][] x, int[] y, int numClasses, int neighbors) {
        Ldg.checkTrainingSet(x, y, numClasses);
        return new GradientRefinement(x, NeighborSets.fromRows(x, y, numClasses, neighbors));
    }

    private static double frobenius(double[][] a) {
        double s = 0;
        for (double[] row : a) {
            for (double v : row) {
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }
}
