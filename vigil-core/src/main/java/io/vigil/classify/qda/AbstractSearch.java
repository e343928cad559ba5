package io.vigil.classify.qda;

import io.vigil.classify.qda.LocalQda.Workspace;
import java.util.Arrays;

/**
 * The per-class loop every {@link ClassGaussianSearch} shares: a class whose k covers it takes all its points,
 * otherwise the subclass selects the k nearest into the workspace mask; the Gaussian follows from the mask (two-pass
 * moments in index order), reused from the previous query when the set is unchanged. Subclasses differ only in
 * {@link #prepare} and {@link #selectSet}.
 */
abstract class AbstractSearch implements ClassGaussianSearch {
    final LocalQda model;
    final ClassPoints points;
    /** Per class, the last neighbour set and its Gaussian (null for a memo-less, shareable search). */
    final long[][] masks;

    final double[][] means;
    final double[][] variances;
    final boolean[] hasMoments;

    /**
     * Per class, the set before the last one and its Gaussian (null unless asked for): a query that jitters about
     * a boundary point (the any-order m_y) often returns to it.
     */
    private final long[][] priorMasks;

    private final double[][] priorMeans;
    private final double[][] priorVariances;
    private final boolean[] hasPrior;

    AbstractSearch(LocalQda model, boolean memoize) {
        this(model, memoize, false);
    }

    AbstractSearch(LocalQda model, boolean memoize, boolean memoizePrior) {
        this.model = model;
        this.points = model.points;
        int g = points.numClasses;
        if (memoize) {
            this.masks = new long[g][points.maskWords()];
            this.means = new double[g][points.dim];
            this.variances = new double[g][points.dim];
            this.hasMoments = new boolean[g];
        } else {
            this.masks = null;
            this.means = null;
            this.variances = null;
            this.hasMoments = null;
        }
        if (memoize && memoizePrior) {
            this.priorMasks = new long[g][points.maskWords()];
            this.priorMeans = new double[g][points.dim];
            this.priorVariances = new double[g][points.dim];
            this.hasPrior = new boolean[g];
        } else {
            this.priorMasks = null;
            this.priorMeans = null;
            this.priorVariances = null;
            this.hasPrior = null;
        }
    }

    @Override
    public final LocalQda model() {
        return model;
    }

    @Override
    public final void find(double[] q, int step, double innovation, Workspace ws, ClassGaussians out) {
        model.checkQuery(q, ws);
        model.checkStorage(out);
        prepare(q, step, innovation);
        int dim = points.dim;
        for (int g = 0; g < points.numClasses; g++) {
            out.logPriors[g] = model.logPrior(g);
            int n = points.sizes[g];
            if (n == 0) {
                Arrays.fill(out.means[g], 0, dim, Double.NaN);
                Arrays.fill(out.variances[g], 0, dim, Double.NaN);
                continue;
            }
            int m = Math.min(model.k(), n);
            if (m < n && masks != null && hasMoments[g] && keeps(q, g, m)) {
                System.arraycopy(means[g], 0, out.means[g], 0, dim);
                System.arraycopy(variances[g], 0, out.variances[g], 0, dim);
                continue;
            }
            if (m == n) {
                KNearest.allOf(n, ws.mask);
            } else {
                selectSet(q, g, m, ws);
            }
            if (masks != null && hasMoments[g] && Arrays.equals(masks[g], ws.mask)) {
                System.arraycopy(means[g], 0, out.means[g], 0, dim);
                System.arraycopy(variances[g], 0, out.variances[g], 0, dim);
                continue;
            }
            if (priorMasks != null && hasPrior[g] && Arrays.equals(priorMasks[g], ws.mask)) {
                swapWithPrior(g);
                System.arraycopy(means[g], 0, out.means[g], 0, dim);
                System.arraycopy(variances[g], 0, out.variances[g], 0, dim);
                continue;
            }
            points.momentsOfMask(g, ws.mask, m, ws.mean, ws.m2);
            for (int t = 0; t < dim; t++) {
                out.means[g][t] = ws.mean[t];
                out.variances[g][t] = ws.m2[t] / m + LocalQda.COVARIANCE_RIDGE;
            }
            if (priorMasks != null && hasMoments[g]) {
                swapWithPrior(g);
                hasPrior[g] = true;
            }
            if (masks != null) {
                System.arraycopy(ws.mask, 0, masks[g], 0, masks[g].length);
                System.arraycopy(out.means[g], 0, means[g], 0, dim);
                System.arraycopy(out.variances[g], 0, variances[g], 0, dim);
                hasMoments[g] = true;
            }
        }
    }

    /** Exchanges class g's last set and Gaussian with the one before it (array references only). */
    private void swapWithPrior(int g) {
        long[] mask = masks[g];
        masks[g] = priorMasks[g];
        priorMasks[g] = mask;
        double[] mean = means[g];
        means[g] = priorMeans[g];
        priorMeans[g] = mean;
        double[] variance = variances[g];
        variances[g] = priorVariances[g];
        priorVariances[g] = variance;
    }

    /** Called once per query before the classes are searched. */
    abstract void prepare(double[] q, int step, double innovation);

    /**
     * Whether class g's m (&lt; n_g) nearest points to q are certainly the set memoised in {@link #masks} (whose
     * Gaussian is then reused without a search); false when not known. An implementation returns true only when its
     * bounds prove it, so the Gaussians stay the full search's.
     */
    boolean keeps(double[] q, int g, int m) {
        return false;
    }

    /** Leaves the m (&lt; n_g) nearest class-g points to q in {@code ws.mask}. */
    abstract void selectSet(double[] q, int g, int m, Workspace ws);

    /** The k-nearest set of class g at q into {@code ws.mask}: all distances and a value quickselect. */
    final void fullSearch(double[] q, int g, int m, Workspace ws) {
        int n = points.sizes[g];
        points.distances(q, g, ws.dist);
        System.arraycopy(ws.dist, 0, ws.values, 0, n);
        KNearest.maskOfSmallest(ws.dist, n, KNearest.kthSmallest(ws.values, n, m), m, ws.mask);
    }

    /**
     * Completes a bounded search: {@code sure} points are already in {@code ws.mask} and the set still needs m −
     * sure of the {@code b} band points (increasing index order) nearest to q, chosen on exact distances as the full
     * search would. False when the band cannot hold them — impossible while the caller's bounds hold — so the caller
     * falls back to {@link #fullSearch}.
     */
    final boolean completeFromBand(double[] q, int g, int m, int sure, int[] band, int b, Workspace ws) {
        int need = m - sure;
        if (need == 0) {
            return true;
        }
        if (need > b) {
            return false;
        }
        points.exactDistances(q, g, band, b, ws.dist);
        KNearest.selectBand(ws.dist, band, b, need, ws.values, ws.mask, null, null);
        return true;
    }

    /** The search without memory: every query searches every class in full. Stateless, so one is shared. */
    static final class Full extends AbstractSearch {
        Full(LocalQda model) {
            super(model, false);
        }

        @Override
        void prepare(double[] q, int step, double innovation) {}

        @Override
        void selectSet(double[] q, int g, int m, Workspace ws) {
            fullSearch(q, g, m, ws);
        }
    }
}
