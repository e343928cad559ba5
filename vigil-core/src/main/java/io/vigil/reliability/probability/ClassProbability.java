package io.vigil.reliability.probability;

import io.vigil.reliability.Discriminants;
import io.vigil.reliability.PointClassifier;
import org.hipparchus.distribution.continuous.NormalDistribution;

/**
 * The ideal decision rule's quantity (thesis eq. 5.1): P(ĝ(Y) = c | z) for Y ~ N(m, R), the probability that the
 * classifier ĝ = argmax_g f_g gives the complete series the label c = argmax_g f_g(m) it would get at the conditional
 * mean (docs/method.md §5). With u = Y − m every two-class difference is exactly f_c − f_h = a_h + b_hᵀu + Σ_i q_hi u_i²
 * (the discriminants are at most quadratic with diagonal Hessian), so
 *
 * <ul>
 *   <li>ℓ = 1: the event is a union of intervals of u, and P is a sum of normal CDF differences (exact);
 *   <li>two classes with linear discriminants: f_c − f_h ~ N(a, bᵀRb), so P = Φ(a / ‖Lᵀb‖) (exact; R = LLᵀ);
 *   <li>otherwise randomized quasi-Monte-Carlo: u_j = L(σ ⊙ z_j) over the N shared {@link GaussianPoints} z_j, with
 *       the sign vector σ drawn from the series' seed (so the stream and an offline replay of the same series give the
 *       same estimate), P̂ = (wins)/N.
 * </ul>
 *
 * <p>The rule built on it ({@link #atLeast}) does not spend the whole budget: it evaluates the points in order and
 * stops as soon as a one-sided Clopper–Pearson interval for P excludes λ, or the points left cannot change whether
 * P̂ ≥ λ ({@link StoppingBoundary}); with neither, P̂ over all N points decides. The points, their order and the sign
 * vector depend on the series' seed only, so every replay of a series decides alike. {@link #score} settles a whole
 * grid of thresholds in one pass, which the cross-fitted calibration scores the rule with. Ties f_c = f_h count as c
 * winning, as in the set rule's min ≥ 0. One instance per thread; nothing allocated per call.
 */
public final class ClassProbability {
    /**
     * Default number of QMC points N, the cap of the stopping rule: estimates to ±1/N granularity, enough to resolve
     * thresholds up to 0.99.
     */
    public static final int DEFAULT_POINTS = 128;

    /**
     * Pivots of the Cholesky factor below this fraction of the largest diagonal entry are treated as zero (the
     * conditional covariance loses rank as samples arrive); 1e-12 is far above rounding of an ℓ ≤ 1,000 factorisation
     * and far below any variance that matters to a decision.
     */
    static final double PIVOT_TOLERANCE = 1e-12;

    private static final NormalDistribution NORMAL = new NormalDistribution();

    private final int dim;
    private final int maxClasses;
    private final GaussianPoints points;
    /** The lower Cholesky factor L of R, packed by rows (row i: L_i0..L_ii), from {@link #setCovariance}. */
    private final double[] ownFactor;

    /** Where the factor in use lives: {@link #ownFactor} or a caller's table ({@link #setFactor}). */
    private double[] factor;

    private int factorOffset;
    /** √scale: the factor of scale·R is √scale·L. */
    private double factorScale = 1.0;

    private final double[][] grad;
    private final double[][] curv;
    private final double[] value;
    private final double[][] diffGrad;
    private final double[][] diffCurv;
    private final double[] diffConst;
    private final int[] order;
    private final double[] u;
    private final double[] signedZ;
    private final double[] intervals;
    private final QuadraticIntervals quadraticIntervals;
    private final double[] point;
    private PointClassifier pointClassifier;
    private double[] center;
    private int numClasses;
    private int guess = -1;
    private boolean linear;
    private boolean factored;
    private int pointsUsed;

    /**
     * @param dim ℓ
     * @param maxClasses largest G
     * @param pointCount N, the QMC budget per estimate
     */
    public ClassProbability(int dim, int maxClasses, int pointCount) {
        if (dim < 1 || maxClasses < 1) {
            throw new IllegalArgumentException("dimension and classes must be ≥ 1, got " + dim + " and " + maxClasses);
        }
        this.dim = dim;
        this.maxClasses = maxClasses;
        this.points = GaussianPoints.of(dim, pointCount);
        this.ownFactor = new double[dim * (dim + 1) / 2];
        this.factor = ownFactor;
        this.grad = new double[maxClasses][dim];
        this.curv = new double[maxClasses][dim];
        this.value = new double[maxClasses];
        this.diffGrad = new double[maxClasses][dim];
        this.diffCurv = new double[maxClasses][dim];
        this.diffConst = new double[maxClasses];
        this.order = new int[maxClasses];
        this.u = new double[dim];
        this.signedZ = new double[dim];
        this.point = new double[dim];
        // Each of ≤ G−1 competitors contributes at most two intervals; the intersection of unions stays within 2G.
        this.intervals = new double[4 * maxClasses + 4];
        this.quadraticIntervals = new QuadraticIntervals(4 * maxClasses + 4);
    }

    /** Dimension ℓ. */
    public int dim() {
        return dim;
    }

    /** The QMC budget N. */
    public int pointCount() {
        return points.count();
    }

    /**
     * Sets the covariance: scale·R, R given packed symmetric (row i holds R_i0..R_ii, as {@code SymmetricPacked}), and
     * factors it (lower Cholesky, near-zero pivots dropped: a positive semi-definite R of lower rank is handled).
     *
     * @param packed at least ℓ(ℓ+1)/2 values
     * @param scale a variance inflation ≥ 0 (1: R as given)
     */
    public void setCovariance(double[] packed, double scale) {
        if (!(scale >= 0 && Double.isFinite(scale))) {
            throw new IllegalArgumentException("covariance scale must be finite and ≥ 0, got " + scale);
        }
        if (packed.length < dim * (dim + 1) / 2) {
            throw new IllegalArgumentException(
                    "packed covariance has " + packed.length + " values, need " + dim * (dim + 1) / 2);
        }
        choleskyPacked(packed, 0, ownFactor, 0, dim);
        factor = ownFactor;
        factorOffset = 0;
        factorScale = Math.sqrt(scale);
        factored = true;
    }

    /**
     * Uses a lower Cholesky factor computed beforehand ({@link #choleskyPacked}), e.g. one of a table of the
     * value-independent R_y(t) of the joint estimator, so that no sample pays for a factorisation. The table is
     * read, not copied: it must not change while in use.
     *
     * @param table packed lower factors
     * @param offset where this factor starts in {@code table}
     * @param scale the variance inflation of R (the factor used is √scale·L)
     */
    public void setFactor(double[] table, int offset, double scale) {
        if (!(scale >= 0 && Double.isFinite(scale))) {
            throw new IllegalArgumentException("covariance scale must be finite and ≥ 0, got " + scale);
        }
        if (offset < 0 || offset + dim * (dim + 1) / 2 > table.length) {
            throw new IllegalArgumentException("a factor at offset " + offset + " does not fit a table of "
                    + table.length + " values (ℓ = " + dim + ")");
        }
        factor = table;
        factorOffset = offset;
        factorScale = Math.sqrt(scale);
        factored = true;
    }

    /**
     * The lower Cholesky factor of a packed symmetric positive semi-definite matrix, packed by rows, with pivots
     * below {@link #PIVOT_TOLERANCE} of the largest diagonal entry dropped (their columns set to zero): the factor of
     * a nearby matrix of the same rank, which is all a sampler of N(0, R) needs.
     */
    public static void choleskyPacked(double[] packed, int in, double[] out, int at, int n) {
        double maxDiag = 0;
        for (int i = 0; i < n; i++) {
            maxDiag = Math.max(maxDiag, packed[in + i * (i + 1) / 2 + i]);
        }
        double floor = PIVOT_TOLERANCE * maxDiag;
        for (int i = 0; i < n; i++) {
            int ri = i * (i + 1) / 2;
            for (int j = 0; j <= i; j++) {
                int rj = j * (j + 1) / 2;
                double s = packed[in + ri + j];
                for (int k = 0; k < j; k++) {
                    s -= out[at + ri + k] * out[at + rj + k];
                }
                if (i == j) {
                    out[at + ri + i] = s > floor ? Math.sqrt(s) : 0.0;
                } else {
                    double pivot = out[at + rj + j];
                    out[at + ri + j] = pivot > 0 ? s / pivot : 0.0;
                }
            }
        }
    }

    /**
     * Expands the discriminants about m and fixes the candidate label c = argmax_g f_g(m) (ties → lower index).
     *
     * @return c
     */
    public int setDiscriminants(Discriminants f, double[] m) {
        return setDiscriminants(f, m, -1);
    }

    /**
     * As {@link #setDiscriminants(Discriminants, double[])} with the candidate label given: P(ĝ(Y) = target) is then
     * estimated whatever class wins at m (the class-of-interest question of thesis §5.7).
     *
     * @param target the class whose probability is wanted, or −1 for argmax_g f_g(m)
     * @return the candidate label
     */
    public int setDiscriminants(Discriminants f, double[] m, int target) {
        int g = f.numClasses();
        if (f.dimension() != dim || g > maxClasses) {
            throw new IllegalArgumentException("discriminants of dimension " + f.dimension() + " and " + g
                    + " classes, this estimator was made for dimension " + dim + " and ≤ " + maxClasses + " classes");
        }
        if (m.length < dim) {
            throw new IllegalArgumentException("the mean has " + m.length + " values, need " + dim);
        }
        pointClassifier = null;
        numClasses = g;
        int best = 0;
        linear = true;
        for (int c = 0; c < g; c++) {
            value[c] = f.expand(c, m, grad[c], curv[c]);
            for (int i = 0; i < dim; i++) {
                linear &= curv[c][i] == 0.0;
            }
            if (value[c] > value[best]) {
                best = c;
            }
        }
        if (target >= g) {
            throw new IllegalArgumentException("target class " + target + " is outside 0.." + (g - 1));
        }
        if (target >= 0) {
            best = target;
        }
        guess = best;
        // Competitors, strongest at m first: the draws that make c lose usually do so against them.
        int k = 0;
        for (int h = 0; h < g; h++) {
            if (h != best) {
                order[k++] = h;
            }
        }
        for (int a = 1; a < k; a++) {
            int h = order[a];
            int b = a - 1;
            while (b >= 0 && value[order[b]] < value[h]) {
                order[b + 1] = order[b];
                b--;
            }
            order[b + 1] = h;
        }
        for (int h = 0; h < g; h++) {
            diffConst[h] = value[best] - value[h];
            for (int i = 0; i < dim; i++) {
                diffGrad[h][i] = grad[best][i] - grad[h][i];
                diffCurv[h][i] = curv[best][i] - curv[h][i];
            }
        }
        return best;
    }

    /**
     * Uses a classifier known only through its labels at points (e.g. k-NN): P(ĝ(Y) = c) is estimated by
     * classifying every QMC draw (no closed form, no fast path).
     *
     * @param target the class whose probability is wanted, or −1 for ĝ(m)
     * @return the candidate label
     */
    public int setClassifier(PointClassifier classifier, double[] m, int target) {
        if (m.length < dim) {
            throw new IllegalArgumentException("the mean has " + m.length + " values, need " + dim);
        }
        pointClassifier = classifier;
        center = m;
        numClasses = maxClasses;
        linear = false;
        guess = target >= 0 ? target : classifier.classify(m);
        return guess;
    }

    /** The candidate label c of the last {@link #setDiscriminants}. */
    public int guess() {
        return guess;
    }

    /**
     * P(ĝ(Y) = c): exact for ℓ = 1 and for two classes with linear discriminants, else the QMC estimate with all N
     * points.
     *
     * @param seriesSeed the series' seed (see the class comment)
     */
    public double probability(long seriesSeed) {
        checkReady();
        if (pointClassifier == null && numClasses == 1) {
            return 1.0;
        }
        if (pointClassifier == null && dim == 1) {
            return exactOneDimensional();
        }
        if (linear && numClasses == 2) {
            return exactTwoClassLinear();
        }
        int n = points.count();
        signs(seriesSeed);
        int wins = 0;
        for (int j = 0; j < n; j++) {
            wins += wins(j) ? 1 : 0;
        }
        return (double) wins / n;
    }

    /**
     * The probability rule's decision at λ: whether P ≥ λ, the points evaluated in order until the {@link
     * StoppingBoundary} at λ stops them (a confidence interval for P excludes λ, or the points left cannot change
     * whether P̂ ≥ λ). Exact where {@link #probability} is: then P ≥ λ. Looks the boundary up by λ; hot paths keep
     * the boundary and call {@link #atLeast(long, StoppingBoundary)}.
     */
    public boolean atLeast(long seriesSeed, double lambda) {
        return atLeast(seriesSeed, StoppingBoundary.of(lambda, points.count()));
    }

    /**
     * As {@link #atLeast(long, double)} with the boundary tabulated beforehand (nothing allocated).
     *
     * @throws IllegalArgumentException when the boundary is for another budget
     */
    public boolean atLeast(long seriesSeed, StoppingBoundary boundary) {
        checkReady();
        checkBudget(boundary);
        if (exact()) {
            pointsUsed = 0;
            return probability(seriesSeed) >= boundary.lambda();
        }
        int w = 0;
        int n = 0;
        int decision = boundary.decide(0, 0);
        if (decision == 0) {
            signs(seriesSeed);
        }
        while (decision == 0) {
            w += wins(n) ? 1 : 0;
            n++;
            decision = boundary.decide(n, w);
        }
        pointsUsed = n;
        return decision > 0;
    }

    /**
     * The largest index j of an ascending grid of thresholds at which the rule {@link #atLeast decides}, or {@code
     * floor} when that is larger: one pass over the points settles every threshold above {@code floor} (each stops
     * where its own boundary does; the rule is monotone in λ, so the settled ones form a lower and an upper run) and
     * stops once none is left open. Exact cases compare P with the grid.
     *
     * @param grid boundaries of ascending thresholds, for this estimator's budget
     * @param floor the caller needs no index at or below it (−1: all of them)
     */
    public int score(long seriesSeed, StoppingBoundary[] grid, int floor) {
        checkReady();
        int lo = Math.max(floor, -1);
        int hi = grid.length;
        if (lo + 1 >= hi) {
            pointsUsed = 0;
            return lo;
        }
        checkBudget(grid[lo + 1]);
        if (exact()) {
            pointsUsed = 0;
            double p = probability(seriesSeed);
            while (lo + 1 < hi && grid[lo + 1].lambda() <= p) {
                lo++;
            }
            return lo;
        }
        int w = 0;
        int n = 0;
        while (true) {
            while (lo + 1 < hi && w >= grid[lo + 1].yesAt(n)) {
                lo++;
            }
            while (hi - 1 > lo && w <= grid[hi - 1].noAt(n)) {
                hi--;
            }
            if (hi - lo <= 1 || n == points.count()) {
                break; // at n = N every boundary has settled its threshold
            }
            if (n == 0) {
                signs(seriesSeed);
            }
            w += wins(n) ? 1 : 0;
            n++;
        }
        pointsUsed = n;
        return lo;
    }

    /** Points the last {@link #atLeast} or {@link #score} evaluated (0 when exact or settled before the first). */
    public int pointsUsed() {
        return pointsUsed;
    }

    private boolean exact() {
        return pointClassifier == null && (numClasses == 1 || dim == 1 || (linear && numClasses == 2));
    }

    private void checkBudget(StoppingBoundary boundary) {
        if (boundary.points() != points.count()) {
            throw new IllegalArgumentException("a stopping boundary for " + boundary.points()
                    + " points used with an estimator of " + points.count());
        }
    }

    private void checkReady() {
        if (!factored || guess < 0) {
            throw new IllegalStateException("set the covariance and the discriminants first");
        }
    }

    /** σ_i = ±1 from the series seed; signedZ is reused as the sign vector. */
    private void signs(long seed) {
        long bits = GaussianPoints.SplitMix.next(seed ^ 0x7A5E_5EEDL);
        for (int i = 0; i < dim; i++) {
            if ((i & 63) == 0 && i > 0) {
                bits = GaussianPoints.SplitMix.next(bits);
            }
            signedZ[i] = ((bits >>> (i & 63)) & 1L) == 0 ? 1.0 : -1.0;
        }
    }

    /** Whether c beats every competitor at draw j: u = √scale·L(σ ⊙ z_j). */
    private boolean wins(int j) {
        double[] z = points.data();
        int base = j * dim;
        double[] w = point;
        for (int k = 0; k < dim; k++) {
            w[k] = factorScale * signedZ[k] * z[base + k];
        }
        double[] l = factor;
        for (int i = 0; i < dim; i++) {
            int row = factorOffset + i * (i + 1) / 2;
            double s = 0;
            for (int k = 0; k <= i; k++) {
                s += l[row + k] * w[k];
            }
            u[i] = s;
        }
        if (pointClassifier != null) {
            for (int i = 0; i < dim; i++) {
                w[i] = center[i] + u[i];
            }
            return pointClassifier.classify(w) == guess;
        }
        for (int k = 0; k < numClasses - 1; k++) {
            int h = order[k];
            double[] b = diffGrad[h];
            double[] q = diffCurv[h];
            double d = diffConst[h];
            for (int i = 0; i < dim; i++) {
                double ui = u[i];
                d += (b[i] + q[i] * ui) * ui;
            }
            if (d < 0) {
                return false;
            }
        }
        return true;
    }

    /** Two classes, linear: P = Φ(a / ‖Lᵀb‖) (L the scaled factor). */
    private double exactTwoClassLinear() {
        int h = order[0];
        double[] b = diffGrad[h];
        double ss = 0;
        for (int k = 0; k < dim; k++) {
            double s = 0;
            for (int i = k; i < dim; i++) {
                s += factor[factorOffset + i * (i + 1) / 2 + k] * b[i];
            }
            ss += s * s;
        }
        ss *= factorScale * factorScale;
        double a = diffConst[h];
        if (ss == 0) {
            return a >= 0 ? 1.0 : 0.0;
        }
        return NORMAL.cumulativeProbability(a / Math.sqrt(ss));
    }

    /**
     * ℓ = 1: u = s·Z with s = L_00. Each competitor's set {u : a + bu + qu² ≥ 0} is a union of at most two intervals;
     * the event is their intersection; P sums Φ over its intervals.
     */
    private double exactOneDimensional() {
        double s = factorScale * factor[factorOffset];
        int count = 1;
        intervals[0] = Double.NEGATIVE_INFINITY;
        intervals[1] = Double.POSITIVE_INFINITY;
        for (int k = 0; k < numClasses - 1 && count > 0; k++) {
            int h = order[k];
            count = quadraticIntervals.intersect(intervals, count, diffConst[h], diffGrad[h][0], diffCurv[h][0]);
        }
        if (s == 0) {
            for (int k = 0; k < count; k++) {
                if (intervals[2 * k] <= 0 && 0 <= intervals[2 * k + 1]) {
                    return 1.0;
                }
            }
            return 0.0;
        }
        double p = 0;
        for (int k = 0; k < count; k++) {
            p += QuadraticIntervals.cdf(intervals[2 * k + 1] / s) - QuadraticIntervals.cdf(intervals[2 * k] / s);
        }
        return Math.min(1.0, Math.max(0.0, p));
    }
}
