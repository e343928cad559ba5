package io.vigil.reliability.risk;

import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * Finite-sample risk control by Learn-then-Test (Angelopoulos, Bates, Candès, Jordan, Lei 2021; docs/method.md §5): from
 * the disagreement counts of a family of stopping rules on n exchangeable calibration series, pick the least
 * conservative rule whose risk — the rate of early labels that differ from the complete-series label — is at most α
 * with confidence 1 − δ.
 *
 * <p>Rules are indexed by ascending threshold λ_0 &lt; … &lt; λ_{m−1}, the last the most conservative. Each null
 * hypothesis H_j: risk(λ_j) &gt; α is tested with the binomial tail p_j = P(Bin(n, α) ≤ k_j), k_j the disagreements of
 * rule j; fixed-sequence testing walks from j = m−1 downward while p_j ≤ δ, and every rule passed is certified. The
 * family-wise error is ≤ δ without assuming the risk is monotone in λ. With no disagreement at all, p = (1 − α)^n, so
 * the smallest certifiable α is 1 − δ^{1/n} (n = 23 series: α ≈ 0.095 at δ = 0.1; n = 230: α ≈ 0.01). p ≤ δ is tested
 * with the slack {@link ConformalRiskControl#TOLERANCE} (α arrives as 1 − τ in floating point).
 */
public final class LearnThenTest {
    private LearnThenTest() {}

    /**
     * The outcome for one α.
     *
     * @param index the certified threshold index (the smallest one passed), or the most conservative index m−1 when
     *     nothing could be certified
     * @param certified whether rule {@code index} passed its test
     * @param pValue the p-value of rule {@code index}
     */
    public record Result(int index, boolean certified, double pValue) {}

    /**
     * Certifies a threshold for risk level α.
     *
     * @param n calibration series (≥ 1)
     * @param disagreements per threshold (ascending λ), how many of the n series the rule labels differently from
     *     the complete series; each in 0..n
     * @param alpha the risk level 1 − τ, in (0, 1)
     * @param delta the allowed probability of certifying a rule whose risk exceeds α, in (0, 1)
     */
    public static Result certify(int n, int[] disagreements, double alpha, double delta) {
        if (n < 1) {
            throw new IllegalArgumentException("risk control needs at least one calibration series, got " + n);
        }
        if (disagreements.length == 0) {
            throw new IllegalArgumentException("risk control needs at least one threshold");
        }
        if (!(alpha > 0 && alpha < 1) || !(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("α and δ must lie in (0, 1), got " + alpha + " and " + delta);
        }
        BinomialDistribution tail = new BinomialDistribution(n, alpha);
        int m = disagreements.length;
        int chosen = -1;
        double chosenP = Double.NaN;
        for (int j = m - 1; j >= 0; j--) {
            int k = disagreements[j];
            if (k < 0 || k > n) {
                throw new IllegalArgumentException(
                        "threshold " + j + " has " + k + " disagreements among " + n + " series");
            }
            double p = tail.cumulativeProbability(k);
            if (p > delta + ConformalRiskControl.TOLERANCE) {
                break;
            }
            chosen = j;
            chosenP = p;
        }
        if (chosen < 0) {
            return new Result(m - 1, false, tail.cumulativeProbability(disagreements[m - 1]));
        }
        return new Result(chosen, true, chosenP);
    }

    /**
     * The cross-fitted reliability a rule needs for risk level α to be certified on n series at confidence 1 − δ:
     * 1 − k<sub>max</sub>/n, where k<sub>max</sub> is the largest disagreement count with P(Bin(n, α) ≤
     * k<sub>max</sub>) ≤ δ. 1.0 means "certifiable, but only with no disagreement at all"; empty means "cannot be
     * certified on n series": even no disagreement does not pass (α &lt; 1 − δ<sup>1/n</sup>), and such a τ is decided
     * at t = d. How far this lies above 1 − α is the margin a finite-sample certificate costs: a rule certified exactly
     * at the boundary, whose cross-fitted rate holds on new series, is that much more reliable than announced (n = 30,
     * α = 0.2, δ = 0.1: k<sub>max</sub> = 2, reliability 0.933 for τ = 0.8).
     */
    public static OptionalDouble requiredReliability(int n, double alpha, double delta) {
        if (n < 1) {
            throw new IllegalArgumentException("risk control needs at least one calibration series, got " + n);
        }
        if (!(alpha > 0 && alpha < 1) || !(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("α and δ must lie in (0, 1), got " + alpha + " and " + delta);
        }
        BinomialDistribution tail = new BinomialDistribution(n, alpha);
        int k = -1;
        while (k + 1 <= n && tail.cumulativeProbability(k + 1) <= delta + ConformalRiskControl.TOLERANCE) {
            k++;
        }
        return k < 0 ? OptionalDouble.empty() : OptionalDouble.of(1 - (double) k / n);
    }

    /**
     * How many calibration series would certify risk level α at confidence 1 − δ if the disagreement rate stayed at
     * {@code rate}: the smallest N in [{@code minSeries}, {@code maxSeries}] with P(Bin(N, α) ≤ ⌊rate·N⌋) ≤ δ; empty
     * when the rate is not below α (no number of series certifies it) or N would exceed {@code maxSeries}. This is
     * what {@code vigil train} tells a user whose training set is too small for the target; it searches above the
     * series the replays had ({@code minSeries} = n + 1), since ⌊rate·N⌋ rounds a rate measured on n series down to
     * fewer disagreements at some N &lt; n, which would "certify" where n series did not.
     */
    public static OptionalInt seriesNeeded(double rate, double alpha, double delta, int minSeries, int maxSeries) {
        if (!(alpha > 0 && alpha < 1) || !(delta > 0 && delta < 1)) {
            throw new IllegalArgumentException("α and δ must lie in (0, 1), got " + alpha + " and " + delta);
        }
        if (!(rate >= 0) || rate >= alpha) {
            return OptionalInt.empty();
        }
        for (int n = Math.max(1, minSeries); n <= maxSeries; n++) {
            int k = (int) Math.floor(rate * n + 1e-9);
            if (new BinomialDistribution(n, alpha).cumulativeProbability(k) <= delta + ConformalRiskControl.TOLERANCE) {
                return OptionalInt.of(n);
            }
        }
        return OptionalInt.empty();
    }

    /** The smallest α certifiable with n series and no disagreement: 1 − δ^{1/n}. */
    public static double smallestCertifiableAlpha(int n, double delta) {
        return 1 - Math.pow(delta, 1.0 / n);
    }
}
