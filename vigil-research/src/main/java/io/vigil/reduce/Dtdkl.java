package io.vigil.reduce;

import java.util.Arrays;
import java.util.Objects;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.SimpleValueChecker;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunctionGradient;
import org.hipparchus.optim.nonlinear.scalar.gradient.NonLinearConjugateGradientOptimizer;

/**
 * Domain transfer discriminant kernel learning, DTDKL (Zeng and Ren, "Domain Transfer Dimensionality Reduction via
 * Discriminant Kernel Learning"), a transfer baseline beside transfer LDG: a kernel K = Σθ<sub>i</sub>K<sub>i</sub>
 * (θ on the simplex, K<sub>i</sub> Gaussian base kernels) and a kernel Fisher direction w are chosen together to
 * maximise the regularised Fisher ratio of the labelled series of both domains while keeping the maximum mean
 * discrepancy between the domains small, eq. 5: F(w, K) = (wᵀ(μ<sup>+</sup> − μ<sup>−</sup>))² / wᵀ(Σ<sup>+</sup> +
 * Σ<sup>−</sup> + λI)w − β‖μ<sup>in</sup> − μ<sup>out</sup>‖². The inner maximum over w is eq. 7, leaving eq. 9,
 * F*(K) = (1/λ)aᵀK(I − G(λI + GKG)⁻¹GK)a − βbᵀKb, a concave function of θ (the paper's eqs. 13–14 state it as an
 * SDP via a Schur complement); the direction is w = Σα<sub>i</sub>φ(x<sub>i</sub>) with α of eq. 11, and a series maps
 * to Σα<sub>i</sub>K(x<sub>i</sub>, x).
 *
 * <p>Solver: the paper solves its SDP (14) with an interior-point package (SeDuMi, SDPT3), which no maintained Java
 * library offers. Eq. 8 itself, the maximum over the simplex of the smooth concave F*(θ), is solved instead, through
 * θ = softmax(η) by Hipparchus's nonlinear conjugate gradient (as {@link Nca}) with the exact gradient: with u = a −
 * G(λI + GKG)⁻¹GKa (so that α = u/λ), ∂(λF*)/∂θ<sub>i</sub> = uᵀK<sub>i</sub>u − λβbᵀK<sub>i</sub>b. (Hipparchus's
 * SQP optimiser, which takes the simplex constraints directly, was tried first: its quasi-Newton update rounds to a
 * non-symmetric matrix and aborts on this problem for large β.) λF* is optimised, the paper's own scaling in eq. 13,
 * so that the objective is of order one for λ = 10⁻⁶. A weight at the simplex's boundary is approached, not reached
 * (η → −∞), which changes K by less than the stopping tolerance.
 *
 * <p>Choices: the paper's experiments fix λ = 10⁻⁶, β = 1 and ten Gaussian kernels exp(−‖x − z‖²/σ<sub>i</sub>²) with
 * σ<sub>i</sub> log-uniform over [10⁻¹, 10²] for text features; here that range is multiplied by the median distance
 * between the training series, so that it fits series of any scale. The paper's "training set" for the Fisher term is
 * the labelled series of both domains (its μ<sup>±</sup>, Σ<sup>±</sup>), and its in-domain mean for the MMD includes
 * unlabelled in-domain series; here the in-domain series are the labelled target series only (no test series are
 * looked at). The paper is binary (a ∈ ℝⁿ, one direction); with G &gt; 2 classes each class against the rest gives one
 * F*<sub>c</sub> of the same form, their sum (still concave) is maximised over one shared θ, and the G directions
 * α<sub>c</sub> are kept (after Ye, Ji and Chen's multi-class discriminant kernel learning, the paper's [10]). Each
 * direction is scaled to unit norm in the feature space, so that 3-NN weighs them equally. The paper samples half of
 * the out-of-domain data; here the source is subsampled (seeded) to at most {@value #MAX_SOURCE} series when larger.
 */
public final class Dtdkl {
    /** Larger source domains are subsampled to this many series for learning K and w. */
    static final int MAX_SOURCE = 400;

    /** Conjugate-gradient iterations at most for θ. */
    static final int MAX_ITERATIONS = 100;

    /** Objective (and gradient) evaluations at most for θ, line searches included. */
    static final int MAX_EVALUATIONS = 400;

    /**
     * DTDKL's parameters.
     *
     * @param lambda λ of eq. 5, the ridge on the within-class covariance, positive
     * @param beta β of eq. 5, the weight of the squared MMD, non-negative
     * @param kernels p, the number of Gaussian base kernels, ≥ 1
     */
    public record Params(double lambda, double beta, int kernels) {
        /** The paper's experiments (§4.1): λ = 10⁻⁶, β = 1, p = 10. */
        public static final Params DEFAULT = new Params(1e-6, 1, 10);

        /** Validates. */
        public Params {
            if (!(lambda > 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("DTDKL λ must be positive and finite, got " + lambda);
            }
            if (!(beta >= 0) || Double.isInfinite(beta)) {
                throw new IllegalArgumentException("DTDKL β must be non-negative and finite, got " + beta);
            }
            if (kernels < 1) {
                throw new IllegalArgumentException("DTDKL needs at least one base kernel, got " + kernels);
            }
        }
    }

    /**
     * A fitted DTDKL map: the series it was learnt on, the base kernel widths, θ and the directions α.
     *
     * <p>Not a record: it holds arrays that are copied in and never handed out.
     */
    public static final class Model {
        private final double[][] train;
        private final double[] sigmas;
        private final double[] theta;
        private final double[][] alpha;

        Model(double[][] train, double[] sigmas, double[] theta, double[][] alpha) {
            this.train = train;
            this.sigmas = sigmas;
            this.theta = theta;
            this.alpha = alpha;
        }

        /** The number of directions: 1 for two classes, G otherwise. */
        public int rank() {
            return alpha.length;
        }

        /** θ, the weights of the base kernels (a copy). */
        public double[] theta() {
            return theta.clone();
        }

        /**
         * Each row mapped to its first {@code dims} coordinates Σ<sub>i</sub>α<sub>ci</sub>K(x<sub>i</sub>, x).
         *
         * @throws IllegalArgumentException when a row's length is not the training series' or dims is outside 1..rank
         */
        public double[][] project(double[][] rows, int dims) {
            if (dims < 1 || dims > alpha.length) {
                throw new IllegalArgumentException("dims = " + dims + " but DTDKL has " + alpha.length + " directions");
            }
            return Reductions.projectByKernel(rows, train, alpha, dims, (u, v) -> combined(sigmas, theta, u, v));
        }
    }

    private Dtdkl() {}

    /**
     * Learns θ and the directions from labelled target (in-domain) and source (out-of-domain) series.
     *
     * @param target labelled target series, finite, all of length d
     * @param targetY their classes in 0..numClasses−1
     * @param source labelled source series of the same length d
     * @param sourceY their classes
     * @param seed for the subsample of a source larger than {@value #MAX_SOURCE}
     * @throws IllegalArgumentException on empty, ragged, non-finite or mismatched inputs, fewer than two classes among
     *     the labelled series, or identical series throughout (no kernel width)
     * @throws IllPosedReductionException when the kernel Fisher objective is not finite
     */
    public static Model fit(
            double[][] target,
            int[] targetY,
            double[][] source,
            int[] sourceY,
            int numClasses,
            Params params,
            long seed) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(sourceY, "sourceY");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(targetY, "targetY");
        int d = Reductions.checkRows(target, "DTDKL: target");
        if (targetY.length != target.length) {
            throw new IllegalArgumentException(
                    "DTDKL: target has " + target.length + " rows but " + targetY.length + " labels");
        }
        if (source.length == 0) {
            throw new IllegalArgumentException("DTDKL needs at least one source series");
        }
        if (Reductions.checkRows(source, "DTDKL: source") != d) {
            throw new IllegalArgumentException(
                    "DTDKL: source series have " + source[0].length + " values but target series have " + d);
        }
        if (sourceY.length != source.length) {
            throw new IllegalArgumentException(
                    "DTDKL: source has " + source.length + " rows but " + sourceY.length + " labels");
        }
        int[] keep = sourceSubsample(source.length, seed);
        int nt = target.length;
        int n = nt + keep.length;
        double[][] x = new double[n][];
        int[] y = new int[n];
        boolean[] isSource = new boolean[n];
        for (int i = 0; i < nt; i++) {
            x[i] = target[i].clone();
            y[i] = targetY[i];
        }
        for (int r = 0; r < keep.length; r++) {
            x[nt + r] = source[keep[r]].clone();
            y[nt + r] = sourceY[keep[r]];
            isSource[nt + r] = true;
        }
        Labelled all = Labelled.of(x, y, numClasses, 1, "DTDKL");
        double[] sigmas = sigmas(x, params.kernels());
        int p = sigmas.length;
        double[][][] base = new double[p][n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                double d2 = LargeMargin.squared(x[i], x[j]);
                for (int k = 0; k < p; k++) {
                    double v = Math.exp(-d2 / (sigmas[k] * sigmas[k]));
                    base[k][i][j] = v;
                    base[k][j][i] = v;
                }
            }
        }
        double[] b = new double[n];
        int ns = keep.length;
        for (int i = 0; i < n; i++) {
            b[i] = isSource[i] ? 1.0 / ns : -1.0 / nt;
        }
        double[] mmd = new double[p];
        for (int k = 0; k < p; k++) {
            mmd[k] = quad(base[k], b, b);
        }
        int[] positives = all.present == 2 ? new int[] {firstPresent(all)} : presentClasses(all);
        Problem[] problems = new Problem[positives.length];
        for (int c = 0; c < positives.length; c++) {
            problems[c] = new Problem(base, y, positives[c], params.lambda());
        }
        double lb = params.lambda() * params.beta();
        double[] theta = solve(problems, mmd, lb, p, n, d);
        double[][] combinedK = combine(base, theta);
        double[][] alpha = new double[problems.length][];
        for (int c = 0; c < problems.length; c++) {
            double[] u = problems[c].evaluate(theta).u;
            double norm = Math.sqrt(quad(combinedK, u, u));
            alpha[c] = new double[n];
            for (int i = 0; i < n; i++) {
                // α = u/λ (eq. 11), then scaled to ‖w‖ = 1 in the feature space.
                alpha[c][i] = norm > 0 ? u[i] / norm : 0;
            }
        }
        return new Model(x, sigmas, theta, alpha);
    }

    /** As {@link #fit} with the paper's parameters and seed 0. */
    public static Model fit(double[][] target, int[] targetY, double[][] source, int[] sourceY, int numClasses) {
        return fit(target, targetY, source, sourceY, numClasses, Params.DEFAULT, 0);
    }

    /**
     * Maximises Σ<sub>c</sub>λF*<sub>c</sub>(θ) − λβΣθ<sub>i</sub>bᵀK<sub>i</sub>b over the simplex, θ = softmax(η),
     * by Hipparchus's nonlinear conjugate gradient in η from the uniform θ; the best point evaluated is kept.
     */
    private static double[] solve(Problem[] problems, double[] mmd, double lb, int p, int n, int d) {
        double[] start = new double[p];
        if (p == 1) {
            return new double[] {1};
        }
        double[] bestValue = {Double.NEGATIVE_INFINITY};
        double[][] bestTheta = {softmax(start)};
        ObjectiveFunction f = new ObjectiveFunction(eta -> {
            double[] theta = softmax(eta);
            double v = value(problems, mmd, lb, theta);
            if (v > bestValue[0]) {
                bestValue[0] = v;
                bestTheta[0] = theta;
            }
            return v;
        });
        ObjectiveFunctionGradient g = new ObjectiveFunctionGradient(eta -> {
            double[] theta = softmax(eta);
            double[] gt = new double[p];
            for (Problem pr : problems) {
                double[] gc = pr.evaluate(theta).gradient();
                for (int k = 0; k < p; k++) {
                    gt[k] += gc[k];
                }
            }
            double mean = 0;
            for (int k = 0; k < p; k++) {
                gt[k] -= lb * mmd[k];
                mean += theta[k] * gt[k];
            }
            double[] ge = new double[p];
            for (int k = 0; k < p; k++) {
                // ∂θ_k/∂η_j = θ_k(δ_kj − θ_j).
                ge[k] = theta[k] * (gt[k] - mean);
            }
            return ge;
        });
        NonLinearConjugateGradientOptimizer opt = new NonLinearConjugateGradientOptimizer(
                NonLinearConjugateGradientOptimizer.Formula.POLAK_RIBIERE,
                new SimpleValueChecker(1e-9, 1e-12, MAX_ITERATIONS));
        try {
            opt.optimize(
                    new MaxEval(MAX_EVALUATIONS),
                    new MaxIter(MAX_ITERATIONS + 1),
                    f,
                    g,
                    GoalType.MAXIMIZE,
                    new InitialGuess(start));
        } catch (MathIllegalStateException e) {
            // The evaluation budget ran out inside a line search: the best θ seen so far is the result.
        }
        if (!Double.isFinite(bestValue[0])) {
            throw new IllPosedReductionException("DTDKL: the kernel Fisher objective is not finite", n, d);
        }
        return bestTheta[0];
    }

    private static double value(Problem[] problems, double[] mmd, double lb, double[] theta) {
        double v = 0;
        for (Problem pr : problems) {
            v += pr.evaluate(theta).value();
        }
        for (int k = 0; k < theta.length; k++) {
            v -= lb * theta[k] * mmd[k];
        }
        return v;
    }

    private static double[] softmax(double[] eta) {
        double max = Double.NEGATIVE_INFINITY;
        for (double e : eta) {
            max = Math.max(max, e);
        }
        double[] t = new double[eta.length];
        double sum = 0;
        for (int k = 0; k < eta.length; k++) {
            t[k] = Math.exp(eta[k] - max);
            sum += t[k];
        }
        for (int k = 0; k < eta.length; k++) {
            t[k] /= sum;
        }
        return t;
    }

    /** σ<sub>i</sub> = median distance × 10^(−1 + 3i/(p − 1)), i = 0..p−1 (one kernel: the median distance). */
    static double[] sigmas(double[][] x, int p) {
        double median = LargeMargin.medianDistance(x);
        if (!(median > 0)) {
            throw new IllegalArgumentException("DTDKL: the median distance between the training series is 0 (n = "
                    + x.length + "), no kernel width");
        }
        double[] s = new double[p];
        for (int k = 0; k < p; k++) {
            s[k] = p == 1 ? median : median * Math.pow(10, -1 + 3.0 * k / (p - 1));
        }
        return s;
    }

    private static double combined(double[] sigmas, double[] theta, double[] u, double[] v) {
        double d2 = LargeMargin.squared(u, v);
        double s = 0;
        for (int k = 0; k < sigmas.length; k++) {
            if (theta[k] != 0) {
                s += theta[k] * Math.exp(-d2 / (sigmas[k] * sigmas[k]));
            }
        }
        return s;
    }

    private static double[][] combine(double[][][] base, double[] theta) {
        int n = base[0].length;
        double[][] k = new double[n][n];
        for (int t = 0; t < theta.length; t++) {
            if (theta[t] == 0) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    k[i][j] += theta[t] * base[t][i][j];
                }
            }
        }
        return k;
    }

    private static int[] sourceSubsample(int ns, long seed) {
        if (ns <= MAX_SOURCE) {
            return java.util.stream.IntStream.range(0, ns).toArray();
        }
        return new SplittableRandom(seed * 31L + ns)
                .ints(0, ns)
                .distinct()
                .limit(MAX_SOURCE)
                .sorted()
                .toArray();
    }

    private static int firstPresent(Labelled l) {
        for (int c = 0; c < l.numClasses; c++) {
            if (l.counts[c] > 0) {
                return c;
            }
        }
        throw new IllegalStateException("no class present");
    }

    private static int[] presentClasses(Labelled l) {
        return java.util.stream.IntStream.range(0, l.numClasses)
                .filter(c -> l.counts[c] > 0)
                .toArray();
    }

    static double quad(double[][] k, double[] u, double[] v) {
        double s = 0;
        for (int i = 0; i < u.length; i++) {
            double r = 0;
            for (int j = 0; j < v.length; j++) {
                r += k[i][j] * v[j];
            }
            s += u[i] * r;
        }
        return s;
    }

    /**
     * One Fisher term λF*<sub>c</sub>(θ) = aᵀK(θ)u: class c (the paper's "+") against the rest ("−"), with the
     * paper's a (1/n<sub>+</sub> on c, −1/n<sub>−</sub> elsewhere) and G (each group's centring scaled by 1/√size),
     * and the products GK<sub>i</sub>G, K<sub>i</sub>a and GK<sub>i</sub>a precomputed per base kernel.
     */
    static final class Problem {
        private final double[][][] base;
        private final double lambda;
        private final double[] a;
        private final DMatrixRMaj[] gkg;
        private final DMatrixRMaj g;
        private double[] lastTheta;
        private Evaluation last;

        Problem(double[][][] base, int[] y, int positive, double lambda) {
            this.base = base;
            this.lambda = lambda;
            int n = y.length;
            int nPos = 0;
            for (int v : y) {
                nPos += v == positive ? 1 : 0;
            }
            int nNeg = n - nPos;
            a = new double[n];
            g = new DMatrixRMaj(n, n);
            for (int i = 0; i < n; i++) {
                boolean pi = y[i] == positive;
                a[i] = pi ? 1.0 / nPos : -1.0 / nNeg;
                int size = pi ? nPos : nNeg;
                for (int j = 0; j < n; j++) {
                    if ((y[j] == positive) == pi) {
                        g.set(i, j, ((i == j ? 1 : 0) - 1.0 / size) / Math.sqrt(size));
                    }
                }
            }
            gkg = new DMatrixRMaj[base.length];
            DMatrixRMaj tmp = new DMatrixRMaj(n, n);
            for (int k = 0; k < base.length; k++) {
                DMatrixRMaj kk = new DMatrixRMaj(base[k]);
                CommonOps_DDRM.mult(g, kk, tmp);
                gkg[k] = new DMatrixRMaj(n, n);
                CommonOps_DDRM.mult(tmp, g, gkg[k]);
            }
        }

        /** Value, u and gradient at θ; the last evaluation is cached (value and gradient come at the same θ). */
        Evaluation evaluate(double[] theta) {
            if (last != null && Arrays.equals(theta, lastTheta)) {
                return last;
            }
            int n = a.length;
            int p = base.length;
            DMatrixRMaj m = new DMatrixRMaj(n, n);
            double[] ka = new double[n];
            for (int k = 0; k < p; k++) {
                double t = theta[k];
                if (t == 0) {
                    continue;
                }
                CommonOps_DDRM.addEquals(m, t, gkg[k]);
                for (int i = 0; i < n; i++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) {
                        s += base[k][i][j] * a[j];
                    }
                    ka[i] += t * s;
                }
            }
            for (int i = 0; i < n; i++) {
                m.add(i, i, lambda);
            }
            LinearSolverDense<DMatrixRMaj> chol = LinearSolverFactory_DDRM.symmPosDef(n);
            if (!chol.setA(m)) {
                throw new IllegalStateException("DTDKL: λI + GKG (n = " + n + ") failed its Cholesky factorisation");
            }
            DMatrixRMaj gka = new DMatrixRMaj(n, 1);
            CommonOps_DDRM.mult(g, new DMatrixRMaj(n, 1, true, ka), gka);
            DMatrixRMaj h = new DMatrixRMaj(n, 1);
            chol.solve(gka, h);
            DMatrixRMaj gh = new DMatrixRMaj(n, 1);
            CommonOps_DDRM.mult(g, h, gh);
            double[] u = new double[n];
            double value = 0;
            for (int i = 0; i < n; i++) {
                u[i] = a[i] - gh.data[i];
                value += ka[i] * u[i];
            }
            double[] grad = new double[p];
            for (int k = 0; k < p; k++) {
                for (int i = 0; i < n; i++) {
                    double s = 0;
                    for (int j = 0; j < n; j++) {
                        s += base[k][i][j] * u[j];
                    }
                    grad[k] += u[i] * s;
                }
            }
            // λF* = aᵀKu; its gradient as in the class comment (the λ of eq. 11 cancels in λF*).
            lastTheta = theta.clone();
            last = new Evaluation(value, u, grad);
            return last;
        }
    }

    /** λF*<sub>c</sub>, u and the gradient in θ. */
    record Evaluation(double value, double[] u, double[] gradient) {}
}
