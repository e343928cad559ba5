package io.vigil.classify;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import io.vigil.reliability.LinearDiscriminants;
import java.util.Random;

/**
 * One-vs-all linear SVM, f_g(y) = w_gᵀy + b_g, predict argmax_g f_g (thesis §5.3.2: the linear-discriminant
 * classifier of the reliable rule, used in the ch. 5 experiments). Trained with LIBLINEAR (Fan et al. 2008, Java port
 * {@code de.bwaldvogel:liblinear}): G binary problems "class g (+1) vs the rest (−1)" with the L2-regularised dual
 * coordinate-descent solver, L2 loss (squared hinge, default) or L1 loss (hinge). The bias is learnt as an extra
 * constant feature 1 (LIBLINEAR's {@code -B 1}), so it is regularised like the weights, as in LIBLINEAR.
 *
 * <p>The same G sub-problems LIBLINEAR builds for multi-class one-vs-rest are trained one at a time here so that
 * G = 2 also yields two discriminants (LIBLINEAR returns a single w for two classes).
 *
 * <p><b>Determinism.</b> The dual solver visits the examples in a random order. LIBLINEAR 2.44 keeps the generator in
 * {@link Parameter} ({@code Linear.resetRandom()} is a deprecated no-op there); each binary problem g gets its own
 * {@code new Random(seed + g)}, so a fit is a pure function of (data, labels, parameters, seed). LIBLINEAR's training
 * log is switched off process-wide ({@link Linear#disableDebugOutput()}): it would otherwise go to stdout.
 *
 * <p>Immutable. Features are used as given: standardise them beforehand if their scales differ.
 */
public final class LinearSvm {
    /** Loss of the binary SVMs. */
    public enum Loss {
        /** Squared hinge loss, LIBLINEAR {@code -s 1} (L2R_L2LOSS_SVC_DUAL). */
        L2_LOSS(SolverType.L2R_L2LOSS_SVC_DUAL),
        /** Hinge loss, LIBLINEAR {@code -s 3} (L2R_L1LOSS_SVC_DUAL). */
        L1_LOSS(SolverType.L2R_L1LOSS_SVC_DUAL);

        private final SolverType solver;

        Loss(SolverType solver) {
            this.solver = solver;
        }
    }

    /**
     * Training parameters.
     *
     * @param c misclassification cost C &gt; 0 (LIBLINEAR {@code -c}; default 1)
     * @param loss loss (default {@link Loss#L2_LOSS})
     * @param epsilon stopping tolerance of the dual solver &gt; 0 (LIBLINEAR {@code -e}; default 0.1, LIBLINEAR's
     *     default for the dual solvers)
     * @param maxIterations iteration cap of the dual solver ≥ 1 (default 1000, LIBLINEAR's)
     * @param seed seed of the example-order shuffling
     */
    public record Params(double c, Loss loss, double epsilon, int maxIterations, long seed) {
        /** LIBLINEAR's default tolerance for the dual coordinate-descent solvers. */
        public static final double DEFAULT_EPSILON = 0.1;
        /** LIBLINEAR's default iteration cap. */
        public static final int DEFAULT_MAX_ITERATIONS = 1000;

        /** Validates. */
        public Params {
            if (!(c > 0.0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("C must be positive and finite, got " + c);
            }
            if (loss == null) {
                throw new IllegalArgumentException("loss must not be null");
            }
            if (!(epsilon > 0.0) || Double.isInfinite(epsilon)) {
                throw new IllegalArgumentException("epsilon must be positive and finite, got " + epsilon);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("maxIterations must be at least 1, got " + maxIterations);
            }
        }

        /** C, L2 loss, LIBLINEAR's default tolerance and iteration cap, the given seed. */
        public static Params of(double c, long seed) {
            return new Params(c, Loss.L2_LOSS, DEFAULT_EPSILON, DEFAULT_MAX_ITERATIONS, seed);
        }
    }

    private final double[][] weights;
    private final double[] biases;
    private final Params params;

    private LinearSvm(double[][] weights, double[] biases, Params params) {
        this.weights = weights;
        this.biases = biases;
        this.params = params;
    }

    /**
     * Trains with L2 loss and LIBLINEAR's default tolerance.
     *
     * @see #fit(double[][], int[], int, Params)
     */
    public static LinearSvm fit(double[][] y, int[] labels, int numClasses, double c, long seed) {
        return fit(y, labels, numClasses, Params.of(c, seed));
    }

    /**
     * Trains G one-vs-rest binary SVMs.
     *
     * @param y n×ℓ feature rows (not modified)
     * @param labels n class indices in 0..G−1
     * @param numClasses G ≥ 2; every class needs at least one example
     * @throws IllegalArgumentException on empty, ragged or non-finite data, mismatched lengths, labels out of range,
     *     or a class without examples
     */
    public static LinearSvm fit(double[][] y, int[] labels, int numClasses, Params params) {
        int n = y.length;
        if (n == 0) {
            throw new IllegalArgumentException("no training examples");
        }
        if (labels.length != n) {
            throw new IllegalArgumentException("there are " + n + " feature rows and " + labels.length + " labels");
        }
        if (numClasses < 2) {
            throw new IllegalArgumentException("need at least 2 classes, got " + numClasses);
        }
        int ell = y[0].length;
        if (ell == 0) {
            throw new IllegalArgumentException("the feature rows are empty");
        }
        int[] counts = new int[numClasses];
        Feature[][] x = new Feature[n][ell + 1];
        for (int i = 0; i < n; i++) {
            if (y[i].length != ell) {
                throw new IllegalArgumentException(
                        "feature row " + i + " has length " + y[i].length + ", row 0 has length " + ell);
            }
            if (labels[i] < 0 || labels[i] >= numClasses) {
                throw new IllegalArgumentException(
                        "label " + labels[i] + " of example " + i + " is outside 0.." + (numClasses - 1));
            }
            counts[labels[i]]++;
            for (int j = 0; j < ell; j++) {
                if (!Double.isFinite(y[i][j])) {
                    throw new IllegalArgumentException("feature (" + i + "," + j + ") is " + y[i][j]);
                }
                x[i][j] = new FeatureNode(j + 1, y[i][j]);
            }
            // LIBLINEAR's bias term: an extra feature of constant value 1 at index ℓ+1.
            x[i][ell] = new FeatureNode(ell + 1, 1.0);
        }
        for (int g = 0; g < numClasses; g++) {
            if (counts[g] == 0) {
                throw new IllegalArgumentException("class " + g + " has no training examples");
            }
            if (counts[g] == n) {
                throw new IllegalArgumentException(
                        "all examples belong to class " + g + "; one-vs-rest needs two sides");
            }
        }
        Linear.disableDebugOutput();
        double[][] w = new double[numClasses][ell];
        double[] b = new double[numClasses];
        for (int g = 0; g < numClasses; g++) {
            Problem prob = new Problem();
            prob.l = n;
            prob.n = ell + 1;
            prob.x = x;
            prob.bias = 1.0;
            prob.y = new double[n];
            for (int i = 0; i < n; i++) {
                prob.y[i] = labels[i] == g ? +1.0 : -1.0;
            }
            Parameter p = new Parameter(params.loss().solver, params.c(), params.maxIterations(), params.epsilon());
            p.setRandom(new Random(params.seed() + g));
            Model model = Linear.train(prob, p);
            int positive = indexOfLabel(model.getLabels(), 1);
            for (int j = 0; j < ell; j++) {
                w[g][j] = model.getDecfunCoef(j + 1, positive);
            }
            b[g] = model.getDecfunBias(positive);
        }
        return new LinearSvm(w, b, params);
    }

    private static int indexOfLabel(int[] modelLabels, int label) {
        for (int k = 0; k < modelLabels.length; k++) {
            if (modelLabels[k] == label) {
                return k;
            }
        }
        throw new IllegalStateException("LIBLINEAR model lacks label " + label);
    }

    /** The number of classes G. */
    public int numClasses() {
        return weights.length;
    }

    /** The feature dimension ℓ. */
    public int dimension() {
        return weights[0].length;
    }

    /** The training parameters. */
    public Params params() {
        return params;
    }

    /** A copy of w_g. */
    public double[] weights(int g) {
        return weights[g].clone();
    }

    /** b_g. */
    public double bias(int g) {
        return biases[g];
    }

    /** f_g(y) = w_gᵀy + b_g. */
    double decisionValue(int g, double[] y) {
        if (y.length != weights[g].length) {
            throw new IllegalArgumentException(
                    "the point has " + y.length + " entries, the SVM has dimension " + weights[g].length);
        }
        double s = biases[g];
        for (int i = 0; i < y.length; i++) {
            s += weights[g][i] * y[i];
        }
        return s;
    }

    /** argmax_g f_g(y) (lowest index on ties). */
    public int predict(double[] y) {
        int best = 0;
        double bestValue = decisionValue(0, y);
        for (int g = 1; g < weights.length; g++) {
            double v = decisionValue(g, y);
            if (v > bestValue) {
                best = g;
                bestValue = v;
            }
        }
        return best;
    }

    /** The discriminants for the reliable decision rule. */
    public LinearDiscriminants discriminants() {
        return new LinearDiscriminants(weights, biases);
    }
}
