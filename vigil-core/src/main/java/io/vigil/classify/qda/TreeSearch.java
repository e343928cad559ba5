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
 * before. Between queries it keeps, per class, the last set and its Gaussian (reused when the set is unchanged) and
 * the safe region of its last walk ({@link #keeps}): the walk finds the m + 1 nearest, so the set's farthest point
 * and the nearest point outside it bound, by the triangle inequality, how far the query may move before the set can
 * change; a query inside that region reuses the set without walking. Both are facts about the training points alone
 * (anchor, set and bounds are stored together), so a reset, restored or reused state needs no care. Classes below
 * {@link ClassTrees#MIN_CLASS} points are searched in full. Memory: G·(⌈n_max/64⌉ words + 3ℓ + 2 doubles) + k + 1
 * doubles + one int per tree node. Not thread-safe.
 */
final class TreeSearch extends AbstractSearch {
    /**
     * Relative widening of the safe region's bounds ({@link #keeps}): computed squared distances carry a relative
     * rounding error below (ℓ + 2)·2⁻⁵³ (&lt; 1e-14 for ℓ ≤ 8) and their square roots one more unit; 1e-9 is far
     * above both.
     */
    static final double SLACK = 1e-9;

    /** Absolute widening, above the rounding of distances that underflow. */
    static final double FLOOR = 1e-290;

    /**
     * How far, as a share of the set's farthest distance, a query may move from its last walk and still be settled
     * among that walk's candidates (see {@link #collect}).
     */
    static final double BAND_REACH = 1.0;

    /** Most candidates kept per class. */
    static final int BAND_CAPACITY = 64;

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
    private long kept;

    /** Per class: the query of the class's last walk (its anchor a), valid when {@link #anchored}. */
    private final double[][] anchors;
    /** Per class: an upper bound on the distance from the anchor to every point of the memoised set. */
    private final double[] inner;
    /** Per class: a lower bound on the distance from the anchor to every point outside the memoised set. */
    private final double[] outer;

    private final boolean[] anchored;

    /**
     * Per class: the points within {@link #reach} reach of the band anchor's set, increasing index order (see {@link
     * #selectSet}); valid when {@link #banded}.
     */
    private final int[][] candidates;

    private final int[] candidateCount;
    /** Per class: the query the candidates were collected around. */
    private final double[][] bandAnchors;
    /** Per class: how far the query may be from the band anchor for the candidates to hold the m nearest. */
    private final double[] reach;
    /** Per class: a lower bound on the distance from the band anchor to every point outside the candidates. */
    private final double[] bandRadius;

    private final boolean[] banded;
    private long banded0;

    TreeSearch(LocalQda model, ClassTrees trees) {
        super(model, true);
        if (trees.points != model.points) {
            throw new IllegalArgumentException("local QDA: the trees belong to another model");
        }
        this.trees = trees;
        this.heap = new double[Math.max(1, model.k()) + 1];
        this.visited = new long[model.points.maskWords()];
        this.stack = new int[trees.maxNodes + 1];
        this.stackDistance = new double[trees.maxNodes + 1];
        int classes = model.points.numClasses;
        this.anchors = new double[classes][model.points.dim];
        this.inner = new double[classes];
        this.outer = new double[classes];
        this.anchored = new boolean[classes];
        this.candidates = new int[classes][BAND_CAPACITY];
        this.candidateCount = new int[classes];
        this.bandAnchors = new double[classes][model.points.dim];
        this.reach = new double[classes];
        this.bandRadius = new double[classes];
        this.banded = new boolean[classes];
    }

    /**
     * The safe region of the class's last walk: with δ = ‖q − a‖, every point of the set found at a is within inner
     * + δ of q and every other point beyond outer − δ (triangle inequality), so while inner + δ &lt; outer − δ —
     * each side widened by {@link #SLACK}, far above the rounding of the computed distances the full search
     * compares — the set is still strictly the m nearest, as computed, and the full search would choose it.
     */
    @Override
    boolean keeps(double[] q, int g, int m) {
        if (!anchored[g] || !finite) {
            return false;
        }
        double delta = Math.sqrt(squaredDistance(q, anchors[g])) * (1 + SLACK) + FLOOR;
        boolean keep = (inner[g] + delta) * (1 + SLACK) + FLOOR < (outer[g] - delta) * (1 - SLACK);
        if (keep) {
            kept++;
        }
        return keep;
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
        anchored[g] = false;
        if (tree == null || !finite || m + 1 > heap.length) {
            fullSearch(q, g, m, ws);
            return;
        }
        if (banded[g]) {
            double delta = Math.sqrt(squaredDistance(q, bandAnchors[g])) * (1 + SLACK) + FLOOR;
            if (delta <= reach[g]) {
                // Every point of the m nearest to q lies among the candidates (see collect), and every point
                // outside them is beyond bandRadius − δ of q.
                banded0++;
                int b = candidateCount[g];
                Arrays.fill(ws.mask, 0L);
                if (completeFromBand(q, g, m, 0, candidates[g], b, ws)) {
                    anchor(q, g, candidates[g], b, ws, (bandRadius[g] - delta) * (1 - SLACK));
                    return;
                }
            }
        }
        walks++;
        // The walk finds a superset of the m + 1 nearest (m < n_g), so the band also yields the nearest point
        // outside the set: the anchor's bounds for the next queries (keeps).
        int b = visit(tree, q, g, m + 1, ws.order);
        Arrays.fill(ws.mask, 0L);
        if (!completeFromBand(q, g, m, 0, ws.order, b, ws)) {
            fullSearch(q, g, m, ws);
            return;
        }
        anchor(q, g, ws.order, b, ws, Double.POSITIVE_INFINITY);
        if (anchored[g]) {
            collect(tree, q, g);
        }
    }

    private static double squaredDistance(double[] q, double[] a) {
        double s = 0;
        for (int t = 0; t < a.length; t++) {
            double e = q[t] - a[t];
            s += e * e;
        }
        return s;
    }

    /**
     * Collects the candidates around a fresh anchor a (q, just walked): with ρ the set's farthest distance (inner)
     * and a reach R = {@link #BAND_REACH}·ρ, every point within ρ + 2R of a. For a later query q′ with ‖q′ − a‖ = δ ≤
     * R the m points of a's set are within ρ + δ of q′, so each of q′'s m nearest is within ρ + 2δ of a: among the
     * candidates; every other point is beyond ρ + 2R − δ of q′ (both widened by {@link #SLACK}). The candidates are
     * not kept when more than {@link #BAND_CAPACITY} points are that close.
     */
    private void collect(ClassTrees.Tree tree, double[] q, int g) {
        banded[g] = false;
        double r = inner[g] * BAND_REACH;
        double radius = (inner[g] + 2 * r) * (1 + SLACK) + FLOOR;
        double limit = radius * radius * (1 + SLACK) + FLOOR;
        double[] pts = points.rows[g];
        int dim = points.dim;
        int words = (points.sizes[g] + 63) >>> 6;
        Arrays.fill(visited, 0, words, 0L);
        int count = 0;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            if (tree.boxDistance(q, node) * (1 - ClassTrees.SLACK) - ClassTrees.FLOOR > limit) {
                continue;
            }
            int left = tree.left[node];
            if (left >= 0) {
                stack[top++] = tree.right[node];
                stack[top++] = left;
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
                if (s * (1 - SLACK) - FLOOR <= limit) {
                    if (++count > BAND_CAPACITY) {
                        return;
                    }
                    visited[i >>> 6] |= 1L << i;
                }
            }
        }
        int[] band = candidates[g];
        int b = 0;
        for (int w = 0; w < words; w++) {
            long bits = visited[w];
            while (bits != 0) {
                band[b++] = (w << 6) + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
        }
        candidateCount[g] = b;
        System.arraycopy(q, 0, bandAnchors[g], 0, q.length);
        reach[g] = r;
        bandRadius[g] = (inner[g] + 2 * r) * (1 - SLACK);
        banded[g] = true;
    }

    /**
     * Makes q class g's anchor: the largest computed squared distance of the chosen set and the smallest of the band's
     * other points (the (m + 1)-th smallest of the class, the walk having visited every point that could be among the
     * m + 1 nearest, or a nearer bound {@code beyond} on every point outside the band), as distances widened by {@link
     * #SLACK}.
     */
    private void anchor(double[] q, int g, int[] band, int b, Workspace ws, double beyond) {
        double in = 0;
        double out = Double.POSITIVE_INFINITY;
        for (int j = 0; j < b; j++) {
            int i = band[j];
            double d = ws.dist[i];
            if ((ws.mask[i >>> 6] & (1L << i)) != 0) {
                in = Math.max(in, d);
            } else {
                out = Math.min(out, d);
            }
        }
        double far = Math.min(Math.sqrt(out) * (1 - SLACK), beyond);
        if (!(far < Double.POSITIVE_INFINITY)) {
            return;
        }
        System.arraycopy(q, 0, anchors[g], 0, q.length);
        inner[g] = Math.sqrt(in) * (1 + SLACK) + FLOOR;
        outer[g] = far;
        anchored[g] = true;
    }

    /** Class searches that walked a tree (for tests and diagnostics). */
    long walks() {
        return walks;
    }

    /** Class searches settled among the candidates of the last walk, without a walk (for tests and diagnostics). */
    long banded() {
        return banded0;
    }

    /** Class searches settled by the last walk's safe region, without a walk (for tests and diagnostics). */
    long kept() {
        return kept;
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
