package io.vigil.reduce;

import org.ejml.data.DMatrixRMaj;

/**
 * Plain Fisher discriminant analysis (Fisher 1936; linear discriminant analysis): the leading solutions of the
 * symmetric-definite generalised eigenproblem S<sub>b</sub>w = λS<sub>w</sub>w with the between- and within-class
 * scatter of thesis eqs. (2.5)–(2.6), which maximise the ratio (2.7) (Parrish 2012, §2.2.2). Columns satisfy
 * wᵀS<sub>w</sub>w = 1, so 3-NN distances in the reduced space are within-class Mahalanobis distances; there are at most
 * G − 1 of them, the rank of S<sub>b</sub>.
 *
 * <p>No regularisation: this is the baseline that the small-sample methods ({@link PcaFda}, {@link RegularizedFda},
 * {@link Dlda}, {@link Mmc}) exist to repair. S<sub>w</sub> has rank at most n − G, so whenever n − G &lt; d — every
 * dataset of thesis Table 3.3 — or S<sub>w</sub> is numerically singular, the problem is ill-posed and {@link #fit}
 * throws {@link IllPosedReductionException} instead of returning directions dominated by rounding; the thesis reports
 * such cases as "nc" (Table 3.1).
 */
public final class Fda {
    private Fda() {}

    /**
     * The discriminant directions, d×min(dims, G − 1), by decreasing generalised eigenvalue.
     *
     * @param x n training rows of length d
     * @param y class indices in 0..numClasses−1, at least two classes present
     * @param dims requested ℓ ≥ 1 (capped at G − 1)
     * @throws IllegalArgumentException on shapes or labels that do not fit
     * @throws IllPosedReductionException when n − G &lt; d or S<sub>w</sub> is numerically singular
     */
    public static DMatrixRMaj fit(double[][] x, int[] y, int numClasses, int dims) {
        Labelled l = Labelled.of(x, y, numClasses, dims, "FDA");
        if (l.n - l.present < l.d) {
            throw new IllPosedReductionException(
                    "within-class scatter is singular (generalised eigenproblem of FDA), its rank is at most n − G = "
                            + (l.n - l.present) + " < d",
                    l.n,
                    l.d);
        }
        Eigen.Pairs p = Eigen.generalized(l.between(), l.within(), "within-class scatter is singular", l.n, l.d);
        return Eigen.leading(p.vectors(), Math.min(dims, l.present - 1));
    }
}
