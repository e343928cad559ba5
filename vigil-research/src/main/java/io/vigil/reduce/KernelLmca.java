package io.vigil.reduce;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.hipparchus.optim.nonlinear.scalar.GoalType;

/**
 * Kernel large margin component analysis, KLMCA (Torresani and Lee, NIPS 19, 2006, §3): the objective of their eq. 1
 * with the series replaced by features φ(x) of a kernel k, and the map parameterised through the training series, L =
 * ΩΦ (Ω ℓ×n), so that a series maps to Lφ(x) = Ωk(x), k(x) = [k(x<sub>1</sub>, x), …, k(x<sub>n</sub>, x)]ᵀ, and the
 * features are never formed. Lemma 3.1 (eq. 4) gives the feature-space gradient as ∂ε/∂L = ΓΦ with Γ = 2ZᵀΛ (Z = KΩᵀ,
 * Λ the Laplacian of the pair weights, see {@link LargeMargin}), and eq. 5 updates Ω ← Ω − λΓ.
 *
 * <p>Optimisation: ε as a function of Ω has the gradient ΓK, and the paper's eq. 5 direction Γ is that gradient
 * preconditioned by K⁻¹ (steepest descent in the feature space rather than in Ω). Here Hipparchus's nonlinear conjugate
 * gradient minimises ε(Ω) with the gradient ΓK and a preconditioner that returns Γ itself (computed directly, so the
 * possibly singular K is never inverted): its steps are the paper's eq. 5 steps with a line search in place of a fixed
 * rate λ, combined by Polak–Ribière (the paper found conjugate gradient no better nor worse than steepest descent).
 * With the linear kernel k(u, v) = uᵀv every iterate equals linear {@link Lmca}'s, L = ΩX. Budget and stopping are
 * those of {@link Lmca}.
 *
 * <p>Start: kernel PCA (§4: "KLMCA used the transformation computed by kernel-PCA as initial guess"): with the centred
 * kernel HKH = VΛVᵀ (H = I − 11ᵀ/n), Ω<sub>0</sub> = Λ<sub>ℓ</sub><sup>−1/2</sup>V<sub>ℓ</sub>ᵀH, the unit-norm leading
 * feature-space principal directions, scaled as in {@link Lmca}. The paper uses a Gaussian RBF kernel with its width
 * tuned by cross-validation; {@link #rbf(double[][], double)} sets σ as a multiple of the median distance between
 * training series, the multiple chosen by the Table 3.3 harness from {@link #WIDTH_GRID}.
 */
public final class KernelLmca {
    /** Multiples of the median pairwise distance tried as the RBF width σ. */
    public static final double[] WIDTH_GRID = {0.5, 1, 2};

    /** A positive semi-definite kernel on series. */
    @FunctionalInterface
    public interface Kernel {
        /** k(u, v). */
        double of(double[] u, double[] v);
    }

    /**
     * A fitted KLMCA map: the training series, the kernel and Ω.
     *
     * <p>Not a record: it holds arrays that are copied in and never handed out.
     */
    public static final class Model {
        private final double[][] train;
        private final Kernel kernel;
        private final double[][] omega;

        Model(double[][] train, Kernel kernel, double[][] omega) {
            this.train = train;
            this.kernel = kernel;
            this.omega = omega;
        }

        /** ℓ, the number of features. */
        public int dims() {
            return omega.length;
        }

        /**
         * Each row mapped to Ωk(x) (§3: "Lφ<sub>q</sub> = Ωk<sub>q</sub>"), its first {@code dims} coordinates.
         *
         * @throws IllegalArgumentException when a row's length is not the training series' or dims is outside 1..ℓ
         */
        public double[][] project(double[][] rows, int dims) {
            if (dims < 1 || dims > omega.length) {
                throw new IllegalArgumentException("dims = " + dims + " but the map has " + omega.length + " features");
            }
            return Reductions.projectByKernel(rows, train, omega, dims, kernel::of);
        }

        /** Ω, ℓ×n (a copy). */
        double[][] omega() {
            double[][] out = new double[omega.length][];
            for (int k = 0; k < omega.length; k++) {
                out[k] = omega[k].clone();
            }
            return out;
        }
    }

    /**
     * A fit with its objective at the start and the end.
     *
     * @param initialObjective ε at the kernel-PCA start
     * @param finalObjective ε at the returned Ω
     */
    record Fit(Model model, double initialObjective, double finalObjective, boolean withinBudget) {}

    private KernelLmca() {}

    /** The linear kernel uᵀv (KLMCA then equals linear LMCA). */
    public static Kernel linear() {
        return (u, v) -> {
            double s = 0;
            for (int t = 0; t < u.length; t++) {
                s += u[t] * v[t];
            }
            return s;
        };
    }

    /**
     * The Gaussian RBF kernel exp(−‖u − v‖²/(2σ²)).
     *
     * @throws IllegalArgumentException when σ is not positive and finite
     */
    public static Kernel gaussian(double sigma) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("RBF kernel width must be positive and finite, got " + sigma);
        }
        double scale = 1 / (2 * sigma * sigma);
        return (u, v) -> Math.exp(-LargeMargin.squared(u, v) * scale);
    }

    /**
     * The Gaussian RBF kernel with σ = {@code multiple} × the median distance between distinct training series.
     *
     * @throws IllegalArgumentException when the rows are empty, ragged or not finite, the multiple is not positive and
     *     finite, or every series is the same (median distance 0)
     */
    public static Kernel rbf(double[][] x, double multiple) {
        Reductions.checkRows(x, "KLMCA: training");
        if (!(multiple > 0) || Double.isInfinite(multiple)) {
            throw new IllegalArgumentException("RBF width multiple must be positive and finite, got " + multiple);
        }
        double median = LargeMargin.medianDistance(x);
        if (!(median > 0)) {
            throw new IllegalArgumentException("KLMCA: the median distance between training series is 0 (n = "
                    + x.length + "), so no RBF width can be set from it");
        }
        return gaussian(multiple * median);
    }

    /**
     * The KLMCA map with the default k and c ({@link Lmca.Params#DEFAULT}).
     *
     * @param x n training rows of length d, finite
     * @param y class indices in 0..numClasses−1, at least two classes present, none with a single series
     * @param dims requested ℓ ≥ 1; ℓ = min(dims, rank of the centred kernel matrix)
     * @throws IllegalArgumentException on shapes, labels or values that do not fit
     * @throws IllPosedReductionException when the centred kernel matrix is zero (no feature-space variance)
     */
    public static Model fit(double[][] x, int[] y, int numClasses, int dims, Kernel kernel) {
        return fit(x, y, numClasses, dims, kernel, Lmca.Params.DEFAULT);
    }

    /** As {@link #fit(double[][], int[], int, int, Kernel)} with the given k and c. */
    public static Model fit(double[][] x, int[] y, int numClasses, int dims, Kernel kernel, Lmca.Params params) {
        return fitDetailed(x, y, numClasses, dims, kernel, params).model();
    }

    static Fit fitDetailed(double[][] x, int[] y, int numClasses, int dims, Kernel kernel, Lmca.Params params) {
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(params, "params");
        Labelled l = Labelled.of(x, y, numClasses, dims, "KLMCA");
        int[][] targets = LargeMargin.targets(x, y, numClasses, params.neighbors(), "KLMCA");
        int n = l.n;
        double[][] train = new double[n][];
        for (int i = 0; i < n; i++) {
            train[i] = x[i].clone();
        }
        double[][] k = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double v = kernel.of(train[i], train[j]);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("KLMCA: the kernel is " + v + " at (" + i + ", " + j + ")");
                }
                k[i][j] = v;
                k[j][i] = v;
            }
        }
        double[] omega0 = kernelPcaStart(k, dims, n, l.d);
        int ell = omega0.length / n;
        double[][] z0 = mapped(omega0, k, ell);
        double mean = LargeMargin.meanTargetDistance(z0, targets);
        double scale = GradientSearch.startScale(mean);
        for (int i = 0; i < omega0.length; i++) {
            omega0[i] *= scale;
        }
        double c = params.c();
        // Hipparchus hands the preconditioner r = −∇ε(Ω) = −ΓK when minimising; the paper's direction is −Γ (eq. 5).
        GradientSearch.Result r = GradientSearch.run(
                omega0,
                (o, grad) -> objective(o, k, y, targets, ell, c, grad, null),
                GoalType.MINIMIZE,
                Lmca.MAX_ITERATIONS,
                Lmca.MAX_EVALUATIONS,
                (o, residual) -> {
                    double[] gamma = new double[o.length];
                    objective(o, k, y, targets, ell, c, null, gamma);
                    for (int i = 0; i < gamma.length; i++) {
                        gamma[i] = -gamma[i];
                    }
                    return gamma;
                });
        double[][] omega = new double[ell][n];
        for (int row = 0; row < ell; row++) {
            System.arraycopy(r.point(), row * n, omega[row], 0, n);
        }
        return new Fit(new Model(train, kernel, omega), r.startValue(), r.bestValue(), r.withinBudget());
    }

    /** Ω<sub>0</sub> = Λ<sub>ℓ</sub><sup>−1/2</sup>V<sub>ℓ</sub>ᵀH row-major (ℓ×n), ℓ = min(dims, positive eigenvalues). */
    private static double[] kernelPcaStart(double[][] k, int dims, int n, int d) {
        double[] rowMean = new double[n];
        double all = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                rowMean[i] += k[i][j] / n;
            }
            all += rowMean[i] / n;
        }
        DMatrixRMaj kc = new DMatrixRMaj(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                kc.set(i, j, k[i][j] - rowMean[i] - rowMean[j] + all);
            }
        }
        Eigen.symmetrize(kc);
        Eigen.Pairs p = Eigen.symmetric(kc, true);
        double top = p.values()[0];
        int positive = 0;
        while (positive < n && !Eigen.singular(p.values()[positive], top, n)) {
            positive++;
        }
        if (positive == 0) {
            throw new IllPosedReductionException("KLMCA: the centred kernel matrix is zero", n, d);
        }
        int ell = Math.min(dims, positive);
        double[] omega = new double[ell * n];
        for (int r = 0; r < ell; r++) {
            double s = 1 / Math.sqrt(p.values()[r]);
            double vm = 0;
            for (int i = 0; i < n; i++) {
                vm += p.vectors().get(i, r) / n;
            }
            for (int i = 0; i < n; i++) {
                omega[r * n + i] = s * (p.vectors().get(i, r) - vm);
            }
        }
        return omega;
    }

    /** Z = KΩᵀ, n×ℓ: row i is Ωk<sub>i</sub>. */
    private static double[][] mapped(double[] omega, double[][] k, int ell) {
        int n = k.length;
        double[][] z = new double[n][ell];
        for (int i = 0; i < n; i++) {
            for (int r = 0; r < ell; r++) {
                double s = 0;
                int off = r * n;
                for (int j = 0; j < n; j++) {
                    s += omega[off + j] * k[i][j];
                }
                z[i][r] = s;
            }
        }
        return z;
    }

    /**
     * ε(Ω) of eq. 1 in feature space for Ω = ℓ×n row-major in {@code omega}; {@code grad} (if not null) receives the
     * Ω-gradient ΓK and {@code gamma} (if not null) the paper's Γ of eq. 4, both ℓ×n row-major.
     */
    static double objective(
            double[] omega, double[][] k, int[] y, int[][] targets, int ell, double c, double[] grad, double[] gamma) {
        int n = k.length;
        double[][] z = mapped(omega, k, ell);
        boolean wanted = grad != null || gamma != null;
        double[][] lap = wanted ? new double[n][n] : null;
        double eps = LargeMargin.objective(z, y, targets, c, lap);
        if (!wanted) {
            return eps;
        }
        double[][] gm = LargeMargin.twiceZtLambda(z, lap);
        if (gamma != null) {
            for (int r = 0; r < ell; r++) {
                System.arraycopy(gm[r], 0, gamma, r * n, n);
            }
        }
        if (grad != null) {
            Arrays.fill(grad, 0);
            for (int r = 0; r < ell; r++) {
                int off = r * n;
                for (int i = 0; i < n; i++) {
                    double s = gm[r][i];
                    if (s != 0) {
                        for (int j = 0; j < n; j++) {
                            grad[off + j] += s * k[i][j];
                        }
                    }
                }
            }
        }
        return eps;
    }
}
