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
 * lower training index, so results are deterministic. {@link #predict} and {@link #classGaussians} sum the
 * neighbours' statistics two-pass in increasing index order, a function of the neighbour set alone, so the
 * cached search of {@link NeighbourCache} and the dot-product screening of {@link DotTracker} give bit-identical
 * Gaussians; {@link #predictEachK} accumulates them
 * one-pass (Welford) in order of increasing distance, which scores every candidate k of a cross-validation grid
 * from one neighbour search.
 */
public final class LocalQda {
    /**
     * Ridge added to every diagonal variance, as specified by method notes §2 / thesis §5.6.1
     * (Σ_g + 1e-4·I). It keeps Σ_g invertible when k = 1 or a coordinate is constant among the neighbours.
     */
    public static final double COVARIANCE_RIDGE = 1e-4;

    /**
     * Candidates a {@link NeighbourCache} keeps per class, as a multiple of k: the K = 2k points nearest the
     * anchor. Larger K lets the anchor serve queries farther away (fewer full searches) at the cost of more
     * per-series memory and more candidates to screen; 2k measured best on the benchmark (n_g = 100, k = 32).
     */
    static final int CANDIDATE_FACTOR = 2;

    /**
     * Relative widening of every triangle-inequality bound of the neighbour cache. Computed distances carry a
     * relative rounding error of about (ℓ + 2)·2⁻⁵³ (&lt; 1e-13 for ℓ ≤ 1,000); 1e-9 is four orders of magnitude
     * above that, so a certified exclusion or inclusion also holds for the computed distances the full search
     * compares, ties included, and costs nothing measurable in certificate hits.
     */
    static final double BOUND_SLACK = 1e-9;

    /**
     * Absolute widening of the same bounds, for distances so small that squared differences underflow (below
     * ~1e-154), where the relative error analysis of {@link #BOUND_SLACK} does not apply.
     */
    static final double BOUND_FLOOR = 1e-150;

    /**
     * Relative guard of one addition in the cache's bound updates: 2⁻⁴⁹ ≈ 1.8e-15, eight times the unit
     * round-off, so that a bound widened by one addition stays a bound of the exact sum whatever the rounding.
     */
    static final double ROUND_GUARD = 0x1p-49;

    /**
     * Consecutive failed certificates after which a class of a {@link NeighbourCache} stops re-anchoring and
     * searches in full (cheaper than a re-anchor) for 2^failures samples, at most {@link #MAX_PAUSE}: when m_y
     * moves fast (short series, early samples) the bounds rarely settle the set and maintaining them costs more
     * than it saves. Both paths are exact; this only chooses the cheaper one.
     */
    static final int PAUSE_AFTER_FAILURES = 2;

    /** Longest run of plain searches between attempts to re-anchor; see {@link #PAUSE_AFTER_FAILURES}. */
    static final int MAX_PAUSE = 32;

    /**
     * Smallest n_g·ℓ of a class for which {@link #newCache()} keeps bounds; smaller classes are searched in full
     * every time. Measured: on SyntheticControl (n_g·ℓ = 50·5) the cache made {@code vigil evaluate} slower (≈ 9
     * vs 5 µs per sample), on the benchmark (100·30) faster; the full search of a small class is too cheap for
     * the bookkeeping to pay. The value between the two was not tuned further.
     */
    static final int CACHE_MIN_WORK = 1024;

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
            maskOf(ws.order, m, ws.mask);
            momentsOfMask(g, ws.mask, m, ws.mean, ws.m2);
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
        classGaussians(q, ws, null, means, variances, logPriorsOut);
    }

    /**
     * {@link #classGaussians(double[], Workspace, double[][], double[][], double[])} accelerated by a {@link
     * NeighbourCache} for a sequence of nearby queries, as the conditional mean m_y of one series is (thesis
     * §5.6.1 refits the class Gaussians around it every sample). The results are bit-for-bit those of the
     * uncached call: the cache only ever skips distance computations that a triangle-inequality certificate
     * proves irrelevant, and reuses moments only for an identical neighbour set.
     *
     * @param cache a cache of this model, or null for the uncached search; updated
     * @throws IllegalArgumentException as the uncached overload, or when the cache belongs to another model
     */
    public void classGaussians(
            double[] q,
            Workspace ws,
            NeighbourCache cache,
            double[][] means,
            double[][] variances,
            double[] logPriorsOut) {
        checkGaussiansCall(q, ws, means, variances, logPriorsOut);
        if (cache != null && cache.owner != this) {
            throw new IllegalArgumentException("local QDA: neighbour cache belongs to another model");
        }
        double step = Double.NaN;
        if (cache != null) {
            step = cache.step(q);
        }
        for (int g = 0; g < numClasses; g++) {
            logPriorsOut[g] = logPriors[g];
            int n = classSizes[g];
            if (n == 0) {
                Arrays.fill(means[g], 0, dim, Double.NaN);
                Arrays.fill(variances[g], 0, dim, Double.NaN);
                continue;
            }
            int m = Math.min(k, n);
            ClassCache cc = cache == null ? null : cache.classes[g];
            if (m == n) {
                allOf(n, ws.mask);
            } else if (cc == null) {
                fullSearch(q, g, m, ws);
            } else if (cc.pause > 0) {
                cc.pause--;
                cc.bounded = false;
                fullSearch(q, g, m, ws);
            } else if (!cc.bounded || Double.isNaN(step)) {
                anchor(q, g, m, cc, ws);
            } else if (certifiedSet(q, g, m, step, cc, ws)) {
                cc.failures = 0;
            } else if (++cc.failures < PAUSE_AFTER_FAILURES) {
                anchor(q, g, m, cc, ws);
            } else {
                // The query moves too fast for the bounds to pay for themselves: plain searches for a while.
                cc.pause = Math.min(MAX_PAUSE, 1 << cc.failures);
                cc.bounded = false;
                fullSearch(q, g, m, ws);
            }
            if (cc != null && cc.hasMoments && Arrays.equals(cc.mask, ws.mask)) {
                System.arraycopy(cc.mean, 0, means[g], 0, dim);
                System.arraycopy(cc.variance, 0, variances[g], 0, dim);
                continue;
            }
            momentsOfMask(g, ws.mask, m, ws.mean, ws.m2);
            for (int t = 0; t < dim; t++) {
                means[g][t] = ws.mean[t];
                variances[g][t] = ws.m2[t] / m + COVARIANCE_RIDGE;
            }
            if (cc != null) {
                System.arraycopy(ws.mask, 0, cc.mask, 0, cc.mask.length);
                System.arraycopy(means[g], 0, cc.mean, 0, dim);
                System.arraycopy(variances[g], 0, cc.variance, 0, dim);
                cc.hasMoments = true;
            }
        }
    }

    /**
     * A fresh, empty neighbour cache for one sequence of queries (one series). See {@link NeighbourCache}.
     */
    public NeighbourCache newCache() {
        return new NeighbourCache(this, CACHE_MIN_WORK);
    }

    /**
     * A neighbour cache that keeps bounds for every class with n_g·ℓ ≥ {@code minWork} (0: every class that has
     * more than k points); for tests that must exercise the cache on small data.
     */
    NeighbourCache newCache(int minWork) {
        return new NeighbourCache(this, minWork);
    }

    /**
     * Full search for class g that also re-anchors {@code cc} at q: all distances, the K = min(n_g, {@value
     * #CANDIDATE_FACTOR}·k) nearest become the candidates with exact bounds, the smallest distance of the rest
     * bounds every non-candidate. Leaves the k-nearest set in {@code ws.mask}.
     */
    /** The k-nearest set of class g at q into {@code ws.mask}: all distances and a value quickselect. */
    private void fullSearch(double[] q, int g, int m, Workspace ws) {
        int n = classSizes[g];
        distances(q, g, ws);
        System.arraycopy(ws.dist, 0, ws.values, 0, n);
        maskOfSmallest(ws.dist, n, kthSmallest(ws.values, n, m), m, ws.mask);
    }

    private void anchor(double[] q, int g, int m, ClassCache cc, Workspace ws) {
        cc.bounded = true;
        int n = classSizes[g];
        distances(q, g, ws);
        double[] dist = ws.dist;
        double[] vals = ws.values;
        System.arraycopy(dist, 0, vals, 0, n);
        int kk = Math.min(n, CANDIDATE_FACTOR * m);
        double outer = Double.POSITIVE_INFINITY;
        double cut = Double.POSITIVE_INFINITY;
        if (kk < n) {
            cut = kthSmallest(vals, n, kk);
            double min = Double.POSITIVE_INFINITY;
            for (int j = kk; j < n; j++) {
                min = Math.min(min, vals[j]);
            }
            outer = Math.sqrt(min);
        }
        double kth = kthSmallest(vals, kk, m);
        int c = collect(dist, n, cut, kk, cc.candidates);
        // The k nearest are the k smallest candidates by (distance, index); candidates are in index order.
        long[] mask = ws.mask;
        Arrays.fill(mask, 0L);
        int less = 0;
        for (int j = 0; j < c; j++) {
            if (dist[cc.candidates[j]] < kth) {
                less++;
            }
        }
        int ties = m - less;
        for (int j = 0; j < c; j++) {
            int idx = cc.candidates[j];
            double e = dist[idx];
            boolean in = e < kth || (e == kth && ties-- > 0);
            if (in) {
                mask[idx >>> 6] |= 1L << idx;
            }
            cc.inSet[j] = in;
            double d = Math.sqrt(e);
            cc.lower[j] = down(d);
            cc.upper[j] = up(d);
        }
        System.arraycopy(q, 0, cc.anchor, 0, dim);
        cc.candidateCount = c;
        cc.outerBound = down(outer);
    }

    /**
     * The indices of the m points of {@code dist[0..n)} smallest by (distance, index), given the m-th smallest
     * distance {@code cut}, into {@code out} in increasing index order (points at distance {@code cut} fill the
     * remaining places by increasing index). Returns m.
     */
    private static int collect(double[] dist, int n, double cut, int m, int[] out) {
        int less = 0;
        for (int i = 0; i < n; i++) {
            if (dist[i] < cut) {
                less++;
            }
        }
        int ties = m - less;
        int c = 0;
        for (int i = 0; i < n; i++) {
            double d = dist[i];
            if (d < cut || (d == cut && ties-- > 0)) {
                out[c++] = i;
            }
        }
        return c;
    }

    /** As {@link #collect}, into a bit mask over the class's point indices. */
    private static void maskOfSmallest(double[] dist, int n, double cut, int m, long[] mask) {
        Arrays.fill(mask, 0L);
        int less = 0;
        for (int i = 0; i < n; i++) {
            if (dist[i] < cut) {
                less++;
            }
        }
        int ties = m - less;
        for (int i = 0; i < n; i++) {
            double d = dist[i];
            if (d < cut || (d == cut && ties-- > 0)) {
                mask[i >>> 6] |= 1L << i;
            }
        }
    }

    /**
     * The m-th smallest of {@code v[0..n)} (1 ≤ m ≤ n), rearranging {@code v} so that {@code v[0..m)} holds the m
     * smallest values: Hoare-partition quickselect on the values themselves (median-of-three pivot), which is
     * cheaper than selecting indices by (distance, index) and, with {@link #collect}, yields the same set.
     */
    private static double kthSmallest(double[] v, int n, int m) {
        int lo = 0;
        int hi = n - 1;
        int target = m - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            double a = v[lo];
            double b = v[mid];
            double c = v[hi];
            double pivot = a < b ? (b < c ? b : Math.max(a, c)) : (a < c ? a : Math.max(b, c));
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (v[i] < pivot) {
                    i++;
                }
                while (v[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    double tmp = v[i];
                    v[i] = v[j];
                    v[j] = tmp;
                    i++;
                    j--;
                }
            }
            if (target <= j) {
                hi = j;
            } else if (target >= i) {
                lo = i;
            } else {
                return v[target];
            }
        }
        return v[target];
    }

    /**
     * The k-nearest set of class g at q from the cache's bounds, without a full search, when they settle it.
     * The cache holds, for each candidate x, bounds lo ≤ ‖x − q′‖ ≤ hi at the previous query q′, a lower bound R
     * on the distance of every non-candidate, and the previous neighbour set S. Moving to q widens every bound by
     * the step s = ‖q − q′‖ (triangle inequality). Then, with U = max over S of hi (at least k points lie within
     * U), a point with lo &gt; U is certainly not among the k nearest (all of S is nearer), and a member of S with
     * hi below every lo outside S certainly is (only the other k − 1 members of S can be nearer). Only the
     * candidates in between get exact distances — computed exactly as the full search does, so ties resolve
     * identically — which also makes their bounds exact again; the k nearest are the certain members plus the
     * nearest of those. Returns false, leaving the caller to search in full, when the non-candidates cannot be
     * excluded (R ≤ U). Comparisons are widened by {@link #BOUND_SLACK} and {@link #BOUND_FLOOR}, far above the
     * distances' rounding, so every certified order also holds for the computed distances.
     */
    private boolean certifiedSet(double[] q, int g, int m, double step, ClassCache cc, Workspace ws) {
        int c = cc.candidateCount;
        double[] lo = cc.lower;
        double[] hi = cc.upper;
        boolean[] in = cc.inSet;
        double delta = 0;
        double[] a = cc.anchor;
        for (int t = 0; t < dim; t++) {
            double diff = q[t] - a[t];
            delta += diff * diff;
        }
        delta = up(Math.sqrt(delta));
        double outer = widenDown(cc.outerBound, delta);
        double reach = 0;
        double outside = outer;
        for (int j = 0; j < c; j++) {
            double l = widenDown(lo[j], step);
            double h = widenUp(hi[j], step);
            lo[j] = l;
            hi[j] = h;
            if (in[j]) {
                reach = Math.max(reach, h);
            } else {
                outside = Math.min(outside, l);
            }
        }
        double reachUp = up(reach);
        if (down(outer) <= reachUp) {
            return false;
        }
        double outsideDown = down(outside);
        int[] band = ws.order;
        int[] slot = ws.slot;
        long[] mask = ws.mask;
        Arrays.fill(mask, 0L);
        int sure = 0;
        int b = 0;
        for (int j = 0; j < c; j++) {
            if (in[j] && up(hi[j]) < outsideDown) {
                int idx = cc.candidates[j];
                mask[idx >>> 6] |= 1L << idx;
                sure++;
            } else {
                in[j] = false;
                if (down(lo[j]) <= reachUp) {
                    slot[cc.candidates[j]] = j;
                    band[b++] = cc.candidates[j];
                }
            }
        }
        double[] dist = ws.dist;
        exactDistances(q, classPoints[g], band, b, dist);
        for (int j = 0; j < b; j++) {
            int idx = band[j];
            double d = Math.sqrt(dist[idx]);
            lo[slot[idx]] = down(d);
            hi[slot[idx]] = up(d);
        }
        int need = m - sure;
        if (need == 0) {
            return true;
        }
        selectBand(dist, band, b, need, ws.values, mask, in, slot);
        return true;
    }

    /**
     * Adds to {@code mask} the {@code need} band points with the smallest exact distances; the band is in
     * increasing index order, so distance ties at the cut go to the lower indices (as in the full search). When
     * {@code in} is given, also marks {@code in[slot[idx]]} for each chosen point.
     */
    private static void selectBand(
            double[] dist, int[] band, int b, int need, double[] vals, long[] mask, boolean[] in, int[] slot) {
        double cut = Double.POSITIVE_INFINITY;
        if (need < b) {
            for (int j = 0; j < b; j++) {
                vals[j] = dist[band[j]];
            }
            cut = kthSmallest(vals, b, need);
        }
        int less = 0;
        for (int j = 0; j < b; j++) {
            if (dist[band[j]] < cut) {
                less++;
            }
        }
        int ties = need - less;
        for (int j = 0; j < b; j++) {
            int idx = band[j];
            double d = dist[idx];
            if (d < cut || (d == cut && ties-- > 0)) {
                mask[idx >>> 6] |= 1L << idx;
                if (in != null) {
                    in[slot[idx]] = true;
                }
            }
        }
    }

    /**
     * Squared distances from q to the class points {@code idx[0..b)} into {@code dist[idx[j]]}, each summed in
     * coordinate order from 0 exactly as {@link #distances} does (bit-identical), four points at a time so the
     * four sums' dependency chains overlap.
     */
    private void exactDistances(double[] q, double[] pts, int[] idx, int b, double[] dist) {
        int j = 0;
        for (; j + 4 <= b; j += 4) {
            int b0 = idx[j] * dim;
            int b1 = idx[j + 1] * dim;
            int b2 = idx[j + 2] * dim;
            int b3 = idx[j + 3] * dim;
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            for (int t = 0; t < dim; t++) {
                double qt = q[t];
                double e0 = qt - pts[b0 + t];
                double e1 = qt - pts[b1 + t];
                double e2 = qt - pts[b2 + t];
                double e3 = qt - pts[b3 + t];
                s0 += e0 * e0;
                s1 += e1 * e1;
                s2 += e2 * e2;
                s3 += e3 * e3;
            }
            dist[idx[j]] = s0;
            dist[idx[j + 1]] = s1;
            dist[idx[j + 2]] = s2;
            dist[idx[j + 3]] = s3;
        }
        for (; j < b; j++) {
            int base = idx[j] * dim;
            double s = 0;
            for (int t = 0; t < dim; t++) {
                double e = q[t] - pts[base + t];
                s += e * e;
            }
            dist[idx[j]] = s;
        }
    }

    /**
     * A lower bound of the exact lo − s (s ≥ 0): the computed difference less {@link #ROUND_GUARD} times the
     * operands' magnitude, which exceeds its rounding error; cheap and branch-free, unlike {@code Math.nextDown}.
     */
    private static double widenDown(double lo, double s) {
        return lo - s - ROUND_GUARD * (Math.abs(lo) + s);
    }

    /** An upper bound of the exact hi + s (hi, s ≥ 0), as {@link #widenDown}. */
    private static double widenUp(double hi, double s) {
        return hi + s + ROUND_GUARD * (hi + s);
    }

    private static double up(double x) {
        return x * (1 + BOUND_SLACK) + BOUND_FLOOR;
    }

    private static double down(double x) {
        return x * (1 - BOUND_SLACK) - BOUND_FLOOR;
    }

    private static void maskOf(int[] order, int m, long[] mask) {
        Arrays.fill(mask, 0L);
        for (int j = 0; j < m; j++) {
            int idx = order[j];
            mask[idx >>> 6] |= 1L << idx;
        }
    }

    private static void allOf(int n, long[] mask) {
        Arrays.fill(mask, 0L);
        for (int i = 0; i < n; i++) {
            mask[i >>> 6] |= 1L << i;
        }
    }

    /**
     * Mean and sum of squared deviations of the class-g points in {@code mask} (m of them), two-pass, summed in
     * increasing index order: a function of the neighbour set alone, however the set was found.
     */
    private void momentsOfMask(int g, long[] mask, int m, double[] mean, double[] m2) {
        double[] pts = classPoints[g];
        Arrays.fill(mean, 0.0);
        Arrays.fill(m2, 0.0);
        for (int w = 0; w < mask.length; w++) {
            long bits = mask[w];
            while (bits != 0) {
                int base = ((w << 6) + Long.numberOfTrailingZeros(bits)) * dim;
                bits &= bits - 1;
                for (int t = 0; t < dim; t++) {
                    mean[t] += pts[base + t];
                }
            }
        }
        double inv = 1.0 / m;
        for (int t = 0; t < dim; t++) {
            mean[t] *= inv;
        }
        for (int w = 0; w < mask.length; w++) {
            long bits = mask[w];
            while (bits != 0) {
                int base = ((w << 6) + Long.numberOfTrailingZeros(bits)) * dim;
                bits &= bits - 1;
                for (int t = 0; t < dim; t++) {
                    double diff = pts[base + t] - mean[t];
                    m2[t] += diff * diff;
                }
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

    /** The dimension and buffer checks every {@code classGaussians} overload makes. */
    private void checkGaussiansCall(
            double[] q, Workspace ws, double[][] means, double[][] variances, double[] logPriorsOut) {
        checkQuery(q, ws);
        checkRows("means", means);
        checkRows("variances", variances);
        if (logPriorsOut.length < numClasses) {
            throw new IllegalArgumentException(
                    "local QDA: log-prior buffer has length " + logPriorsOut.length + ", need " + numClasses);
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
     * The m nearest class-g points to q — the same set as {@link #nearestSorted} (ties broken by the smaller
     * index) — in {@code ws.order[0..m)}, in no particular (but deterministic) order. Quickselect on the
     * distances costs O(n_g) expected comparisons instead of the heap's O(n_g log m); {@link #predict} needs
     * only the set, whose moments are summed in index order.
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

    /**
     * Finds the m nearest class-g points to q and leaves their within-class indices in {@code ws.order[0..m)}
     * sorted by (distance, index). Uses a bounded max-heap: O(n_g·dim + n_g·log m).
     */
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
     * The per-series memo of {@link #classGaussians(double[], Workspace, NeighbourCache, double[][], double[][],
     * double[])}. Per class it keeps an anchor a (the last query that needed a full search), the K = min(n_g,
     * {@value #CANDIDATE_FACTOR}·k) training points nearest to a as candidates, with a lower and an upper bound
     * on each candidate's distance from the current query (exact after each evaluation, widened by each step of
     * the query, triangle inequality), a lower bound on the distance of every other point (from a, widened by
     * ‖q − a‖), the current neighbour set and its moments; and, once, the previous query.
     *
     * <p>Why: the early-decision rule refits the class Gaussians around the conditional mean m_y every sample
     * (thesis §5.6.1), a k-nearest-neighbour search over all n training points. m_y moves little from one
     * sample to the next, so the bounds usually settle most of the new neighbour set and exclude the far points,
     * leaving exact distances only for the candidates near the k-th neighbour; and the set is often unchanged,
     * so its moments are reused.
     *
     * <p>The cache is validated by what it stores, not by whose queries filled it: every answer is certified
     * for the query at hand, so it stays correct for any query of the same model — after a series restarts,
     * when the state is restored, or when it is handed another series. Losing it costs one full search per
     * class. Memory per cache: about G·(3ℓ + 2.6·K) doubles, ≈ 22 KB for G = 10, ℓ = 30, k = 32 (K = 64); classes
     * with n_g·ℓ &lt; {@value #CACHE_MIN_WORK} or n_g ≤ k keep nothing and are searched in full. Not thread-safe:
     * one series, one thread at a time.
     */
    public static final class NeighbourCache {
        private final LocalQda owner;
        private final ClassCache[] classes;
        private final double[] previous;
        private boolean started;

        private NeighbourCache(LocalQda owner, int minWork) {
            this.owner = owner;
            this.previous = new double[owner.dim];
            this.classes = new ClassCache[owner.numClasses];
            int words = maskWords(owner);
            for (int g = 0; g < owner.numClasses; g++) {
                int n = owner.classSizes[g];
                if ((long) n * owner.dim >= minWork && owner.k < n) {
                    int kk = Math.min(n, CANDIDATE_FACTOR * owner.k);
                    classes[g] = new ClassCache(owner.dim, kk, words);
                }
            }
        }

        /**
         * Records q as the current query and returns the distance from the previous one, rounded up (NaN for
         * the first query, when every class must be searched in full).
         */
        private double step(double[] q) {
            double s = 0;
            for (int t = 0; t < previous.length; t++) {
                double diff = q[t] - previous[t];
                s += diff * diff;
            }
            System.arraycopy(q, 0, previous, 0, previous.length);
            if (!started) {
                started = true;
                return Double.NaN;
            }
            return up(Math.sqrt(s));
        }

        /** The number of classes for which this cache keeps bounds (the others are searched in full). */
        public int boundedClasses() {
            int c = 0;
            for (ClassCache cc : classes) {
                if (cc != null) {
                    c++;
                }
            }
            return c;
        }

        /** True when this cache was made by {@code model}'s {@link LocalQda#newCache()}. */
        public boolean belongsTo(LocalQda model) {
            return owner == model;
        }
    }

    /** One class's part of a {@link NeighbourCache}. */
    private static final class ClassCache {
        private final double[] anchor;
        private final int[] candidates;
        private final double[] lower;
        private final double[] upper;
        private final boolean[] inSet;
        private final long[] mask;
        private final double[] mean;
        private final double[] variance;
        private int candidateCount;
        private double outerBound;
        /** False when the bounds are stale (not widened by every step since the anchor): re-anchor first. */
        private boolean bounded;
        /** Consecutive failed certificates. */
        private int failures;
        /** Samples left to search in full without bounds, after repeated failures. */
        private int pause;

        private boolean hasMoments;

        private ClassCache(int dim, int maxCandidates, int words) {
            this.anchor = new double[dim];
            this.candidates = new int[maxCandidates];
            this.lower = new double[maxCandidates];
            this.upper = new double[maxCandidates];
            this.inSet = new boolean[maxCandidates];
            this.mask = new long[words];
            this.mean = new double[dim];
            this.variance = new double[dim];
        }
    }

    /**
     * Most doubles a {@link DotTable} may hold, d·n ≤ 2²⁴ (128 MB): beyond that {@link #fitsDotTable} is false and
     * the early classifier keeps the {@link NeighbourCache}. The benchmark's table (d = 1,024, n = 1,000) is 8 MB.
     */
    public static final long MAX_DOT_TABLE_DOUBLES = 1L << 24;

    /**
     * Safety factor on every rounding-error bound of the dot-product screening ({@link DotTracker}): each bound
     * below is a first-order bound of the form c·u·(magnitudes), u = 2⁻⁵³; multiplying by 4 covers the
     * second-order terms, the rounding of the bounds' own arithmetic (norms, sums) and of the comparisons.
     */
    static final double TRACK_GUARD = 4.0;

    /**
     * Largest accumulated drift of a {@link DotTracker}'s dot products, relative to (‖m‖ + max‖y‖)², before they are
     * recomputed exactly (O(nℓ)). A step of the conditional mean adds ≈ 1e-14 of that scale, so over d = 1,024
     * samples the drift stays near 1e-11 and this only triggers when the query jumps (a reset, a restored or reused
     * state), where the measured residual is of the order of the jump itself; the screening stays exact either way,
     * this only keeps the band of exactly evaluated points narrow.
     */
    static final double RESYNC_FRACTION = 1e-8;

    /** Absolute floor of the screening tolerance, far above the rounding of squared distances that underflow. */
    static final double TRACK_FLOOR = 1e-290;

    private static final double UNIT_ROUNDOFF = 0x1p-53;

    /**
     * True when a {@link DotTable} for {@code steps} gain vectors fits under {@link #MAX_DOT_TABLE_DOUBLES}.
     *
     * @param steps number of gain vectors (the series length d)
     */
    public boolean fitsDotTable(int steps) {
        return steps >= 1 && (long) steps * size <= MAX_DOT_TABLE_DOUBLES;
    }

    /**
     * The table T[t][i] = p_t·y_i of a known sequence of query steps p_0..p_{d−1} against every training point y_i,
     * for {@link DotTracker}s (thesis §5.6.1; method notes §3.1: for the joint estimator the conditional mean moves
     * as m_y(t+1) = m_y(t) + p_t·e_t with p_t = (BᵀL)[:, t]). Built once, O(d·n·ℓ); immutable and shared by every
     * series. Memory 8·d·n bytes (8 MB at d = 1,024, n = 1,000) plus 16·n + 8·d for the norms.
     *
     * @param gains d rows p_t, each of length {@link #dim()}; copied into the table, not kept
     * @throws IllegalArgumentException on a row of the wrong length, non-finite values, or a table above {@link
     *     #MAX_DOT_TABLE_DOUBLES}
     */
    public DotTable dotTable(double[][] gains) {
        if (!fitsDotTable(gains.length)) {
            throw new IllegalArgumentException("local QDA: a dot table for " + gains.length + " steps and " + size
                    + " training points exceeds " + MAX_DOT_TABLE_DOUBLES + " doubles");
        }
        return new DotTable(this, gains);
    }

    /**
     * {@link #classGaussians(double[], Workspace, double[][], double[][], double[])} for a query that moves by known
     * steps, q(t+1) = q(t) + p_t·e_t (the conditional mean m_y of the joint estimator, thesis §5.6.1, method notes
     * §3.1), with bit-for-bit the same results as the plain search. The tracker keeps dot_i ≈ q·y_i for every
     * training point, advanced by e_t·T[t][i] in O(n), so ‖q − y_i‖² ≈ ‖q‖² − 2 dot_i + ‖y_i‖² costs O(n) per
     * query instead of O(nℓ). That expansion cancels and drifts, so it only screens: with a rigorous bound τ on its
     * distance from the distance the full search computes, a point more than 2τ above the k-th smallest estimate is
     * certainly out, a point more than 2τ below the (k+1)-th certainly in, and only the points in between (usually
     * none or a few) get exact distances, computed as the full search does, so ties resolve identically.
     *
     * <p>The tracker is validated by what it stores: the step is applied only when the tracker last saw step − 1,
     * and the bound grows by the measured residual ‖(q − q_prev) − p_t·e_t‖ (times max‖y_i‖), so any other query
     * (a reset, restored, copied or reused state, or a caller's inconsistent e) only widens the band or, above
     * {@link #RESYNC_FRACTION}, makes the tracker recompute its dot products exactly (O(nℓ)).
     *
     * @param q the query (m_y after the step); not modified
     * @param tracker the series' tracker of this model; updated
     * @param step t, the index of the gain p_t the query has just moved by (0-based)
     * @param innovation e_t
     * @throws IllegalArgumentException as the plain overload, or when the tracker belongs to another model
     */
    public void classGaussians(
            double[] q,
            Workspace ws,
            DotTracker tracker,
            int step,
            double innovation,
            double[][] means,
            double[][] variances,
            double[] logPriorsOut) {
        checkGaussiansCall(q, ws, means, variances, logPriorsOut);
        if (tracker.table.owner != this) {
            throw new IllegalArgumentException("local QDA: dot tracker belongs to another model");
        }
        double tol = tracker.advance(q, step, innovation);
        for (int g = 0; g < numClasses; g++) {
            logPriorsOut[g] = logPriors[g];
            int n = classSizes[g];
            if (n == 0) {
                Arrays.fill(means[g], 0, dim, Double.NaN);
                Arrays.fill(variances[g], 0, dim, Double.NaN);
                continue;
            }
            int m = Math.min(k, n);
            if (m == n) {
                allOf(n, ws.mask);
            } else if (!(tol < Double.POSITIVE_INFINITY) || !screenedSet(q, g, m, tracker, tol, ws)) {
                fullSearch(q, g, m, ws);
            }
            long[] cachedMask = tracker.masks[g];
            if (tracker.hasMoments[g] && Arrays.equals(cachedMask, ws.mask)) {
                System.arraycopy(tracker.means[g], 0, means[g], 0, dim);
                System.arraycopy(tracker.variances[g], 0, variances[g], 0, dim);
                continue;
            }
            momentsOfMask(g, ws.mask, m, ws.mean, ws.m2);
            for (int t = 0; t < dim; t++) {
                means[g][t] = ws.mean[t];
                variances[g][t] = ws.m2[t] / m + COVARIANCE_RIDGE;
            }
            System.arraycopy(ws.mask, 0, cachedMask, 0, cachedMask.length);
            System.arraycopy(means[g], 0, tracker.means[g], 0, dim);
            System.arraycopy(variances[g], 0, tracker.variances[g], 0, dim);
            tracker.hasMoments[g] = true;
        }
    }

    /**
     * The k-nearest set of class g at q into {@code ws.mask} from the tracker's estimates (see {@link
     * #classGaussians(double[], Workspace, DotTracker, int, double, double[][], double[][], double[])}). The
     * estimate a_i = fl(‖y_i‖² − 2 dot_i) leaves out ‖q‖², common to every point, so that a_i and its order
     * statistics move little from one query to the next; with ‖q‖² added exactly, every a_i lies within τ =
     * {@code tol} of the distance D_i the full search computes (the comparisons below are differences, where the
     * common term cancels; read a_i as a_i + ‖q‖²). With a_(k) and a_(k+1) the
     * k-th and (k+1)-th smallest estimates: at least k points have D ≤ a_(k) + τ, so a point with a_i &gt; a_(k) +
     * 2τ has D_i &gt; a_(k) + τ and is out (strictly, so no tie can bring it back); at most k points (i among them)
     * have a &lt; a_(k+1), so a point with a_i &lt; a_(k+1) − 2τ, whose D_i is below every D_j of the others, is in.
     * The rest, the band, get exact distances and fill the remaining places by (distance, index). Returns false
     * (caller searches in full) only if the band is too small, which the bound rules out.
     */
    private boolean screenedSet(double[] q, int g, int m, DotTracker tr, double tol, Workspace ws) {
        int n = classSizes[g];
        int off = tr.table.offsets[g];
        double[] dot = tr.dot;
        double[] sq = tr.table.squaredNorms;
        double[] est = ws.estimate;
        double[] vals = ws.values;
        // a_(k) and a_(k+1) in the same pass when the previous query's neighbour set S (m points) still holds the m
        // smallest estimates, max over S < min outside S (the usual case: the set changes in a minority of
        // samples); otherwise a quickselect.
        long[] prev = tr.masks[g];
        boolean known = tr.hasMoments[g];
        double kth = Double.NEGATIVE_INFINITY;
        double next = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double a = sq[off + i] - 2 * dot[off + i];
            est[i] = a;
            boolean was = ((prev[i >>> 6] >>> i) & 1L) != 0;
            kth = was ? Math.max(kth, a) : kth;
            next = was ? next : Math.min(next, a);
        }
        boolean sameSet = known && bitCount(prev) == m;
        if (sameSet && kth >= next) {
            // The set changed: a_(k) and a_(k+1) lie in the zone [min outside S, max over S], below which there are
            // only members of S (fewer than m), and above whose top there are at least m + 1 points in all.
            int below = 0;
            int z = 0;
            for (int i = 0; i < n; i++) {
                double a = est[i];
                below += a < next ? 1 : 0;
                vals[z] = a;
                z += (a >= next && a <= kth) ? 1 : 0;
            }
            int rank = m - below;
            if (rank >= 1 && rank < z) {
                double lo = kthSmallest(vals, z, rank);
                double hi = Double.POSITIVE_INFINITY;
                for (int j = rank; j < z; j++) {
                    hi = Math.min(hi, vals[j]);
                }
                kth = lo;
                next = hi;
            } else {
                sameSet = false; // not finite: select among all
            }
            known = false;
        }
        if (!sameSet) {
            System.arraycopy(est, 0, vals, 0, n);
            kth = kthSmallest(vals, n, m);
            next = Double.POSITIVE_INFINITY;
            for (int j = m; j < n; j++) {
                next = Math.min(next, vals[j]);
            }
            known = false;
        }
        double margin = 2 * tol;
        double outCut = kth + margin;
        double inCut = next - margin;
        if (known && kth < inCut && next > outCut) {
            // S is still the set of the m smallest estimates, with a gap of more than 2τ to the rest: every member
            // is certainly in and every other point certainly out, which the pass below would find point by point.
            System.arraycopy(prev, 0, ws.mask, 0, prev.length);
            return true;
        }
        long[] mask = ws.mask;
        Arrays.fill(mask, 0L);
        int[] band = ws.order;
        int sure = 0;
        int b = 0;
        for (int i = 0; i < n; i++) {
            double a = est[i];
            int in = a < inCut ? 1 : 0;
            mask[i >>> 6] |= (long) in << i;
            sure += in;
            band[b] = i;
            b += (in == 0 && a <= outCut) ? 1 : 0;
        }
        int need = m - sure;
        if (need == 0) {
            return true;
        }
        if (need > b) {
            return false; // impossible when the bound holds; the full search is the safe answer
        }
        double[] dist = ws.dist;
        exactDistances(q, classPoints[g], band, b, dist);
        selectBand(dist, band, b, need, vals, mask, null, null);
        return true;
    }

    /**
     * A fresh dot tracker for one series (see {@link DotTracker}).
     *
     * @param table a table of this model
     * @throws IllegalArgumentException when the table belongs to another model
     */
    public DotTracker newTracker(DotTable table) {
        if (table.owner != this) {
            throw new IllegalArgumentException("local QDA: dot table belongs to another model");
        }
        return new DotTracker(table);
    }

    /** See {@link LocalQda#dotTable}. Immutable, thread-safe. */
    public static final class DotTable {
        private final LocalQda owner;
        private final int steps;
        /** Row t (length n, classes concatenated in class order, points in class order) = p_t·y_i. */
        private final double[] table;
        /** ‖p_t‖, rounded up. */
        private final double[] gainNorms;
        /** ‖y_i‖², classes concatenated. */
        private final double[] squaredNorms;
        /** max_i ‖y_i‖, rounded up. */
        private final double maxNorm;
        /** Start of each class in a row. */
        private final int[] offsets;
        /** The gains p_t, row-major d × ℓ, for the step residual. */
        private final double[] gains;

        private DotTable(LocalQda owner, double[][] gains) {
            this.owner = owner;
            int dim = owner.dim;
            int n = owner.size;
            this.steps = gains.length;
            this.offsets = new int[owner.numClasses];
            for (int g = 1; g < owner.numClasses; g++) {
                offsets[g] = offsets[g - 1] + owner.classSizes[g - 1];
            }
            this.squaredNorms = new double[n];
            double max = 0;
            for (int g = 0; g < owner.numClasses; g++) {
                double[] pts = owner.classPoints[g];
                for (int i = 0; i < owner.classSizes[g]; i++) {
                    double s = 0;
                    for (int t = 0; t < dim; t++) {
                        s += pts[i * dim + t] * pts[i * dim + t];
                    }
                    squaredNorms[offsets[g] + i] = s;
                    max = Math.max(max, s);
                }
            }
            this.maxNorm = Math.sqrt(max) * (1 + 4 * dim * UNIT_ROUNDOFF);
            this.table = new double[steps * n];
            this.gainNorms = new double[steps];
            this.gains = new double[steps * dim];
            for (int s = 0; s < steps; s++) {
                double[] p = gains[s];
                if (p.length != dim) {
                    throw new IllegalArgumentException(
                            "local QDA: gain " + s + " has length " + p.length + ", model has dimension " + dim);
                }
                double pp = 0;
                for (int t = 0; t < dim; t++) {
                    if (!Double.isFinite(p[t])) {
                        throw new IllegalArgumentException("local QDA: gain " + s + " is not finite");
                    }
                    pp += p[t] * p[t];
                }
                gainNorms[s] = Math.sqrt(pp) * (1 + 4 * dim * UNIT_ROUNDOFF);
                System.arraycopy(p, 0, this.gains, s * dim, dim);
                int row = s * n;
                for (int g = 0; g < owner.numClasses; g++) {
                    int ng = owner.classSizes[g];
                    double[] byDim = owner.classPointsByDim[g];
                    int base = row + offsets[g];
                    for (int t = 0; t < dim; t++) {
                        double pt = p[t];
                        int col = t * ng;
                        for (int i = 0; i < ng; i++) {
                            table[base + i] += pt * byDim[col + i];
                        }
                    }
                }
            }
        }

        /** Number of steps d (rows). */
        public int steps() {
            return steps;
        }

        /** True when this table was made by {@code model}'s {@link LocalQda#dotTable}. */
        public boolean belongsTo(LocalQda model) {
            return owner == model;
        }
    }

    /**
     * The per-series state of the screened search of {@link #classGaussians(double[], Workspace, DotTracker, int,
     * double, double[][], double[][], double[])} (thesis §5.6.1; method notes §3.1): the dot products dot_i ≈
     * q·y_i of the last query with every training point, a rigorous bound on their error, the last query and the
     * index of the next expected step; and per class the last neighbour set and its Gaussian, reused when the set is
     * unchanged (the set changes in a minority of samples).
     *
     * <p>Why: the early-decision rule refits local QDA's class Gaussians around the conditional mean m_y every
     * sample, a k-nearest-neighbour search over all n training points in ℓ dimensions; with the dot products
     * advanced by the known step the screening costs O(n) and exact distances are needed only at the k-th
     * neighbour's boundary.
     *
     * <p>Derived and transient: never serialised; when missing, stale or handed another series it recomputes its
     * dot products from the query in O(nℓ) (see the method). Memory: n + ℓ doubles for the dot products and the
     * query, plus per class 2ℓ doubles and ⌈max n_g/64⌉ longs for the cached Gaussian — 8·(n + ℓ + 2Gℓ) + 8·G·⌈max n_g/64⌉
     * ≈ 13 KB for n = 1,000, G = 10, ℓ = 30 (the {@link NeighbourCache} it replaces for the joint estimator took
     * ≈ 22 KB). Not thread-safe: one series, one thread at a time.
     */
    public static final class DotTracker {
        private final DotTable table;
        private final double[] dot;
        private final double[] query;
        private final long[][] masks;
        private final double[][] means;
        private final double[][] variances;
        private final boolean[] hasMoments;
        /** The step expected next (the number of steps folded into {@link #dot}); −1 before the first query. */
        private int time = -1;
        /** Bound on |dot_i − q·y_i| (exact product of the stored query and the point) for every i. */
        private double drift;
        /** Queries answered with a full recomputation of the dot products (for tests and diagnostics). */
        private long resyncs;

        private DotTracker(DotTable table) {
            this.table = table;
            LocalQda owner = table.owner;
            this.dot = new double[owner.size];
            this.query = new double[owner.dim];
            int g = owner.numClasses;
            this.masks = new long[g][];
            this.means = new double[g][owner.dim];
            this.variances = new double[g][owner.dim];
            this.hasMoments = new boolean[g];
            int words = maskWords(owner);
            for (int c = 0; c < g; c++) {
                masks[c] = new long[words];
            }
        }

        /** True when this tracker uses {@code t}, a table of the model. */
        public boolean belongsTo(DotTable t) {
            return table == t;
        }

        /** How many queries recomputed the dot products in full (first query, jumps). */
        public long resyncs() {
            return resyncs;
        }

        /**
         * Moves the dot products to q: by the step when it follows the last query, otherwise (or when the
         * accumulated bound grows past {@link #RESYNC_FRACTION}) recomputed. Returns the screening tolerance τ:
         * a bound on |(â_i + ‖q‖²) − D_i| for the estimate â_i = fl(‖y_i‖² − 2 dot_i) and the distance D_i the
         * full search computes (‖q‖² exact); +∞ when q is not finite.
         *
         * <p>Error analysis (u = 2⁻⁵³, Y = max‖y_i‖, first order; every term is multiplied by {@link #TRACK_GUARD}):
         * one step changes the exact product q·y_i by (q − q′)·y_i = e·(p·y_i) + r·y_i, with r = (q − q′) − p·e
         * measured as computed (its rounding ≤ 2u(‖q‖ + ‖q′‖ + |e|‖p‖)); the table entry has |T − p·y_i| ≤
         * ℓu‖p‖Y, the update fl(dot + fl(e·T)) rounds by ≤ u(|e|‖p‖Y + ‖q‖Y + drift). A recomputed fl(q·y_i) errs
         * by ≤ ℓu‖q‖Y. In the estimate, the stored ‖y_i‖² errs by ≤ ℓu·Y² and the subtraction by
         * ≤ u(Y² + 2‖q‖Y + 2·drift); the computed ‖q‖ that scales the bound is itself within ℓu; the full search's D_i by ≤ (ℓ + 1)u·D_i ≤ (ℓ + 1)u(‖q‖ + Y)². So τ = 2·drift +
         * (2ℓ + 8)u(‖q‖ + Y)², times the guard, plus {@link #TRACK_FLOOR}.
         */
        private double advance(double[] q, int step, double e) {
            LocalQda owner = table.owner;
            int dim = owner.dim;
            double qq = 0;
            double prevSq = 0;
            for (int t = 0; t < dim; t++) {
                qq += q[t] * q[t];
                prevSq += query[t] * query[t];
            }
            double y = table.maxNorm;
            double qNorm = Math.sqrt(qq);
            double scale = (qNorm + y) * (qNorm + y);
            if (!(scale < Double.POSITIVE_INFINITY)) {
                time = -1;
                return Double.POSITIVE_INFINITY;
            }
            double u = UNIT_ROUNDOFF;
            boolean stepped = false;
            if (step >= 0 && step == time && step < table.steps && Double.isFinite(e)) {
                int pRow = step * owner.size;
                double pNorm = table.gainNorms[step];
                double rr = residualSquared(q, step, e);
                double moved = Math.abs(e) * pNorm;
                double prevNorm = Math.sqrt(prevSq);
                double inc = y * (Math.sqrt(rr) + 2 * u * (qNorm + prevNorm + moved))
                        + (dim + 2) * u * moved * y
                        + u * (qNorm * y + drift);
                double next = (drift + TRACK_GUARD * inc) * (1 + 4 * u);
                if (2 * next <= RESYNC_FRACTION * scale) {
                    double[] row = table.table;
                    double[] d = dot;
                    int n = d.length;
                    for (int i = 0; i < n; i++) {
                        d[i] += e * row[pRow + i];
                    }
                    drift = next;
                    stepped = true;
                }
            }
            if (!stepped) {
                recompute(q);
                drift = TRACK_GUARD * (dim + 2) * u * qNorm * y;
                resyncs++;
            }
            System.arraycopy(q, 0, query, 0, dim);
            time = step >= 0 && step < table.steps ? step + 1 : -1;
            return (2 * drift + TRACK_GUARD * (2 * dim + 8) * u * scale) * (1 + 8 * u) + TRACK_FLOOR;
        }

        /** ‖(q − q′) − p_step·e‖² as computed, q′ the stored query. */
        private double residualSquared(double[] q, int step, double e) {
            double[] p = table.gains;
            int base = step * query.length;
            double s = 0;
            for (int t = 0; t < query.length; t++) {
                double r = (q[t] - query[t]) - p[base + t] * e;
                s += r * r;
            }
            return s;
        }

        /** dot_i = fl(q·y_i) for every training point, O(nℓ). */
        private void recompute(double[] q) {
            LocalQda owner = table.owner;
            Arrays.fill(dot, 0.0);
            for (int g = 0; g < owner.numClasses; g++) {
                int ng = owner.classSizes[g];
                double[] byDim = owner.classPointsByDim[g];
                int off = table.offsets[g];
                for (int t = 0; t < owner.dim; t++) {
                    double qt = q[t];
                    int col = t * ng;
                    for (int i = 0; i < ng; i++) {
                        dot[off + i] += qt * byDim[col + i];
                    }
                }
            }
        }
    }

    private static int bitCount(long[] mask) {
        int c = 0;
        for (long w : mask) {
            c += Long.bitCount(w);
        }
        return c;
    }

    private static int maskWords(LocalQda model) {
        int maxClass = 0;
        for (int s : model.classSizes) {
            maxClass = Math.max(maxClass, s);
        }
        return Math.max(1, (maxClass + 63) >>> 6);
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
        private final long[] mask;
        private final double[] values;
        private final double[] estimate;
        private final int[] slot;
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
            this.mask = new long[maskWords(owner)];
            this.values = new double[maxClass];
            this.estimate = new double[maxClass];
            this.slot = new int[maxClass];
        }

        private void ensureKs(int n) {
            if (bestScore.length < n) {
                bestScore = new double[n];
            }
        }
    }
}
