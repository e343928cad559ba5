package io.vigil.reliability;

import org.ejml.data.DMatrixRMaj;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Exact global minimum and maximum over a {@link TauSet} of a quadratic with diagonal Hessian, given by its expansion
 * about the set's centre m:
 *
 * <pre>  f(m + u) = f0 + Σ_i g_i u_i + Σ_i a_i u_i²      (a indefinite in general)</pre>
 *
 * <p>This is the two-class difference f_c − f_h of local-QDA discriminants (thesis (5.14), docs/method.md §3.3) or, with
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
 *       eigenbasis. For the sign test, O(ℓ²) bounds and probes come first and usually make the O(ℓ³)
 *       eigendecomposition unnecessary (see {@link #minAtLeastZero}).
 * </ul>
 *
 * <p>The maximum is −min(−f). {@link #minAtLeastZero} answers the sign question of the decision rule and stops as soon
 * as it is known, returning true only on a certified lower bound ≥ 0 (so a rounding-level tie counts as "not
 * reliable" — the conservative side).
 *
 * <p>One instance per worker: workspaces are sized for maxDim at construction and reused; the diagonal shapes never
 * allocate. Not thread-safe.
 */
final class QuadraticMinMax {
    private final int maxDim;
    private final DiagonalTrustRegion trs;
    private final double[] h;
    private final double[] gamma;
    private final double[] negCurv;
    private final double[] negGrad;
    private final double[] zFull;
    private final double[] sqrtNeg;
    private final DMatrixRMaj hess;
    private final SymmetricEigenPool eigenPool;

    /**
     * @param maxDim the largest dimension ℓ of the sets this instance will see
     */
    QuadraticMinMax(int maxDim) {
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
        this.sqrtNeg = new double[maxDim];
        this.hess = new DMatrixRMaj(maxDim, maxDim);
        this.eigenPool = new SymmetricEigenPool(maxDim);
    }

    /**
     * The exact global minimum of f over A.
     *
     * @param set the set A (centre m, dimension ℓ)
     * @param curv a, first ℓ entries used (not modified)
     * @param grad g, first ℓ entries used (not modified)
     * @param f0 f(m)
     * @param argmin if non-null, receives a minimiser y* ∈ A (first ℓ entries) with f(y*) equal to the returned value
     * @param out receives the value, the certified lower bound and the iteration count
     * @return min_{y∈A} f(y), also in {@code out.value()}
     */
    public double minimum(TauSet set, double[] curv, double[] grad, double f0, double[] argmin, MinMaxResult out) {
        checkInputs(set, curv, grad, f0, argmin);
        out.value = solve(set, curv, grad, f0, argmin, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, out);
        return out.value;
    }

    /**
     * The exact global maximum of f over A, as −min(−f).
     *
     * @param argmax if non-null, receives a maximiser y* ∈ A
     * @param out receives the value, the certified upper bound and the iteration count
     * @return max_{y∈A} f(y), also in {@code out.value()}
     */
    public double maximum(TauSet set, double[] curv, double[] grad, double f0, double[] argmax, MinMaxResult out) {
        checkInputs(set, curv, grad, f0, argmax);
        int ell = set.dimension();
        for (int i = 0; i < ell; i++) {
            negCurv[i] = -curv[i];
            negGrad[i] = -grad[i];
        }
        double v = -solve(set, negCurv, negGrad, -f0, argmax, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, out);
        out.bound = -out.bound;
        out.value = v;
        return v;
    }

    /**
     * Whether min_{y∈A} f(y) ≥ 0, stopping as soon as the sign is known. False as soon as a point of A with f &lt; 0 is
     * found: m itself, then (full ellipsoid) points on rays along E∇f and along the columns of E, then the secular
     * iterates. True as soon as a lower bound is ≥ 0: the separable bound f0 − r‖γ‖ − r²·(largest negative curvature
     * over the set) — for the full ellipsoid with λ_max(DED) bounded by Gershgorin, D = sqrt(max(−a, 0)) — then the
     * Lagrange dual values of the secular iteration. Returns true only on a certified bound ({@code out.bound()} ≥ 0);
     * {@code out.value()} is then an attained value, an upper bound on the minimum.
     */
    boolean minAtLeastZero(TauSet set, double[] curv, double[] grad, double f0, MinMaxResult out) {
        checkInputs(set, curv, grad, f0, null);
        if (f0 < 0.0) {
            out.value = f0;
            out.bound = Double.NEGATIVE_INFINITY;
            out.iterations = 0;
            out.converged = true;
            return false;
        }
        out.value = solve(set, curv, grad, f0, null, 0.0, 0.0, out);
        return out.bound >= 0.0;
    }

    /**
     * Dispatches on the shape. {@code stopBelow}/{@code stopAbove} are thresholds on f itself: the search stops once an
     * attained value is below stopBelow or a certified lower bound reaches stopAbove. With finite thresholds the
     * returned value is an attained value (an upper bound on the minimum) and {@code out.bound} the certified lower
     * bound; with infinite thresholds it is the minimum.
     */
    private double solve(
            TauSet set,
            double[] curv,
            double[] grad,
            double f0,
            double[] argmin,
            double stopBelow,
            double stopAbove,
            MinMaxResult out) {
        out.iterations = 0;
        out.converged = true;
        switch (set.shape()) {
            case POINT:
                if (argmin != null) {
                    set.copyCenter(argmin);
                }
                out.bound = f0;
                return f0;
            case BOX:
                return box(set, curv, grad, f0, argmin, out);
            case DIAGONAL_ELLIPSOID:
                return diagonalEllipsoid(set, curv, grad, f0, argmin, stopBelow, stopAbove, out);
            case FULL_ELLIPSOID:
                return fullEllipsoid(set, curv, grad, f0, argmin, stopBelow, stopAbove, out);
            default:
                throw new IllegalStateException("unhandled shape " + set.shape());
        }
    }

    private double box(TauSet set, double[] curv, double[] grad, double f0, double[] argmin, MinMaxResult out) {
        double r = set.radius();
        double total = f0;
        int k = set.numActive();
        // Per coordinate, min over [−s, s] of a u² + g u (5.16): the better endpoint u = −sign(g)·s gives a s² − |g| s;
        // a convex parabola whose vertex −g/(2a) lies inside (|g| < 2as) gives −g²/(4a) instead.
        for (int c = 0; c < k; c++) {
            int i = set.activeIndex(c);
            double half = r * set.sd(i);
            double a = curv[i];
            double ag = Math.abs(grad[i]);
            boolean vertex = a > 0.0 && ag < 2.0 * a * half;
            total += vertex ? -ag * ag / (4.0 * a) : (a * half - ag) * half;
        }
        if (argmin != null) {
            set.copyCenter(argmin);
            for (int c = 0; c < k; c++) {
                int i = set.activeIndex(c);
                double half = r * set.sd(i);
                double a = curv[i];
                double g = grad[i];
                boolean vertex = a > 0.0 && Math.abs(g) < 2.0 * a * half;
                argmin[i] = set.center(i) + (vertex ? -g / (2.0 * a) : (g > 0.0 ? -half : half));
            }
        }
        out.bound = total;
        return total;
    }

    private double diagonalEllipsoid(
            TauSet set,
            double[] curv,
            double[] grad,
            double f0,
            double[] argmin,
            double stopBelow,
            double stopAbove,
            MinMaxResult out) {
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
            out.bound = v;
            return v;
        }
        trs.solve(k, h, gamma, r, stopBelow - f0, stopAbove - f0);
        record(out);
        if (argmin != null) {
            double[] z = trs.minimiser();
            for (int c = 0; c < k; c++) {
                int i = set.activeIndex(c);
                argmin[i] += set.sd(i) * z[c];
            }
        }
        out.bound = f0 + trs.dual();
        return f0 + trs.primal();
    }

    private double fullEllipsoid(
            TauSet set,
            double[] curv,
            double[] grad,
            double f0,
            double[] argmin,
            double stopBelow,
            double stopAbove,
            MinMaxResult out) {
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
            out.bound = v;
            return v;
        }
        // Cheap lower bound without the eigendecomposition: f ≥ f0 + gᵀu − uᵀA⁻u with A⁻ = diag(max(−a, 0)), and over
        // the ellipsoid gᵀu ≥ −r‖Cᵀg‖ while uᵀA⁻u = zᵀCᵀA⁻Cz ≤ r² λ_max(DED), D = sqrt(A⁻).
        double lower = f0 - r * gn - r * r * negativeCurvatureBound(set, curv, minCurv);
        if (lower >= stopAbove) {
            out.bound = lower;
            return f0;
        }
        if (gn > 0.0 && stopBelow > Double.NEGATIVE_INFINITY) {
            double best = attainedOnRays(set, curv, grad, f0, gn, stopBelow);
            if (best < stopBelow) {
                out.bound = lower;
                return best;
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
        record(out);
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
        out.bound = Math.max(lower, f0 + trs.dual());
        return f0 + trs.primal();
    }

    /**
     * The least value of f attained along a few rays from the centre, for {@link #fullEllipsoid}'s early exit below
     * {@code stopBelow} without the eigendecomposition: the linear part's minimiser direction, then the columns of E
     * while nothing found is below {@code stopBelow}.
     */
    private double attainedOnRays(TauSet set, double[] curv, double[] grad, double f0, double gn, double stopBelow) {
        int ell = set.dimension();
        int k = set.numActive();
        double r = set.radius();
        DMatrixRMaj c = set.factor();
        // Attained values along the ray u(t) = −t·Eg/‖Cᵀg‖, t ∈ [0, r] (the linear part's minimiser direction):
        // f = f0 − ‖γ‖t + κt², minimised at t = r or, for κ &gt; 0, at the Cauchy point ‖γ‖/(2κ).
        double s = -1.0 / gn;
        double kappa = 0.0;
        for (int i = 0; i < ell; i++) {
            double u = 0.0;
            for (int j = 0; j < k; j++) {
                u += c.unsafe_get(i, j) * gamma[j];
            }
            u *= s;
            kappa += curv[i] * u * u;
        }
        double best = rayMinimum(f0, gn, kappa, r);
        // Rays along the columns of E (the images E e_i/sqrt(E_ii) of the coordinate axes, on the boundary at
        // t = r), signed against the gradient: f0 − |(Eg)_i|/sqrt(E_ii)·t + (Σ_j a_j E_ji²/E_ii)·t². O(ℓ²) for all
        // i, and they find the negative-curvature directions of local QDA, which are coordinate directions.
        DMatrixRMaj e = set.covariance();
        for (int i = 0; i < ell && best >= stopBelow; i++) {
            double eii = e.unsafe_get(i, i);
            if (eii <= 0.0) {
                continue;
            }
            double eg = 0.0;
            double quad = 0.0;
            for (int j = 0; j < ell; j++) {
                double eji = e.unsafe_get(j, i);
                eg += eji * grad[j];
                quad += curv[j] * eji * eji;
            }
            best = Math.min(best, rayMinimum(f0, Math.abs(eg) / Math.sqrt(eii), quad / eii, r));
        }
        return best;
    }

    /**
     * An upper bound on λ_max(DED) with D = diag(sqrt(max(−a_i, 0))): the least of max(−a)·λ_max(E), trace(DED) and
     * the Gershgorin bound of DED (O(ℓ²), over the rows with a_i &lt; 0 only).
     */
    private double negativeCurvatureBound(TauSet set, double[] curv, double minCurv) {
        if (minCurv >= 0.0) {
            return 0.0;
        }
        int ell = set.dimension();
        DMatrixRMaj e = set.covariance();
        for (int i = 0; i < ell; i++) {
            sqrtNeg[i] = curv[i] < 0.0 ? Math.sqrt(-curv[i]) : 0.0;
        }
        double trace = 0.0;
        double gershgorin = 0.0;
        for (int i = 0; i < ell; i++) {
            double di = sqrtNeg[i];
            if (di == 0.0) {
                continue;
            }
            double row = 0.0;
            for (int j = 0; j < ell; j++) {
                row += sqrtNeg[j] * Math.abs(e.unsafe_get(i, j));
            }
            row *= di;
            trace += di * di * e.unsafe_get(i, i);
            gershgorin = Math.max(gershgorin, row);
        }
        // The set's factor may drop eigen-directions with |λ| ≤ RANK_TOL·λ_max (TauSet); the slack keeps the bound
        // valid
        // for the truncated covariance too.
        double slack = -minCurv * TauSet.RANK_TOL * set.lambdaMaxBound();
        return Math.min(-minCurv * set.lambdaMaxBound(), Math.min(trace, gershgorin)) + slack;
    }

    /** min over t ∈ [0, r] of f0 − slope·t + kappa·t² (slope ≥ 0): the end point, or the vertex for kappa &gt; 0. */
    private static double rayMinimum(double f0, double slope, double kappa, double r) {
        double t = kappa > 0.0 ? Math.min(r, slope / (2.0 * kappa)) : r;
        return f0 - slope * t + kappa * t * t;
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

    private void record(MinMaxResult out) {
        out.iterations = trs.iterations();
        out.converged = trs.status() != DiagonalTrustRegion.Status.ITERATION_LIMIT;
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
