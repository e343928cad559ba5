package io.vigil.ldg;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.CommonOps_MT_DDRM;

/**
 * Euclidean (Frobenius) projection of a symmetric matrix M onto the spectraplex {X ⪰ 0, Tr X = 1}: with
 * M = Σ μ<sub>i</sub> v<sub>i</sub>v<sub>i</sub>ᵀ, the projection is Σ (μ<sub>i</sub> − τ)<sub>+</sub> v<sub>i</sub>v<sub>i</sub>ᵀ where τ
 * puts the eigenvalues on the probability simplex, Σ(μ<sub>i</sub> − τ)<sub>+</sub> = 1 (Duchi et al. 2008,
 * sorted-threshold rule). Only the eigen-pairs above τ are needed, and in the ADMM of {@link SparseLdg} they are
 * few, so this reduces M to tridiagonal form once (EJML Householder, ~4/3·d³ flops), finds eigenvalues from the
 * top down by bisection until the simplex rule says the next one is below τ, and computes just those k vectors
 * by inverse iteration ({@link PartialEigen.Tridiagonalised}) — about a quarter of the cost of a full symmetric
 * QR with vectors at d = 500. Partial results are checked ({@link PartialEigen#passesCheck}); on failure the
 * full EJML symmetric eigendecomposition is used instead.
 */
final class SpectraplexProjection {
    private static final double EPS = Math.ulp(1.0);

    /** The projection's non-zero part: weights (μ<sub>i</sub> − τ) &gt; 0, descending, and unit vectors (d×k). */
    record Spectral(double[] weights, DMatrixRMaj vectors) {
        int rank() {
            return weights.length;
        }
    }

    private SpectraplexProjection() {}

    /**
     * Projects symmetric {@code m} (not modified) onto the spectraplex and writes the result into {@code out}
     * (same size, overwritten; may not be {@code m}).
     *
     * @return the eigen-pairs the projection kept
     */
    static Spectral project(DMatrixRMaj m, DMatrixRMaj out, String what) {
        Spectral s = spectral(m, what);
        assemble(s, out);
        return s;
    }

    /** The kept weights and vectors of the projection of {@code m}, without assembling it. */
    static Spectral spectral(DMatrixRMaj m, String what) {
        int n = m.numRows;
        if (n >= 8) {
            PartialEigen.Tridiagonalised t = PartialEigen.Tridiagonalised.of(m, true);
            if (t != null) {
                Spectral s = partial(m, t);
                if (s != null) {
                    return s;
                }
            }
        }
        Kernels.SortedEigen full = Kernels.symmetricEigen(m, true, what);
        double[] desc = new double[n];
        for (int i = 0; i < n; i++) {
            desc[i] = full.values()[n - 1 - i];
        }
        int k = simplexSupport(desc);
        double tau = threshold(desc, k);
        double[] w = new double[k];
        DMatrixRMaj v = new DMatrixRMaj(n, k);
        for (int c = 0; c < k; c++) {
            w[c] = desc[c] - tau;
            for (int i = 0; i < n; i++) {
                v.data[i * k + c] = full.vectors().data[i * n + (n - 1 - c)];
            }
        }
        return new Spectral(w, v);
    }

    private static Spectral partial(DMatrixRMaj m, PartialEigen.Tridiagonalised t) {
        int n = t.size();
        double[] desc = new double[n];
        double hi = t.norm;
        double sum = 0;
        int k = 0;
        while (k < n) {
            double mu = t.eigenvalue(n - 1 - k, -t.norm, hi);
            // Simplex rule for sorted values: the (k+1)-th value is in the support iff μ > (S_k − 1)/k.
            if (k > 0 && !(mu > (sum - 1) / k)) {
                break;
            }
            desc[k++] = mu;
            sum += mu;
            hi = mu + 2 * EPS * t.norm;
        }
        double tau = (sum - 1) / k;
        double[] ascending = new double[k];
        for (int c = 0; c < k; c++) {
            ascending[c] = desc[k - 1 - c];
        }
        DMatrixRMaj vAsc = t.vectors(ascending);
        if (vAsc == null || !passesCheck(m, ascending, vAsc)) {
            return null;
        }
        double[] w = new double[k];
        DMatrixRMaj v = new DMatrixRMaj(n, k);
        for (int c = 0; c < k; c++) {
            w[c] = desc[c] - tau;
            for (int i = 0; i < n; i++) {
                v.data[i * k + c] = vAsc.data[i * k + (k - 1 - c)];
            }
        }
        return new Spectral(w, v);
    }

    /**
     * The check of {@link PartialEigen#passesCheck} (residual and orthonormality within {@link
     * PartialEigen#CHECK_RTOL}) with the products multi-threaded.
     */
    private static boolean passesCheck(DMatrixRMaj p, double[] values, DMatrixRMaj vectors) {
        int n = p.numRows;
        int count = values.length;
        double norm = CommonOps_DDRM.elementMaxAbs(p) * n;
        DMatrixRMaj pv = new DMatrixRMaj(n, count);
        CommonOps_MT_DDRM.mult(p, vectors, pv);
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < count; c++) {
                double res = pv.data[i * count + c] - values[c] * vectors.data[i * count + c];
                if (!(Math.abs(res) <= PartialEigen.CHECK_RTOL * norm)) {
                    return false;
                }
            }
        }
        DMatrixRMaj vtv = new DMatrixRMaj(count, count);
        CommonOps_MT_DDRM.multTransA(vectors, vectors, vtv);
        for (int a = 0; a < count; a++) {
            for (int b = 0; b < count; b++) {
                if (!(Math.abs(vtv.get(a, b) - (a == b ? 1 : 0)) <= PartialEigen.CHECK_RTOL)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Size of the simplex support of descending values: the largest k with μ<sub>k</sub> &gt; (S<sub>k</sub> − 1)/k. */
    static int simplexSupport(double[] desc) {
        double sum = 0;
        int k = 0;
        for (double mu : desc) {
            if (k > 0 && !(mu > (sum - 1) / k)) {
                break;
            }
            sum += mu;
            k++;
        }
        return k;
    }

    private static double threshold(double[] desc, int k) {
        double sum = 0;
        for (int i = 0; i < k; i++) {
            sum += desc[i];
        }
        return (sum - 1) / k;
    }

    /** out = Σ w<sub>c</sub> v<sub>c</sub>v<sub>c</sub>ᵀ, exactly symmetric (upper triangle computed, then mirrored). */
    static void assemble(Spectral s, DMatrixRMaj out) {
        int n = s.vectors().numRows;
        int k = s.rank();
        double[] v = s.vectors().data;
        double[] o = out.data;
        Arrays.fill(o, 0, n * n, 0.0);
        double[] weights = s.weights();
        Kernels.forEach(n, (long) n * n * k / 2, i -> {
            double[] row = new double[k];
            for (int c = 0; c < k; c++) {
                row[c] = weights[c] * v[i * k + c];
            }
            int base = i * n;
            for (int j = i; j < n; j++) {
                double acc = 0;
                int vj = j * k;
                for (int c = 0; c < k; c++) {
                    acc += row[c] * v[vj + c];
                }
                o[base + j] = acc;
            }
        });
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                o[i * n + j] = o[j * n + i];
            }
        }
    }
}
