package io.vigil.reduce;

import org.ejml.data.DMatrixRMaj;
import org.hipparchus.exception.MathIllegalStateException;
import org.hipparchus.optim.InitialGuess;
import org.hipparchus.optim.MaxEval;
import org.hipparchus.optim.MaxIter;
import org.hipparchus.optim.SimpleValueChecker;
import org.hipparchus.optim.nonlinear.scalar.GoalType;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunction;
import org.hipparchus.optim.nonlinear.scalar.ObjectiveFunctionGradient;
import org.hipparchus.optim.nonlinear.scalar.gradient.NonLinearConjugateGradientOptimizer;
import org.hipparchus.optim.nonlinear.scalar.gradient.Preconditioner;

/**
 * The gradient reducers' (NCA, LMCA, kernel LMCA) use of Hipparchus's Polak–Ribière nonlinear conjugate gradient: from
 * a start, at most {@code maxIterations} iterations and {@code maxEvaluations} evaluations, stopping when the objective
 * changes by less than 10⁻⁶ relative; the best point evaluated (by value or gradient call) is returned, so the result
 * is never worse than the start, also when the budget runs out inside a line search.
 */
final class GradientSearch {
    private GradientSearch() {}

    /** An objective that fills {@code grad} (same length as {@code a}) with its gradient when it is not null. */
    @FunctionalInterface
    interface Objective {
        double at(double[] a, double[] grad);
    }

    /**
     * @param point the best point evaluated
     * @param startValue the objective at the start
     * @param bestValue the objective at {@code point}
     * @param withinBudget false when the evaluation budget ran out inside a line search
     */
    record Result(double[] point, double startValue, double bestValue, boolean withinBudget) {}

    /**
     * Runs the search.
     *
     * @param preconditioner Hipparchus's preconditioner, or null for plain conjugate gradient
     */
    static Result run(
            double[] start,
            Objective objective,
            GoalType goal,
            int maxIterations,
            int maxEvaluations,
            Preconditioner preconditioner) {
        double sign = goal == GoalType.MINIMIZE ? 1 : -1;
        double[][] bestPoint = {start.clone()};
        double[] bestValue = {objective.at(start, null)};
        double startValue = bestValue[0];
        ObjectiveFunction f = new ObjectiveFunction(a -> offer(a, objective.at(a, null), sign, bestPoint, bestValue));
        ObjectiveFunctionGradient g = new ObjectiveFunctionGradient(a -> {
            double[] grad = new double[a.length];
            offer(a, objective.at(a, grad), sign, bestPoint, bestValue);
            return grad;
        });
        SimpleValueChecker checker = new SimpleValueChecker(1e-6, 1e-9, maxIterations);
        NonLinearConjugateGradientOptimizer opt = preconditioner == null
                ? new NonLinearConjugateGradientOptimizer(
                        NonLinearConjugateGradientOptimizer.Formula.POLAK_RIBIERE, checker)
                : new NonLinearConjugateGradientOptimizer(
                        NonLinearConjugateGradientOptimizer.Formula.POLAK_RIBIERE,
                        checker,
                        1e-8,
                        1e-8,
                        1e-8,
                        preconditioner);
        boolean withinBudget;
        try {
            opt.optimize(
                    new MaxEval(maxEvaluations), new MaxIter(maxIterations + 1), f, g, goal, new InitialGuess(start));
            withinBudget = true;
        } catch (MathIllegalStateException e) {
            // The evaluation budget ran out inside a line search: the best point seen so far is the result.
            withinBudget = false;
        }
        return new Result(bestPoint[0], startValue, bestValue[0], withinBudget);
    }

    private static double offer(double[] a, double v, double sign, double[][] bestPoint, double[] bestValue) {
        if (sign * v < sign * bestValue[0]) {
            bestValue[0] = v;
            bestPoint[0] = a.clone();
        }
        return v;
    }

    /** z<sub>i</sub> = A x<sub>i</sub> for every row of {@code x}, A the row-major ℓ×d {@code a}: n rows of length ℓ. */
    static double[][] apply(double[] a, double[][] x, int ell) {
        int d = x[0].length;
        double[][] z = new double[x.length][ell];
        for (int i = 0; i < x.length; i++) {
            for (int k = 0; k < ell; k++) {
                double s = 0;
                int off = k * d;
                for (int t = 0; t < d; t++) {
                    s += a[off + t] * x[i][t];
                }
                z[i][k] = s;
            }
        }
        return z;
    }

    /**
     * The factor that scales a start so that the projected series' mean squared distance {@code mean} becomes 1; 1
     * when {@code mean} is 0 or not finite.
     */
    static double startScale(double mean) {
        return mean > 0 && Double.isFinite(mean) ? 1 / Math.sqrt(mean) : 1;
    }

    /** The first ℓ columns of {@code w} (d rows) times {@code scale}, as L = ℓ×d row-major: {@link #columns} inverted. */
    static double[] rows(DMatrixRMaj w, int ell, double scale) {
        int d = w.numRows;
        double[] a = new double[ell * d];
        for (int k = 0; k < ell; k++) {
            for (int t = 0; t < d; t++) {
                a[k * d + t] = scale * w.get(t, k);
            }
        }
        return a;
    }

    /** The d×ℓ map whose column k is row k of the row-major ℓ×d {@code a}. */
    static DMatrixRMaj columns(double[] a, int d, int ell) {
        DMatrixRMaj w = new DMatrixRMaj(d, ell);
        for (int k = 0; k < ell; k++) {
            for (int t = 0; t < d; t++) {
                w.set(t, k, a[k * d + t]);
            }
        }
        return w;
    }
}
