package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;
import java.util.Arrays;

/**
 * A {@link ClassGaussianSearch} for one series whose query jumps by steps not known in advance (the any-order
 * conditional mean m_y, which moves by one innovation per observed value in a direction that depends on which value
 * came). Per class it keeps an anchor a — the last query whose distances it computed in full — and those squared
 * distances D_i(a). For any query q, with δ = q − a and c the class centroid, exactly
 *
 * <pre>D_i(q) = D_i(a) + ‖δ‖² − 2δ·(c − a) − 2δ·(y_i − c),   |δ·(y_i − c)| ≤ ‖δ‖·‖y_i − c‖,</pre>
 *
 * so every point's distance is known to within 2‖δ‖·r_i, r_i its distance from the centroid, at O(1) per point once
 * the O(ℓ) terms common to the class are formed. The bound is taken about the centroid rather than the query (the
 * triangle inequality on ‖q − y_i‖, {@link NeighborCache}), so it is as wide as the class (r_i), not as far as the
 * query is from it: on the benchmark's data r ≈ 3.3 against distances ≈ 15, where the triangle bounds settle
 * nothing.
 *
 * <p>With the previous neighbour set S: a point whose lower bound is above every member's upper bound is out (all of
 * S, k points, are nearer), a member whose upper bound is below every non-member's lower bound is in; the rest, the
 * band, get exact distances computed as the full search computes them (so ties resolve identically) and fill the
 * remaining places by (distance, index). When the band exceeds {@link #REANCHOR_FRACTION} of the class the class is
 * searched in full at q, which becomes its anchor. Every bound is widened by {@link #SLACK} of the magnitudes
 * involved, far above their rounding, so a certified order also holds for the computed distances the full search
 * compares. The Gaussians are therefore those of {@link LocalQda#classGaussians} bit for bit.
 *
 * <p>It also keeps each class's set before the last one with its Gaussian: the any-order m_y jitters about a boundary
 * point, and on the benchmark 43 % of set changes return to the set before, whose moments are then reused instead of
 * summed again.
 *
 * <p>Validated by what it stores: the anchor's distances are exact for the anchor, whatever query comes next (a reset,
 * a restored or reused state only widens the band). Memory G·(6ℓ + n_g) doubles, ≈ 18 KB for n = 447, G = 10, ℓ = 30.
 * Not thread-safe.
 */
public final class AnchorCache extends AbstractSearch {
    /**
     * Largest share of a class's points whose distances a query may compute exactly before the class is searched in
     * full and re-anchored. Measured on the benchmark (n_g = 45, k = 32, ℓ = 30, random order): 0.25 re-anchors 1.5
     * classes in 10 per value with ≈ 7 exact distances per certified class, faster than 0.4 (0.8 re-anchors, ≈ 11).
     */
    static final double REANCHOR_FRACTION = 0.25;

    /**
     * Relative widening of every bound. Computed squared distances and the class terms carry a relative rounding
     * error of about (ℓ + 2)·2⁻⁵³ (&lt; 1e-13 for ℓ ≤ 1,000); 1e-9 is four orders of magnitude above it.
     */
    static final double SLACK = 1e-9;

    /** Absolute widening, above the rounding of squared distances that underflow. */
    static final double FLOOR = 1e-290;

    private final double[][] anchors;
    /** Per class: the computed squared distances D_i(a) from the anchor. */
    private final double[][] anchored;
    /** Per class: c − a. */
    private final double[][] offsets;
    /** Per class: ‖c − a‖. */
    private final double[] offsetNorms;

    private final boolean[] hasAnchor;
    private long fullSearches;

    AnchorCache(LocalQda model) {
        super(model, true, true);
        int g = points.numClasses;
        this.anchors = new double[g][points.dim];
        this.offsets = new double[g][points.dim];
        this.anchored = new double[g][];
        for (int c = 0; c < g; c++) {
            anchored[c] = new double[points.sizes[c]];
        }
        this.offsetNorms = new double[g];
        this.hasAnchor = new boolean[g];
    }

    /** How many class searches computed every distance (anchoring), for tests and diagnostics. */
    long fullSearches() {
        return fullSearches;
    }

    @Override
    void prepare(double[] q, int ignoredStep, double ignoredInnovation) {}

    @Override
    void selectSet(double[] q, int g, int m, Workspace ws) {
        if (!hasAnchor[g] || !hasMoments[g] || !certifiedSet(q, g, m, ws)) {
            anchor(q, g, m, ws);
        }
    }

    /**
     * The k-nearest set of class g at q from the anchor's bounds (see the class comment) into {@code ws.mask}, or
     * false, leaving the caller to search in full, when the band is too wide or q is not finite.
     */
    private boolean certifiedSet(double[] q, int g, int m, Workspace ws) {
        int dim = points.dim;
        int n = points.sizes[g];
        double[] a = anchors[g];
        double[] w = offsets[g];
        double dd = 0;
        double cross = 0;
        for (int t = 0; t < dim; t++) {
            double d = q[t] - a[t];
            dd += d * d;
            cross += d * w[t];
        }
        if (!(dd < Double.POSITIVE_INFINITY) || !Double.isFinite(cross)) {
            return false;
        }
        double rho = Math.sqrt(dd);
        double common = dd - 2 * cross;
        double spread = 2 * rho * (1 + SLACK);
        double fixed = SLACK * (dd + 2 * Math.abs(cross) + 2 * rho * offsetNorms[g]) + FLOOR;
        double[] base = anchored[g];
        double[] r = points.radii[g];
        long[] prev = masks[g];
        double[] lo = ws.values;
        double[] hi = ws.estimate;
        double reach = Double.NEGATIVE_INFINITY;
        double outside = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            double b = base[i];
            double est = b + common;
            double err = spread * r[i] + SLACK * (b + 2 * rho * r[i]) + fixed;
            double l = est - err;
            double h = est + err;
            lo[i] = l;
            hi[i] = h;
            boolean was = ((prev[i >>> 6] >>> i) & 1L) != 0;
            reach = was ? Math.max(reach, h) : reach;
            outside = was ? outside : Math.min(outside, l);
        }
        long[] mask = ws.mask;
        Arrays.fill(mask, 0L);
        int[] band = ws.order;
        int sure = 0;
        int b = 0;
        int limit = (int) (REANCHOR_FRACTION * n);
        for (int i = 0; i < n; i++) {
            boolean was = ((prev[i >>> 6] >>> i) & 1L) != 0;
            if (was && hi[i] < outside) {
                mask[i >>> 6] |= 1L << i;
                sure++;
            } else if (lo[i] <= reach) {
                if (b == limit) {
                    return false;
                }
                band[b++] = i;
            }
        }
        return completeFromBand(q, g, m, sure, band, b, ws);
    }

    /** Full search of class g at q, which becomes the class's anchor. */
    private void anchor(double[] q, int g, int m, Workspace ws) {
        fullSearches++;
        fullSearch(q, g, m, ws);
        int n = points.sizes[g];
        System.arraycopy(ws.dist, 0, anchored[g], 0, n);
        System.arraycopy(q, 0, anchors[g], 0, points.dim);
        double[] c = points.centroids[g];
        double[] w = offsets[g];
        double s = 0;
        for (int t = 0; t < points.dim; t++) {
            w[t] = c[t] - q[t];
            s += w[t] * w[t];
        }
        offsetNorms[g] = Math.sqrt(s) * (1 + SLACK);
        hasAnchor[g] = true;
    }
}
