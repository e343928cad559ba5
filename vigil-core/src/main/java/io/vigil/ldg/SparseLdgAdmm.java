package io.vigil.ldg;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The ADMM solver of one sparse LDG column ({@link SparseLdg}, thesis §3.3.3): the iteration on the split X = W with
 * residual balancing, the certified duality gap of its solution, and the sparse direction b read from it.
 */
final class SparseLdgAdmm {
    /**
     * Solution entries below this multiple of (tolerance / eigen-gap) are zeroed (see {@link #leadingDirection}).
     */
    static final double ZERO_FACTOR = 10.0;

    /** ρ adaptation (Boyd et al. §3.4.1): rebalance when one residual exceeds this multiple of the other. */
    private static final double BALANCE = 10.0;

    private SparseLdgAdmm() {}

    /** One column's ADMM outcome (all in the scaled units of the solver). */
    static final class Column {
        double[] b;
        int iterations;
        boolean converged;
        double objective;
        double gap;
        double rho;
        DMatrixRMaj u;
        DMatrixRMaj x;
    }

    /**
     * ADMM for min Tr(zX) + lam‖X‖₁ over the spectraplex, z symmetric m×m (scaled), warm dual {@code u0} (may be null)
     * and initial ρ.
     */
    static Column solveColumn(DMatrixRMaj z, double lam, double tol, int maxIterations, DMatrixRMaj u0, double rho0) {
        int m = z.numRows;
        int mm = m * m;
        double[] zd = z.data;
        Kernels.SortedEigen e0 = PartialEigen.smallest(z, 1, "the " + m + "×" + m + " sparse LDG matrix");
        DMatrixRMaj x = new DMatrixRMaj(m, m);
        double[] v0 = e0.vectors().data;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                x.data[i * m + j] = v0[i] * v0[j];
            }
        }
        DMatrixRMaj w = x.copy();
        DMatrixRMaj wOld = new DMatrixRMaj(m, m);
        DMatrixRMaj u = u0 != null && u0.numRows == m ? u0.copy() : new DMatrixRMaj(m, m);
        DMatrixRMaj mat = new DMatrixRMaj(m, m);
        double rho = rho0;
        boolean converged = false;
        int it = 0;
        String what = "the " + m + "×" + m + " ADMM iterate of sparse LDG";
        while (it < maxIterations) {
            it++;
            double[] wd = w.data;
            double[] ud = u.data;
            double invRho = 1.0 / rho;
            double[] md = mat.data;
            for (int k = 0; k < mm; k++) {
                md[k] = wd[k] - ud[k] - invRho * zd[k];
            }
            SpectraplexProjection.project(mat, x, what);
            DMatrixRMaj swap = wOld;
            wOld = w;
            w = swap;
            double[] xd = x.data;
            wd = w.data;
            double[] wo = wOld.data;
            double kappa = lam * invRho;
            double primal = 0;
            double dual = 0;
            for (int k = 0; k < mm; k++) {
                double t = xd[k] + ud[k];
                double s = t > kappa ? t - kappa : (t < -kappa ? t + kappa : 0.0);
                wd[k] = s;
                ud[k] = t - s;
                double r = xd[k] - s;
                primal += r * r;
                double dw = s - wo[k];
                dual += dw * dw;
            }
            primal = Math.sqrt(primal);
            dual = rho * Math.sqrt(dual);
            if (primal <= tol && dual <= tol) {
                converged = true;
                break;
            }
            if (primal > BALANCE * dual) {
                rho *= 2;
                CommonOps_DDRM.scale(0.5, u);
            } else if (dual > BALANCE * primal) {
                rho *= 0.5;
                CommonOps_DDRM.scale(2.0, u);
            }
        }
        Column col = new Column();
        col.iterations = it;
        col.converged = converged;
        col.rho = rho;
        col.u = u;
        col.x = x;
        double obj = 0;
        double l1 = 0;
        for (int k = 0; k < mm; k++) {
            obj += zd[k] * x.data[k];
            l1 += Math.abs(x.data[k]);
        }
        col.objective = obj + lam * l1;
        // Dual certificate: Y = ρU has |Y_ij| ≤ lam, so λ_min(z + Y) ≤ optimum ≤ objective.
        DMatrixRMaj zy = new DMatrixRMaj(m, m);
        for (int k = 0; k < mm; k++) {
            zy.data[k] = zd[k] + rho * u.data[k];
        }
        double lower =
                PartialEigen.smallest(zy, 1, "the dual matrix of sparse LDG").values()[0];
        col.gap = col.objective - lower;
        col.b = leadingDirection(w, x, lam, tol);
        return col;
    }

    /**
     * b from the solution: the leading eigenvector of W (the soft-thresholded copy of X; ‖X − W‖<sub>F</sub> ≤ tol at
     * convergence). Rows of W that are entirely zero give exactly zero entries of its eigenvectors (W e<sub>j</sub> = 0),
     * so the eigenproblem is solved on the principal submatrix of W's non-zero rows only. Within that support, the
     * eigenvector is determined only to the solver's accuracy: by Davis–Kahan, perturbing W by E moves the leading
     * eigenvector by at most ‖E‖/gap, gap = μ<sub>1</sub> − μ<sub>2</sub>, and the ADMM iterate is within ~tol of the
     * fixed point in Frobenius norm. Entries with |b<sub>j</sub>| &lt; {@value #ZERO_FACTOR}·tol/gap are therefore not
     * distinguishable from zero and are set to zero (the factor 10 is a safety margin on the residual-to-error ratio);
     * the threshold is capped at half the largest entry so b never vanishes, and b is renormalised to ‖b‖ = 1. With
     * λ = 0 nothing is penalised and nothing is zeroed: b is the plain eigenvector.
     */
    static double[] leadingDirection(DMatrixRMaj w, DMatrixRMaj x, double lam, double tol) {
        int m = w.numRows;
        int[] support = nonZeroRows(w);
        DMatrixRMaj source = w;
        if (support.length == 0) {
            // W vanished (iteration cap hit with everything thresholded): fall back to X, which has trace 1.
            source = x;
            support = new int[m];
            for (int i = 0; i < m; i++) {
                support[i] = i;
            }
        }
        int s = support.length;
        double[] b = new double[m];
        if (s == 1) {
            b[support[0]] = 1.0;
            return b;
        }
        DMatrixRMaj sub = new DMatrixRMaj(s, s);
        for (int a = 0; a < s; a++) {
            for (int c = 0; c < s; c++) {
                sub.data[a * s + c] = -source.data[support[a] * m + support[c]];
            }
        }
        Kernels.SortedEigen e = PartialEigen.smallest(sub, 2, "the sparse LDG solution");
        double gap = e.values()[1] - e.values()[0];
        double maxAbs = 0;
        for (int a = 0; a < s; a++) {
            double v = e.vectors().data[a * 2];
            b[support[a]] = v;
            maxAbs = Math.max(maxAbs, Math.abs(v));
        }
        if (lam > 0) {
            double threshold = Math.min(ZERO_FACTOR * tol / Math.max(gap, Double.MIN_NORMAL), 0.5 * maxAbs);
            for (int i = 0; i < m; i++) {
                if (Math.abs(b[i]) < threshold) {
                    b[i] = 0;
                }
            }
        }
        SparseLdg.normalise(b);
        return b;
    }

    private static int[] nonZeroRows(DMatrixRMaj w) {
        int m = w.numRows;
        int[] rows = new int[m];
        int count = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                if (w.data[i * m + j] != 0) {
                    rows[count++] = i;
                    break;
                }
            }
        }
        return Arrays.copyOf(rows, count);
    }
}
