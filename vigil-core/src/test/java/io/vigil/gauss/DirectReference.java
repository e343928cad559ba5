package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * The textbook conditional Gaussian (thesis §5.4.1): m = x̄ + Σ_xz Σ_zz⁻¹(z − z̄), R = Σ_xx − Σ_xz Σ_zz⁻¹
 * Σ_zx, projected by B, computed densely from Σ with a Cholesky solve — an independent route to the
 * incremental innovations recursion.
 */
final class DirectReference {
    final double[] meanY;
    final DMatrixRMaj covY;

    private DirectReference(double[] meanY, DMatrixRMaj covY) {
        this.meanY = meanY;
        this.covY = covY;
    }

    /** Conditional moments of BᵀX given the first t = z.length samples. */
    static DirectReference conditional(double[] mean, DMatrixRMaj sigma, double[] z, DMatrixRMaj b) {
        int d = mean.length;
        int t = z.length;
        double[] m = mean.clone();
        DMatrixRMaj r = sigma.copy();
        if (t > 0) {
            DMatrixRMaj szz = CommonOps_DDRM.extract(sigma, 0, t, 0, t);
            DMatrixRMaj szx = CommonOps_DDRM.extract(sigma, 0, t, 0, d);
            LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(t);
            if (!solver.setA(szz.copy())) {
                throw new IllegalStateException("Σ_zz not PD");
            }
            DMatrixRMaj kt = new DMatrixRMaj(t, d); // Σ_zz⁻¹ Σ_zx = Kᵀ
            solver.solve(szx, kt);
            for (int i = 0; i < d; i++) {
                double s = 0.0;
                for (int k = 0; k < t; k++) {
                    s += kt.get(k, i) * (z[k] - mean[k]);
                }
                m[i] += s;
            }
            DMatrixRMaj correction = new DMatrixRMaj(d, d);
            CommonOps_DDRM.multTransA(szx, kt, correction);
            CommonOps_DDRM.subtractEquals(r, correction);
        }
        double[] my = GaussTestSupport.project(b, m);
        DMatrixRMaj tmp = new DMatrixRMaj(b.numCols, d);
        CommonOps_DDRM.multTransA(b, r, tmp);
        DMatrixRMaj ry = new DMatrixRMaj(b.numCols, b.numCols);
        CommonOps_DDRM.mult(tmp, b, ry);
        return new DirectReference(my, ry);
    }

    /** log N(z; mean[0..t), Σ[0..t, 0..t]) computed densely (0 for t = 0). */
    static double logDensity(double[] mean, DMatrixRMaj sigma, double[] z) {
        int t = z.length;
        if (t == 0) {
            return 0.0;
        }
        DMatrixRMaj szz = CommonOps_DDRM.extract(sigma, 0, t, 0, t);
        LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.chol(t);
        if (!solver.setA(szz.copy())) {
            throw new IllegalStateException("Σ_zz not PD");
        }
        DMatrixRMaj dev = new DMatrixRMaj(t, 1);
        for (int k = 0; k < t; k++) {
            dev.data[k] = z[k] - mean[k];
        }
        DMatrixRMaj sol = new DMatrixRMaj(t, 1);
        solver.solve(dev, sol);
        double quad = 0.0;
        for (int k = 0; k < t; k++) {
            quad += dev.data[k] * sol.data[k];
        }
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(t, true);
        if (!chol.decompose(szz.copy())) {
            throw new IllegalStateException("Σ_zz not PD");
        }
        DMatrixRMaj c = chol.getT(null);
        double logDet = 0.0;
        for (int k = 0; k < t; k++) {
            logDet += 2.0 * Math.log(c.get(k, k));
        }
        return -0.5 * (t * Math.log(2.0 * Math.PI) + logDet + quad);
    }
}
