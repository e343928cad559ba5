package io.vigil.classify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KnnTest {
    @Test
    void majorityOfNearestNeighbors() {
        double[][] p = {{0}, {1}, {2}, {10}, {11}};
        int[] y = {0, 0, 1, 1, 1};
        Knn knn = Knn.fit(p, y, 2);
        assertEquals(0, knn.predict(new double[] {0.4}, 1));
        assertEquals(0, knn.predict(new double[] {0.4}, 3), "neighbours 0,1,2 → votes 2:1");
        assertEquals(1, knn.predict(new double[] {0.4}, 5), "all five → 2:3");
        assertEquals(1, knn.predict(new double[] {9}, 3));
    }

    @Test
    void voteTieGoesToNearestNeighborsClass() {
        double[][] p = {{0}, {1}, {3}, {4}};
        int[] y = {0, 1, 1, 0};
        Knn knn = Knn.fit(p, y, 2);
        // k=2 at 0.9: neighbours 1 (class 1, d=.1) then 0 (class 0, d=.9): tie 1:1 → nearest is class 1.
        assertEquals(1, knn.predict(new double[] {0.9}, 2));
        // at 0.2: neighbours 0 (class 0) then 1 (class 1): tie → class 0.
        assertEquals(0, knn.predict(new double[] {0.2}, 2));
        // 4 neighbours, 2:2 tie: nearest to 3.9 is point 3 (class 0).
        assertEquals(0, knn.predict(new double[] {3.9}, 4));
    }

    @Test
    void equalDistancesBreakBySmallerIndex() {
        double[][] p = {{1}, {-1}, {1}};
        int[] y = {2, 1, 0};
        Knn knn = Knn.fit(p, y, 3);
        // all three at distance 1 from 0: k=1 takes index 0.
        assertEquals(2, knn.predict(new double[] {0}, 1));
        // k=2 takes indices 0 and 1: tie 1:1 → nearest of them (index 0, class 2).
        assertEquals(2, knn.predict(new double[] {0}, 2));
    }

    @Test
    void kIsCappedAtTrainingSize() {
        Knn knn = Knn.fit(new double[][] {{0}, {5}, {6}}, new int[] {0, 1, 1}, 2);
        assertEquals(1, knn.predict(new double[] {0}, 100));
    }

    @Test
    void agreesWithBruteForce() {
        SplittableRandom r = new SplittableRandom(3);
        int n = 200;
        double[][] p = new double[n][4];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextInt(3);
            for (int t = 0; t < 4; t++) {
                p[i][t] = r.nextInt(5) + y[i] * 0.5; // integer grid: many exact distance ties
            }
        }
        Knn knn = Knn.fit(p, y, 3);
        for (int trial = 0; trial < 300; trial++) {
            double[] q = new double[4];
            for (int t = 0; t < 4; t++) {
                q[t] = r.nextInt(6);
            }
            int k = 1 + r.nextInt(9);
            assertEquals(bruteForce(p, y, 3, q, k), knn.predict(q, k), "trial " + trial);
        }
        double[][] qs = {p[0], p[1], p[2]};
        assertArrayEquals(
                new int[] {knn.predict(p[0], 3), knn.predict(p[1], 3), knn.predict(p[2], 3)}, knn.predictAll(qs, 3));
    }

    /**
     * Clustered continuous data, as LDG projections are, with queries inside, between and far from the clusters, in 1
     * to 12 dimensions: the column-wise distance loop picks exactly the brute-force neighbours.
     */
    @Test
    void agreesWithBruteForceOnClusteredData() {
        SplittableRandom r = new SplittableRandom(8);
        for (int dim : new int[] {1, 2, 4, 12}) {
            int n = 270;
            double[][] p = new double[n][dim];
            int[] y = new int[n];
            for (int i = 0; i < n; i++) {
                y[i] = i % 3;
                for (int t = 0; t < dim; t++) {
                    p[i][t] = (t == 0 ? 5.0 * y[i] : 0.0) + 0.05 * r.nextGaussian();
                }
            }
            Knn knn = Knn.fit(p, y, 3);
            for (int trial = 0; trial < 400; trial++) {
                double[] q = new double[dim];
                double spread = trial % 2 == 0 ? 0.1 : 4.0;
                for (int t = 0; t < dim; t++) {
                    q[t] = (t == 0 ? 5.0 * r.nextInt(3) : 0.0) + spread * r.nextGaussian();
                }
                for (int k : new int[] {1, 3, 8}) {
                    assertEquals(bruteForce(p, y, 3, q, k), knn.predict(q, k), "dim " + dim + ", trial " + trial);
                }
            }
        }
    }

    /** A tight class nearest to q but with fewer than k points does not win the vote on its own. */
    @Test
    void aNearClassWithFewerThanKPointsDoesNotWinOutright() {
        double[][] p = {{0.0, 0.0}, {0.01, 0.0}, {3.0, 0.0}, {3.01, 0.0}, {3.02, 0.0}, {3.03, 0.0}};
        int[] y = {0, 0, 1, 1, 1, 1};
        Knn knn = Knn.fit(p, y, 2);
        double[] q = {0.5, 0.0};
        assertEquals(0, knn.predict(q, 1));
        assertEquals(0, knn.predict(q, 3), "neighbours 0, 1, 2: votes 2:1");
        assertEquals(1, knn.predict(q, 5), "neighbours 0..4: votes 2:3");
        assertEquals(bruteForce(p, y, 2, q, 5), knn.predict(q, 5));
    }

    private static int bruteForce(double[][] p, int[] y, int g, double[] q, int k) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < p.length; i++) {
            idx.add(i);
        }
        idx.sort(Comparator.comparingDouble((Integer i) -> dist(p[i], q)).thenComparingInt(i -> i));
        int[] votes = new int[g];
        for (int j = 0; j < k; j++) {
            votes[y[idx.get(j)]]++;
        }
        int max = 0;
        for (int v : votes) {
            max = Math.max(max, v);
        }
        for (int j = 0; j < k; j++) {
            if (votes[y[idx.get(j)]] == max) {
                return y[idx.get(j)];
            }
        }
        throw new AssertionError();
    }

    private static double dist(double[] a, double[] b) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            s += (a[t] - b[t]) * (a[t] - b[t]);
        }
        return s;
    }

    @Test
    void badArguments() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> Knn.fit(new double[][] {{1, 2}}, new int[] {0, 1}, 2));
        assertTrue(e.getMessage().contains("1 rows") && e.getMessage().contains("2 class indices"), e.getMessage());
        Knn knn = Knn.fit(new double[][] {{1, 2}}, new int[] {0}, 1);
        e = assertThrows(IllegalArgumentException.class, () -> knn.predict(new double[3], 1));
        assertTrue(e.getMessage().contains("3 dimensions") && e.getMessage().contains("have 2"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> knn.predict(new double[2], 0));
        assertThrows(IllegalArgumentException.class, () -> Knn.fit(new double[][] {{1}}, new int[] {1}, 1));
    }
}
