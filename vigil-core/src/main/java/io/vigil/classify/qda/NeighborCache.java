package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;
import java.util.Arrays;

/**
 * A {@link ClassGaussianSearch} for one series that certifies most of each new neighbour set with the
 * triangle inequality instead of computing all distances. Per class it keeps an anchor a (the last query that
 * needed a full search), the K = min(n_g, {@value #CANDIDATE_FACTOR}·k) training points nearest to a as
 * candidates, with a lower and an upper bound on each candidate's distance from the current query (exact after
 * each evaluation, widened by each step of the query), a lower bound on the distance of every other point (from
 * a, widened by ‖q − a‖), and the current neighbour set; and, once, the previous query.
 *
 * <p>Why: the early-decision rule refits the class Gaussians around the conditional mean m_y every sample
 * (thesis §5.6.1), a k-nearest-neighbour search over all n training points. m_y moves little from one sample to
 * the next, so the bounds usually settle most of the new neighbour set and exclude the far points, leaving exact
 * distances only for the candidates near the k-th neighbour; and the set is often unchanged, so its moments are
 * reused. Used where the query's steps are not known in advance (the GMM estimator); the joint estimator's known
 * steps allow the cheaper {@link DotTracker}.
 *
 * <p>Validated by what it stores, not by whose queries filled it: every answer is certified for the query at
 * hand. Memory about G·(3ℓ + 2.6·K) doubles, ≈ 22 KB for G = 10, ℓ = 30, k = 32 (K = 64); classes with n_g·ℓ &lt;
 * {@value #CACHE_MIN_WORK} or n_g ≤ k keep no bounds and are searched in full. Not thread-safe.
 */
public final class NeighborCache extends AbstractSearch {
    /**
     * Candidates kept per class, as a multiple of k: the K = 2k points nearest the anchor. Larger K lets the anchor
     * serve queries farther away (fewer full searches) at the cost of more per-series memory and more candidates
     * to screen; 2k measured best on the benchmark (n_g = 100, k = 32).
     */
    static final int CANDIDATE_FACTOR = 2;

    /**
     * Relative widening of every triangle-inequality bound. Computed distances carry a relative rounding error of
     * about (ℓ + 2)·2⁻⁵³ (&lt; 1e-13 for ℓ ≤ 1,000); 1e-9 is four orders of magnitude above that, so a certified
     * exclusion or inclusion also holds for the computed distances the full search compares, ties included, and
     * costs nothing measurable in certificate hits.
     */
    static final double BOUND_SLACK = 1e-9;

    /**
     * Absolute widening of the same bounds, for distances so small that squared differences underflow (below
     * ~1e-154), where the relative error analysis of {@link #BOUND_SLACK} does not apply.
     */
    static final double BOUND_FLOOR = 1e-150;

    /**
     * Relative guard of one addition in the bound updates: 2⁻⁴⁹ ≈ 1.8e-15, eight times the unit round-off, so
     * that a bound widened by one addition stays a bound of the exact sum whatever the rounding.
     */
    static final double ROUND_GUARD = 0x1p-49;

    /**
     * Consecutive failed certificates after which a class stops re-anchoring and searches in full (cheaper than a
     * re-anchor) for 2^failures samples, at most {@link #MAX_PAUSE}: when m_y moves fast (short series, early
     * samples) the bounds rarely settle the set and maintaining them costs more than it saves. Both paths are
     * exact; this only chooses the cheaper one.
     */
    static final int PAUSE_AFTER_FAILURES = 2;

    /** Longest run of plain searches between attempts to re-anchor; see {@link #PAUSE_AFTER_FAILURES}. */
    static final int MAX_PAUSE = 32;

    /**
     * Smallest n_g·ℓ of a class for which bounds are kept; smaller classes are searched in full every time.
     * Measured: on SyntheticControl (n_g·ℓ = 50·5) the cache made {@code vigil evaluate} slower (≈ 9 vs 5 µs per
     * sample), on the benchmark (100·30) faster; the full search of a small class is too cheap for the
     * bookkeeping to pay. The value between the two was not tuned further.
     */
    static final int CACHE_MIN_WORK = 1024;

    private final ClassCache[] classes;
    private final double[] previous;
    private boolean started;
    /** Distance from the previous query, rounded up; NaN for the first query. */
    private double step;

    NeighborCache(LocalQda model, int minWork) {
        super(model, true);
        this.previous = new double[points.dim];
        this.classes = new ClassCache[points.numClasses];
        for (int g = 0; g < points.numClasses; g++) {
            int n = points.sizes[g];
            if ((long) n * points.dim >= minWork && model.k() < n) {
                int kk = Math.min(n, CANDIDATE_FACTOR * model.k());
                classes[g] = new ClassCache(points.dim, kk);
            }
        }
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

    /** Records q as the current query and the distance from the previous one (NaN the first time). */
    @Override
    void prepare(double[] q, int ignoredStep, double ignoredInnovation) {
        double s = 0;
        for (int t = 0; t < previous.length; t++) {
            double diff = q[t] - previous[t];
            s += diff * diff;
        }
        System.arraycopy(q, 0, previous, 0, previous.length);
        if (!started) {
            started = true;
            step = Double.NaN;
        } else {
            step = up(Math.sqrt(s));
        }
    }

    @Override
    void selectSet(double[] q, int g, int m, Workspace ws) {
        ClassCache cc = classes[g];
        if (cc == null) {
            fullSearch(q, g, m, ws);
        } else if (cc.pause > 0) {
            cc.pause--;
            cc.bounded = false;
            fullSearch(q, g, m, ws);
        } else if (!cc.bounded || Double.isNaN(step)) {
            anchor(q, g, m, cc, ws);
        } else if (certifiedSet(q, g, m, cc, ws)) {
            cc.failures = 0;
        } else if (++cc.failures < PAUSE_AFTER_FAILURES) {
            anchor(q, g, m, cc, ws);
        } else {
            // The query moves too fast for the bounds to pay for themselves: plain searches for a while.
            cc.pause = Math.min(MAX_PAUSE, 1 << cc.failures);
            cc.bounded = false;
            fullSearch(q, g, m, ws);
        }
    }

    /**
     * Full search for class g that also re-anchors {@code cc} at q: all distances, the K nearest become the
     * candidates with exact bounds, the smallest distance of the rest bounds every non-candidate. Leaves the
     * k-nearest set in {@code ws.mask}.
     */
    private void anchor(double[] q, int g, int m, ClassCache cc, Workspace ws) {
        cc.bounded = true;
        int n = points.sizes[g];
        points.distances(q, g, ws.dist);
        double[] dist = ws.dist;
        double[] vals = ws.values;
        System.arraycopy(dist, 0, vals, 0, n);
        int kk = Math.min(n, CANDIDATE_FACTOR * m);
        double outer = Double.POSITIVE_INFINITY;
        double cut = Double.POSITIVE_INFINITY;
        if (kk < n) {
            cut = KNearest.kthSmallest(vals, n, kk);
            double min = Double.POSITIVE_INFINITY;
            for (int j = kk; j < n; j++) {
                min = Math.min(min, vals[j]);
            }
            outer = Math.sqrt(min);
        }
        double kth = KNearest.kthSmallest(vals, kk, m);
        int c = KNearest.collect(dist, n, cut, kk, cc.candidates);
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
        System.arraycopy(q, 0, cc.anchor, 0, points.dim);
        cc.candidateCount = c;
        cc.outerBound = down(outer);
    }

    /**
     * The k-nearest set of class g at q from the cache's bounds, without a full search, when they settle it. The
     * cache holds, for each candidate x, bounds lo ≤ ‖x − q′‖ ≤ hi at the previous query q′, a lower bound R on
     * the distance of every non-candidate, and the previous neighbour set S. Moving to q widens every bound by the
     * step s = ‖q − q′‖ (triangle inequality). Then, with U = max over S of hi (at least k points lie within U), a
     * point with lo &gt; U is certainly not among the k nearest (all of S is nearer), and a member of S with hi
     * below every lo outside S certainly is (only the other k − 1 members of S can be nearer). Only the candidates
     * in between get exact distances — computed exactly as the full search does, so ties resolve identically —
     * which also makes their bounds exact again; the k nearest are the certain members plus the nearest of those.
     * Returns false, leaving the caller to search in full, when the non-candidates cannot be excluded (R ≤ U).
     * Comparisons are widened by {@link #BOUND_SLACK} and {@link #BOUND_FLOOR}, far above the distances' rounding,
     * so every certified order also holds for the computed distances.
     */
    private boolean certifiedSet(double[] q, int g, int m, ClassCache cc, Workspace ws) {
        int c = cc.candidateCount;
        double[] lo = cc.lower;
        double[] hi = cc.upper;
        boolean[] in = cc.inSet;
        double delta = 0;
        double[] a = cc.anchor;
        for (int t = 0; t < points.dim; t++) {
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
        points.exactDistances(q, g, band, b, dist);
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
        KNearest.selectBand(dist, band, b, need, ws.values, mask, in, slot);
        return true;
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

    /** One class's bounds. */
    private static final class ClassCache {
        private final double[] anchor;
        private final int[] candidates;
        private final double[] lower;
        private final double[] upper;
        private final boolean[] inSet;
        private int candidateCount;
        private double outerBound;
        /** False when the bounds are stale (not widened by every step since the anchor): re-anchor first. */
        private boolean bounded;
        /** Consecutive failed certificates. */
        private int failures;
        /** Samples left to search in full without bounds, after repeated failures. */
        private int pause;

        private ClassCache(int dim, int maxCandidates) {
            this.anchor = new double[dim];
            this.candidates = new int[maxCandidates];
            this.lower = new double[maxCandidates];
            this.upper = new double[maxCandidates];
            this.inSet = new boolean[maxCandidates];
        }
    }
}
