package io.vigil.reliability.probability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.reliability.DiagonalQuadraticDiscriminants;
import io.vigil.reliability.Discriminants;
import io.vigil.reliability.LinearDiscriminants;
import java.util.SplittableRandom;
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

    @Test
    void earlyExitGivesExactlyTheFullBudgetAnswer() {
        SplittableRandom rnd = new SplittableRandom(4);
        for (int trial = 0; trial < 200; trial++) {
            int ell = 2 + rnd.nextInt(5);
            int g = 2 + rnd.nextInt(4);
            ClassProbability p = new ClassProbability(ell, g, 128);
            p.setCovariance(packed(randomCovariance(rnd, ell)), 0.2 + rnd.nextDouble() * 3);
            p.setDiscriminants(randomQuadratic(rnd, g, ell), gaussianVector(rnd, ell));
            long seed = rnd.nextLong();
            double prob = p.probability(seed);
            for (double lambda : new double[] {0.0, 0.1, 0.5, prob, Math.nextUp(prob), 0.9, 0.99, 1.0}) {
                assertEquals(prob >= lambda, p.atLeast(seed, lambda), "trial " + trial + ", λ = " + lambda);
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
