package io.vigil.reliability.probability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.BetaDistribution;
import org.junit.jupiter.api.Test;

class StoppingBoundaryTest {
    private static final int N = ClassProbability.DEFAULT_POINTS;
    private static final double[] LAMBDAS = {0.02, 0.3, 0.5, 0.8, 0.9, 0.95, 0.99, 0.9995, 1.0};

    /**
     * Every (n, w) is decided as the Clopper–Pearson bounds from beta quantiles say — "P ≥ λ" when the lower bound
     * reaches λ, "P &lt; λ" when the upper bound (below 1, w &lt; n) does not exceed it — or, failing both, as the full budget would: yes
     * once the ⌈λN⌉-th win is in, no once too few points are left to reach it, and never undecided at n = N. Bounds
     * within 10⁻⁸ of λ (ties in exact arithmetic, such as 0.1³ = α, left to the quantile solver's rounding) are
     * checked to stop.
     */
    @Test
    void boundariesAreTheClopperPearsonTestOrTheFullBudgetAnswer() {
        for (double lambda : LAMBDAS) {
            StoppingBoundary b = StoppingBoundary.of(lambda, N);
            int need = (int) Math.ceil(lambda * N);
            for (int n = 1; n <= N; n++) {
                for (int w = 0; w <= n; w++) {
                    String what = "λ = " + lambda + ", n = " + n + ", w = " + w;
                    double lo = lower(n, w);
                    double hi = upper(n, w);
                    if ((w > 0 && Math.abs(lo - lambda) < 1e-8) || (w < n && Math.abs(hi - lambda) < 1e-8)) {
                        assertTrue(b.decide(n, w) != 0, what + ": a tie stops");
                        continue;
                    }
                    int expected = 0;
                    if (lo >= lambda || w >= need) {
                        expected = 1;
                    } else if ((w < n && hi <= lambda) || w + (N - n) < need) {
                        expected = -1;
                    } else if (n == N) {
                        expected = w >= need ? 1 : -1;
                    }
                    assertEquals(expected, b.decide(n, w), what);
                }
            }
        }
    }

    /** Both boundaries are nondecreasing in λ, so the rule is monotone in λ (a grid is scored in one pass). */
    @Test
    void boundariesGrowWithLambda() {
        for (int k = 1; k < LAMBDAS.length; k++) {
            StoppingBoundary a = StoppingBoundary.of(LAMBDAS[k - 1], N);
            StoppingBoundary b = StoppingBoundary.of(LAMBDAS[k], N);
            for (int n = 0; n <= N; n++) {
                assertTrue(a.yesAt(n) <= b.yesAt(n) && a.noAt(n) <= b.noAt(n), "λ = " + LAMBDAS[k] + ", n = " + n);
            }
        }
    }

    /**
     * The analytic case: wins independent Bernoulli(p). A dynamic programme over (n, w) gives the exact distribution
     * of the stopping point and of the decision under the Clopper–Pearson rule; 40,000 simulated sequences through
     * the boundary must match it: the stopping point's distribution function within the Kolmogorov–Smirnov bound at
     * level 10⁻³ (1.95/√runs), the fraction decided yes and the mean stopping point within 5 standard errors.
     */
    @Test
    void stoppingPointDistributionMatchesTheExactOneForBernoulliWins() {
        SplittableRandom rnd = new SplittableRandom(11);
        int runs = 40_000;
        for (double[] c : new double[][] {{0.8, 0.5}, {0.8, 0.78}, {0.9, 0.97}, {0.9, 1.0}, {0.5, 0.1}}) {
            double lambda = c[0];
            double p = c[1];
            String what = "λ = " + lambda + ", p = " + p;
            double[][] exact = exactStoppingDistribution(lambda, p);
            StoppingBoundary b = StoppingBoundary.of(lambda, N);
            int[] stops = new int[N + 1];
            int yes = 0;
            for (int r = 0; r < runs; r++) {
                int n = 0;
                int w = 0;
                int d = b.decide(0, 0);
                while (d == 0) {
                    w += rnd.nextDouble() < p ? 1 : 0;
                    n++;
                    d = b.decide(n, w);
                }
                stops[n]++;
                yes += d > 0 ? 1 : 0;
            }
            double cdfExact = 0;
            double cdfSeen = 0;
            double ks = 0;
            double meanExact = 0;
            double meanSeen = 0;
            double second = 0;
            double yesExact = 0;
            for (int n = 0; n <= N; n++) {
                double q = exact[0][n] + exact[1][n];
                cdfExact += q;
                cdfSeen += (double) stops[n] / runs;
                ks = Math.max(ks, Math.abs(cdfExact - cdfSeen));
                meanExact += q * n;
                meanSeen += (double) stops[n] * n / runs;
                second += q * n * n;
                yesExact += exact[1][n];
            }
            assertEquals(1.0, cdfExact, 1e-9, what + ": every path stops by N");
            assertTrue(ks <= 1.95 / Math.sqrt(runs), what + ": Kolmogorov–Smirnov distance " + ks);
            double sd = Math.sqrt(Math.max(0, second - meanExact * meanExact) / runs);
            assertEquals(meanExact, meanSeen, 5 * sd + 1e-9, what + ": mean stopping point");
            assertEquals(yesExact, (double) yes / runs, 5 * Math.sqrt(yesExact * (1 - yesExact) / runs) + 1e-9, what);
        }
        // Far from λ the rule stops early: at p = 0.5 and λ = 0.8 after 24 points on average, where waiting for the
        // 26 losses that make ⌈0.8·128⌉ = 103 wins unreachable takes 52.
        double[][] half = exactStoppingDistribution(0.8, 0.5);
        double mean = 0;
        for (int n = 0; n <= N; n++) {
            mean += (half[0][n] + half[1][n]) * n;
        }
        assertEquals(23.7, mean, 0.05);
    }

    @Test
    void degenerateThresholdsDecideAtOnceAndBoundariesAreShared() {
        assertEquals(1, StoppingBoundary.of(0.0, N).decide(0, 0));
        assertEquals(-1, StoppingBoundary.of(1.5, N).decide(0, 0));
        assertEquals(0, StoppingBoundary.of(0.5, N).decide(0, 0));
        assertSame(StoppingBoundary.of(0.8, N), StoppingBoundary.of(0.8, N));
        assertThrows(IllegalArgumentException.class, () -> StoppingBoundary.of(0.8, 0));
    }

    /** P(stop at n with decision no/yes) for independent Bernoulli(p) wins, from the beta-quantile bounds. */
    private static double[][] exactStoppingDistribution(double lambda, double p) {
        int need = (int) Math.ceil(lambda * N);
        double[][] out = new double[2][N + 1];
        double[] alive = new double[N + 2];
        alive[0] = 1;
        for (int n = 1; n <= N; n++) {
            double[] next = new double[N + 2];
            for (int w = 0; w < n; w++) {
                next[w] += alive[w] * (1 - p);
                next[w + 1] += alive[w] * p;
            }
            for (int w = 0; w <= n; w++) {
                if (next[w] == 0) {
                    continue;
                }
                if (lower(n, w) >= lambda - 1e-8 || w >= need) {
                    out[1][n] += next[w];
                    next[w] = 0;
                } else if ((w < n && upper(n, w) <= lambda + 1e-8) || w + (N - n) < need) {
                    out[0][n] += next[w];
                    next[w] = 0;
                }
            }
            alive = next;
        }
        return out;
    }

    private static double lower(int n, int w) {
        return w == 0 ? 0.0 : new BetaDistribution(w, n - w + 1.0).inverseCumulativeProbability(StoppingBoundary.ALPHA);
    }

    private static double upper(int n, int w) {
        return w == n
                ? 1.0
                : new BetaDistribution(w + 1.0, n - w).inverseCumulativeProbability(1 - StoppingBoundary.ALPHA);
    }
}
