package io.vigil.reduce;

import io.vigil.ldg.LinearMaps;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Maximum margin criterion (Li, Jiang and Zhang, IEEE Trans. Neural Networks 17(1), 2006): B maximises
 * tr(Bᵀ(S<sub>b</sub> − S<sub>w</sub>)B) subject to BᵀB = I (Parrish 2012, eq. 3.33), so its columns are the
 * eigenvectors of S<sub>b</sub> − S<sub>w</sub> with the largest eigenvalues. A difference instead of FDA's ratio needs
 * no inverse, so MMC is defined for n &lt; d and may return more than G − 1 directions.
 *
 * <p>Computation: S<sub>b</sub> and S<sub>w</sub> map into the span of the centred training series (rank r ≤ n − 1),
 * and S<sub>b</sub> − S<sub>w</sub> is zero on its orthogonal complement. The eigenproblem is therefore solved on an
 * orthonormal basis Q of that span (r×r instead of d×d); when fewer than ℓ eigenvalues there are positive, the
 * zero eigenvalues of the complement rank above them, and the full d×d problem is solved instead, so the result is the
 * exact maximiser of (3.33) either way.
 */
public final class Mmc {
    private Mmc() {}

    /**
     * The MMC directions, orthonormal, d×min(dims, d), by decreasing eigenvalue of S<sub>b</sub> − S<sub>w</sub>.
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1
     * @throws IllegalArgumentException on shapes or labels that do not fit
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        Labelled l = Labelled.of(x, y, numClasses, dims, "MMC");
        int ell = Math.min(dims, l.d);
        DMatrixRMaj q = Pca.directions(x);
        if (q.numCols < l.d) {
            double[][] z = LinearMaps.project(x, q, q.numCols);
            Labelled lz = Labelled.of(z, y, numClasses, 1, "MMC");
            Eigen.Pairs p = Eigen.symmetric(margin(lz), true);
            int positive = 0;
            for (double v : p.values()) {
                positive += v > 0 ? 1 : 0;
            }
            if (positive >= ell) {
                DMatrixRMaj w = new DMatrixRMaj(l.d, ell);
                CommonOps_DDRM.mult(q, Eigen.leading(p.vectors(), ell), w);
                Eigen.fixSigns(w);
                return w;
            }
        }
        return Eigen.leading(Eigen.symmetric(margin(l), true).vectors(), ell);
    }

    /** S<sub>b</sub> − S<sub>w</sub>. */
    static DMatrixRMaj margin(Labelled l) {
        DMatrixRMaj m = l.between();
        CommonOps_DDRM.subtractEquals(m, l.within());
        Eigen.symmetrize(m);
        return m;
    }
}
