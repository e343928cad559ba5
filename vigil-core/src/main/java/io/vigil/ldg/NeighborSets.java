package io.vigil.ldg;

import java.util.function.IntFunction;

/**
 * The local neighbourhoods of LDG (thesis §3.1): for every training point i and class j, the indices
 * of the k nearest class-j training points ℋ<sub>i,j</sub>, whose mean is μ<sub>i,j</sub>. These are the
 * nonzero pattern of the neighbour matrices N<sub>sc</sub> and N<sub>j</sub> of eq. (3.24)–(3.25).
 *
 * <p>Rules: Euclidean distance on the raw rows; the point itself is never its own neighbour (the
 * objective is leave-one-out); k is capped per class at n<sub>j</sub> (other classes) or n<sub>j</sub> − 1
 * (own class); equal distances are broken by the smaller training index. A point whose class has no
 * other member has an empty own-class set, and Δ<sub>i,g_i</sub> is then taken as 0 (it contributes
 * nothing to V nor to the own-class term of A).
 */
final class NeighborSets {
    private final int numPoints;
    private final int numClasses;
    private final int[] y;
    private final int[] classCounts;
    private final int[][] sets;

    private NeighborSets(int numPoints, int numClasses, int[] y, int[] classCounts, int[][] sets) {
        this.numPoints = numPoints;
        this.numClasses = numClasses;
        this.y = y;
        this.classCounts = classCounts;
        this.sets = sets;
    }

    /**
     * Builds the sets from per-point candidate orders.
     *
     * @param y class of each of the m points (local indexing)
     * @param k requested neighbours per class, ≥ 1
     * @param orders for local point i, candidate indices sorted by (distance to i, index); may contain
     *     i itself and indices outside the training set
     * @param toLocal maps a candidate index to a local index, or −1 to skip it; null means identity
     */
    static NeighborSets build(int[] y, int numClasses, int k, IntFunction<int[]> orders, int[] toLocal) {
        int m = y.length;
        int[] counts = new int[numClasses];
        for (int c : y) {
            counts[c]++;
        }
        int[][] sets = new int[m * numClasses][];
        int[] fill = new int[numClasses];
        int[] want = new int[numClasses];
        for (int i = 0; i < m; i++) {
            int remaining = 0;
            for (int j = 0; j < numClasses; j++) {
                int available = counts[j] - (j == y[i] ? 1 : 0);
                want[j] = Math.min(k, available);
                sets[i * numClasses + j] = new int[want[j]];
                fill[j] = 0;
                remaining += want[j];
            }
            int[] order = orders.apply(i);
            for (int p = 0; p < order.length && remaining > 0; p++) {
                int q = toLocal == null ? order[p] : toLocal[order[p]];
                if (q < 0 || q == i) {
                    continue;
                }
                int j = y[q];
                if (fill[j] < want[j]) {
                    sets[i * numClasses + j][fill[j]++] = q;
                    remaining--;
                }
            }
            if (remaining != 0) {
                throw new IllegalStateException("candidate order of point " + i + " is missing " + remaining
                        + " training points (internal error)");
            }
        }
        return new NeighborSets(m, numClasses, y, counts, sets);
    }

    /**
     * Builds the sets from the rows themselves: all pairwise distances (Kernels#squaredDistance), then
     * per point a stable sort by distance.
     */
    static NeighborSets fromRows(double[][] x, int[] y, int numClasses, int k) {
        int m = x.length;
        int[][] orders = sortedOrders(distances(x));
        return build(y, numClasses, k, i -> orders[i], null);
    }

    /** All pairwise squared Euclidean distances (symmetric, zero diagonal), see {@link Kernels#pairwise}. */
    static double[][] distances(double[][] x) {
        return Kernels.pairwise(x, true);
    }

    /** For each row of a distance matrix, all column indices sorted by (distance, index). */
    static int[][] sortedOrders(double[][] dist) {
        int m = dist.length;
        int[][] orders = new int[m][];
        Kernels.forEach(m, (long) m * m * 8, i -> {
            int[] idx = new int[m];
            for (int j = 0; j < m; j++) {
                idx[j] = j;
            }
            Kernels.mergeSort(idx, new int[m], 0, m, dist[i]);
            orders[i] = idx;
        });
        return orders;
    }

    int numPoints() {
        return numPoints;
    }

    int numClasses() {
        return numClasses;
    }

    int classOf(int i) {
        return y[i];
    }

    int classCount(int j) {
        return classCounts[j];
    }

    /** p<sub>j</sub> = n<sub>j</sub>/n (eq. 3.10). */
    double prior(int j) {
        return (double) classCounts[j] / numPoints;
    }

    /** ℋ<sub>i,j</sub>: local indices of the class-j neighbours of point i (do not modify). */
    int[] neighbours(int i, int j) {
        return sets[i * numClasses + j];
    }
}
