package io.vigil.reliability.probability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.reliability.DiagonalQuadraticDiscriminants;
import io.vigil.reliability.Discriminants;
import io.vigil.reliability.LinearDiscriminants;
import java.util.SplittableRandom;
import org.hipparchus.distribution.continuous.BetaDistribution;
import org.hipparchus.distribution.continuous.NormalDistribution;
import org.junit.jupiter.api.Test;

class ClassProbabilityTest {
    /** Brute-force Monte Carlo draws per reference value: standard error ≤ 0.5/√N ≈ 7e-4. */
    private static final int REFERENCE_DRAWS = 400_000;

    /** Five standard errors of the reference: a correct estimate fails this with probability ~6e-7. */
    private static final double REFERENCE_TOL = 5 * 0.5 / Math.sqrt(REFERENCE_DRAWS);

    /** Closed forms are evaluated with Hipparchus' normal CDF (~1e-15) and stable roots: agree to rounding. */
    private static final double EXACT_TOL = 1e-9;

    @Test
    void oneDimensionIsExactAgainstBruteForce() {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int trial = 0; trial < 30; trial++) {
            int g = 2 + rnd.nextInt(3);
            Discriminants f = randomQuadratic(rnd, g, 1);
            double[] m = {rnd.nextGaussian()};
            double var = 0.05 + rnd.nextDouble() * 2;
            ClassProbability p = new ClassProbability(1, g, ClassProbability.DEFAULT_POINTS);
            p.setCovariance(new double[] {var}, 1.0);
            int c = p.setDiscriminants(f, m);
            double exact = p.probability(trial);
            double mc = bruteForce(f, m, new double[][] {{var}}, c, rnd);
            assertEquals(mc, exact, REFERENCE_TOL, "trial " + trial);
        }
    }

    @Test
    void twoClassLinearIsTheNormalCdfOfTheStandardisedMargin() {
        SplittableRandom rnd = new SplittableRandom(2);
        NormalDistribution normal = new NormalDistribution();
        for (int trial = 0; trial < 30; trial++) {
            int ell = 1 + rnd.nextInt(6);
            double[][] w = new double[2][ell];
            double[] b = {rnd.nextGaussian(), rnd.nextGaussian()};
            for (double[] row : w) {
                for (int i = 0; i < ell; i++) {
                    row[i] = rnd.nextGaussian();
                }
            }
            LinearDiscriminants f = new LinearDiscriminants(w, b);
            double[] m = gaussianVector(rnd, ell);
            double[][] r = randomCovariance(rnd, ell);
            ClassProbability p = new ClassProbability(ell, 2, ClassProbability.DEFAULT_POINTS);
            p.setCovariance(packed(r), 1.0);
            int c = p.setDiscriminants(f, m);
            int h = 1 - c;
            double margin = f.value(c, m) - f.value(h, m);
            double s2 = 0;
            for (int i = 0; i < ell; i++) {
                for (int j = 0; j < ell; j++) {
                    s2 += (w[c][i] - w[h][i]) * r[i][j] * (w[c][j] - w[h][j]);
                }
            }
            assertEquals(normal.cumulativeProbability(margin / Math.sqrt(s2)), p.probability(trial), EXACT_TOL);
        }
    }

    /**
     * Quasi-Monte-Carlo with 1,024 points against brute force in ℓ = 2..8 with G = 3..6 quadratic classes and
     * correlated covariances: the estimate errs by well under the Monte-Carlo standard error of the same budget
     * (QMC converges faster), so a tolerance of 4·√(p(1−p)/N) + 1/N plus the reference's error is generous.
     */
    @Test
    void quasiMonteCarloAgreesWithBruteForce() {
        SplittableRandom rnd = new SplittableRandom(3);
        int n = 1024;
        for (int trial = 0; trial < 25; trial++) {
            int ell = 2 + rnd.nextInt(7);
            int g = 3 + rnd.nextInt(4);
            Discriminants f = randomQuadratic(rnd, g, ell);
            double[] m = gaussianVector(rnd, ell);
            double[][] r = randomCovariance(rnd, ell);
            ClassProbability p = new ClassProbability(ell, g, n);
            p.setCovariance(packed(r), 1.0);
            int c = p.setDiscriminants(f, m);
            double qmc = p.probability(1000L + trial);
            double mc = bruteForce(f, m, r, c, rnd);
            double tol = 4 * Math.sqrt(mc * (1 - mc) / n) + 1.0 / n + REFERENCE_TOL;
            assertEquals(mc, qmc, tol, "trial " + trial + ": ℓ = " + ell + ", G = " + g);
        }
    }

    /**
     * Brute force: the wins after each n of the 128 points come from estimators of n points (the same shifted Sobol
     * prefix), the one-sided Clopper–Pearson bounds at confidence 1 − α from Hipparchus' beta quantiles; the rule
     * must stop where the first bound excludes λ, else decide by the estimate over all 128 points.
     */
    @Test
    void stoppingRuleIsTheClopperPearsonRuleByBruteForce() {
        SplittableRandom rnd = new SplittableRandom(4);
        int n = ClassProbability.DEFAULT_POINTS;
        for (int trial = 0; trial < 12; trial++) {
            int ell = 2 + rnd.nextInt(5);
            int g = 2 + rnd.nextInt(4);
            double[] cov = packed(randomCovariance(rnd, ell));
            double scale = 0.2 + rnd.nextDouble() * 3;
            Discriminants f = randomQuadratic(rnd, g, ell);
            double[] m = gaussianVector(rnd, ell);
            long seed = rnd.nextLong();
            int[] wins = new int[n + 1];
            for (int k = 1; k <= n; k++) {
                ClassProbability pk = new ClassProbability(ell, g, k);
                pk.setCovariance(cov, scale);
                pk.setDiscriminants(f, m);
                wins[k] = (int) Math.round(pk.probability(seed) * k);
            }
            ClassProbability p = new ClassProbability(ell, g, n);
            p.setCovariance(cov, scale);
            p.setDiscriminants(f, m);
            double full = p.probability(seed);
            assertEquals(wins[n], full * n, 1e-9, "the n-point estimators are prefixes of the 128 points");
            for (double lambda : new double[] {0.1, 0.5, 0.8, 0.9, 0.95, 0.99, full, Math.nextUp(full)}) {
                boolean expected = full >= lambda;
                int stop = n;
                for (int k = 1; k < n; k++) {
                    // 10⁻⁸: a bound equal to λ in exact arithmetic stops (the quantile solver rounds either way).
                    if (clopperPearsonLower(k, wins[k]) >= lambda - 1e-8) {
                        expected = true;
                        stop = k;
                        break;
                    }
                    if (wins[k] < k && clopperPearsonUpper(k, wins[k]) <= lambda + 1e-8) {
                        expected = false;
                        stop = k;
                        break;
                    }
                }
                String what = "trial " + trial + ", λ = " + lambda + ", P̂ = " + full;
                assertEquals(expected, p.atLeast(seed, lambda), what);
                assertTrue(p.pointsUsed() <= stop, what + ": stopped after " + p.pointsUsed() + ", not by " + stop);
            }
        }
    }

    /**
     * Far from λ (|P̂ − λ| ≥ 0.15) the interval-stopped decision is the full-budget one (P̂ over all 128 points ≥ λ),
     * and it costs fewer points than stopping only when the points left cannot change P̂ ≥ λ.
     */
    @Test
    void farFromTheThresholdTheStoppedDecisionIsTheFullBudgetDecision() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = ClassProbability.DEFAULT_POINTS;
        int compared = 0;
        long used = 0;
        long exactExit = 0;
        for (int trial = 0; trial < 400; trial++) {
            int ell = 2 + rnd.nextInt(5);
            int g = 2 + rnd.nextInt(4);
            ClassProbability p = new ClassProbability(ell, g, n);
            p.setCovariance(packed(randomCovariance(rnd, ell)), 0.2 + rnd.nextDouble() * 3);
            p.setDiscriminants(randomQuadratic(rnd, g, ell), gaussianVector(rnd, ell));
            long seed = rnd.nextLong();
            double prob = p.probability(seed);
            for (double lambda : new double[] {0.5, 0.7, 0.8, 0.9, 0.95}) {
                if (Math.abs(prob - lambda) < 0.15) {
                    continue;
                }
                compared++;
                assertEquals(prob >= lambda, p.atLeast(seed, lambda), "trial " + trial + ", λ = " + lambda);
                used += p.pointsUsed();
                int need = (int) Math.ceil(lambda * n);
                // Stopping only when the points left cannot change P̂ ≥ λ takes at least ⌈λN⌉ points (that many wins)
                // or N − ⌈λN⌉ + 1 (that many losses).
                exactExit += prob >= lambda ? need : n - need + 1;
            }
        }
        assertTrue(compared > 1000, "compared " + compared);
        assertTrue(used < exactExit, "points " + used + " against at least " + exactExit);
    }

    /**
     * Analytic stopping points: when every point favours the label (P = 1) the interval clears λ after ⌈ln α / ln λ⌉
     * points (λⁿ ≤ α); when none does (P = 0) it falls below λ after ⌈ln α / ln (1 − λ)⌉, or earlier when the points
     * left cannot reach ⌈λN⌉ wins.
     */
    @Test
    void certainOutcomesStopWhereTheIntervalSays() {
        int n = ClassProbability.DEFAULT_POINTS;
        // f_0 − f_1 = ±(1 + u₁² + u₂²): class 0 always (or never) wins, through the QMC path (quadratic, ℓ = 2).
        Discriminants always = DiagonalQuadraticDiscriminants.of(
                new double[][] {{0, 0}, {0, 0}}, new double[][] {{1e6, 1e6}, {0.5, 0.5}}, new double[] {0, -20});
        ClassProbability p = new ClassProbability(2, 2, n);
        p.setCovariance(new double[] {1, 0.3, 1}, 1.0);
        assertEquals(0, p.setDiscriminants(always, new double[] {0, 0}));
        assertEquals(1.0, p.probability(3), 0.0);
        for (double lambda : new double[] {0.5, 0.8, 0.9}) {
            assertTrue(p.atLeast(3, lambda));
            assertEquals(Math.min(firstPower(lambda), (int) Math.ceil(lambda * n)), p.pointsUsed(), "λ = " + lambda);
        }
        assertEquals(31, pointsAt(p, 0.8), "31 points instead of the 103 the full budget needs");
        p.setDiscriminants(always, new double[] {0, 0}, 1);
        assertEquals(0.0, p.probability(3), 0.0);
        for (double lambda : new double[] {0.5, 0.8, 0.9, 0.99}) {
            assertTrue(!p.atLeast(3, lambda));
            int exact = n - (int) Math.ceil(lambda * n) + 1;
            assertEquals(Math.min(firstPower(1 - lambda), exact), p.pointsUsed(), "λ = " + lambda);
        }
    }

    /** One pass settles a grid: the score is the largest threshold the rule decides at, or the floor when larger. */
    @Test
    void scoreSettlesEveryThresholdAsTheRuleDecidesIt() {
        SplittableRandom rnd = new SplittableRandom(8);
        int n = ClassProbability.DEFAULT_POINTS;
        double[] lambdas = new double[54];
        for (int j = 0; j < 49; j++) {
            lambdas[j] = (j + 1) / 50.0;
        }
        System.arraycopy(new double[] {0.99, 0.995, 0.998, 0.999, 0.9995}, 0, lambdas, 49, 5);
        StoppingBoundary[] grid = new StoppingBoundary[lambdas.length];
        for (int j = 0; j < grid.length; j++) {
            grid[j] = StoppingBoundary.of(lambdas[j], n);
        }
        for (int trial = 0; trial < 150; trial++) {
            int ell = 1 + rnd.nextInt(5);
            int g = 2 + rnd.nextInt(4);
            ClassProbability p = new ClassProbability(ell, g, n);
            p.setCovariance(packed(randomCovariance(rnd, ell)), 0.2 + rnd.nextDouble() * 3);
            p.setDiscriminants(randomQuadratic(rnd, g, ell), gaussianVector(rnd, ell));
            long seed = rnd.nextLong();
            int score = -1;
            for (int j = 0; j < grid.length; j++) {
                if (p.atLeast(seed, grid[j])) {
                    assertEquals(score, j - 1, "trial " + trial + ": the rule is monotone in λ");
                    score = j;
                }
            }
            for (int floor : new int[] {-1, 0, 10, 30, 45, 53}) {
                assertEquals(Math.max(score, floor), p.score(seed, grid, floor), "trial " + trial + ", floor " + floor);
            }
        }
    }

    @Test
    void sameSeedSameEstimateAndSignsMatterOnlyThroughTheSeed() {
        SplittableRandom rnd = new SplittableRandom(5);
        ClassProbability p = new ClassProbability(4, 3, 128);
        p.setCovariance(packed(randomCovariance(rnd, 4)), 1.0);
        p.setDiscriminants(randomQuadratic(rnd, 3, 4), gaussianVector(rnd, 4));
        ClassProbability q = new ClassProbability(4, 3, 128);
        rnd = new SplittableRandom(5);
        q.setCovariance(packed(randomCovariance(rnd, 4)), 1.0);
        q.setDiscriminants(randomQuadratic(rnd, 3, 4), gaussianVector(rnd, 4));
        for (long seed = 0; seed < 20; seed++) {
            assertEquals(p.probability(seed), q.probability(seed), 0.0, "another instance, same seed");
        }
    }

    @Test
    void singularCovarianceIsHandled() {
        // R = diag(1, 0): the second coordinate is known; the estimate must equal the one-dimensional answer.
        SplittableRandom rnd = new SplittableRandom(6);
        Discriminants f = randomQuadratic(rnd, 3, 2);
        double[] m = {0.3, -0.2};
        ClassProbability p = new ClassProbability(2, 3, 4096);
        p.setCovariance(new double[] {1.0, 0.0, 0.0}, 1.0);
        int c = p.setDiscriminants(f, m);
        double mc = bruteForce(f, m, new double[][] {{1, 0}, {0, 0}}, c, rnd);
        assertEquals(mc, p.probability(9), 4 * Math.sqrt(mc * (1 - mc) / 4096) + 1.0 / 4096 + REFERENCE_TOL);
        p.setCovariance(new double[] {0.0, 0.0, 0.0}, 1.0);
        p.setDiscriminants(f, m);
        assertEquals(1.0, p.probability(9), 0.0, "a known point is classified as at m");
    }

    @Test
    void misuseIsRejected() {
        ClassProbability p = new ClassProbability(2, 2, 16);
        assertThrows(IllegalStateException.class, () -> p.probability(1));
        assertThrows(IllegalArgumentException.class, () -> p.setCovariance(new double[2], 1.0));
        assertThrows(IllegalArgumentException.class, () -> p.setCovariance(new double[3], Double.NaN));
        assertThrows(
                IllegalArgumentException.class,
                () -> p.setDiscriminants(randomQuadratic(new SplittableRandom(1), 3, 2), new double[2]));
        assertTrue(p.pointCount() == 16 && p.dim() == 2);
    }

    /** The least n with qⁿ ≤ α (⌈ln α / ln q⌉, a tie such as 0.1³ = α included). */
    private static int firstPower(double q) {
        int n = 1;
        while (Math.pow(q, n) > StoppingBoundary.ALPHA * (1 + 1e-9)) {
            n++;
        }
        return n;
    }

    private static int pointsAt(ClassProbability p, double lambda) {
        p.atLeast(3, lambda);
        return p.pointsUsed();
    }

    private static double clopperPearsonLower(int n, int w) {
        return w == 0 ? 0.0 : new BetaDistribution(w, n - w + 1.0).inverseCumulativeProbability(StoppingBoundary.ALPHA);
    }

    private static double clopperPearsonUpper(int n, int w) {
        return w == n
                ? 1.0
                : new BetaDistribution(w + 1.0, n - w).inverseCumulativeProbability(1 - StoppingBoundary.ALPHA);
    }

    private static double bruteForce(Discriminants f, double[] m, double[][] r, int c, SplittableRandom rnd) {
        int ell = m.length;
        double[][] l = cholesky(r);
        double[] y = new double[ell];
        double[] z = new double[ell];
        int wins = 0;
        for (int k = 0; k < REFERENCE_DRAWS; k++) {
            for (int i = 0; i < ell; i++) {
                z[i] = rnd.nextGaussian();
            }
            for (int i = 0; i < ell; i++) {
                double s = m[i];
                for (int j = 0; j <= i; j++) {
                    s += l[i][j] * z[j];
                }
                y[i] = s;
            }
            double fc = f.value(c, y);
            boolean win = true;
            for (int h = 0; h < f.numClasses() && win; h++) {
                win = h == c || f.value(h, y) <= fc;
            }
            wins += win ? 1 : 0;
        }
        return (double) wins / REFERENCE_DRAWS;
    }

    private static double[][] cholesky(double[][] r) {
        int n = r.length;
        double[][] l = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double s = r[i][j];
                for (int k = 0; k < j; k++) {
                    s -= l[i][k] * l[j][k];
                }
                if (i == j) {
                    l[i][i] = s > 1e-300 ? Math.sqrt(s) : 0;
                } else {
                    l[i][j] = l[j][j] > 0 ? s / l[j][j] : 0;
                }
            }
        }
        return l;
    }

    static Discriminants randomQuadratic(SplittableRandom rnd, int g, int ell) {
        double[][] means = new double[g][ell];
        double[][] vars = new double[g][ell];
        double[] lp = new double[g];
        for (int c = 0; c < g; c++) {
            for (int i = 0; i < ell; i++) {
                means[c][i] = rnd.nextGaussian() * 1.5;
                vars[c][i] = 0.2 + rnd.nextDouble() * 2;
            }
            lp[c] = Math.log(1.0 / g);
        }
        return DiagonalQuadraticDiscriminants.of(means, vars, lp);
    }

    static double[] gaussianVector(SplittableRandom rnd, int ell) {
        double[] v = new double[ell];
        for (int i = 0; i < ell; i++) {
            v[i] = rnd.nextGaussian();
        }
        return v;
    }

    /** A random correlated covariance AAᵀ/ℓ + 0.05·I. */
    static double[][] randomCovariance(SplittableRandom rnd, int ell) {
        double[][] a = new double[ell][ell];
        for (double[] row : a) {
            for (int i = 0; i < ell; i++) {
                row[i] = rnd.nextGaussian();
            }
        }
        double[][] r = new double[ell][ell];
        for (int i = 0; i < ell; i++) {
            for (int j = 0; j < ell; j++) {
                double s = 0;
                for (int k = 0; k < ell; k++) {
                    s += a[i][k] * a[j][k];
                }
                r[i][j] = s / ell + (i == j ? 0.05 : 0);
            }
        }
        return r;
    }

    static double[] packed(double[][] r) {
        int ell = r.length;
        double[] p = new double[ell * (ell + 1) / 2];
        for (int i = 0; i < ell; i++) {
            for (int j = 0; j <= i; j++) {
                p[i * (i + 1) / 2 + j] = r[i][j];
            }
        }
        return p;
    }
}
