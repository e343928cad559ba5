package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;
import java.util.Arrays;

/**
 * A {@link ClassGaussianSearch} for one series that finds each large class's k nearest points through the class's
 * k-d tree ({@link ClassTrees}, shared by every series): it walks the boxes nearest first, keeps the k smallest
 * distances found so far, skips a box only when it is certainly farther than all of them (see {@link ClassTrees}),
 * and hands the points it visited — a superset of the k nearest, ties at the k-th distance included — to the band
 * completion every search ends with: exact distances computed as the full search computes them, chosen by (distance,
 * index). The Gaussians are therefore those of {@link LocalQda#classGaussians} bit for bit, whatever the query did
 * before: the search keeps nothing between queries but the last set and its Gaussian (reused when the set is
 * unchanged), so a reset, restored or reused state needs no care. Classes below {@link ClassTrees#MIN_CLASS} points
 * are searched in full. Memory: G·(⌈n_max/64⌉ words + 2ℓ doubles) + k doubles + one int per tree node. Not
 * thread-safe.
 */
final class TreeSearch extends AbstractSearch {
    private final ClassTrees trees;
    /** Max-heap of the k smallest distances visited so far. */
    private final double[] heap;

    /** The points visited by the current class's walk, a bit per point (read back in index order). */
    private final long[] visited;

    private final int[] stack;
    /** The squared box distance of each node on the stack, as computed when it was pushed. */
    private final double[] stackDistance;

    private boolean finite;
    private long walks;

    TreeSearch(LocalQda model, ClassTrees trees) {
        super(model, true);
        if (trees.points != model.points) {
            throw new IllegalArgumentException("local QDA: the trees belong to another model");
        }
        this.trees = trees;
        this.heap = new double[Math.max(1, model.k())];
        this.visited = new long[model.points.maskWords()];
        this.stack = new int[trees.maxNodes + 1];
        this.stackDistance = new double[trees.maxNodes + 1];
    }

    @Override
    void prepare(double[] q, int step, double innovation) {
        boolean ok = true;
        for (double v : q) {
            ok &= Double.isFinite(v);
        }
        finite = ok;
    }

    @Override
    void selectSet(double[] q, int g, int m, Workspace ws) {
        ClassTrees.Tree tree = trees.trees[g];
        if (tree == null || !finite || m > heap.length) {
            fullSearch(q, g, m, ws);
            return;
        }
        walks++;
        int b = visit(tree, q, g, m, ws.order);
        Arrays.fill(ws.mask, 0L);
        if (!completeFromBand(q, g, m, 0, ws.order, b, ws)) {
            fullSearch(q, g, m, ws);
        }
    }

    /** Class searches that walked a tree (for tests and diagnostics). */
    long walks() {
        return walks;
    }

    /** Walks the tree nearest box first; the visited points' indices, increasing, into {@code band}; their count. */
    private int visit(ClassTrees.Tree tree, double[] q, int g, int m, int[] band) {
        double[] pts = points.rows[g];
        int dim = points.dim;
        int size = 0;
        int top = 0;
        int words = (points.sizes[g] + 63) >>> 6;
        Arrays.fill(visited, 0, words, 0L);
        stack[0] = 0;
        stackDistance[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            if (size == m && stackDistance[top] * (1 - ClassTrees.SLACK) - ClassTrees.FLOOR > heap[0]) {
                continue;
            }
            int left = tree.left[node];
            if (left >= 0) {
                int right = tree.right[node];
                double dl = tree.boxDistance(q, left);
                double dr = tree.boxDistance(q, right);
                boolean leftNearer = dl <= dr;
                stack[top] = leftNearer ? right : left;
                stackDistance[top++] = leftNearer ? dr : dl;
                stack[top] = leftNearer ? left : right;
                stackDistance[top++] = leftNearer ? dl : dr;
                continue;
            }
            for (int j = tree.start[node]; j < tree.end[node]; j++) {
                int i = tree.order[j];
                int base = i * dim;
                double s = 0;
                for (int t = 0; t < dim; t++) {
                    double e = q[t] - pts[base + t];
                    s += e * e;
                }
                visited[i >>> 6] |= 1L << i;
                if (size < m) {
                    heap[size] = s;
                    siftUp(size++);
                } else if (s < heap[0]) {
                    heap[0] = s;
                    siftDown(size);
                }
            }
        }
        int b = 0;
        for (int w = 0; w < words; w++) {
            long bits = visited[w];
            while (bits != 0) {
                band[b++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
        }
        return b;
    }

    private void siftUp(int at) {
        double v = heap[at];
        while (at > 0) {
            int parent = (at - 1) >>> 1;
            if (heap[parent] >= v) {
                break;
            }
            heap[at] = heap[parent];
            at = parent;
        }
        heap[at] = v;
    }

    private void siftDown(int size) {
        double v = heap[0];
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && heap[child + 1] > heap[child]) {
                child++;
            }
            if (heap[child] <= v) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = v;
    }
}
