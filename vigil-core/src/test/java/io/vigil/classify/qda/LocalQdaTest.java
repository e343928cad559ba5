package io.vigil.classify.qda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LocalQdaTest {
    /** Welford vs two-pass statistics over ≤ 128 points of magnitude ~1: agree to a few ulps of the sums. */
    private static final double MOMENT_TOL = 1e-12;

    private static final double[][] POINTS = {{0, 0}, {2, 0}, {10, 10}, {1, 1}, {1, 3}};
    private static final int[] Y = {0, 0, 0, 1, 1};

    @Test
    void matchesHandComputationOnTinyCase() {
        LocalQda qda = LocalQda.fit(POINTS, Y, 2, 2);
        double[] q = {1, 0};
        // Class 0: neighbours (0,0),(2,0): mean (1,0), ML variances (1,0) → Σ0 = diag(1+r, r).
        // Class 1: neighbours (1,1),(1,3): mean (1,2), ML variances (0,1) → Σ1 = diag(r, 1+r).
        double r = 1e-4; // the ridge of docs/method.md §2, written out so a changed constant fails this test
        double f0 = -0.0 - Math.log(1 + r) - Math.log(r) + 2 * Math.log(3.0 / 5);
        double f1 = -(4 / (1 + r)) - Math.log(r) - Math.log(1 + r) + 2 * Math.log(2.0 / 5);
        assertTrue(f0 > f1);
        LocalQda.Workspace ws = qda.newWorkspace();
        assertEquals(0, qda.predict(q, ws));

        double[][] means = new double[2][2];
        double[][] vars = new double[2][2];
        double[] lp = new double[2];
        gaussians(qda, q, ws, means, vars, lp);
        assertArrayEquals(new double[] {1, 0}, means[0], MOMENT_TOL);
        assertArrayEquals(new double[] {1, 2}, means[1], MOMENT_TOL);
        assertArrayEquals(new double[] {1 + r, r}, vars[0], MOMENT_TOL);
        assertArrayEquals(new double[] {r, 1 + r}, vars[1], MOMENT_TOL);
        assertArrayEquals(new double[] {Math.log(0.6), Math.log(0.4)}, lp, 0);
        assertEquals(f0, LocalQda.discriminant(q, means[0], vars[0], lp[0]), MOMENT_TOL);
        assertEquals(f1, LocalQda.discriminant(q, means[1], vars[1], lp[1]), MOMENT_TOL);
    }

    @Test
    void priorsDecideWhenGaussiansAreIdentical() {
        // Both classes see the same two neighbours' geometry; the larger class wins through 2 log p_g.
        double[][] pts = {{0}, {2}, {0}, {2}, {50}};
        int[] y = {0, 0, 1, 1, 1};
        LocalQda qda = LocalQda.fit(pts, y, 2, 2);
        assertEquals(1, qda.predict(new double[] {1}, qda.newWorkspace()));
    }

    @Test
    void kIsCappedByClassSize() {
        LocalQda big = LocalQda.fit(POINTS, Y, 2, 100);
        LocalQda exact = LocalQda.fit(POINTS, Y, 2, 3);
        double[][] mBig = new double[2][2];
        double[][] vBig = new double[2][2];
        double[][] mExact = new double[2][2];
        double[][] vExact = new double[2][2];
        double[] lp = new double[2];
        double[] q = {0.5, 0.5};
        gaussians(big, q, big.newWorkspace(), mBig, vBig, lp);
        gaussians(exact, q, exact.newWorkspace(), mExact, vExact, lp);
        assertArrayEquals(mExact[0], mBig[0], 0);
        assertArrayEquals(vExact[1], vBig[1], 0);
        // Class 0 with all 3 points: mean (4, 10/3).
        assertArrayEquals(new double[] {4, 10.0 / 3}, mBig[0], MOMENT_TOL);
    }

    @Test
    void equalDistancesPreferTheLowerTrainingIndex() {
        // Query at 0: points at −1 (index 0) and +1 (index 1) tie; k = 1 must take index 0.
        double[][] pts = {{-1}, {1}, {5}};
        int[] y = {0, 0, 1};
        LocalQda qda = LocalQda.fit(pts, y, 2, 1);
        double[][] means = new double[2][1];
        double[][] vars = new double[2][1];
        gaussians(qda, new double[] {0}, qda.newWorkspace(), means, vars, new double[2]);
        assertEquals(-1, means[0][0]);
    }

    @Test
    void agreesWithBruteForceAndPredictEachKMatchesPerKModels() {
        SplittableRandom rnd = new SplittableRandom(7);
        int n = 90;
        int dim = 3;
        int classes = 3;
        double[][] pts = new double[n][dim];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % classes;
            for (int t = 0; t < dim; t++) {
                pts[i][t] = rnd.nextGaussian() * (1 + y[i]) + 0.7 * y[i] * t;
            }
        }
        int[] ks = {1, 2, 4, 8, 16, 32, 64};
        LocalQda[] perK = new LocalQda[ks.length];
        LocalQda.Workspace[] wsK = new LocalQda.Workspace[ks.length];
        for (int c = 0; c < ks.length; c++) {
            perK[c] = LocalQda.fit(pts, y, classes, ks[c]);
            wsK[c] = perK[c].newWorkspace();
        }
        LocalQda any = perK[0];
        LocalQda.Workspace ws = any.newWorkspace();
        int[] out = new int[ks.length];
        for (int trial = 0; trial < 200; trial++) {
            double[] q = new double[dim];
            for (int t = 0; t < dim; t++) {
                q[t] = rnd.nextGaussian() * 2;
            }
            any.predictEachK(q, ks, out, ws);
            for (int c = 0; c < ks.length; c++) {
                int expected = bruteForce(pts, y, classes, ks[c], q);
                assertEquals(expected, perK[c].predict(q, wsK[c]), "k=" + ks[c]);
                assertEquals(expected, out[c], "predictEachK k=" + ks[c]);
            }
        }
    }

    /**
     * The neighbour cache must give exactly the uncached class Gaussians (bit for bit: same neighbour set, same
     * summation order) and the brute-force reference's neighbour sets (full sort by (distance, index), as the
     * search did before the cache), for query walks with small and large steps and jumps (a new series), on
     * points with many exactly tied distances and repeated points.
     */
    @Test
    void neighborCacheMatchesTheUncachedSearchAndTheBruteForceSets() {
        SplittableRandom rnd = new SplittableRandom(11);
        int dim = 4;
        int classes = 4;
        int n = 400;
        double[][] pts = new double[n][dim];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % classes == 3 ? 3 : rnd.nextInt(3);
            if (i >= 20 && rnd.nextInt(5) == 0) {
                pts[i] = pts[rnd.nextInt(i)].clone(); // repeated point
                continue;
            }
            for (int t = 0; t < dim; t++) {
                // Integer coordinates on a small grid: many exactly equal distances from grid-point queries.
                pts[i][t] = rnd.nextInt(7) - 3 + y[i];
            }
        }
        y[n - 1] = 3;
        for (int k : new int[] {1, 5, 16, 40, 200}) {
            LocalQda qda = LocalQda.fit(pts, y, classes + 1, k); // class 4 has no points
            LocalQda.Workspace ws = qda.newWorkspace();
            NeighborCache cache = qda.newNeighborCache(0); // bounds for every class, however small
            double[][] mc = new double[classes + 1][dim];
            double[][] vc = new double[classes + 1][dim];
            double[][] mu = new double[classes + 1][dim];
            double[][] vu = new double[classes + 1][dim];
            double[] lp = new double[classes + 1];
            double[] q = new double[dim];
            for (int step = 0; step < 3000; step++) {
                int kind = rnd.nextInt(20);
                for (int t = 0; t < dim; t++) {
                    if (kind == 0) {
                        q[t] = rnd.nextInt(9) - 4; // jump to a grid point: ties
                    } else if (kind == 1) {
                        q[t] = rnd.nextGaussian() * 3; // jump: another series
                    } else {
                        q[t] += rnd.nextGaussian() * (kind < 10 ? 0.01 : 0.2);
                    }
                }
                find(cache, q, -1, Double.NaN, ws, mc, vc, lp);
                gaussians(qda, q, ws, mu, vu, lp);
                for (int g = 0; g < classes + 1; g++) {
                    assertArrayEquals(mu[g], mc[g], 0.0, "k=" + k + " step " + step + " class " + g);
                    assertArrayEquals(vu[g], vc[g], 0.0, "k=" + k + " step " + step + " class " + g);
                    if (g < classes) {
                        double[][] ref = referenceGaussian(pts, y, g, k, q);
                        assertArrayEquals(ref[0], mc[g], MOMENT_TOL, "k=" + k + " step " + step + " class " + g);
                        assertArrayEquals(ref[1], vc[g], MOMENT_TOL, "k=" + k + " step " + step + " class " + g);
                    }
                }
            }
            LocalQda other = LocalQda.fit(pts, y, classes + 1, k);
            assertThrows(
                    IllegalArgumentException.class,
                    () -> find(cache, q, -1, Double.NaN, other.newWorkspace(), mc, vc, lp));
        }
    }

    /**
     * The dot-product screening gives bit-identical class Gaussians to the plain full search along long random walks
     * q(t+1) = q(t) + p_t·e_t (as m_y moves for the joint estimator), on integer-grid points with many repeated
     * points and exactly tied distances, through resets to t = 0, jumps (another series' state), a fresh tracker
     * mid-series (a restored state, whose tracker is rebuilt) and an inconsistent innovation. Compared with 0.0
     * tolerance: the neighbour sets must be identical, not close.
     */
    @Test
    void dotScreeningMatchesTheFullSearchBitForBitAlongRandomWalks() {
        SplittableRandom rnd = new SplittableRandom(23);
        int dim = 6;
        int classes = 4;
        int n = 600;
        int steps = 400;
        double[][] pts = new double[n][dim];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = rnd.nextInt(classes);
            if (i >= 20 && rnd.nextInt(5) == 0) {
                pts[i] = pts[rnd.nextInt(i)].clone(); // repeated point: tied distances from every query
                continue;
            }
            for (int t = 0; t < dim; t++) {
                pts[i][t] = rnd.nextInt(7) - 3 + y[i];
            }
        }
        double[][] gains = new double[steps][dim];
        for (int s = 0; s < steps; s++) {
            for (int t = 0; t < dim; t++) {
                // Dyadic gains on some steps keep the walk on the grid (exact ties); the others are generic.
                gains[s][t] = s % 3 == 0 ? (rnd.nextInt(3) - 1) * 0.5 : rnd.nextGaussian() * 0.3 / Math.sqrt(s + 1);
            }
        }
        for (int k : new int[] {1, 7, 32, 200}) {
            LocalQda qda = LocalQda.fit(pts, y, classes + 1, k); // class 4 has no points
            DotTable table = qda.dotTable(gains);
            LocalQda.Workspace ws = qda.newWorkspace();
            DotTracker tracker = qda.newTracker(table);
            double[][] ms = new double[classes + 1][dim];
            double[][] vs = new double[classes + 1][dim];
            double[][] mu = new double[classes + 1][dim];
            double[][] vu = new double[classes + 1][dim];
            double[] lp = new double[classes + 1];
            double[] start = new double[dim];
            double[] shift = new double[dim];
            double[] q = new double[dim];
            int step = 0;
            for (int iter = 0; iter < 4000; iter++) {
                int kind = rnd.nextInt(200);
                if (step == steps || kind == 0) {
                    step = 0; // the next series (state reset)
                    Arrays.fill(shift, 0.0);
                    for (int t = 0; t < dim; t++) {
                        start[t] = rnd.nextInt(5) - 2;
                    }
                } else if (kind == 1) {
                    for (int t = 0; t < dim; t++) {
                        shift[t] += rnd.nextGaussian(); // jump: another state at the same t
                    }
                } else if (kind == 2) {
                    tracker = qda.newTracker(table); // restored mid-series: the attachment is rebuilt
                }
                double e = step % 3 == 0 ? rnd.nextInt(5) - 2 : rnd.nextGaussian();
                for (int t = 0; t < dim; t++) {
                    shift[t] += gains[step][t] * e;
                    q[t] = start[t] + shift[t];
                }
                double told = kind == 3 ? e + 1 : e; // a caller passing the wrong innovation
                find(tracker, q, step, told, ws, ms, vs, lp);
                gaussians(qda, q, ws, mu, vu, lp);
                for (int g = 0; g < classes + 1; g++) {
                    String what = "k=" + k + " iteration " + iter + " step " + step + " class " + g;
                    assertArrayEquals(mu[g], ms[g], 0.0, what);
                    assertArrayEquals(vu[g], vs[g], 0.0, what);
                }
                step++;
            }
            assertTrue(tracker.resyncs() < 200, "resyncs: " + tracker.resyncs());
            LocalQda other = LocalQda.fit(pts, y, classes + 1, k);
            DotTracker foreign = tracker;
            assertThrows(
                    IllegalArgumentException.class, () -> find(foreign, q, 0, 0.0, other.newWorkspace(), ms, vs, lp));
            assertThrows(IllegalArgumentException.class, () -> other.newTracker(table));
        }
    }

    /**
     * Mean and ridged ML variance of the k nearest class-g points by full sort on (distance, index), Welford in
     * order of increasing distance: the search and moments as they were before the neighbour cache.
     */
    private static double[][] referenceGaussian(double[][] pts, int[] y, int g, int k, double[] q) {
        Integer[] idx =
                IntStream.range(0, pts.length).filter(i -> y[i] == g).boxed().toArray(Integer[]::new);
        Arrays.sort(
                idx, Comparator.<Integer>comparingDouble(i -> dist2(pts[i], q)).thenComparingInt(i -> i));
        int m = Math.min(k, idx.length);
        int dim = q.length;
        double[] mean = new double[dim];
        double[] m2 = new double[dim];
        for (int j = 0; j < m; j++) {
            double inv = 1.0 / (j + 1);
            for (int t = 0; t < dim; t++) {
                double x = pts[idx[j]][t];
                double delta = x - mean[t];
                mean[t] += delta * inv;
                m2[t] += delta * (x - mean[t]);
            }
        }
        for (int t = 0; t < dim; t++) {
            m2[t] = m2[t] / m + LocalQda.COVARIANCE_RIDGE;
        }
        return new double[][] {mean, m2};
    }

    @Test
    void emptyClassIsNeverPredictedAndReportsNaNGaussian() {
        LocalQda qda = LocalQda.fit(new double[][] {{0}, {1}}, new int[] {0, 2}, 3, 1);
        LocalQda.Workspace ws = qda.newWorkspace();
        assertEquals(0, qda.predict(new double[] {-5}, ws));
        double[][] means = new double[3][1];
        double[][] vars = new double[3][1];
        double[] lp = new double[3];
        gaussians(qda, new double[] {0}, ws, means, vars, lp);
        assertEquals(Double.NEGATIVE_INFINITY, lp[1]);
        assertTrue(Double.isNaN(means[1][0]));
    }

    @Test
    void rejectsBadShapesNamingBothSizes() {
        LocalQda qda = LocalQda.fit(POINTS, Y, 2, 2);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> qda.predict(new double[3], qda.newWorkspace()));
        assertTrue(e.getMessage().contains("length 3") && e.getMessage().contains("dimension 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LocalQda.fit(POINTS, new int[] {0, 1}, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> LocalQda.fit(POINTS, Y, 2, 0));
        assertThrows(IllegalArgumentException.class, () -> LocalQda.fit(POINTS, new int[] {0, 0, 0, 1, 2}, 2, 1));
        LocalQda other = LocalQda.fit(POINTS, Y, 2, 1);
        assertThrows(IllegalArgumentException.class, () -> qda.predict(new double[2], other.newWorkspace()));
        assertThrows(
                IllegalArgumentException.class,
                () -> qda.classGaussians(new double[2], qda.newWorkspace(), new ClassGaussians(1, 2)));
    }

    /** Independent reference: full sort, two-pass mean and ML variance, explicit discriminant. */
    private static int bruteForce(double[][] pts, int[] y, int classes, int k, double[] q) {
        int n = pts.length;
        int best = -1;
        double bestF = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < classes; g++) {
            final int cls = g;
            Integer[] idx =
                    IntStream.range(0, n).filter(i -> y[i] == cls).boxed().toArray(Integer[]::new);
            Arrays.sort(
                    idx,
                    Comparator.<Integer>comparingDouble(i -> dist2(pts[i], q)).thenComparingInt(i -> i));
            int m = Math.min(k, idx.length);
            int dim = q.length;
            double f = 2 * Math.log((double) idx.length / n);
            for (int t = 0; t < dim; t++) {
                double mean = 0;
                for (int j = 0; j < m; j++) {
                    mean += pts[idx[j]][t];
                }
                mean /= m;
                double var = 0;
                for (int j = 0; j < m; j++) {
                    double dd = pts[idx[j]][t] - mean;
                    var += dd * dd;
                }
                var = var / m + LocalQda.COVARIANCE_RIDGE;
                f -= (q[t] - mean) * (q[t] - mean) / var + Math.log(var);
            }
            if (best < 0 || f > bestF) {
                best = g;
                bestF = f;
            }
        }
        return best;
    }

    private static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            s += (a[t] - b[t]) * (a[t] - b[t]);
        }
        return s;
    }

    /** {@link LocalQda#classGaussians} into per-class rows (the layout the assertions below read). */
    private static void gaussians(
            LocalQda qda, double[] q, LocalQda.Workspace ws, double[][] means, double[][] vars, double[] lp) {
        find(qda.fullSearch(), q, -1, Double.NaN, ws, means, vars, lp);
    }

    /** One search step into per-class rows; the rows may be larger than the model's dimension. */
    private static void find(
            ClassGaussianSearch search,
            double[] q,
            int step,
            double e,
            LocalQda.Workspace ws,
            double[][] means,
            double[][] vars,
            double[] lp) {
        LocalQda qda = search.model();
        if (means.length < qda.numClasses() || vars.length < qda.numClasses() || lp.length < qda.numClasses()) {
            throw new IllegalArgumentException(
                    "storage for " + means.length + " classes, model has " + qda.numClasses());
        }
        ClassGaussians out = qda.newClassGaussians();
        search.find(q, step, e, ws, out);
        for (int g = 0; g < qda.numClasses(); g++) {
            System.arraycopy(out.mean(g), 0, means[g], 0, qda.dim());
            System.arraycopy(out.variance(g), 0, vars[g], 0, qda.dim());
            lp[g] = out.logPrior(g);
        }
    }
}
