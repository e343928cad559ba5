package io.vigil.classify.qda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The k-d tree search on a class of a thousand points in four dimensions (a window model's background class): along
 * a walk of small steps, jumps and resets, on continuous points and on a grid with many tied distances, every query
 * gives the full search's Gaussians bit for bit, whether it walked, stayed in the last walk's safe region or chose among its candidates; trees are built only in low dimension for a large class.
 */
class TreeSearchTest {
    private static final int DIM = 4;

    @Test
    void treeSetsAreTheFullSearchSets() {
        assertFullSearchSets(false);
        assertFullSearchSets(true);
    }

    private static void assertFullSearchSets(boolean grid) {
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 1300;
        double[][] pts = new double[n][DIM];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i < 1000 ? 0 : 1 + i % 3;
            for (int t = 0; t < DIM; t++) {
                double v = grid ? rnd.nextInt(5) - 2 : rnd.nextGaussian();
                pts[i][t] = v + (y[i] == 0 ? 0 : y[i] * 0.7);
            }
        }
        for (int k : new int[] {1, 5, 40}) {
            LocalQda model = LocalQda.fit(pts, y, 4, k);
            TreeSearch search = (TreeSearch) model.searches(null).newSearch();
            LocalQda.Workspace ws = model.newWorkspace();
            ClassGaussians got = model.newClassGaussians();
            ClassGaussians want = model.newClassGaussians();
            double[] q = new double[DIM];
            for (int iter = 0; iter < 3000; iter++) {
                if (rnd.nextInt(200) == 0) {
                    for (int t = 0; t < DIM; t++) {
                        q[t] = rnd.nextGaussian();
                    }
                } else if (rnd.nextInt(100) == 0) {
                    // Next to the bisector of two background points, where the safe region is thinnest.
                    int a = rnd.nextInt(1000);
                    int b = rnd.nextInt(1000);
                    for (int t = 0; t < DIM; t++) {
                        q[t] = 0.5 * (pts[a][t] + pts[b][t]) + 1e-12 * rnd.nextGaussian();
                    }
                } else {
                    double step = rnd.nextInt(10) == 0 ? 0.3 : 0.002;
                    for (int t = 0; t < DIM; t++) {
                        q[t] += step * rnd.nextGaussian();
                    }
                }
                search.find(q, -1, 0, ws, got);
                model.classGaussians(q, ws, want);
                for (int g = 0; g < 4; g++) {
                    String what =
                            (grid ? "grid" : "continuous") + ", k = " + k + ", iteration " + iter + ", class " + g;
                    assertArrayEquals(want.mean(g), got.mean(g), 0.0, what);
                    assertArrayEquals(want.variance(g), got.variance(g), 0.0, what);
                }
            }
            assertTrue(search.walks() > 0, "k = " + k + ": the large class was searched by its tree");
            assertTrue(search.kept() > 0, "k = " + k + ": some queries stayed in their safe region");
            if (k < 40) { // with k = 40 more than BAND_CAPACITY points are that close: never banded
                assertTrue(search.banded() > 0, "k = " + k + ": some queries were settled among the last candidates");
            }
        }
    }

    @Test
    void treesOnlyInLowDimensionForALargeClass() {
        SplittableRandom rnd = new SplittableRandom(3);
        assertNotNull(ClassTrees.of(points(rnd, 300, 8), ClassTrees.MIN_CLASS));
        assertNull(ClassTrees.of(points(rnd, 300, 9), ClassTrees.MIN_CLASS));
        assertNull(ClassTrees.of(points(rnd, 200, 4), ClassTrees.MIN_CLASS));
        LocalQda small = LocalQda.fit(new double[][] {{0, 0}, {1, 1}, {2, 2}}, new int[] {0, 1, 1}, 2, 1);
        assertEquals(null, small.newTreeSearch(ClassTrees.MIN_CLASS));
    }

    private static ClassPoints points(SplittableRandom rnd, int n, int dim) {
        double[] rows = new double[n * dim];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = rnd.nextGaussian();
        }
        return new ClassPoints(dim, new double[][] {rows}, new int[] {n});
    }
}
