package io.vigil.reliability.probability;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.hipparchus.distribution.discrete.BinomialDistribution;

/**
 * When the probability rule's quasi-Monte-Carlo estimate stops at a threshold λ with a budget of N points (docs/method.md
 *  §5: stop "once a confidence interval for P excludes τ"). After n points of which w favour the label:
 *
 * <ul>
 *   <li>decide "P ≥ λ" once the one-sided Clopper–Pearson interval for P at confidence 1 − {@link #ALPHA} lies
 *       above λ — equivalently, once the exact binomial test of P ≤ λ rejects at level α: P(Bin(n, λ) ≥ w) ≤ α;
 *   <li>decide "P &lt; λ" once the interval lies below λ: P(Bin(n, λ) ≤ w) ≤ α;
 *   <li>otherwise, after all N points, decide P̂ = w/N ≥ λ — known as soon as the points left cannot change it.
 * </ul>
 *
 * <p>The boundaries depend on (λ, N) only, so they are tabulated once per threshold (Hipparchus' binomial
 * distribution) and cached for the JVM: per point the rule compares its win count with two integers, and the same
 * points in the same order give the same decision everywhere. Both boundaries are nondecreasing in λ, so the rule
 * is monotone in λ and one pass over the points scores a whole grid of thresholds. Immutable, shared.
 */
public final class StoppingBoundary {
    /**
     * One-sided level of every look: an interval at confidence 1 − 10⁻³ clears λ = 0.8 after 31 points that all
     * favour the label (⌈ln α / ln λ⌉), where the full-budget answer needs ⌈0.8·128⌉ = 103.
     */
    public static final double ALPHA = 1e-3;

    /** α with room for rounding: a tail equal to α in exact arithmetic (0.1³ at λ = 0.9) stops, as the test says. */
    private static final double LEVEL = ALPHA * (1 + 1e-12);

    private static final Map<Key, StoppingBoundary> CACHE = new ConcurrentHashMap<>();

    private final double lambda;
    private final int points;
    /** yes[n]: after n points, decide "P ≥ λ" once wins ≥ yes[n] (n = 0..N; N + 1: not at this n). */
    private final int[] yes;
    /** no[n]: after n points, decide "P &lt; λ" once wins ≤ no[n] (−1: not at this n). */
    private final int[] no;

    private StoppingBoundary(double lambda, int points, int[] yes, int[] no) {
        this.lambda = lambda;
        this.points = points;
        this.yes = yes;
        this.no = no;
    }

    /**
     * The boundary at threshold λ for a budget of N points (tabulated on first use, then shared).
     *
     * @throws IllegalArgumentException when N &lt; 1
     */
    public static StoppingBoundary of(double lambda, int points) {
        if (points < 1) {
            throw new IllegalArgumentException("a stopping boundary needs at least one point, got " + points);
        }
        return CACHE.computeIfAbsent(new Key(Double.doubleToLongBits(lambda), points), k -> build(lambda, points));
    }

    /** The threshold λ. */
    public double lambda() {
        return lambda;
    }

    /** The budget N. */
    public int points() {
        return points;
    }

    /** After n points: decide "P ≥ λ" once the win count reaches this (N + 1 when it cannot at this n). */
    int yesAt(int n) {
        return yes[n];
    }

    /** After n points: decide "P &lt; λ" once the win count is at most this (−1 when it cannot at this n). */
    int noAt(int n) {
        return no[n];
    }

    /**
     * The decision after n points with w wins: +1 "P ≥ λ", −1 "P &lt; λ", 0 go on (never 0 at n = N).
     *
     * @throws IndexOutOfBoundsException unless 0 ≤ n ≤ N
     */
    public int decide(int n, int w) {
        if (w >= yes[n]) {
            return 1;
        }
        return w <= no[n] ? -1 : 0;
    }

    private static StoppingBoundary build(double lambda, int points) {
        int need = winsNeeded(lambda, points);
        int[] yes = new int[points + 1];
        int[] no = new int[points + 1];
        boolean interval = lambda > 0 && lambda <= 1;
        int ciYes = 0;
        int ciNo = -1;
        for (int n = 0; n <= points; n++) {
            if (interval && n > 0) {
                BinomialDistribution bin = new BinomialDistribution(n, lambda);
                // P(W ≥ w) = 1 − P(W ≤ w − 1) falls as w grows; the boundary moves by at most one per point.
                while (ciYes <= n && (ciYes == 0 ? 1.0 : 1.0 - bin.cumulativeProbability(ciYes - 1)) > LEVEL) {
                    ciYes++;
                }
                while (ciNo + 1 <= n && bin.cumulativeProbability(ciNo + 1) <= LEVEL) {
                    ciNo++;
                }
            }
            int ciYesHere = interval && n > 0 ? ciYes : points + 1;
            int ciNoHere = interval && n > 0 ? ciNo : -1;
            yes[n] = Math.min(ciYesHere, need);
            no[n] = Math.max(ciNoHere, need - (points - n) - 1);
        }
        return new StoppingBoundary(lambda, points, yes, no);
    }

    /**
     * The smallest win count w with w/N ≥ λ as a double ratio compares (0 when λ ≤ 0, N + 1 when λ &gt; 1): the
     * full-budget answer is P̂ ≥ λ exactly when wins ≥ this.
     */
    static int winsNeeded(double lambda, int n) {
        if (!(lambda > 0)) {
            return 0;
        }
        if (lambda > 1) {
            return n + 1;
        }
        int need = (int) Math.ceil(lambda * n);
        while (need > 0 && (double) (need - 1) / n >= lambda) {
            need--;
        }
        while (need <= n && (double) need / n < lambda) {
            need++;
        }
        return need;
    }

    private record Key(long lambdaBits, int points) {}
}
