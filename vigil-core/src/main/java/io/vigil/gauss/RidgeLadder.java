package io.vigil.gauss;

import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The regularisation both covariance forms apply when Σ is not numerically positive definite (a pivot D_t at or
 * below the floor {@code 16·d·ε·max_i Σ_ii}, {@link JointGaussian#PIVOT_FLOOR_PER_DIMENSION}): ridges λ = ρ·tr(Σ)/d
 * for ρ = 1e-10, 1e-8, …, 1e-2 in turn, the first that clears the floor being kept and recorded with its reason.
 */
final class RidgeLadder {
    /** Ridge multipliers ρ (times tr(Σ)/d), smallest first. */
    private static final double[] MULTIPLIERS = {1e-10, 1e-8, 1e-6, 1e-4, 1e-2};

    private RidgeLadder() {}

    /**
     * Climbs the ladder after a failed unregularised attempt.
     *
     * @param shrinkage how Σ was obtained (for the record)
     * @param scale tr(Σ)/d &gt; 0
     * @param first why the unregularised Σ failed
     * @param attempt tries Σ + λI, returning null on success or the reason it still fails
     * @return the fit record of the first ridge that works
     * @throws CovarianceFitException when even the largest ridge fails
     */
    static FitInfo climb(Shrinkage shrinkage, double scale, String first, DoubleFunction<String> attempt) {
        String failure = first;
        for (double rho : MULTIPLIERS) {
            double ridge = rho * scale;
            failure = attempt.apply(ridge);
            if (failure == null) {
                return new FitInfo(
                        shrinkage,
                        ridge,
                        String.format(
                                Locale.ROOT,
                                "covariance not positive definite (%s); added ridge %.1e·tr(Σ)/d = %.3e",
                                first,
                                rho,
                                ridge));
            }
        }
        throw new CovarianceFitException("covariance not positive definite (" + first + ") and still not with ridge "
                + MULTIPLIERS[MULTIPLIERS.length - 1] + "·tr(Σ)/d (" + failure + ")");
    }

    /** The reason a pivot fails. */
    static String pivotFailure(int t, double pivot, double floor) {
        return String.format(Locale.ROOT, "pivot D[%d] = %.3e is below the floor %.3e", t, pivot, floor);
    }
}
