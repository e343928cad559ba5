package io.vigil.gauss;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.decomposition.QRDecomposition;

/** Random well-conditioned test problems with fixed seeds. */
final class GaussTestSupport {
    private GaussTestSupport() {}

    /** d×k matrix with orthonormal columns (thin Q of a Gaussian matrix), k ≤ d. */
    static DMatrixRMaj randomOrthonormal(int d, int k, SplittableRandom rng) {
        DMatrixRMaj a = new DMatrixRMaj(d, k);
        for (int i = 0; i < a.data.length; i++) {
            a.data[i] = rng.nextGaussian();
        }
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(d, k);
        if (!qr.decompose(a)) {
            throw new IllegalStateException("QR failed");
        }
        return qr.getQ(null, true);
    }

    /** Q diag(λ) Qᵀ with λ uniform in [lo, hi]: condition number ≤ hi/lo. */
    static DMatrixRMaj randomSpd(int d, double lo, double hi, SplittableRandom rng) {
        DMatrixRMaj q = randomOrthonormal(d, d, rng);
        DMatrixRMaj out = new DMatrixRMaj(d, d);
        double[] lambda = new double[d];
        for (int i = 0; i < d; i++) {
            lambda[i] = lo + (hi - lo) * rng.nextDouble();
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double s = 0.0;
                for (int k = 0; k < d; k++) {
                    s += q.get(i, k) * lambda[k] * q.get(j, k);
                }
                out.set(i, j, s);
                out.set(j, i, s);
            }
        }
        return out;
    }

    static double[] randomVector(int d, double scale, SplittableRandom rng) {
        double[] v = new double[d];
        for (int i = 0; i < d; i++) {
            v[i] = scale * rng.nextGaussian();
        }
        return v;
    }

    /** n draws from N(mean, Σ). */
    static double[][] sample(double[] mean, DMatrixRMaj sigma, int n, SplittableRandom rng) {
        int d = mean.length;
        CholeskyDecomposition_F64<DMatrixRMaj> chol = DecompositionFactory_DDRM.chol(d, true);
        if (!chol.decompose(sigma.copy())) {
            throw new IllegalStateException("not PD");
        }
        DMatrixRMaj c = chol.getT(null);
        double[][] rows = new double[n][d];
        double[] z = new double[d];
        for (int r = 0; r < n; r++) {
            for (int i = 0; i < d; i++) {
                z[i] = rng.nextGaussian();
            }
            for (int i = 0; i < d; i++) {
                double s = mean[i];
                for (int k = 0; k <= i; k++) {
                    s += c.get(i, k) * z[k];
                }
                rows[r][i] = s;
            }
        }
        return rows;
    }

    static double maxAbs(DMatrixRMaj m) {
        return CommonOps_DDRM.elementMaxAbs(m);
    }

    static double maxAbs(double[] v) {
        double m = 0.0;
        for (double x : v) {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }

    /** Bᵀv. */
    static double[] project(DMatrixRMaj b, double[] v) {
        double[] out = new double[b.numCols];
        for (int s = 0; s < b.numRows; s++) {
            for (int k = 0; k < b.numCols; k++) {
                out[k] += b.get(s, k) * v[s];
            }
        }
        return out;
    }
}
