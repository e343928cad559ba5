package io.vigil.reduce;

import io.vigil.ldg.LinearMaps;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * PCA followed by FDA, "Fisherfaces" (Belhumeur, Hespanha and Kriegman 1997; "PCA FDA" in Parrish 2012, §3.5 and
 * Table 3.3): PCA first reduces the series to n − G dimensions, the largest rank the within-class scatter can have, so
 * that {@link Fda}'s generalised eigenproblem becomes well posed there; the map is B<sub>PCA</sub>B<sub>FDA</sub>, d×ℓ
 * with ℓ ≤ G − 1.
 */
public final class PcaFda {
    private PcaFda() {}

    /**
     * The Fisherfaces directions, d×min(dims, G − 1).
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1 (capped at G − 1)
     * @throws IllegalArgumentException on shapes or labels that do not fit
     * @throws IllPosedReductionException when n − G &lt; 1 (no PCA space to work in) or the within-class scatter is
     *     still singular in the PCA space (e.g. repeated series)
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        Labelled l = Labelled.of(x, y, numClasses, dims, "PCA+FDA");
        int m = Math.min(l.n - l.present, Math.min(l.n, l.d));
        if (m < 1) {
            throw new IllPosedReductionException(
                    "n − G = " + (l.n - l.present) + " leaves no PCA space for FDA", l.n, l.d);
        }
        DMatrixRMaj pca = Eigen.leading(Pca.directions(x), m);
        double[][] reduced = LinearMaps.project(x, pca, m);
        DMatrixRMaj fda;
        try {
            fda = Fda.fit(reduced, y, numClasses, dims);
        } catch (IllPosedReductionException e) {
            throw new IllPosedReductionException(
                    "within-class scatter is singular in the " + m + "-dimensional PCA space", l.n, l.d);
        }
        DMatrixRMaj w = new DMatrixRMaj(l.d, fda.numCols);
        CommonOps_DDRM.mult(pca, fda, w);
        Eigen.fixSigns(w);
        return w;
    }
}
