package io.vigil.reduce;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.ldg.LinearMaps;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.MatrixFeatures_DDRM;
import org.junit.jupiter.api.Test;

/**
 * FDA, PCA+FDA, LFDA, MMC, DLDA and NCA against analytic cases: the Bayes direction, the S<sub>b</sub> − S<sub>w</sub>
 * eigenproblem, the sphering identities of DLDA, LFDA's reduction to FDA, and NCA's gradient.
 */
class ComparisonReducersTest {
    /** Two Gaussians with a shared correlated Σ: FDA's direction is Σ⁻¹(μ₁ − μ₀), and it is Sw-normalised. */
    @Test
    void fdaOnTwoGaussiansIsTheBayesDirection() {
        double[][] lchol = {{1, 0, 0}, {0.8, 0.6, 0}, {0.3, -0.5, 0.7}};
        double[] delta = {1, 0.5, -0.3};
        int n = 20000;
        double[][] x = twoGaussians(lchol, delta, n, 11);
        int[] y = alternating(n, 2);
        DMatrixRMaj w = Fda.fit(x, y, 2, 5);
        assertEquals(1, w.numCols, "G - 1 directions at most");
        DMatrixRMaj sigma = new DMatrixRMaj(lchol);
        DMatrixRMaj cov = new DMatrixRMaj(3, 3);
        CommonOps_DDRM.multTransB(sigma, sigma, cov);
        DMatrixRMaj bayes = new DMatrixRMaj(3, 1, true, delta);
        CommonOps_DDRM.solve(cov, bayes.copy(), bayes);
        // 20,000 samples estimate Σ and the means to ~1 %: the angle to the population direction is a few degrees.
        assertTrue(cosine(column(w, 0), column(bayes, 0)) > 0.995, "cosine");
        Labelled l = Labelled.of(x, y, 2, 1, "test");
        assertEquals(1, quad(l.within(), column(w, 0)), 1e-9, "w'Sw w = 1");
    }

    @Test
    void fdaReportsSmallSamplesAndSingularScatterAsIllPosed() {
        double[][] x = smallSample(12, 50, 3, 2);
        int[] y = alternating(12, 3);
        IllPosedReductionException e = assertThrows(IllPosedReductionException.class, () -> Fda.fit(x, y, 3, 2));
        assertTrue(e.getMessage().startsWith("ill-posed: within-class scatter is singular"));
        assertTrue(e.getMessage().endsWith("(n = 12, d = 50)"), e.getMessage());
        assertEquals(12, e.n());
        // n − G = d, but every series of a class shares its first coordinate: S_w = diag(0, 9) is singular.
        double[][] flat = {{-1, 3}, {-1, -3}, {1, 3}, {1, -3}};
        int[] fy = {0, 0, 1, 1};
        e = assertThrows(IllPosedReductionException.class, () -> Fda.fit(flat, fy, 2, 1));
        assertTrue(e.getMessage().contains("(n = 4, d = 2)"), e.getMessage());
        // Ill-conditioned but regular (within-class variance 1e-10 along x₂, condition ~1e10) is still solved.
        SplittableRandom r = new SplittableRandom(5);
        double[][] thin = new double[40][];
        for (int i = 0; i < 40; i++) {
            thin[i] = new double[] {r.nextGaussian() + (i % 2), 1e-5 * r.nextGaussian()};
        }
        DMatrixRMaj w = Fda.fit(thin, alternating(40, 2), 2, 1);
        assertEquals(1, quad(Labelled.of(thin, alternating(40, 2), 2, 1, "test").within(), column(w, 0)), 1e-6);
    }

    @Test
    void shapesAndLabelsAreCheckedWithClearMessages() {
        double[][] ragged = {{1, 2, 3}, {4, 5}, {6, 7, 8}};
        int[] y = {0, 1, 0};
        for (Fitter f : fitters()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.fit(ragged, y, 2, 1));
            assertTrue(e.getMessage().contains("row 1 has 2 values but row 0 has 3"), e.getMessage());
            double[][] ok = {{1, 2}, {2, 1}, {3, 3}};
            e = assertThrows(IllegalArgumentException.class, () -> f.fit(ok, new int[] {0, 0, 0}, 2, 1));
            assertTrue(e.getMessage().contains("needs two classes"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> f.fit(ok, new int[] {0, 1}, 2, 1));
            assertTrue(e.getMessage().contains("3 rows but y has 2 labels"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> f.fit(ok, new int[] {0, 1, 2}, 2, 1));
            assertTrue(e.getMessage().contains("y[2] = 2 is outside 0..1"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> f.fit(ok, new int[] {0, 1, 1}, 2, 0));
            assertTrue(e.getMessage().contains("dims must be ≥ 1"), e.getMessage());
        }
    }

    /** When PCA to n − G keeps every dimension, Fisherfaces is FDA; with n &lt; d it is defined where FDA is not. */
    @Test
    void pcaFdaIsFdaWhenWellPosedAndDefinedForSmallSamples() {
        double[][] x = smallSample(60, 5, 3, 4);
        int[] y = alternating(60, 3);
        DMatrixRMaj fda = Fda.fit(x, y, 3, 2);
        DMatrixRMaj fisherfaces = PcaFda.fit(x, y, 3, 2);
        for (int k = 0; k < 2; k++) {
            assertEquals(1, cosine(column(fda, k), column(fisherfaces, k)), 1e-9, "column " + k);
        }
        double[][] small = smallSample(15, 40, 3, 5);
        int[] sy = alternating(15, 3);
        DMatrixRMaj w = PcaFda.fit(small, sy, 3, 5);
        assertEquals(40, w.numRows);
        assertEquals(2, w.numCols, "G - 1");
        assertTrue(Arrays.stream(w.data).allMatch(Double::isFinite));
        // In the n − G = 12 dimensional PCA space the training classes are perfectly separable: FDA maps them apart.
        assertTrue(nearestMeanTrainingAccuracy(LinearMaps.project(small, w, 2), sy, 3) == 1.0);
    }

    /**
     * Classes at x₁ = ±1 with within-class spread ±3 along x₂, rotated by 30°: S<sub>b</sub> − S<sub>w</sub> =
     * R diag(1, −9) Rᵀ, so MMC's first direction is R e₁, where PCA (variance diag(1, 9)) picks R e₂.
     */
    @Test
    void mmcMaximisesTheMarginWherePcaFollowsTheSpread() {
        double c = Math.cos(Math.PI / 6);
        double s = Math.sin(Math.PI / 6);
        double[][] base = {{-1, 3}, {-1, -3}, {1, 3}, {1, -3}};
        double[][] x = new double[4][];
        for (int i = 0; i < 4; i++) {
            x[i] = new double[] {c * base[i][0] - s * base[i][1], s * base[i][0] + c * base[i][1]};
        }
        int[] y = {0, 0, 1, 1};
        DMatrixRMaj w = Mmc.fit(x, y, 2, 2);
        assertEquals(1, Math.abs(cosine(column(w, 0), new double[] {c, s})), 1e-12);
        assertEquals(1, Math.abs(cosine(column(w, 1), new double[] {-s, c})), 1e-12);
        Labelled l = Labelled.of(x, y, 2, 1, "test");
        assertEquals(1, quad(Mmc.margin(l), column(w, 0)), 1e-12, "eigenvalue 1");
        assertEquals(-9, quad(Mmc.margin(l), column(w, 1)), 1e-12, "eigenvalue -9");
        DMatrixRMaj pca = Pca.directions(x);
        assertEquals(1, Math.abs(cosine(column(pca, 0), new double[] {-s, c})), 1e-12);
    }

    /** On n &lt; d the span shortcut returns the exact maximiser: tr(WᵀMW) is the sum of M's ℓ largest eigenvalues. */
    @Test
    void mmcOnSmallSamplesMatchesTheFullEigenproblem() {
        double[][] x = smallSample(14, 30, 3, 6);
        int[] y = alternating(14, 3);
        DMatrixRMaj w = Mmc.fit(x, y, 3, 2);
        Labelled l = Labelled.of(x, y, 3, 1, "test");
        DMatrixRMaj m = Mmc.margin(l);
        double[] top = Eigen.symmetric(m, true).values();
        assertTrue(top[1] > 0, "the case must have two positive eigenvalues");
        DMatrixRMaj wtw = new DMatrixRMaj(2, 2);
        CommonOps_DDRM.multTransA(w, w, wtw);
        assertTrue(MatrixFeatures_DDRM.isIdentity(wtw, 1e-10), "orthonormal columns");
        assertEquals(top[0], quad(m, column(w, 0)), 1e-9 * Math.abs(top[0]));
        assertEquals(top[1], quad(m, column(w, 1)), 1e-9 * Math.abs(top[0]));
    }

    /** Two classes: DLDA's one direction is the mean difference, scaled to unit within-class variance. */
    @Test
    void dldaOnTwoClassesIsTheSpheredMeanDifference() {
        double[][] lchol = {{1, 0, 0}, {0.8, 0.6, 0}, {0.3, -0.5, 0.7}};
        double[][] x = twoGaussians(lchol, new double[] {1, 0.5, -0.3}, 400, 8);
        int[] y = alternating(400, 2);
        DMatrixRMaj w = Dlda.fit(x, y, 2, 3);
        assertEquals(1, w.numCols, "rank of S_b");
        Labelled l = Labelled.of(x, y, 2, 1, "test");
        double[] diff = new double[3];
        for (int t = 0; t < 3; t++) {
            diff[t] = l.means[1][t] - l.means[0][t];
        }
        assertEquals(1, Math.abs(cosine(column(w, 0), diff)), 1e-12);
        assertEquals(1, quad(l.within(), column(w, 0)), 1e-10);
    }

    /** With n &lt; d DLDA stays in S_b's range and diagonalises both scatters: WᵀSwW = I, WᵀSbW = Dw⁻¹ decreasing. */
    @Test
    void dldaDiagonalisesBothScattersOnSmallSamples() {
        double[][] x = smallSample(16, 40, 4, 7);
        int[] y = alternating(16, 4);
        DMatrixRMaj w = Dlda.fit(x, y, 4, 10);
        assertEquals(3, w.numCols, "G - 1");
        Labelled l = Labelled.of(x, y, 4, 1, "test");
        DMatrixRMaj sw = congruence(w, l.within());
        DMatrixRMaj sb = congruence(w, l.between());
        assertTrue(MatrixFeatures_DDRM.isIdentity(sw, 1e-8), sw.toString());
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                if (i != j) {
                    assertEquals(0, sb.get(i, j), 1e-8 * sb.get(0, 0));
                }
            }
            assertTrue(i == 0 || sb.get(i, i) <= sb.get(i - 1, i - 1), "smallest within-class spread first");
        }
    }

    /** The paper: with every affinity 1 the local scatters are n·Sw and n·Sb and LFDA is FDA. */
    @Test
    void lfdaWithUnitAffinitiesIsFda() {
        double[][] x = smallSample(60, 5, 3, 9);
        int[] y = alternating(60, 3);
        DMatrixRMaj fda = Fda.fit(x, y, 3, 2);
        Eigen.Pairs lfda = Lfda.fitPairs(x, y, 3, 4, (i, j, d2) -> 1);
        for (int k = 0; k < 2; k++) {
            assertEquals(1, cosine(column(fda, k), column(lfda.vectors(), k)), 1e-9, "column " + k);
        }
        // Beyond G − 1 the between-class scatter has no rank: eigenvalues, and so the weighted columns, vanish.
        for (int k = 2; k < 4; k++) {
            assertEquals(0, lfda.values()[k], 1e-10 * lfda.values()[0], "eigenvalue " + k);
        }
    }

    /** Local scaling, small samples: the ridge keeps LFDA defined for n &lt; d, and it finds more than G − 1 directions. */
    @Test
    void lfdaWithLocalScalingIsDefinedForSmallSamplesAndBeyondGMinusOne() {
        double[][] x = smallSample(20, 60, 2, 10);
        int[] y = alternating(20, 2);
        DMatrixRMaj w = Lfda.fit(x, y, 2, 4);
        assertEquals(4, w.numCols);
        assertTrue(Arrays.stream(w.data).allMatch(Double::isFinite));
        for (int k = 0; k < 4; k++) {
            assertTrue(norm(column(w, k)) > 0, "column " + k + " is not null");
        }
        // A class of one series has no same-class pair, so its local scale is never needed: still defined.
        int[] single = alternating(20, 2);
        single[19] = 2;
        DMatrixRMaj ws = Lfda.fit(x, single, 3, 3);
        assertTrue(Arrays.stream(ws.data).allMatch(Double::isFinite));
    }

    /** ∂f/∂A of NCA against central differences on a tiny case. */
    @Test
    void ncaGradientMatchesFiniteDifferences() {
        SplittableRandom r = new SplittableRandom(12);
        double[][] x = new double[7][3];
        int[] y = {0, 1, 0, 1, 2, 2, 0};
        for (double[] row : x) {
            for (int t = 0; t < 3; t++) {
                row[t] = r.nextGaussian();
            }
        }
        double[] a = new double[2 * 3];
        for (int k = 0; k < a.length; k++) {
            a[k] = 0.7 * r.nextGaussian();
        }
        double[] grad = new double[a.length];
        Nca.objective(a, x, y, 2, grad);
        double h = 1e-6;
        for (int k = 0; k < a.length; k++) {
            double[] up = a.clone();
            double[] down = a.clone();
            up[k] += h;
            down[k] -= h;
            double fd = (Nca.objective(up, x, y, 2, null) - Nca.objective(down, x, y, 2, null)) / (2 * h);
            // Central differences are exact to O(h²) ≈ 1e-12 plus rounding ≈ 1e-16 / h ≈ 1e-10.
            assertEquals(fd, grad[k], 1e-7, "component " + k);
        }
    }

    /** On CBF the fit raises f = Σ pᵢ from its PCA start, and the map is finite and of the requested width. */
    @Test
    void ncaIncreasesItsObjectiveFromThePcaStart() {
        TrainTest tt = SyntheticData.generate(SyntheticKind.CBF, 60, 10, 4);
        double[][] x = tt.train().rows();
        int[] y = tt.train().classIndices();
        Nca.Fit fit = Nca.fitDetailed(x, y, 3, 2);
        assertEquals(128, fit.map().numRows);
        assertEquals(2, fit.map().numCols);
        assertTrue(Arrays.stream(fit.map().data).allMatch(Double::isFinite));
        assertTrue(
                fit.finalObjective() > fit.initialObjective() + 1,
                fit.initialObjective() + " -> " + fit.finalObjective());
        assertTrue(fit.finalObjective() <= 60, "f counts expected correct series");
    }

    @Test
    void everyReducerNamesANonFiniteValueInsteadOfFittingIt() {
        int g = 2;
        double[][] x = smallSample(40, 6, g, 31);
        int[] y = alternating(40, g);
        x[7][3] = Double.NaN;
        java.util.List<Fitter> all = new java.util.ArrayList<>(Arrays.asList(fitters()));
        all.add(RegularizedFda::fit);
        for (Fitter f : all) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> f.fit(x, y, g, 1));
            assertTrue(e.getMessage().contains("[7][3] is NaN, not finite"), e.getMessage());
        }
        x[7][3] = Double.POSITIVE_INFINITY;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pca.directions(x));
        assertTrue(e.getMessage().contains("[7][3] is Infinity, not finite"), e.getMessage());
    }

    @FunctionalInterface
    private interface Fitter {
        DMatrixRMaj fit(double[][] x, int[] y, int g, int dims);
    }

    @Test
    void lfdaRidgeActsOnlyOnSmallSamplesAndIsValidated() {
        int g = 3;
        double[][] small = smallSample(18, 40, g, 21);
        int[] ys = alternating(18, g);
        DMatrixRMaj tiny = Lfda.fit(small, ys, g, 2, 1e-3);
        DMatrixRMaj large = Lfda.fit(small, ys, g, 2, 10);
        assertArrayEquals(Lfda.fit(small, ys, g, 2).data, tiny.data, "the default ridge is RIDGE");
        // With n − G < d the ridge shapes the within-class metric: a heavy ridge turns the first direction towards
        // the between-class scatter's, so the two first columns are not parallel.
        double c = Math.abs(cosine(column(tiny, 0), column(large, 0)));
        assertTrue(c < 0.999, "ridge 1e-3 and 10 give the same first direction: cos " + c);
        double[][] many = smallSample(120, 5, g, 22);
        int[] ym = alternating(120, g);
        assertArrayEquals(
                Lfda.fit(many, ym, g, 2, 1e-3).data, Lfda.fit(many, ym, g, 2, 10).data, "n − G ≥ d: no ridge is added");
        for (double bad : new double[] {0, -1, Double.POSITIVE_INFINITY, Double.NaN}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> Lfda.fit(small, ys, g, 2, bad));
            assertTrue(e.getMessage().contains("LFDA ridge must be positive and finite"), e.getMessage());
        }
    }

    private static Fitter[] fitters() {
        return new Fitter[] {Fda::fit, PcaFda::fit, Lfda::fit, Mmc::fit, Dlda::fit, Nca::fit};
    }

    private static double[][] twoGaussians(double[][] lchol, double[] delta, int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int d = delta.length;
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            double[] z = new double[d];
            for (int t = 0; t < d; t++) {
                z[t] = r.nextGaussian();
            }
            for (int t = 0; t < d; t++) {
                for (int s = 0; s <= t; s++) {
                    x[i][t] += lchol[t][s] * z[s];
                }
                x[i][t] += (i % 2) * delta[t];
            }
        }
        return x;
    }

    /** n series of length d, class i % g, with class c shifted by 3 at coordinate c. */
    private static double[][] smallSample(int n, int d, int g, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[n][d];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                x[i][t] = r.nextGaussian() + (t == i % g ? 3 : 0);
            }
        }
        return x;
    }

    private static int[] alternating(int n, int g) {
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % g;
        }
        return y;
    }

    private static double nearestMeanTrainingAccuracy(double[][] p, int[] y, int g) {
        double[][] means = new double[g][p[0].length];
        int[] counts = new int[g];
        for (int i = 0; i < p.length; i++) {
            counts[y[i]]++;
            for (int k = 0; k < p[i].length; k++) {
                means[y[i]][k] += p[i][k];
            }
        }
        for (int c = 0; c < g; c++) {
            for (int k = 0; k < means[c].length; k++) {
                means[c][k] /= counts[c];
            }
        }
        int ok = 0;
        for (int i = 0; i < p.length; i++) {
            int best = 0;
            for (int c = 1; c < g; c++) {
                best = dist(p[i], means[c]) < dist(p[i], means[best]) ? c : best;
            }
            ok += best == y[i] ? 1 : 0;
        }
        return (double) ok / p.length;
    }

    private static double dist(double[] u, double[] v) {
        double s = 0;
        for (int k = 0; k < u.length; k++) {
            s += (u[k] - v[k]) * (u[k] - v[k]);
        }
        return s;
    }

    private static DMatrixRMaj congruence(DMatrixRMaj w, DMatrixRMaj m) {
        DMatrixRMaj tmp = new DMatrixRMaj(w.numCols, m.numCols);
        CommonOps_DDRM.multTransA(w, m, tmp);
        DMatrixRMaj out = new DMatrixRMaj(w.numCols, w.numCols);
        CommonOps_DDRM.mult(tmp, w, out);
        return out;
    }

    private static double quad(DMatrixRMaj m, double[] v) {
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            for (int j = 0; j < v.length; j++) {
                s += v[i] * m.get(i, j) * v[j];
            }
        }
        return s;
    }

    private static double[] column(DMatrixRMaj v, int k) {
        double[] c = new double[v.numRows];
        for (int t = 0; t < c.length; t++) {
            c[t] = v.get(t, k);
        }
        return c;
    }

    private static double norm(double[] u) {
        return Math.sqrt(dist(u, new double[u.length]));
    }

    private static double cosine(double[] u, double[] v) {
        double dot = 0;
        for (int t = 0; t < u.length; t++) {
            dot += u[t] * v[t];
        }
        return dot / (norm(u) * norm(v));
    }
}
