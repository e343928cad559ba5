package io.vigil.classify.qda;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A k-d tree over the training points of each large class (axis-aligned bounding boxes, leaves of at most {@link
 * #LEAF} points), built once per {@link LocalQda} and shared by every series and thread: a search for the k nearest
 * points of a class visits the boxes nearest to the query and skips a box only when the squared distance from the
 * query to the box, lowered by {@link #SLACK} of itself, is above the k-th smallest computed distance found so far,
 * so every point the full search could select is visited ({@link TreeSearch}). In low dimension (ℓ ≤ {@link
 * #MAX_DIM}, the window models of docs/watch.md have ℓ = G − 1) that visits tens of points of a class of thousands
 * instead of all of them. Immutable.
 */
final class ClassTrees {
    /** Largest dimension ℓ the trees are built for; above it a box rarely excludes anything. */
    static final int MAX_DIM = 8;

    /**
     * Size of the largest class from which trees are built (then for every class of more than {@link #LEAF}
     * points); below it a search over all points costs little and the other searches of {@link LocalQda#searches}
     * serve.
     */
    static final int MIN_CLASS = 256;

    /** Most points per leaf. */
    static final int LEAF = 8;

    /**
     * Relative lowering of a box's squared distance before it is compared. A computed squared distance and a
     * computed box distance each carry a relative rounding error below (ℓ + 2)·2⁻⁵³ (&lt; 1e-14 for ℓ ≤ 8), so a
     * point of a skipped box is certainly farther, as computed, than the bound; 1e-9 is far above that.
     */
    static final double SLACK = 1e-9;

    /** Absolute lowering, above the rounding of squared distances that underflow. */
    static final double FLOOR = 1e-290;

    final ClassPoints points;
    /** Per class, the tree, or null when the class is searched in full. */
    final Tree[] trees;
    /** Most nodes of any tree (the size of a search's stack). */
    final int maxNodes;

    private ClassTrees(ClassPoints points) {
        this.points = points;
        this.trees = new Tree[points.numClasses];
        int most = 1;
        for (int g = 0; g < points.numClasses; g++) {
            if (points.sizes[g] > LEAF) {
                trees[g] = new Tree(points, g);
                most = Math.max(most, trees[g].nodes);
            }
        }
        this.maxNodes = most;
    }

    /**
     * The trees of {@code points}' classes, or null when ℓ is above {@link #MAX_DIM} or no class has {@code minClass}
     * points ({@link #MIN_CLASS} but in tests).
     */
    static ClassTrees of(ClassPoints points, int minClass) {
        if (points.dim > MAX_DIM || points.maxClassSize < minClass) {
            return null;
        }
        return new ClassTrees(points);
    }

    /** One class's tree, nodes in arrays; node 0 is the root. */
    static final class Tree {
        final int dim;
        /** Point indices, each leaf's a contiguous range. */
        final int[] order;
        /** Per node: the bounding box, lo then hi, dim values each. */
        final double[] lo;

        final double[] hi;
        /** Per node: children (−1 for a leaf) and the range of {@link #order} it holds. */
        final int[] left;

        final int[] right;
        final int[] start;
        final int[] end;
        final int nodes;

        Tree(ClassPoints points, int g) {
            this.dim = points.dim;
            int n = points.sizes[g];
            double[] rows = points.rows[g];
            this.order = IntStream.range(0, n).toArray();
            int capacity = 2 * n + 1;
            int[] l = new int[capacity];
            int[] r = new int[capacity];
            int[] s = new int[capacity];
            int[] e = new int[capacity];
            double[] boxLo = new double[capacity * dim];
            double[] boxHi = new double[capacity * dim];
            int[] count = {0};
            build(rows, 0, n, l, r, s, e, boxLo, boxHi, count);
            this.nodes = count[0];
            this.left = Arrays.copyOf(l, nodes);
            this.right = Arrays.copyOf(r, nodes);
            this.start = Arrays.copyOf(s, nodes);
            this.end = Arrays.copyOf(e, nodes);
            this.lo = Arrays.copyOf(boxLo, nodes * dim);
            this.hi = Arrays.copyOf(boxHi, nodes * dim);
        }

        /** Builds the node over order[from..to), splitting at the median of the widest coordinate; returns its id. */
        private int build(
                double[] rows,
                int from,
                int to,
                int[] l,
                int[] r,
                int[] s,
                int[] e,
                double[] boxLo,
                double[] boxHi,
                int[] count) {
            int node = count[0]++;
            s[node] = from;
            e[node] = to;
            int widest = 0;
            double width = -1;
            for (int t = 0; t < dim; t++) {
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (int j = from; j < to; j++) {
                    double v = rows[order[j] * dim + t];
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
                boxLo[node * dim + t] = min;
                boxHi[node * dim + t] = max;
                if (max - min > width) {
                    width = max - min;
                    widest = t;
                }
            }
            if (to - from <= LEAF || !(width > 0)) {
                l[node] = -1;
                r[node] = -1;
                return node;
            }
            int axis = widest;
            Integer[] part = new Integer[to - from];
            for (int j = from; j < to; j++) {
                part[j - from] = order[j];
            }
            Arrays.sort(
                    part,
                    Comparator.<Integer>comparingDouble(i -> rows[i * dim + axis])
                            .thenComparingInt(i -> i));
            for (int j = from; j < to; j++) {
                order[j] = part[j - from];
            }
            int mid = (from + to) >>> 1;
            l[node] = build(rows, from, mid, l, r, s, e, boxLo, boxHi, count);
            r[node] = build(rows, mid, to, l, r, s, e, boxLo, boxHi, count);
            return node;
        }

        /** The squared distance from q to node's box (0 inside it), as computed. */
        double boxDistance(double[] q, int node) {
            int base = node * dim;
            double s = 0;
            for (int t = 0; t < dim; t++) {
                double qt = q[t];
                double below = lo[base + t] - qt;
                double above = qt - hi[base + t];
                double gap = below > 0 ? below : above > 0 ? above : 0;
                s += gap * gap;
            }
            return s;
        }
    }
}
