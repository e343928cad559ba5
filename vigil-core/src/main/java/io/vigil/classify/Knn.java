package io.vigil.classify;

import java.util.Arrays;
import java.util.Objects;

/**
 * k-nearest-neighbour classification with Euclidean distance on the given vectors — the classifier the
 * thesis uses to score LDG projections (k = 3, §3.4, §3.5.2). Deterministic rules: equal distances are
 * broken by the smaller training index; a tie in the vote goes to the class of the nearest neighbour
 * among the tied classes; k is capped at the number of training points.
 *
 * <p>Immutable and thread-safe; each thread reuses its own scratch buffers, so {@link #predict} does not
 * allocate after a thread's first call.
 */
public final class Knn {
    private final int n;
    private final int dim;
    private final int numClasses;
    /** Coordinate t of point i at {@code columns[t * n + i]}: the distance loop runs over points, which vectorises. */
    private final double[] columns;

    private final int[] labels;
    private final ThreadLocal<Scratch> scratch;

    private Knn(int n, int dim, int numClasses, double[] points, int[] labels) {
        this.n = n;
        this.dim = dim;
        this.numClasses = numClasses;
        this.columns = new double[n * dim];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < dim; t++) {
                columns[t * n + i] = points[i * dim + t];
            }
        }
        this.labels = labels;
        this.scratch = ThreadLocal.withInitial(() -> new Scratch(n, numClasses));
    }

    /**
     * Stores the training points.
     *
     * @param points n×dim, n ≥ 1, dim ≥ 1; copied
     * @param y class index of each point in 0..numClasses−1
     */
    public static Knn fit(double[][] points, int[] y, int numClasses) {
        Objects.requireNonNull(points, "points");
        Objects.requireNonNull(y, "y");
        if (points.length != y.length) {
            throw new IllegalArgumentException(
                    "points has " + points.length + " rows but y has " + y.length + " class indices");
        }
        if (points.length == 0) {
            throw new IllegalArgumentException("k-NN needs at least one training point");
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be >= 1, got " + numClasses);
        }
        int dim = points[0].length;
        if (dim == 0) {
            throw new IllegalArgumentException("training points have 0 dimensions");
        }
        double[] flat = new double[points.length * dim];
        for (int i = 0; i < points.length; i++) {
            if (points[i].length != dim) {
                throw new IllegalArgumentException(
                        "point " + i + " has " + points[i].length + " dimensions but point 0 has " + dim);
            }
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1));
            }
            System.arraycopy(points[i], 0, flat, i * dim, dim);
        }
        return new Knn(points.length, dim, numClasses, flat, y.clone());
    }

    /** The number of training points. */
    public int size() {
        return n;
    }

    /** The dimension of the vectors. */
    public int dim() {
        return dim;
    }

    /**
     * The majority class among the k nearest training points to {@code q} (rules in the class comment).
     *
     * @param k ≥ 1; values above {@link #size()} are capped
     */
    public int predict(double[] q, int k) {
        if (q.length != dim) {
            throw new IllegalArgumentException(
                    "the query has " + q.length + " dimensions but the training points have " + dim);
        }
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        int kk = Math.min(k, n);
        Scratch s = scratch.get();
        int[] nn = s.index;
        double[] nd = s.dist;
        double[] all = s.all;
        squaredDistances(q, all);
        int found = 0;
        for (int i = 0; i < n; i++) {
            double dist = all[i];
            if (found == kk && dist >= nd[kk - 1]) {
                continue;
            }
            int pos = found == kk ? kk - 1 : found++;
            while (pos > 0 && nd[pos - 1] > dist) {
                nd[pos] = nd[pos - 1];
                nn[pos] = nn[pos - 1];
                pos--;
            }
            nd[pos] = dist;
            nn[pos] = i;
        }
        int[] votes = s.votes;
        Arrays.fill(votes, 0);
        int best = 0;
        for (int p = 0; p < kk; p++) {
            int c = labels[nn[p]];
            votes[c]++;
            if (votes[c] > best) {
                best = votes[c];
            }
        }
        for (int p = 0; p < kk; p++) {
            int c = labels[nn[p]];
            if (votes[c] == best) {
                return c;
            }
        }
        throw new IllegalStateException("no class reached the maximum vote (internal error)");
    }

    /** {@link #predict} for every row of {@code q}. */
    public int[] predictAll(double[][] q, int k) {
        int[] out = new int[q.length];
        for (int i = 0; i < q.length; i++) {
            out[i] = predict(q[i], k);
        }
        return out;
    }

    /**
     * ‖q − x_i‖² for every training point into {@code out}, summed over t = 0..dim−1 in order for each point (so
     * exactly the row-by-row sum), with the loop over points innermost.
     */
    private void squaredDistances(double[] q, double[] out) {
        Arrays.fill(out, 0, n, 0.0);
        for (int t = 0; t < dim; t++) {
            double qt = q[t];
            int off = t * n;
            for (int i = 0; i < n; i++) {
                double e = qt - columns[off + i];
                out[i] += e * e;
            }
        }
    }

    /** Per-thread buffers: every point's distance, the k best indices/distances so far and the vote counts. */
    private static final class Scratch {
        final double[] all;
        final int[] index;
        final double[] dist;
        final int[] votes;

        Scratch(int n, int numClasses) {
            all = new double[n];
            index = new int[n];
            dist = new double[n];
            votes = new int[numClasses];
        }
    }
}
