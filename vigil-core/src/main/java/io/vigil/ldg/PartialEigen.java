package io.vigil.ldg;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.decomposition.hessenberg.TridiagonalDecompositionHouseholder_DDRM;

/**
 * The {@code count} smallest eigen-pairs of a symmetric r×r matrix, for cross-validation where only ℓ ≤ G + 32
 * of r directions are scored. Householder tridiagonalisation (EJML), eigenvalues by Sturm-sequence
 * bisection, eigenvectors by inverse iteration on the tridiagonal matrix with re-orthogonalisation inside
 * clusters (as LAPACK's dstebz/dstein), then the Householder reflectors applied to just those vectors.
 * This skips the O(r³) accumulation of all r eigenvectors, which dominates a full symmetric QR.
 *
 * <p>Every result is checked: residual ‖Pv − λv‖ and orthonormality against {@link #CHECK_RTOL}; if the
 * check fails (or {@code count} is more than half of r, where the saving is small) the full symmetric QR
 * of {@link Kernels#symmetricEigen} is used instead. Deterministic (fixed start vectors).
 */
final class PartialEigen {
    /**
     * Accept partial results whose residual ‖Pv − λv‖<sub>∞</sub> and orthonormality defect are within
     * 1e-9 × ‖P‖ (resp. 1e-9). Backward-stable solvers reach ~r·ε ≈ 1e-13 here; inverse iteration with an
     * eigenvalue accurate to ε‖T‖ converges to the same level in one or two steps. 1e-9 is far above that
     * noise and far below anything that would change a nearest-neighbour decision.
     */
    static final double CHECK_RTOL = 1e-9;

    /** Eigenvalues closer than this × ‖T‖ are a cluster whose vectors are re-orthogonalised (dstein's ORTOL). */
    static final double CLUSTER_RTOL = 1e-3;

    /** Inverse-iteration steps per vector (convergence is cubic-like from an accurate shift; 3 is ample). */
    static final int ITERATIONS = 3;

    private static final double EPS = Math.ulp(1.0);

    private PartialEigen() {}

    /** Exposes the Householder scalars EJML keeps protected; the reflectors themselves are in getQT(). */
    private static final class Tridiagonal extends TridiagonalDecompositionHouseholder_DDRM {
        double[] gammas() {
            return gammas;
        }
    }

    /**
     * The {@code count} smallest eigenvalues, ascending, and unit eigenvectors (r×count).
     *
     * @param p symmetric; not modified
     */
    static Kernels.SortedEigen smallest(DMatrixRMaj p, int count, String what) {
        int r = p.numRows;
        if (count < 1 || count > r) {
            throw new IllegalArgumentException("asked for " + count + " eigenpairs of a " + r + "×" + r + " matrix");
        }
        if (2 * count > r || r < 8) {
            return truncate(Kernels.symmetricEigen(p, true, what), count);
        }
        Kernels.SortedEigen partial = tridiagonalInverseIteration(p, count);
        if (partial != null && passesCheck(p, partial)) {
            return partial;
        }
        return truncate(Kernels.symmetricEigen(p, true, what), count);
    }

    static Kernels.SortedEigen truncate(Kernels.SortedEigen full, int count) {
        int r = full.values().length;
        double[] values = Arrays.copyOf(full.values(), count);
        return new Kernels.SortedEigen(values, CommonOps_DDRM.extract(full.vectors(), 0, r, 0, count));
    }

    /** Returns null if a non-finite value appears (then the caller falls back). */
    static Kernels.SortedEigen tridiagonalInverseIteration(DMatrixRMaj p, int count) {
        Tridiagonalised t = Tridiagonalised.of(p);
        if (t == null) {
            return null;
        }
        double[] values = new double[count];
        double lo = -t.norm;
        for (int k = 0; k < count; k++) {
            values[k] = t.eigenvalue(k, lo, t.norm);
            lo = values[k] - 2 * EPS * t.norm;
        }
        DMatrixRMaj vectors = t.vectors(values);
        return vectors == null ? null : new Kernels.SortedEigen(values, vectors);
    }

    /**
     * A symmetric matrix reduced to tridiagonal form T = QᵀPQ (EJML Householder), from which single eigenvalues
     * (bisection) and the eigenvectors of selected eigenvalues (inverse iteration, then Q) are computed on demand.
     */
    static final class Tridiagonalised {
        private final double[] qt;
        private final double[] gammas;
        private final boolean concurrent;
        private final double[] diag;
        private final double[] off;
        /** Gershgorin bound on ‖T‖ (= ‖P‖ up to rounding); every eigenvalue lies in [−norm, norm]. */
        final double norm;

        private final double pivmin;

        private Tridiagonalised(
                double[] qt, double[] gammas, boolean concurrent, double[] diag, double[] off, double norm) {
            this.qt = qt;
            this.gammas = gammas;
            this.concurrent = concurrent;
            this.diag = diag;
            this.off = off;
            this.norm = norm;
            this.pivmin = Double.MIN_NORMAL * Math.max(1.0, norm * norm) + EPS * EPS * norm;
        }

        /** Reduces {@code p} (not modified) on the calling thread; null if its norm is zero or not finite. */
        static Tridiagonalised of(DMatrixRMaj p) {
            return of(p, false);
        }

        /**
         * Reduces {@code p} (not modified); with {@code concurrent}, {@link #vectors} back-transforms the vectors in
         * parallel (bit-identical results, see {@link Kernels#forEach}). Null if the norm of {@code p} is zero or not
         * finite.
         */
        static Tridiagonalised of(DMatrixRMaj p, boolean concurrent) {
            int n = p.numRows;
            DMatrixRMaj work = p.copy();
            double[] diag = new double[n];
            double[] off = new double[n];
            Tridiagonal tri = new Tridiagonal();
            tri.decompose(work);
            tri.getDiagonal(diag, off);
            double[] qt = tri.getQT().data;
            double[] gammas = tri.gammas();
            double norm = 0;
            for (int i = 0; i < n; i++) {
                double row =
                        Math.abs(diag[i]) + (i > 0 ? Math.abs(off[i - 1]) : 0) + (i < n - 1 ? Math.abs(off[i]) : 0);
                norm = Math.max(norm, row);
            }
            if (!(norm > 0) || !Double.isFinite(norm)) {
                return null;
            }
            return new Tridiagonalised(qt, gammas, concurrent, diag, off, norm);
        }

        int size() {
            return diag.length;
        }

        /** The k-th smallest eigenvalue (0-based), bisecting from the bracket [lo, hi] (widened if wrong). */
        double eigenvalue(int k, double lo, double hi) {
            return kthEigenvalue(diag, off, k, lo, hi, pivmin);
        }

        /**
         * Unit eigenvectors (n×count) for eigenvalues given in ascending order, by inverse iteration with
         * re-orthogonalisation inside clusters of {@code values}; null if a non-finite value appears.
         */
        DMatrixRMaj vectors(double[] values) {
            int n = diag.length;
            int count = values.length;
            double[][] z = new double[count][];
            double[] dl = new double[n];
            double[] d = new double[n];
            double[] du = new double[n];
            double[] du2 = new double[n];
            boolean[] swap = new boolean[n];
            double tiny = EPS * norm;
            for (int k = 0; k < count; k++) {
                SplittableRandom random = new SplittableRandom(0x5EED + k);
                double[] v = new double[n];
                for (int i = 0; i < n; i++) {
                    v[i] = random.nextDouble() - 0.5;
                }
                factor(diag, off, values[k], dl, d, du, du2, swap, tiny);
                int clusterStart = k;
                while (clusterStart > 0 && values[k] - values[clusterStart - 1] <= CLUSTER_RTOL * norm) {
                    clusterStart--;
                }
                for (int it = 0; it < ITERATIONS; it++) {
                    solve(dl, d, du, du2, swap, v);
                    for (int j = clusterStart; j < k; j++) {
                        double s = 0;
                        for (int i = 0; i < n; i++) {
                            s += z[j][i] * v[i];
                        }
                        for (int i = 0; i < n; i++) {
                            v[i] -= s * z[j][i];
                        }
                    }
                    double s = 0;
                    for (double e : v) {
                        s += e * e;
                    }
                    double scale = 1.0 / Math.sqrt(s);
                    if (!Double.isFinite(scale) || scale == 0) {
                        return null;
                    }
                    for (int i = 0; i < n; i++) {
                        v[i] *= scale;
                    }
                }
                z[k] = v;
            }
            // v = Q z with Q = H_1 H_2 … H_{n−1}; H_k = I − γ_k u_k u_kᵀ, u_k[k] = 1, u_k[i] = QT[k−1][i] (i > k).
            DMatrixRMaj vectors = new DMatrixRMaj(n, count);
            long work = concurrent ? (long) count * n * n : 0;
            Kernels.forEach(count, work, c -> {
                double[] v = z[c];
                for (int k = n - 1; k >= 1; k--) {
                    double g = gammas[k];
                    if (g == 0) {
                        continue;
                    }
                    int row = (k - 1) * n;
                    double s = v[k];
                    for (int i = k + 1; i < n; i++) {
                        s += qt[row + i] * v[i];
                    }
                    s *= g;
                    v[k] -= s;
                    for (int i = k + 1; i < n; i++) {
                        v[i] -= s * qt[row + i];
                    }
                }
                for (int i = 0; i < n; i++) {
                    vectors.data[i * count + c] = v[i];
                }
            });
            return vectors;
        }
    }

    /** The k-th smallest eigenvalue (0-based) of the tridiagonal matrix by bisection on Sturm counts. */
    private static double kthEigenvalue(double[] a, double[] b, int k, double lo, double hi, double pivmin) {
        // Eigenvalues of the tridiagonal matrix are determined only to ~ε‖T‖ absolutely (backward error of
        // the reduction), so bisect to that width rather than to relative precision near zero.
        double absTol = 2 * EPS * hi + pivmin;
        double low = lo;
        double high = hi;
        while (countBelow(a, b, low, pivmin) > k) {
            low -= Math.max(1.0, Math.abs(low));
        }
        while (countBelow(a, b, high, pivmin) <= k) {
            high += Math.max(1.0, Math.abs(high));
        }
        for (int it = 0; it < 200; it++) {
            double mid = 0.5 * (low + high);
            if (high - low <= absTol || mid == low || mid == high) {
                break;
            }
            if (countBelow(a, b, mid, pivmin) > k) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return 0.5 * (low + high);
    }

    /** Number of eigenvalues of the tridiagonal matrix below x (Sturm sequence, LDLᵀ pivots). */
    private static int countBelow(double[] a, double[] b, double x, double pivmin) {
        int n = a.length;
        int count = 0;
        double q = a[0] - x;
        if (Math.abs(q) < pivmin) {
            q = -pivmin;
        }
        if (q < 0) {
            count++;
        }
        for (int i = 1; i < n; i++) {
            q = a[i] - x - b[i - 1] * b[i - 1] / q;
            if (Math.abs(q) < pivmin) {
                q = -pivmin;
            }
            if (q < 0) {
                count++;
            }
        }
        return count;
    }

    /** LU with partial pivoting of T − λI (LAPACK dgttrf layout); tiny pivots are raised to ±tiny. */
    private static void factor(
            double[] a,
            double[] b,
            double lambda,
            double[] dl,
            double[] d,
            double[] du,
            double[] du2,
            boolean[] swap,
            double tiny) {
        int n = a.length;
        for (int i = 0; i < n; i++) {
            d[i] = a[i] - lambda;
            if (i < n - 1) {
                dl[i] = b[i];
                du[i] = b[i];
            }
            du2[i] = 0;
            swap[i] = false;
        }
        for (int i = 0; i < n - 1; i++) {
            if (Math.abs(d[i]) >= Math.abs(dl[i])) {
                double fact = d[i] == 0 ? 0 : dl[i] / d[i];
                dl[i] = fact;
                d[i + 1] -= fact * du[i];
            } else {
                double fact = d[i] / dl[i];
                d[i] = dl[i];
                dl[i] = fact;
                double temp = du[i];
                du[i] = d[i + 1];
                d[i + 1] = temp - fact * d[i + 1];
                if (i < n - 2) {
                    du2[i] = du[i + 1];
                    du[i + 1] = -fact * du[i + 1];
                }
                swap[i] = true;
            }
        }
        for (int i = 0; i < n; i++) {
            if (Math.abs(d[i]) < tiny) {
                d[i] = d[i] < 0 ? -tiny : tiny;
            }
        }
    }

    /** Solves with the factors of {@link #factor}, overwriting v. */
    private static void solve(double[] dl, double[] d, double[] du, double[] du2, boolean[] swap, double[] v) {
        int n = d.length;
        for (int i = 0; i < n - 1; i++) {
            if (!swap[i]) {
                v[i + 1] -= dl[i] * v[i];
            } else {
                double temp = v[i];
                v[i] = v[i + 1];
                v[i + 1] = temp - dl[i] * v[i];
            }
        }
        v[n - 1] /= d[n - 1];
        if (n > 1) {
            v[n - 2] = (v[n - 2] - du[n - 2] * v[n - 1]) / d[n - 2];
        }
        for (int i = n - 3; i >= 0; i--) {
            v[i] = (v[i] - du[i] * v[i + 1] - du2[i] * v[i + 2]) / d[i];
        }
    }

    /** Residual and orthonormality check of a partial result against the original matrix. */
    static boolean passesCheck(DMatrixRMaj p, Kernels.SortedEigen e) {
        int n = p.numRows;
        int count = e.values().length;
        double norm = CommonOps_DDRM.elementMaxAbs(p) * n;
        DMatrixRMaj pv = new DMatrixRMaj(n, count);
        CommonOps_DDRM.mult(p, e.vectors(), pv);
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < count; c++) {
                double res = pv.data[i * count + c] - e.values()[c] * e.vectors().data[i * count + c];
                if (!(Math.abs(res) <= CHECK_RTOL * norm)) {
                    return false;
                }
            }
        }
        DMatrixRMaj vtv = new DMatrixRMaj(count, count);
        CommonOps_DDRM.multTransA(e.vectors(), e.vectors(), vtv);
        for (int a = 0; a < count; a++) {
            for (int b = 0; b < count; b++) {
                if (!(Math.abs(vtv.get(a, b) - (a == b ? 1 : 0)) <= CHECK_RTOL)) {
                    return false;
                }
            }
        }
        return true;
    }
}
