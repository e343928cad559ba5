package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.classify.Knn;
import io.vigil.data.Folds;
import io.vigil.util.Progress;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LdgCrossValidationTest {
    /**
     * Pairwise distances between projected points from the CV path and from a fresh fit differ only by
     * rounding of two assemblies of the same eigenproblem (≲ 1e-12 relative on these well-conditioned
     * random data); 1e-8 relative leaves margin while still catching any real difference (a wrong
     * neighbour set or a leaked point changes distances by O(1)).
     */
    private static final double DIST_RTOL = 1e-8;

    private static final double[] GAMMAS = {0.1, 0.5, 0.9};
    private static final int[] DIMS = {1, 2, 4, 7, 50};

    /**
     * The naive reference: a fresh {@link Ldg#fit} per fold, projection, k-NN; an ℓ above some fold's rank is NaN
     * (not scored), or scored with all of the fold's directions when {@code allDirections}.
     */
    private static double[][] naive(
            double[][] x, int[] y, int g, int neighbors, double[] gammas, int[] dims, int knnK, int[][] folds) {
        return naive(x, y, g, neighbors, gammas, dims, knnK, folds, false);
    }

    private static double[][] naive(
            double[][] x,
            int[] y,
            int g,
            int neighbors,
            double[] gammas,
            int[] dims,
            int knnK,
            int[][] folds,
            boolean allDirections) {
        int[][] correct = new int[gammas.length][dims.length];
        boolean[] unscored = new boolean[dims.length];
        int total = 0;
        for (int[] test : folds) {
            int[] train = Folds.complement(test, x.length);
            double[][] xs = Folds.rows(x, train);
            int[] ys = Folds.labels(y, train);
            total += test.length;
            for (int gi = 0; gi < gammas.length; gi++) {
                LdgBasis basis = Ldg.fit(xs, ys, g, new LdgParams(neighbors, gammas[gi]));
                for (int c = 0; c < dims.length; c++) {
                    unscored[c] |= !allDirections && dims[c] > basis.rank();
                    int l = Math.min(dims[c], basis.rank());
                    Knn knn = Knn.fit(basis.project(xs, l), ys, g);
                    for (int i : test) {
                        double[] q = new double[l];
                        basis.project(x[i], l, q);
                        if (knn.predict(q, knnK) == y[i]) {
                            correct[gi][c]++;
                        }
                    }
                }
            }
        }
        double[][] acc = new double[gammas.length][dims.length];
        for (int gi = 0; gi < gammas.length; gi++) {
            for (int c = 0; c < dims.length; c++) {
                acc[gi][c] = unscored[c] ? Double.NaN : (double) correct[gi][c] / total;
            }
        }
        return acc;
    }

    private static void assertSameAccuracies(double[][] expected, double[][] actual) {
        for (int g = 0; g < expected.length; g++) {
            assertArrayEquals(expected[g], actual[g], 0.0, "γ index " + g);
        }
    }

    @Test
    void leaveOneOutEqualsRefittingFromScratchKernelForm() {
        int[] y = LdgReference.blocks(3, 8);
        double[][] x = LdgReference.randomData(y, 3, 40, 0.6, 21L);
        int[][] folds = Folds.leaveOneOut(y.length);
        double[][] expected = naive(x, y, 3, 3, GAMMAS, DIMS, 3, folds);
        double[][] actual = LdgCrossValidation.knnAccuracy(x, y, 3, 3, GAMMAS, DIMS, 3, folds, Progress.none());
        assertSameAccuracies(expected, actual);
    }

    @Test
    void kFoldEqualsRefittingFromScratchPrimalAndMixedForms() {
        int[] y = LdgReference.blocks(3, 12);
        // d = 30: LOO folds (m = 35) use the primal form, 4-fold folds (m = 27) the kernel form.
        double[][] x = LdgReference.randomData(y, 3, 30, 0.5, 5L);
        for (int[][] folds : new int[][][] {Folds.leaveOneOut(y.length), Folds.stratifiedKFold(y, 3, 4, 8L)}) {
            double[][] expected = naive(x, y, 3, 4, GAMMAS, DIMS, 3, folds);
            double[][] actual = LdgCrossValidation.accuracy(
                    x, y, 3, 4, GAMMAS, DIMS, folds, LdgCrossValidation.knnScorer(3, 3), 2, Progress.none());
            assertSameAccuracies(expected, actual);
        }
    }

    @Test
    void anEllAboveAFoldsRankIsNotScoredUnlessAllDirectionsAreAskedFor() {
        // z-normalised rows (each sums to 0): n = 30 > d = 6, yet every fold's centred data have rank d − 1 = 5.
        int[] y = LdgReference.blocks(3, 10);
        double[][] x = LdgReference.randomData(y, 3, 6, 0.5, 13L);
        for (double[] row : x) {
            double mean = Arrays.stream(row).average().orElseThrow();
            for (int t = 0; t < row.length; t++) {
                row[t] -= mean;
            }
        }
        int[] dims = {2, 5, 6};
        int[][] folds = Folds.stratifiedKFold(y, 3, 5, 2L);
        var scorer = LdgCrossValidation.knnScorer(3, 3);
        double[][] strict = LdgCrossValidation.accuracy(x, y, 3, 3, GAMMAS, dims, folds, scorer, 1, Progress.none());
        double[][] all = LdgCrossValidation.accuracy(
                x,
                y,
                3,
                3,
                null,
                GAMMAS,
                dims,
                folds,
                scorer,
                LdgCrossValidation.AboveRank.ALL_DIRECTIONS,
                1,
                Progress.none());
        for (int g = 0; g < GAMMAS.length; g++) {
            assertTrue(Double.isNaN(strict[g][2]), "ℓ = 6 > rank 5 is not scored");
            assertEquals(all[g][1], all[g][2], 0.0, "all directions: ℓ = 6 is scored as the fold's 5");
            assertEquals(all[g][1], strict[g][1], 0.0);
        }
        assertSameAccuracies(naive(x, y, 3, 3, GAMMAS, dims, 3, folds), strict);
        assertSameAccuracies(naive(x, y, 3, 3, GAMMAS, dims, 3, folds, true), all);
    }

    @Test
    void projectionsEqualAFreshFitUpToSignAndShift() {
        int[] y = LdgReference.blocks(2, 10);
        for (int d : new int[] {8, 60}) {
            double[][] x = LdgReference.randomData(y, 2, d, 0.8, d);
            int[][] folds = Folds.stratifiedKFold(y, 2, 5, 3L);
            int[] test = folds[2];
            int[] train = Folds.complement(test, y.length);
            LdgBasis fresh = Ldg.fit(Folds.rows(x, train), Folds.labels(y, train), 2, new LdgParams(3, 0.7));
            int l = 5;
            double[][] freshTrain = fresh.project(Folds.rows(x, train), l);
            double[][] freshTest = fresh.project(Folds.rows(x, test), l);
            LdgCrossValidation.FoldScorer check = (tr, trY, te, teY, dims, correct) -> {
                assertSameGeometry(concat(freshTrain, freshTest), concat(tr, te), l);
                correct[0] = 1;
            };
            double[][] acc = LdgCrossValidation.accuracy(
                    x, y, 2, 3, new double[] {0.7}, new int[] {l}, new int[][] {test}, check, 1, Progress.none());
            assertTrue(acc[0][0] > 0, "the scorer saw the fold");
        }
    }

    private static double[][] concat(double[][] a, double[][] b) {
        double[][] out = new double[a.length + b.length][];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** Same pairwise distances on the first l coordinates (invariant to per-column sign and to a shift). */
    private static void assertSameGeometry(double[][] expected, double[][] actual, int l) {
        for (int i = 0; i < expected.length; i++) {
            for (int j = 0; j < i; j++) {
                double de = 0;
                double da = 0;
                for (int c = 0; c < l; c++) {
                    de += (expected[i][c] - expected[j][c]) * (expected[i][c] - expected[j][c]);
                    da += (actual[i][c] - actual[j][c]) * (actual[i][c] - actual[j][c]);
                }
                assertEquals(de, da, DIST_RTOL * (1 + de), "distance " + i + "," + j);
            }
        }
    }

    @Test
    void refittingIsNotFooledByNoise() {
        // Pure noise with random labels, d ≫ n: a basis fitted on all points separates the training labels,
        // so leave-one-out on its projections looks excellent; refitting per fold exposes chance level.
        SplittableRandom r = new SplittableRandom(12);
        int n = 40;
        int d = 300;
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % 2;
            for (int t = 0; t < d; t++) {
                x[i][t] = LdgReference.gaussian(r);
            }
        }
        int[][] loo = Folds.leaveOneOut(n);
        double refit = LdgCrossValidation.knnAccuracy(
                x, y, 2, 5, new double[] {0.5}, new int[] {1}, 3, loo, Progress.none())[0][0];
        LdgBasis once = Ldg.fit(x, y, 2, new LdgParams(5, 0.5));
        double[][] p = once.project(x, 1);
        int ok = 0;
        for (int i = 0; i < n; i++) {
            int[] train = Folds.complement(loo[i], n);
            Knn knn = Knn.fit(Folds.rows(p, train), Folds.labels(y, train), 2);
            ok += knn.predict(p[i], 3) == y[i] ? 1 : 0;
        }
        double fitOnce = (double) ok / n;
        assertTrue(fitOnce > 0.9, "fit-once LOO is optimistic: " + fitOnce);
        assertTrue(refit < 0.75, "refit LOO stays near chance: " + refit);
    }

    @Test
    void resultsDoNotDependOnThreads() {
        int[] y = LdgReference.blocks(3, 10);
        double[][] x = LdgReference.randomData(y, 3, 20, 0.5, 8L);
        int[][] folds = Folds.leaveOneOut(y.length);
        var scorer = LdgCrossValidation.knnScorer(3, 3);
        double[][] one = LdgCrossValidation.accuracy(x, y, 3, 3, GAMMAS, DIMS, folds, scorer, 1, Progress.none());
        double[][] two = LdgCrossValidation.accuracy(x, y, 3, 3, GAMMAS, DIMS, folds, scorer, 2, Progress.none());
        assertSameAccuracies(one, two);
    }

    @Test
    void badArguments() {
        int[] y = LdgReference.blocks(2, 3);
        double[][] x = LdgReference.randomData(y, 2, 4, 1.0, 1L);
        var p = Progress.none();
        assertThrows(
                IllegalArgumentException.class,
                () -> LdgCrossValidation.knnAccuracy(
                        x, y, 2, 2, new double[] {1.5}, new int[] {1}, 3, Folds.leaveOneOut(6), p));
        assertThrows(
                IllegalArgumentException.class,
                () -> LdgCrossValidation.knnAccuracy(
                        x, y, 2, 2, new double[] {0.5}, new int[] {0}, 3, Folds.leaveOneOut(6), p));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> LdgCrossValidation.knnAccuracy(
                        x, y, 2, 2, new double[] {0.5}, new int[] {1}, 3, new int[][] {{0, 1}, {1}}, p));
        assertTrue(e.getMessage().contains("point 1"), e.getMessage());
    }
}
