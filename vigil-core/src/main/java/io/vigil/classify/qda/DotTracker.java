package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;
import java.util.Arrays;

/**
 * A {@link ClassGaussianSearch} for one series whose query moves by known steps, q(t+1) = q(t) + p_t·e_t (the
 * conditional mean m_y of the joint estimator, thesis §5.6.1, docs/method.md §3.1). It keeps dot_i ≈ q·y_i for every
 * training point, advanced by e_t·T[t][i] from a shared {@link DotTable} in O(n), so ‖q − y_i‖² ≈ ‖q‖² − 2 dot_i +
 * ‖y_i‖² costs O(n) per query instead of O(nℓ). That expansion cancels and drifts, so it only screens: with a
 * rigorous bound τ on its distance from the distance the full search computes, a point more than 2τ above the k-th
 * smallest estimate is certainly out, a point more than 2τ below the (k+1)-th certainly in, and only the points in
 * between (usually none or a few) get exact distances, computed as the full search does, so ties resolve
 * identically. Per class it reuses the last neighbour set and its Gaussian when the set is unchanged (a minority
 * of samples change it).
 *
 * <p>Validated by what it stores: the step is applied only when the tracker last saw step − 1, and the bound grows
 * by the measured residual ‖(q − q_prev) − p_t·e_t‖ (times max‖y_i‖), so any other query (a reset, restored,
 * copied or reused state, or a caller's inconsistent e) only widens the band or, above {@link #RESYNC_FRACTION},
 * makes the tracker recompute its dot products exactly (O(nℓ)). Derived and transient: never serialised. Memory:
 * 8·(n + ℓ + 2Gℓ) + 8·G·⌈max n_g/64⌉ bytes, ≈ 13 KB for n = 1,000, G = 10, ℓ = 30. Not thread-safe.
 */
public final class DotTracker extends AbstractSearch {
    /**
     * Safety factor on every rounding-error bound of the screening: each bound below is a first-order bound of
     * the form c·u·(magnitudes), u = 2⁻⁵³; multiplying by 4 covers the second-order terms, the rounding of the
     * bounds' own arithmetic (norms, sums) and of the comparisons.
     */
    static final double TRACK_GUARD = 4.0;

    /**
     * Largest accumulated drift of the dot products, relative to (‖m‖ + max‖y‖)², before they are recomputed
     * exactly (O(nℓ)). A step of the conditional mean adds ≈ 1e-14 of that scale, so over d = 1,024 samples the
     * drift stays near 1e-11 and this only triggers when the query jumps (a reset, a restored or reused state),
     * where the measured residual is of the order of the jump itself; the screening stays exact either way, this
     * only keeps the band of exactly evaluated points narrow.
     */
    static final double RESYNC_FRACTION = 1e-8;

    /** Absolute floor of the screening tolerance, far above the rounding of squared distances that underflow. */
    static final double TRACK_FLOOR = 1e-290;

    private final DotTable table;
    private final double[] dot;
    private final double[] query;
    /** The step expected next (the number of steps folded into {@link #dot}); −1 before the first query. */
    private int time = -1;
    /** Bound on |dot_i − q·y_i| (exact product of the stored query and the point) for every i. */
    private double drift;
    /** Queries answered with a full recomputation of the dot products (for tests and diagnostics). */
    private long resyncs;
    /** The screening tolerance of the current query (+∞: search in full). */
    private double tolerance;

    DotTracker(DotTable table) {
        super(table.owner, true);
        this.table = table;
        this.dot = new double[model.size()];
        this.query = new double[points.dim];
    }

    /** How many queries recomputed the dot products in full (first query, jumps). */
    long resyncs() {
        return resyncs;
    }

    @Override
    void prepare(double[] q, int step, double innovation) {
        tolerance = advance(q, step, innovation);
    }

    @Override
    void selectSet(double[] q, int g, int m, Workspace ws) {
        if (!(tolerance < Double.POSITIVE_INFINITY) || !screenedSet(q, g, m, ws)) {
            fullSearch(q, g, m, ws);
        }
    }

    /**
     * Moves the dot products to q: by the step when it follows the last query, otherwise (or when the accumulated
     * bound grows past {@link #RESYNC_FRACTION}) recomputed. Returns the screening tolerance τ: a bound on |(â_i +
     * ‖q‖²) − D_i| for the estimate â_i = fl(‖y_i‖² − 2 dot_i) and the distance D_i the full search computes (‖q‖²
     * exact); +∞ when q is not finite.
     *
     * <p>Error analysis (u = 2⁻⁵³, Y = max‖y_i‖, first order; every term is multiplied by {@link #TRACK_GUARD}): one
     * step changes the exact product q·y_i by (q − q′)·y_i = e·(p·y_i) + r·y_i, with r = (q − q′) − p·e measured as
     * computed (its rounding ≤ 2u(‖q‖ + ‖q′‖ + |e|‖p‖)); the table entry has |T − p·y_i| ≤ ℓu‖p‖Y, the update
     * fl(dot + fl(e·T)) rounds by ≤ u(|e|‖p‖Y + ‖q‖Y + drift). A recomputed fl(q·y_i) errs by ≤ ℓu‖q‖Y. In the
     * estimate, the stored ‖y_i‖² errs by ≤ ℓu·Y² and the subtraction by ≤ u(Y² + 2‖q‖Y + 2·drift); the computed ‖q‖
     * that scales the bound is itself within ℓu; the full search's D_i by ≤ (ℓ + 1)u·D_i ≤ (ℓ + 1)u(‖q‖ + Y)². So τ =
     * 2·drift + (2ℓ + 8)u(‖q‖ + Y)², times the guard, plus {@link #TRACK_FLOOR}.
     */
    private double advance(double[] q, int step, double e) {
        int dim = points.dim;
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
        double u = DotTable.UNIT_ROUNDOFF;
        boolean stepped = false;
        if (step >= 0 && step == time && step < table.steps && Double.isFinite(e)) {
            int pRow = step * dot.length;
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
        Arrays.fill(dot, 0.0);
        for (int g = 0; g < points.numClasses; g++) {
            int ng = points.sizes[g];
            double[] byDim = points.byDim[g];
            int off = points.offsets[g];
            for (int t = 0; t < points.dim; t++) {
                double qt = q[t];
                int col = t * ng;
                for (int i = 0; i < ng; i++) {
                    dot[off + i] += qt * byDim[col + i];
                }
            }
        }
    }

    /**
     * The k-nearest set of class g at q into {@code ws.mask} from the estimates. The estimate a_i = fl(‖y_i‖² −
     * 2 dot_i) leaves out ‖q‖², common to every point, so that a_i and its order statistics move little from one
     * query to the next; with ‖q‖² added exactly, every a_i lies within τ of the distance D_i the full search
     * computes (the comparisons below are differences, where the common term cancels; read a_i as a_i + ‖q‖²).
     * With a_(k) and a_(k+1) the k-th and (k+1)-th smallest estimates: at least k points have D ≤ a_(k) + τ, so a
     * point with a_i &gt; a_(k) + 2τ has D_i &gt; a_(k) + τ and is out (strictly, so no tie can bring it back); at
     * most k points (i among them) have a &lt; a_(k+1), so a point with a_i &lt; a_(k+1) − 2τ, whose D_i is below
     * every D_j of the others, is in. The rest, the band, get exact distances and fill the remaining places by
     * (distance, index). Returns false (caller searches in full) only if the band is too small, which the bound
     * rules out.
     */
    private boolean screenedSet(double[] q, int g, int m, Workspace ws) {
        int n = points.sizes[g];
        int off = points.offsets[g];
        double[] sq = table.squaredNorms;
        double[] est = ws.estimate;
        double[] vals = ws.values;
        // a_(k) and a_(k+1) in the same pass when the previous query's neighbour set S (m points) still holds the m
        // smallest estimates, max over S < min outside S (the usual case); otherwise a quickselect.
        long[] prev = masks[g];
        boolean known = hasMoments[g];
        double kth = Double.NEGATIVE_INFINITY;
        double next = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double a = sq[off + i] - 2 * dot[off + i];
            est[i] = a;
            boolean was = ((prev[i >>> 6] >>> i) & 1L) != 0;
            kth = was ? Math.max(kth, a) : kth;
            next = was ? next : Math.min(next, a);
        }
        boolean sameSet = known && KNearest.bitCount(prev) == m;
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
                double lo = KNearest.kthSmallest(vals, z, rank);
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
            kth = KNearest.kthSmallest(vals, n, m);
            next = Double.POSITIVE_INFINITY;
            for (int j = m; j < n; j++) {
                next = Math.min(next, vals[j]);
            }
            known = false;
        }
        double margin = 2 * tolerance;
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
        return completeFromBand(q, g, m, sure, band, b, ws);
    }
}
