package io.vigil.early.calibrate;

/**
 * The squared Mahalanobis distance (y − m)ᵀR⁻¹(y − m) of a point from a Gaussian whose covariance R may have lost
 * rank (the conditional covariance of a complete series shrinks as samples arrive): R is factored by Cholesky with
 * pivots below a relative tolerance dropped, and the distance is taken in the retained directions only (the dropped
 * ones carry no uncertainty, so a held-out series' projection agrees with m there up to rounding).
 */
final class Mahalanobis {
    /** Relative pivot tolerance: far above rounding of an ℓ ≤ 1,000 factorisation, far below any real variance. */
    static final double PIVOT_TOLERANCE = 1e-12;

    private Mahalanobis() {}

    /**
     * @param packed R packed symmetric (row i: R_i0..R_ii)
     * @param work at least ℓ² + ℓ doubles, overwritten
     */
    static double squared(double[] y, double[] m, double[] packed, int ell, double[] work) {
        double maxDiag = 0;
        for (int i = 0; i < ell; i++) {
            maxDiag = Math.max(maxDiag, packed[i * (i + 1) / 2 + i]);
        }
        double floor = PIVOT_TOLERANCE * maxDiag;
        int lo = ell * ell;
        double sum = 0;
        for (int i = 0; i < ell; i++) {
            int ri = i * (i + 1) / 2;
            for (int j = 0; j <= i; j++) {
                double s = packed[ri + j];
                for (int k = 0; k < j; k++) {
                    s -= work[i * ell + k] * work[j * ell + k];
                }
                if (i == j) {
                    work[i * ell + i] = s > floor ? Math.sqrt(s) : 0.0;
                } else {
                    double pivot = work[j * ell + j];
                    work[i * ell + j] = pivot > 0 ? s / pivot : 0.0;
                }
            }
            // Forward substitution of L w = y − m, row i.
            double r = y[i] - m[i];
            for (int k = 0; k < i; k++) {
                r -= work[i * ell + k] * work[lo + k];
            }
            double pivot = work[i * ell + i];
            double w = pivot > 0 ? r / pivot : 0.0;
            work[lo + i] = w;
            sum += w * w;
        }
        return sum;
    }
}
