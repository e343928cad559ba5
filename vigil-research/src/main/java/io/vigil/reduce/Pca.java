package io.vigil.reduce;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.SingularOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;

/**
 * Principal component analysis: the leading right singular vectors of the centred training rows (EJML's SVD), so
 * y = Vᵀx keeps the directions of largest variance. Labels play no part.
 */
public final class Pca {
    private Pca() {}

    /**
     * Every principal direction, by decreasing singular value, as the columns of a d×min(n, d) matrix (the first ℓ
     * columns are the ℓ-dimensional PCA map).
     *
     * @param rows n ≥ 1 rows of equal length d ≥ 1; not modified
     * @throws IllegalArgumentException on an empty or ragged input, or a value that is not finite
     * @throws IllegalStateException if the SVD does not converge
     */
    public static DMatrixRMaj directions(double[][] rows) {
        Objects.requireNonNull(rows, "rows");
        int d = Reductions.checkRows(rows);
        int n = rows.length;
        double[] mean = Reductions.mean(rows);
        DMatrixRMaj x = new DMatrixRMaj(n, d);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                x.set(i, t, rows[i][t] - mean[t]);
            }
        }
        SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(n, d, false, true, true);
        if (!svd.decompose(x)) {
            throw new IllegalStateException("the SVD of the centred training rows did not converge");
        }
        DMatrixRMaj w = svd.getW(null);
        DMatrixRMaj vt = svd.getV(null, true);
        SingularOps_DDRM.descendingOrder(null, false, w, vt, true);
        int r = Math.min(n, d);
        DMatrixRMaj v = new DMatrixRMaj(d, r);
        for (int k = 0; k < r; k++) {
            for (int t = 0; t < d; t++) {
                v.set(t, k, vt.get(k, t));
            }
        }
        return v;
    }
}
