package io.vigil.reduce;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.SingularOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * Direct LDA (Yu and Yang, "A direct LDA algorithm for high-dimensional data — with application to face recognition",
 * Pattern Recognition 34, 2001; "DLDA" in Parrish 2012, §3.5 and Table 3.3). It reverses FDA's order so that the
 * null space of S<sub>w</sub> (always present when n &lt; d) is kept rather than inverted:
 *
 * <ol>
 *   <li>diagonalise S<sub>b</sub> = YD<sub>b</sub>Yᵀ and discard its null space, keeping the u ≤ G − 1 eigenvectors
 *       Y with non-zero eigenvalues; Z = YD<sub>b</sub><sup>−1/2</sup>, so ZᵀS<sub>b</sub>Z = I;
 *   <li>diagonalise ZᵀS<sub>w</sub>Z = UD<sub>w</sub>Uᵀ and keep the eigenvectors with the <em>smallest</em>
 *       eigenvalues (least within-class spread per unit of between-class spread);
 *   <li>the map is x ↦ D<sub>w</sub><sup>−1/2</sup>UᵀZᵀx, the paper's final sphering of the within-class scatter.
 * </ol>
 *
 * The thesis's summary says "top G eigenvectors" of ZᵀS<sub>w</sub>Z; the paper keeps the smallest, as here. Since
 * S<sub>b</sub> = BBᵀ with B's columns √(n<sub>c</sub>/n)(μ<sub>c</sub> − μ), step 1 is the thin SVD of the d×G matrix
 * B, and step 2 is a u×u problem: no d×d matrix is formed.
 */
public final class Dlda {
    /** Singular values of B below this fraction of the largest count as S<sub>b</sub>'s null space. */
    private static final double NULL_RATIO = 1e-8;

    private Dlda() {}

    /**
     * The DLDA map, d×min(dims, u), columns by increasing within-class eigenvalue; WᵀS<sub>w</sub>W = I and
     * WᵀS<sub>b</sub>W = D<sub>w</sub><sup>−1</sup>.
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1 (capped at u, the rank of S<sub>b</sub>)
     * @throws IllegalArgumentException on shapes or labels that do not fit, or class means that all coincide
     * @throws IllPosedReductionException when a kept direction has no within-class spread, so the sphering
     *     D<sub>w</sub><sup>−1/2</sup> is undefined
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        Labelled l = Labelled.of(x, y, numClasses, dims, "DLDA");
        DMatrixRMaj b = l.betweenFactor();
        SingularValueDecomposition_F64<DMatrixRMaj> svd =
                DecompositionFactory_DDRM.svd(l.d, l.present, true, false, true);
        if (!svd.decompose(b)) {
            throw new IllegalStateException("DLDA: the SVD of the between-class factor did not converge");
        }
        DMatrixRMaj u = svd.getU(null, false);
        DMatrixRMaj s = svd.getW(null);
        SingularOps_DDRM.descendingOrder(u, false, s, null, false);
        int rank = 0;
        while (rank < s.numCols && s.get(rank, rank) > NULL_RATIO * s.get(0, 0)) {
            rank++;
        }
        if (rank == 0 || !(s.get(0, 0) > 0)) {
            throw new IllegalArgumentException("DLDA: every class mean equals the overall mean; S_b is zero");
        }
        DMatrixRMaj z = new DMatrixRMaj(l.d, rank);
        for (int k = 0; k < rank; k++) {
            double inv = 1 / s.get(k, k);
            for (int t = 0; t < l.d; t++) {
                z.set(t, k, u.get(t, k) * inv);
            }
        }
        DMatrixRMaj xz = new DMatrixRMaj(l.n, rank);
        CommonOps_DDRM.mult(l.classCentred(), z, xz);
        DMatrixRMaj swz = new DMatrixRMaj(rank, rank);
        CommonOps_DDRM.multTransA(xz, xz, swz);
        CommonOps_DDRM.scale(1.0 / l.n, swz);
        Eigen.symmetrize(swz);
        Eigen.Pairs p = Eigen.symmetric(swz, false);
        int ell = Math.min(dims, rank);
        double scale = Math.max(p.values()[rank - 1], 0);
        DMatrixRMaj w = new DMatrixRMaj(l.d, ell);
        CommonOps_DDRM.mult(z, Eigen.leading(p.vectors(), ell), w);
        for (int k = 0; k < ell; k++) {
            double dw = p.values()[k];
            if (Eigen.singular(dw, scale, rank)) {
                throw new IllPosedReductionException(
                        "the within-class scatter vanishes on a direction of the between-class range, so the "
                                + "sphering D_w^(-1/2) is undefined",
                        l.n,
                        l.d);
            }
            double f = 1 / Math.sqrt(dw);
            for (int t = 0; t < l.d; t++) {
                w.set(t, k, w.get(t, k) * f);
            }
        }
        Eigen.fixSigns(w);
        return w;
    }
}
