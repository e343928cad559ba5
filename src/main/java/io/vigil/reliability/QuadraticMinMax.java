package io.vigil.reliability;

import org.ejml.data.DMatrixRMaj;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Exact global minimum and maximum over a {@link TauSet} of a quadratic with diagonal Hessian, given by its expansion
 * about the set's centre m:
 *
 * <pre>  f(m + u) = f0 + Σ_i g_i u_i + Σ_i a_i u_i²      (a indefinite in general)</pre>
 *
 * <p>This is the two-class difference f_c − f_h of local-QDA discriminants (thesis (5.14), method notes §3.3) or, with
 * a = 0, of linear discriminants (Prop. 2, (5.12)–(5.13)). Per shape:
 *
 * <ul>
 *   <li>Box: separable; each coordinate's minimum is at an endpoint or, for a_i &gt; 0, at the vertex −g_i/(2a_i) if
 *       inside (thesis §5.3.3 after the diagonalising change of variables). Linear: f0 − Σ |g_i| s_i (5.13).
 *   <li>Diagonal ellipsoid (nb-quadratic): u = diag(sqrt E) z turns it into a trust-region subproblem with diagonal
 *       Hessian h_i = 2 a_i E_ii and γ_i = g_i sqrt(E_ii), solved exactly by {@link DiagonalTrustRegion} (secular
 *       equation with the hard case). Linear: f0 − r·sqrt(gᵀEg) (Prop. 2).
 *   <li>Full ellipsoid (Chebyshev, Gaussian): u = Cz with CCᵀ = E; the Hessian H = 2Cᵀdiag(a)C is dense symmetric, so
 *       it is diagonalised by EJML's symmetric QR eigendecomposition and the same diagonal solver runs in the
 *       eigenbasis. Cheap bounds are tried first (see {@link #minAtLeastZero}).
 * </ul>
 *
 * <p>The maximum is −min(−f). {@link #minAtLeastZero} answers the sign question of the decision rule and stops as soon
 * as it is known, returning true only on a certified lower bound ≥ 0 (so a rounding-level tie counts as "not
 * reliable" — the conservative side).
 *
 * <p>One instance per worker: workspaces are sized for maxDim at construction and reused; the diagonal shapes never
 * allocate. Not thread-safe.
 */
public final class QuadraticMinMax {
    private final int maxDim;
    private final DiagonalTrustRegion trs;
    private final double[] h;
    private final double[] gamma;
    private final double[] negCurv;
    private final double[] negGrad;
    private final double[] zFull;
    private final DMatrixRMaj hess;
    private final SymmetricEigenPool eigenPool;

    private double lastBound;
    private int lastIterations;
    private boolean lastConverged;

    /**
     * @param maxDim the largest dimension ℓ of the sets this instance will see
     */
    public QuadraticMinMax(int maxDim) {
        if (maxDim < 1) {
            throw new IllegalArgumentException("maxDim must be at least 1, got " + maxDim);
        }
        this.maxDim = maxDim;
        this.trs = new DiagonalTrustRegion(maxDim);
        this.h = new double[maxDim];
        this.gamma = new double[maxDim];
        this.negCurv = new double[maxDim];
        this.negGrad = new double[maxDim];
        this.zFull = new double[maxDim];
        this.hess = new DMatrixRMaj(maxDim, maxDim);
        this.eigenPool = new SymmetricEigenPool(maxDim);
    }

    /**
     * The certified bound from the last call: a lower bound on the minimum after {@link #minimum} or {@link
     * #minAtLeastZero}, an upper bound on the maximum after {@link #maximum}. Equal to the returned value up to the
     * gap tolerance ({@link DiagonalTrustRegion#GAP_REL}·scale) when {@link #lastConverged()}.
     */
    public double lastBound() {
        return lastBound;
    }

    /** Secular-equation iterations of the last call (0 for closed forms). */
    public int lastIterations() {
        return lastIterations;
    }

    /**
     * Whether the last {@link #minimum}/{@link #maximum} met the duality-gap tolerance (always true for closed forms;
     * false only if the iteration cap was hit, which the tests never observe).
     */
    public boolean lastConverged() {
        return lastConverged;
    }

    /**
     * The exact global minimum of f over A.
     *
     * @param set the set A (centre m, dimension ℓ)
     * @param curv a, first ℓ entries used (not modified)
     * @param grad g, first ℓ entries used (not modified)
     * @param f0 f(m)
     * @param argmin if non-null, receives a minimiser y* ∈ A (first ℓ entries) with f(y*) equal to the returned value
     * @return min_{y∈A} f(y)
     */
    public double minimum(TauSet set, double[] curv, double[] grad, double f0, double[] argmin) {
        checkInputs(set, curv, grad, f0, argmin);
        return solve(set, curv, grad, f0, argmin, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /**
     * The exact global maximum of f over A, as −min(−f).
     *
     * @param argmax if non-null, receives a maximiser y* ∈ A
     * @return max_{y∈A} f(y)
     */
    public double maximum(TauSet set, double[] curv, double[] grad, double f0, double[] argmax) {
        checkInputs(set, curv, grad, f0, argmax);
        int ell = set.dimension();
        for (int i = 0; i < ell; i++) {
            negCurv[i] = -curv[i];
            negGrad[i] = -grad[i];
        }
        double v = -solve(set, negCurv, negGrad, -f0, argmax, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        lastBound = -lastBound;
        return v;
    }

    /**
     * Whether min_{y∈A} f(y) ≥ 0, stopping as soon as the sign is known: false as soon as a point of A with f &lt; 0
     * is found (f(m) itself, the boundary point along −∇f, or a secular iterate), true as soon as a lower bound is ≥ 0
     * (the crude bound f0 − r‖γ‖ + ½ r² min(0, λ_min), or a Lagrange dual value). Returns true only on a certified
     * bound.
     */
    public boolean minAtLeastZero(TauSet set, double[] curv, double[] grad, double f0) {
        checkInputs(set, curv, grad, f0, null);
        if (f0 < 0.0) {
            lastBound = Double.NEGATIVE_INFINITY;
            lastIterations = 0;
            lastConverged = true;
            return false;
        }
        solve(set, curv, grad, f0, null, 0.0, 0.0);
        return lastBound >= 0.0;
    }

    /**
     * Dispatches on the shape. {@code stopBelow}/{@code stopAbove} are thresholds on f itself: the search stops once an
     * attained value is below stopBelow or a certified lower bound reaches stopAbove. With finite thresholds the
     * returned value is an attained value (an upper bound on the minimum) and {@link #lastBound} the certified lower
     * bound; with infinite thresholds it is the minimum.
     */
    private double solve(
            TauSet set, double[] curv, double[] grad, double f0, double[] argmin, double stopBelow, double stopAbove) {
        lastIterations = 0;
        lastConverged = true;
        switch (set.shape()) {
            case POINT:
                if (argmin != null) {
                    set.copyCenter(argmin);
                }
                lastBound = f0;
                return f0;
            case BOX:
                return box(set, curv, grad, f0, argmin);
            case DIAGONAL_ELLIPSOID:
                return diagonalEllipsoid(set, curv, grad, f0, argmin, stopBelow, stopAbove);
            case FULL_ELLIPSOID:
                return fullEllipsoid(set, curv, grad, f0, argmin, stopBelow, stopAbove);
            default:
                throw new IllegalStateException("unhandled shape " + set.shape());
        }
    }

    private double box(TauSet set, double[] curv, double[] grad, double f0, double[] argmin) {
        if (argmin != null) {
            set.copyCenter(argmin);
        }
        double r = set.radius();
        double total = f0;
        for (int c = 0, k = set.numActive(); c < k; c++) {
            int i = set.activeIndex(c);
            double half = r * set.sd(i);
            double a = curv[i];
            double g = grad[i];
            // Endpoints, then the vertex of a convex parabola when it lies inside (5.16).
            double best = g >= 0 ? -half : half;
            double bestVal = (a * best + g) * best;
            double other = -best;
            double otherVal = (a * other + g) * other;
            if (otherVal < bestVal) {
                best = other;
                bestVal = otherVal;
            }
            if (a > 0.0) {
                double v = -g / (2.0 * a);
                if (v > -half && v < half) {
                    double vv = (a * v + g) * v;
                    if (vv < bestVal) {
                        best = v;
                        bestVal = vv;
                    }
                }
            }
            total += bestVal;
            if (argmin != null) {
                argmin[i] = set.center(i) + best;
            }
        }
        lastBound = total;
        return total;
    }

    private double diagonalEllipsoid(
            TauSet set, double[] curv, double[] grad, double f0, double[] argmin, double stopBelow, double stopAbove) {
        int k = set.numActive();
        double r = set.radius();
        boolean linear = true;
        double gnorm2 = 0.0;
        for (int c = 0; c < k; c++) {
            int i = set.activeIndex(c);
            double sd = set.sd(i);
            h[c] = 2.0 * curv[i] * sd * sd;
            gamma[c] = grad[i] * sd;
            gnorm2 += gamma[c] * gamma[c];
            linear &= curv[i] == 0.0;
        }
        if (argmin != null) {
            set.copyCenter(argmin);
        }
        if (linear) {
            // Prop. 2: min = f0 − r sqrt(gᵀEg), attained at u = −r E g / sqrt(gᵀEg).
            double gn = Math.sqrt(gnorm2);
            if (argmin != null && gn > 0.0) {
                for (int c = 0; c < k; c++) {
                    int i = set.activeIndex(c);
                    argmin[i] -= r * set.sd(i) * gamma[c] / gn;
                }
            }
            double v = f0 - r * gn;
            lastBound = v;
            return v;
        }
        trs.solve(k, h, gamma, r, stopBelow - f0, stopAbove - f0);
        record();
        if (argmin != null) {
            double[] z = trs.minimiser();
            for (int c = 0; c < k; c++) {
                int i = set.activeIndex(c);
                argmin[i] += set.sd(i) * z[c];
            }
        }
        lastBound = f0 + trs.dual();
        return f0 + trs.primal();
    }

    private double fullEllipsoid(
            TauSet set, double[] curv, double[] grad, double f0, double[] argmin, double stopBelow, double stopAbove) {
        int ell = set.dimension();
        int k = set.numActive();
        double r = set.radius();
        DMatrixRMaj c = set.factor();
        boolean linear = true;
        double minCurv = 0.0;
        for (int i = 0; i < ell; i++) {
            linear &= curv[i] == 0.0;
            minCurv = Math.min(minCurv, curv[i]);
        }
        // γ = Cᵀ g.
        double gnorm2 = 0.0;
        for (int j = 0; j < k; j++) {
            double s = 0.0;
            for (int i = 0; i < ell; i++) {
                s += c.unsafe_get(i, j) * grad[i];
            }
            gamma[j] = s;
            gnorm2 += s * s;
        }
        double gn = Math.sqrt(gnorm2);
        if (argmin != null) {
            set.copyCenter(argmin);
        }
        if (linear) {
            // Prop. 2 with sqrt(gᵀEg) = ‖Cᵀg‖.
            if (argmin != null && gn > 0.0) {
                addFactorTimes(c, ell, k, gamma, -r / gn, argmin);
            }
            double v = f0 - r * gn;
            lastBound = v;
            return v;
        }
        // Crude lower bound: ½zᵀHz = Σ a_i (Cz)_i² ≥ min(0, min a)·λ_max(E)·‖z‖².
        double crude = f0 - r * gn + minCurv * set.lambdaMaxBound() * r * r;
        if (crude >= stopAbove) {
            lastBound = crude;
            return f0;
        }
        if (gn > 0.0 && stopBelow > Double.NEGATIVE_INFINITY) {
            // Boundary point along −γ (the linear part's minimiser): an attained value.
            double q = -r * gn;
            double s = -r / gn;
            for (int i = 0; i < ell; i++) {
                double u = 0.0;
                for (int j = 0; j < k; j++) {
                    u += c.unsafe_get(i, j) * gamma[j];
                }
                u *= s;
                q += curv[i] * u * u;
            }
            if (f0 + q < stopBelow) {
                lastBound = crude;
                return f0 + q;
            }
        }
        // H = 2 Cᵀ diag(a) C, then its symmetric eigendecomposition.
        hess.reshape(k, k);
        for (int p = 0; p < k; p++) {
            for (int q = p; q < k; q++) {
                double s = 0.0;
                for (int i = 0; i < ell; i++) {
                    s += curv[i] * c.unsafe_get(i, p) * c.unsafe_get(i, q);
                }
                hess.unsafe_set(p, q, 2.0 * s);
                hess.unsafe_set(q, p, 2.0 * s);
            }
        }
        EigenDecomposition_F64<DMatrixRMaj> eigen = eigenPool.forSize(k);
        if (!eigen.decompose(hess)) {
            throw new IllegalStateException(
                    "symmetric eigendecomposition of the " + k + "×" + k + " Hessian did not converge (EJML)");
        }
        for (int j = 0; j < k; j++) {
            h[j] = eigen.getEigenvalue(j).real;
            DMatrixRMaj v = eigen.getEigenVector(j);
            double s = 0.0;
            for (int p = 0; p < k; p++) {
                s += v.data[p] * gamma[p];
            }
            zFull[j] = s;
        }
        // The diagonal solver reads h and γ̂; keep γ (needed for nothing else) overwritten by γ̂.
        System.arraycopy(zFull, 0, gamma, 0, k);
        trs.solve(k, h, gamma, r, stopBelow - f0, stopAbove - f0);
        record();
        if (argmin != null) {
            // z = Σ_j ŵ_j v_j, then u = C z.
            double[] w = trs.minimiser();
            for (int p = 0; p < k; p++) {
                zFull[p] = 0.0;
            }
            for (int j = 0; j < k; j++) {
                DMatrixRMaj v = eigen.getEigenVector(j);
                double wj = w[j];
                for (int p = 0; p < k; p++) {
                    zFull[p] += wj * v.data[p];
                }
            }
            addFactorTimes(c, ell, k, zFull, 1.0, argmin);
        }
        lastBound = Math.max(crude, f0 + trs.dual());
        return f0 + trs.primal();
    }

    private static void addFactorTimes(DMatrixRMaj c, int ell, int k, double[] z, double scale, double[] out) {
        for (int i = 0; i < ell; i++) {
            double s = 0.0;
            for (int j = 0; j < k; j++) {
                s += c.unsafe_get(i, j) * z[j];
            }
            out[i] += scale * s;
        }
    }

    private void record() {
        lastIterations = trs.iterations();
        DiagonalTrustRegion.Status st = trs.status();
        lastConverged = st != DiagonalTrustRegion.Status.ITERATION_LIMIT;
    }

    private void checkInputs(TauSet set, double[] curv, double[] grad, double f0, double[] out) {
        int ell = set.dimension();
        if (ell > maxDim) {
            throw new IllegalArgumentException(
                    "the set has dimension " + ell + ", this solver was sized for maxDim = " + maxDim);
        }
        if (curv.length < ell) {
            throw new IllegalArgumentException("curv has " + curv.length + " entries, the set has dimension " + ell);
        }
        if (grad.length < ell) {
            throw new IllegalArgumentException("grad has " + grad.length + " entries, the set has dimension " + ell);
        }
        if (out != null && out.length < ell) {
            throw new IllegalArgumentException(
                    "the output point has " + out.length + " entries, the set has dimension " + ell);
        }
        if (!Double.isFinite(f0)) {
            throw new IllegalArgumentException("f0 is " + f0);
        }
        for (int i = 0; i < ell; i++) {
            if (!Double.isFinite(curv[i]) || !Double.isFinite(grad[i])) {
                throw new IllegalArgumentException(
                        "coefficient " + i + " is not finite: curv " + curv[i] + ", grad " + grad[i]);
            }
        }
    }
}
