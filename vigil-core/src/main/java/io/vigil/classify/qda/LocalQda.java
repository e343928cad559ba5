package io.vigil.classify.qda;

import java.util.Arrays;

/**
 * Local quadratic discriminant analysis (thesis §2.1.2; docs/method.md §2). For a query point q and each class g,
 * the k nearest class-g training points to q (Euclidean; k capped by the class size n_g) give a mean μ_g and a
 * <em>diagonal</em> covariance Σ_g = diag(maximum-likelihood variances) + {@value #COVARIANCE_RIDGE}·I. The class
 * discriminant is the QDA discriminant of thesis §2.1.1,
 *
 * <pre>f_g(q) = −(q−μ_g)ᵀ Σ_g⁻¹ (q−μ_g) − log|Σ_g| + 2 log p_g,   p_g = n_g / n,</pre>
 *
 * and the prediction is argmax_g f_g(q) (ties → the lowest class index). The reliable early-classification rule
 * (thesis §5.6.1, docs/method.md §3.4) finds the same class Gaussians around the conditional mean m_y and then holds
 * them fixed: {@link #classGaussians} gives them for one query, and the {@link ClassGaussianSearch}es of {@link
 * #searches} for a query that moves sample by sample, reusing the previous sample's work.
 *
 * <p>Instances are immutable and thread-safe; every query method is allocation-free given a {@link Workspace},
 * which belongs to one thread at a time. Neighbour ties (equal distances) are broken by the lower training index,
 * so results are deterministic. {@link #predict} and the searches sum the neighbours' statistics two-pass in
 * increasing index order, a function of the neighbour set alone, so every search gives bit-identical Gaussians;
 * {@link #predictEachK} accumulates them one-pass (Welford) in order of increasing distance, which scores every
 * candidate k of a cross-validation grid from one neighbour search.
 */
public final class LocalQda {
    /**
     * Ridge added to every diagonal variance, as specified by docs/method.md §2 / thesis §5.6.1 (Σ_g + 1e-4·I). It
     * keeps Σ_g invertible when k = 1 or a coordinate is constant among the neighbours.
     */
    static final double COVARIANCE_RIDGE = 1e-4;

    /** The candidate neighbour counts {1, 2, 4, …, 128} searched by cross-validation (docs/method.md §2). */
    private static final int[] K_GRID = {1, 2, 4, 8, 16, 32, 64, 128};

    final ClassPoints points;
    private final int k;
    private final int size;
    private final double[] logPriors;
    private final AbstractSearch.Full fullSearch;

    private LocalQda(ClassPoints points, int k, int size, double[] logPriors) {
        this.points = points;
        this.k = k;
        this.size = size;
        this.logPriors = logPriors;
        this.fullSearch = new AbstractSearch.Full(this);
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
     * Stores the training points by class. Classes without training points get prior 0 (log prior −∞) and are
     * never predicted.
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
        return new LocalQda(new ClassPoints(dim, byClass, sizes), k, points.length, logPriors);
    }

    /** Dimension of the points (ℓ in LDG space, d on the original series). */
    public int dim() {
        return points.dim;
    }

    /** Number of classes G. */
    public int numClasses() {
        return points.numClasses;
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
    int[] classSizes() {
        return points.sizes.clone();
    }

    /** log p_g = log(n_g / n) per class (a copy); −∞ for a class without training points. */
    public double[] logPriors() {
        return logPriors.clone();
    }

    double logPrior(int g) {
        return logPriors[g];
    }

    /** A scratch workspace for one thread; reusable across queries. */
    public Workspace newWorkspace() {
        return new Workspace(this);
    }

    /** Storage for this model's class Gaussians. */
    public ClassGaussians newClassGaussians() {
        return new ClassGaussians(points.numClasses, points.dim);
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
        for (int g = 0; g < points.numClasses; g++) {
            int n = points.sizes[g];
            if (n == 0) {
                continue;
            }
            // Quickselect on (distance, index): O(n_g) expected; only the set matters, summed in index order.
            int m = Math.min(k, n);
            points.distances(q, g, ws.dist);
            for (int i = 0; i < n; i++) {
                ws.order[i] = i;
            }
            if (m < n) {
                KNearest.select(ws.order, n, m, ws.dist);
            }
            KNearest.maskOf(ws.order, m, ws.mask);
            points.momentsOfMask(g, ws.mask, m, ws.mean, ws.m2);
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
     * cross-validation over a k grid needs. Each k is capped by the class size; values above {@link #k()} are
     * allowed. The prediction for {@code ks[j]} equals {@code predict} of a model fitted with that k.
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
        for (int g = 0; g < points.numClasses; g++) {
            int n = points.sizes[g];
            if (n == 0) {
                continue;
            }
            points.distances(q, g, ws.dist);
            int m = KNearest.nearestSorted(ws.dist, n, Math.min(maxK, n), ws.order);
            double[] pts = points.rows[g];
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
     * The class Gaussians local QDA finds around {@code q} (see {@link ClassGaussians}): the k nearest class-g
     * training points by a full search. The early-decision rule (thesis §5.6.1) finds them at the conditional mean
     * m_y and then evaluates {@link #discriminant} with them held fixed.
     *
     * @param q query point of length {@link #dim()}; not modified
     * @param ws workspace of this model
     * @param out receives the Gaussians; overwritten
     */
    public void classGaussians(double[] q, Workspace ws, ClassGaussians out) {
        fullSearch.find(q, -1, Double.NaN, ws, out);
    }

    /** The stateless search that computes every distance every time; shareable by every series and thread. */
    ClassGaussianSearch fullSearch() {
        return fullSearch;
    }

    /**
     * The searches for series whose query (the conditional mean m_y) moves sample by sample. In low dimension with a
     * large class (ℓ ≤ {@value ClassTrees#MAX_DIM}, a class of at least {@value ClassTrees#MIN_CLASS} points, as the
     * background class of a window model, docs/watch.md), k-d trees shared by every series ({@link TreeSearch}). Else, with the query's
     * steps known in advance (the joint estimator: q(t+1) = q(t) + p_t·e_t, docs/method.md §3.1) and a table of
     * d·n doubles within {@link DotTable#MAX_DOUBLES}, dot-product screening ({@link DotTracker}, one shared {@link
     * DotTable}); otherwise certified triangle-inequality caches ({@link NeighborCache}). Both give the Gaussians
     * of {@link #classGaussians} bit for bit.
     *
     * @param gains the steps p_0..p_{d−1} (d rows of length {@link #dim()}), or null when they are not known
     */
    public ClassGaussianSearch.Factory searches(double[][] gains) {
        ClassTrees trees = ClassTrees.of(points, ClassTrees.MIN_CLASS);
        if (trees != null) {
            return () -> new TreeSearch(this, trees);
        }
        if (gains != null && fitsDotTable(gains.length)) {
            DotTable table = dotTable(gains);
            return () -> new DotTracker(table);
        }
        return this::newNeighborCache;
    }

    /**
     * A fresh tree search for one series (see {@link TreeSearch}) with trees as soon as a class has {@code minClass}
     * points (for tests on small data), or null when ℓ is too large for trees or no class is that large.
     */
    TreeSearch newTreeSearch(int minClass) {
        ClassTrees trees = ClassTrees.of(points, minClass);
        return trees == null ? null : new TreeSearch(this, trees);
    }

    /**
     * A fresh anchor cache for one series whose query jumps in directions not known in advance (the any-order m_y;
     * see {@link AnchorCache}).
     */
    public AnchorCache newAnchorCache() {
        return new AnchorCache(this);
    }

    /** A fresh neighbour cache for one series (see {@link NeighborCache}). */
    public NeighborCache newNeighborCache() {
        return new NeighborCache(this, NeighborCache.CACHE_MIN_WORK);
    }

    /**
     * A neighbour cache that keeps bounds for every class with n_g·ℓ ≥ {@code minWork} (0: every class that has
     * more than k points); for tests that must exercise the cache on small data.
     */
    NeighborCache newNeighborCache(int minWork) {
        return new NeighborCache(this, minWork);
    }

    /**
     * True when a {@link DotTable} for {@code steps} gain vectors fits under {@link DotTable#MAX_DOUBLES}.
     *
     * @param steps number of gain vectors (the series length d)
     */
    boolean fitsDotTable(int steps) {
        return steps >= 1 && (long) steps * size <= DotTable.MAX_DOUBLES;
    }

    /**
     * The table of products of the steps p_t with every training point (see {@link DotTable}).
     *
     * @param gains d rows p_t, each of length {@link #dim()}; copied into the table, not kept
     * @throws IllegalArgumentException on a row of the wrong length, non-finite values, or a table above {@link
     *     DotTable#MAX_DOUBLES}
     */
    DotTable dotTable(double[][] gains) {
        if (!fitsDotTable(gains.length)) {
            throw new IllegalArgumentException("local QDA: a dot table for " + gains.length + " steps and " + size
                    + " training points exceeds " + DotTable.MAX_DOUBLES + " doubles");
        }
        return new DotTable(this, gains);
    }

    /**
     * A fresh dot tracker for one series (see {@link DotTracker}).
     *
     * @param table a table of this model
     * @throws IllegalArgumentException when the table belongs to another model
     */
    DotTracker newTracker(DotTable table) {
        if (table.owner != this) {
            throw new IllegalArgumentException("local QDA: dot table belongs to another model");
        }
        return new DotTracker(table);
    }

    /**
     * The QDA discriminant f(y) = −(y−μ)ᵀΣ⁻¹(y−μ) − log|Σ| + 2 log p with diagonal Σ (thesis §2.1.1), for
     * Gaussians held fixed (e.g. those of {@link #classGaussians}).
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

    void checkQuery(double[] q, Workspace ws) {
        if (q.length != points.dim) {
            throw new IllegalArgumentException(
                    "local QDA: query has length " + q.length + ", model has dimension " + points.dim);
        }
        if (ws.owner != this) {
            throw new IllegalArgumentException("local QDA: workspace belongs to another model");
        }
    }

    void checkStorage(ClassGaussians out) {
        if (out.numClasses() != points.numClasses || out.dim() != points.dim) {
            throw new IllegalArgumentException("local QDA: class-Gaussian storage is for " + out.numClasses()
                    + " classes in " + out.dim() + " dimensions, the model has " + points.numClasses + " and "
                    + points.dim);
        }
    }

    private static void resetMoments(Workspace ws) {
        Arrays.fill(ws.mean, 0);
        Arrays.fill(ws.m2, 0);
        ws.added = 0;
    }

    /** Welford update of the running mean and sum of squared deviations with point {@code idx}. */
    private void addMoment(double[] pts, int idx, Workspace ws) {
        int dim = points.dim;
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
        for (int t = 0; t < points.dim; t++) {
            double v = ws.m2[t] / m + COVARIANCE_RIDGE;
            double diff = q[t] - ws.mean[t];
            quad += diff * diff / v;
            logDet += Math.log(v);
        }
        return -quad - logDet + 2 * logPrior;
    }

    /**
     * Per-thread scratch space of one {@link LocalQda}: distances, neighbour order, masks and running moments, sized
     * once for the largest class so that no query allocates. Not thread-safe; create one per thread with {@link
     * LocalQda#newWorkspace()}.
     */
    public static final class Workspace {
        final LocalQda owner;
        final int[] order;
        final double[] dist;
        final double[] mean;
        final double[] m2;
        final long[] mask;
        final double[] values;
        final double[] estimate;
        final int[] slot;
        double[] bestScore = new double[8];
        int added;

        Workspace(LocalQda owner) {
            this.owner = owner;
            ClassPoints p = owner.points;
            int maxClass = p.maxClassSize;
            this.order = new int[maxClass];
            this.dist = new double[maxClass];
            this.mean = new double[p.dim];
            this.m2 = new double[p.dim];
            this.mask = new long[p.maskWords()];
            this.values = new double[maxClass];
            this.estimate = new double[maxClass];
            this.slot = new int[maxClass];
        }

        void ensureKs(int n) {
            if (bestScore.length < n) {
                bestScore = new double[n];
            }
        }
    }
}
