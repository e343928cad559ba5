package io.vigil.classify;

import java.util.Arrays;

/**
 * Local quadratic discriminant analysis (thesis §2.1.2; method notes §2). For a query point q and each
 * class g, the k nearest class-g training points to q (Euclidean; k capped by the class size n_g) give a
 * mean μ_g and a <em>diagonal</em> covariance Σ_g = diag(maximum-likelihood variances) + {@value
 * #COVARIANCE_RIDGE}·I. The class discriminant is the QDA discriminant of thesis §2.1.1,
 *
 * <pre>f_g(q) = −(q−μ_g)ᵀ Σ_g⁻¹ (q−μ_g) − log|Σ_g| + 2 log p_g,   p_g = n_g / n,</pre>
 *
 * and the prediction is argmax_g f_g(q) (ties → the lowest class index). The reliable early-classification
 * rule (thesis §5.6.1, method notes §3.4) finds the same class Gaussians around the conditional mean m_y
 * and then holds them fixed; {@link #classGaussians} exposes them for that purpose and {@link
 * #discriminant} evaluates f_g with held-fixed Gaussians.
 *
 * <p>Instances are immutable and thread-safe; every query method is allocation-free given a {@link
 * Workspace}, which belongs to one thread at a time. Neighbour ties (equal distances) are broken by the
 * lower training index, so results are deterministic. The statistics of the neighbours are accumulated
 * one-pass (Welford) in order of increasing distance, which lets {@link #predictEachK} score every
 * candidate k of a cross-validation grid from one neighbour search.
 */
public final class LocalQda {
    /**
     * Ridge added to every diagonal variance, as specified by method notes §2 / thesis §5.6.1
     * (Σ_g + 1e-4·I). It keeps Σ_g invertible when k = 1 or a coordinate is constant among the neighbours.
     */
    public static final double COVARIANCE_RIDGE = 1e-4;

    /** The candidate neighbour counts {1, 2, 4, …, 128} searched by cross-validation (method notes §2). */
    private static final int[] K_GRID = {1, 2, 4, 8, 16, 32, 64, 128};

    private final int dim;
    private final int numClasses;
    private final int k;
    private final int size;
    /** Per class: its training points, flattened row-major n_g × dim. */
    private final double[][] classPoints;
    /**
     * Per class: the same points transposed, dim × n_g, so the distances from a query to all of a class's
     * points are computed coordinate by coordinate with an inner loop over points — element-wise, which the JIT
     * vectorises, instead of a reduction per point, which it cannot reorder. Each point's sum is still
     * accumulated in coordinate order, so distances are bit-identical to the row-wise loop.
     */
    private final double[][] classPointsByDim;

    private final int[] classSizes;
    private final double[] logPriors;

    private LocalQda(
            int dim, int numClasses, int k, int size, double[][] classPoints, int[] classSizes, double[] logPriors) {
        this.dim = dim;
        this.numClasses = numClasses;
        this.k = k;
        this.size = size;
        this.classPoints = classPoints;
        this.classPointsByDim = new double[numClasses][];
        for (int g = 0; g < numClasses; g++) {
            int n = classSizes[g];
            double[] tr = new double[n * dim];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < dim; t++) {
                    tr[t * n + i] = classPoints[g][i * dim + t];
                }
            }
            classPointsByDim[g] = tr;
        }
        this.classSizes = classSizes;
        this.logPriors = logPriors;
    }

    /**
     * The default grid of neighbour counts {1, 2, 4, …, 128}.
     *
     * @return a fresh copy
     */
    public static int[] defaultGrid() {
        return K_GRID.clone();
    }

    /**
     * Stores the training points by class. Classes without training points get prior 0 (log prior −∞) and
     * are never predicted.
     *
     * @param points n×dim training points; copied
     * @param y class index in 0..numClasses−1 of each point
     * @param numClasses G ≥ 1
     * @param k neighbours per class (≥ 1; capped per class by its size at query time)
     * @throws IllegalArgumentException on empty or ragged input, a label count mismatch or a bad index
     */
    public static LocalQda fit(double[][] points, int[] y, int numClasses, int k) {
        if (points.length == 0) {
            throw new IllegalArgumentException("local QDA needs at least one training point");
        }
        if (points.length != y.length) {
            throw new IllegalArgumentException(
                    "local QDA: " + points.length + " training points but " + y.length + " class indices");
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("local QDA: numClasses must be ≥ 1, got " + numClasses);
        }
        if (k < 1) {
            throw new IllegalArgumentException("local QDA: k must be ≥ 1, got " + k);
        }
        int dim = points[0].length;
        if (dim == 0) {
            throw new IllegalArgumentException("local QDA: training points have dimension 0");
        }
        int[] sizes = new int[numClasses];
        for (int i = 0; i < points.length; i++) {
            if (points[i].length != dim) {
                throw new IllegalArgumentException("local QDA: training point " + i + " has dimension "
                        + points[i].length + ", point 0 has dimension " + dim);
            }
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException(
                        "local QDA: class index " + y[i] + " of point " + i + " is outside 0.." + (numClasses - 1));
            }
            sizes[y[i]]++;
        }
        double[][] byClass = new double[numClasses][];
        int[] fill = new int[numClasses];
        for (int g = 0; g < numClasses; g++) {
            byClass[g] = new double[sizes[g] * dim];
        }
        for (int i = 0; i < points.length; i++) {
            int g = y[i];
            System.arraycopy(points[i], 0, byClass[g], fill[g] * dim, dim);
            fill[g]++;
        }
        double[] logPriors = new double[numClasses];
        for (int g = 0; g < numClasses; g++) {
            logPriors[g] = sizes[g] == 0 ? Double.NEGATIVE_INFINITY : Math.log((double) sizes[g] / points.length);
        }
        return new LocalQda(dim, numClasses, k, points.length, byClass, sizes, logPriors);
    }

    /** Dimension of the points (ℓ in LDG space, d on the original series). */
    public int dim() {
        return dim;
    }

    /** Number of classes G. */
    public int numClasses() {
        return numClasses;
    }

    /** Neighbours per class k (before capping by the class size). */
    public int k() {
        return k;
    }

    /** Number of training points n. */
    public int size() {
        return size;
    }

    /** Training points per class n_g (a copy). */
    public int[] classSizes() {
        return classSizes.clone();
    }

    /** log p_g = log(n_g / n) per class (a copy); −∞ for a class without training points. */
    public double[] logPriors() {
        return logPriors.clone();
    }

    /** A scratch workspace for one thread; reusable across queries. */
    public Workspace newWorkspace() {
        return new Workspace(this);
    }

    /**
     * Predicts the class of q with this model's k.
     *
     * @param q query point of length {@link #dim()}; not modified
     * @param ws workspace of this model
     * @return the class index argmax_g f_g(q)
     */
    public int predict(double[] q, Workspace ws) {
        checkQuery(q, ws);
        int best = -1;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < numClasses; g++) {
            if (classSizes[g] == 0) {
                continue;
            }
            int m = nearestSet(q, g, Math.min(k, classSizes[g]), ws);
            double[] pts = classPoints[g];
            resetMoments(ws);
            for (int j = 0; j < m; j++) {
                addMoment(pts, ws.order[j], ws);
            }
            double f = discriminantFromMoments(q, m, logPriors[g], ws);
            if (best < 0 || f > bestScore) {
                best = g;
                bestScore = f;
            }
        }
        return best;
    }

    /**
     * Predicts the class of q for every k in {@code ks} from a single neighbour search per class, as
     * cross-validation over a k grid needs. Each k is capped by the class size; values above {@link #k()}
     * are allowed. The prediction for {@code ks[j]} equals {@code predict} of a model fitted with that k.
     *
     * @param q query point of length {@link #dim()}; not modified
     * @param ks candidate neighbour counts, each ≥ 1 (any order)
     * @param out receives the predicted class for each {@code ks[j]}; length ≥ ks.length
     * @param ws workspace of this model
     */
    public void predictEachK(double[] q, int[] ks, int[] out, Workspace ws) {
        checkQuery(q, ws);
        if (out.length < ks.length) {
            throw new IllegalArgumentException(
                    "local QDA: output has length " + out.length + " but there are " + ks.length + " values of k");
        }
        int maxK = 0;
        for (int kk : ks) {
            if (kk < 1) {
                throw new IllegalArgumentException("local QDA: k must be ≥ 1, got " + kk);
            }
            maxK = Math.max(maxK, kk);
        }
        ws.ensureKs(ks.length);
        Arrays.fill(ws.bestScore, 0, ks.length, Double.NEGATIVE_INFINITY);
        Arrays.fill(out, 0, ks.length, -1);
        for (int g = 0; g < numClasses; g++) {
            if (classSizes[g] == 0) {
                continue;
            }
            int m = nearestSorted(q, g, Math.min(maxK, classSizes[g]), ws);
            double[] pts = classPoints[g];
            resetMoments(ws);
            for (int j = 0; j < m; j++) {
                addMoment(pts, ws.order[j], ws);
                int used = j + 1;
                for (int c = 0; c < ks.length; c++) {
                    // Score k at the step where its (capped) neighbour count is reached.
                    if (Math.min(ks[c], m) == used) {
                        double f = discriminantFromMoments(q, used, logPriors[g], ws);
                        if (out[c] < 0 || f > ws.bestScore[c]) {
                            out[c] = g;
                            ws.bestScore[c] = f;
                        }
                    }
                }
            }
        }
    }

    /**
     * The class Gaussians local QDA finds around {@code q}: per class g, the mean μ_g and the diagonal
     * variances diag(Σ_g) (ridge included) of its k nearest class-g training points, and log p_g. The
     * early-decision rule (thesis §5.6.1) calls this at the conditional mean m_y and then evaluates {@link
     * #discriminant} with these Gaussians held fixed. For a class without training points the mean and
     * variances are filled with NaN and the log prior is −∞.
     *
     * @param q query point of length {@link #dim()}; not modified
     * @param ws workspace of this model
     * @param means receives G rows of length ≥ dim; overwritten
     * @param variances receives G rows of length ≥ dim; overwritten
     * @param logPriorsOut receives G log priors; overwritten
     */
    public void classGaussians(
            double[] q, Workspace ws, double[][] means, double[][] variances, double[] logPriorsOut) {
        checkQuery(q, ws);
        checkRows("means", means);
        checkRows("variances", variances);
        if (logPriorsOut.length < numClasses) {
            throw new IllegalArgumentException(
                    "local QDA: log-prior buffer has length " + logPriorsOut.length + ", need " + numClasses);
        }
        for (int g = 0; g < numClasses; g++) {
            logPriorsOut[g] = logPriors[g];
            if (classSizes[g] == 0) {
                Arrays.fill(means[g], 0, dim, Double.NaN);
                Arrays.fill(variances[g], 0, dim, Double.NaN);
                continue;
            }
            int m = nearestSet(q, g, Math.min(k, classSizes[g]), ws);
            resetMoments(ws);
            for (int j = 0; j < m; j++) {
                addMoment(classPoints[g], ws.order[j], ws);
            }
            for (int t = 0; t < dim; t++) {
                means[g][t] = ws.mean[t];
                variances[g][t] = ws.m2[t] / m + COVARIANCE_RIDGE;
            }
        }
    }

    /**
     * The QDA discriminant f(y) = −(y−μ)ᵀΣ⁻¹(y−μ) − log|Σ| + 2 log p with diagonal Σ (thesis §2.1.1),
     * for Gaussians held fixed (e.g. those of {@link #classGaussians}).
     *
     * @param y point; only its first {@code mean.length} entries are used
     * @param mean μ
     * @param variance diag(Σ), all &gt; 0, same length as {@code mean}
     * @param logPrior log p
     */
    public static double discriminant(double[] y, double[] mean, double[] variance, double logPrior) {
        if (variance.length != mean.length || y.length < mean.length) {
            throw new IllegalArgumentException("discriminant: point has length " + y.length + ", mean " + mean.length
                    + ", variance " + variance.length);
        }
        double quad = 0;
        double logDet = 0;
        for (int t = 0; t < mean.length; t++) {
            double diff = y[t] - mean[t];
            quad += diff * diff / variance[t];
            logDet += Math.log(variance[t]);
        }
        return -quad - logDet + 2 * logPrior;
    }

    private void checkQuery(double[] q, Workspace ws) {
        if (q.length != dim) {
            throw new IllegalArgumentException(
                    "local QDA: query has length " + q.length + ", model has dimension " + dim);
        }
        if (ws.owner != this) {
            throw new IllegalArgumentException("local QDA: workspace belongs to another model");
        }
    }

    private void checkRows(String what, double[][] rows) {
        if (rows.length < numClasses) {
            throw new IllegalArgumentException(
                    "local QDA: " + what + " buffer has " + rows.length + " rows, need " + numClasses);
        }
        for (int g = 0; g < numClasses; g++) {
            if (rows[g].length < dim) {
                throw new IllegalArgumentException(
                        "local QDA: " + what + " row " + g + " has length " + rows[g].length + ", need " + dim);
            }
        }
    }

    /**
     * Finds the m nearest class-g points to q and leaves their within-class indices in {@code ws.order[0..m)}
     * sorted by (distance, index). Uses a bounded max-heap: O(n_g·dim + n_g·log m).
     */
    /**
     * The m nearest class-g points to q — the same set as {@link #nearestSorted} (ties broken by the smaller
     * index) — in {@code ws.order[0..m)}, in no particular (but deterministic) order. Quickselect on the
     * distances costs O(n_g) expected comparisons instead of the heap's O(n_g log m); this runs for every class
     * on every sample of the early-decision path, where the order of the moments' accumulation does not matter.
     */
    private int nearestSet(double[] q, int g, int m, Workspace ws) {
        int n = classSizes[g];
        distances(q, g, ws);
        int[] order = ws.order;
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (m < n) {
            select(order, n, m, ws.dist);
        }
        return m;
    }

    /** Squared distances from q to every class-g point into {@code ws.dist[0..n_g)}. */
    private void distances(double[] q, int g, Workspace ws) {
        double[] byDim = classPointsByDim[g];
        int n = classSizes[g];
        double[] dist = ws.dist;
        Arrays.fill(dist, 0, n, 0.0);
        for (int t = 0; t < dim; t++) {
            double qt = q[t];
            int base = t * n;
            for (int i = 0; i < n; i++) {
                double diff = qt - byDim[base + i];
                dist[i] += diff * diff;
            }
        }
    }

    /**
     * Rearranges {@code order[0..n)} so that its first m entries are the m smallest by (distance, index)
     * (Hoare-partition quickselect with a median-of-three pivot; deterministic).
     */
    private static void select(int[] order, int n, int m, double[] dist) {
        int lo = 0;
        int hi = n - 1;
        int target = m - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (farther(order[lo], order[mid], dist)) {
                swap(order, lo, mid);
            }
            if (farther(order[mid], order[hi], dist)) {
                swap(order, mid, hi);
                if (farther(order[lo], order[mid], dist)) {
                    swap(order, lo, mid);
                }
            }
            int pivot = order[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (farther(pivot, order[i], dist)) {
                    i++;
                }
                while (farther(order[j], pivot, dist)) {
                    j--;
                }
                if (i <= j) {
                    swap(order, i, j);
                    i++;
                    j--;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private static void swap(int[] a, int i, int j) {
        int tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }

    private int nearestSorted(double[] q, int g, int m, Workspace ws) {
        int n = classSizes[g];
        int[] heap = ws.order;
        double[] dist = ws.dist;
        distances(q, g, ws);
        int heapSize = 0;
        for (int i = 0; i < n; i++) {
            if (heapSize < m) {
                heap[heapSize] = i;
                siftUp(heap, heapSize, dist);
                heapSize++;
            } else if (farther(heap[0], i, dist)) {
                heap[0] = i;
                siftDown(heap, 0, heapSize, dist);
            }
        }
        // Heap sort in place: repeatedly move the farthest to the end, giving ascending order.
        for (int end = heapSize - 1; end > 0; end--) {
            int top = heap[0];
            heap[0] = heap[end];
            heap[end] = top;
            siftDown(heap, 0, end, dist);
        }
        return heapSize;
    }

    /** True when point a is farther from the query than point b (ties: larger index is farther). */
    private static boolean farther(int a, int b, double[] dist) {
        return dist[a] > dist[b] || (dist[a] == dist[b] && a > b);
    }

    private static void siftUp(int[] heap, int pos, double[] dist) {
        int child = pos;
        while (child > 0) {
            int parent = (child - 1) >>> 1;
            if (!farther(heap[child], heap[parent], dist)) {
                return;
            }
            int tmp = heap[child];
            heap[child] = heap[parent];
            heap[parent] = tmp;
            child = parent;
        }
    }

    private static void siftDown(int[] heap, int pos, int size, double[] dist) {
        int parent = pos;
        while (true) {
            int left = 2 * parent + 1;
            if (left >= size) {
                return;
            }
            int largest = left;
            int right = left + 1;
            if (right < size && farther(heap[right], heap[left], dist)) {
                largest = right;
            }
            if (!farther(heap[largest], heap[parent], dist)) {
                return;
            }
            int tmp = heap[largest];
            heap[largest] = heap[parent];
            heap[parent] = tmp;
            parent = largest;
        }
    }

    private void resetMoments(Workspace ws) {
        Arrays.fill(ws.mean, 0);
        Arrays.fill(ws.m2, 0);
        ws.added = 0;
    }

    /** Welford update of the running mean and sum of squared deviations with point {@code idx}. */
    private void addMoment(double[] pts, int idx, Workspace ws) {
        int base = idx * dim;
        double[] mean = ws.mean;
        double[] m2 = ws.m2;
        int m = ++ws.added;
        double inv = 1.0 / m;
        for (int t = 0; t < dim; t++) {
            double x = pts[base + t];
            double delta = x - mean[t];
            mean[t] += delta * inv;
            m2[t] += delta * (x - mean[t]);
        }
    }

    private double discriminantFromMoments(double[] q, int m, double logPrior, Workspace ws) {
        double quad = 0;
        double logDet = 0;
        for (int t = 0; t < dim; t++) {
            double v = ws.m2[t] / m + COVARIANCE_RIDGE;
            double diff = q[t] - ws.mean[t];
            quad += diff * diff / v;
            logDet += Math.log(v);
        }
        return -quad - logDet + 2 * logPrior;
    }

    /**
     * Per-thread scratch space of one {@link LocalQda}: neighbour heap, distances and running moments. Not
     * thread-safe; create one per thread with {@link LocalQda#newWorkspace()}.
     */
    public static final class Workspace {
        private final LocalQda owner;
        private final int[] order;
        private final double[] dist;
        private final double[] mean;
        private final double[] m2;
        private double[] bestScore = new double[K_GRID.length];
        private int added;

        private Workspace(LocalQda owner) {
            this.owner = owner;
            int maxClass = 0;
            for (int s : owner.classSizes) {
                maxClass = Math.max(maxClass, s);
            }
            this.order = new int[maxClass];
            this.dist = new double[maxClass];
            this.mean = new double[owner.dim];
            this.m2 = new double[owner.dim];
        }

        private void ensureKs(int n) {
            if (bestScore.length < n) {
                bestScore = new double[n];
            }
        }
    }
}
