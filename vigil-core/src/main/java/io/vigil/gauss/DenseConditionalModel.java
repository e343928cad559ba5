package io.vigil.gauss;

import org.ejml.data.DMatrixRMaj;

/**
 * {@link ConditionalModel} of a {@link JointGaussian} (dense L): prediction E[x_t | x_1..x_{t−1}] = x̄_t +
 * Σ_{s&lt;t} L[t,s]·e_s in O(t) from the stored innovations, no working vector; P = BᵀL in O(d²ℓ).
 */
final class DenseConditionalModel extends ConditionalModel {
    private final double[] mean;
    private final double[] strictLower;

    DenseConditionalModel(JointGaussian gaussian, DMatrixRMaj basis) {
        super(gaussian, basis, gaussian.meanRef(), gaussian.diagRef(), projection(gaussian, basis));
        this.mean = gaussian.meanRef();
        this.strictLower = gaussian.strictLowerRef();
    }

    /** P[:,t] = Σ_{s≥t} L[s,t]·B[s,:]ᵀ, accumulated over rows s of L (contiguous in the packed form). */
    private static double[] projection(JointGaussian gaussian, DMatrixRMaj basis) {
        int d = gaussian.length();
        int l = basis.numCols;
        double[] strictLower = gaussian.strictLowerRef();
        double[] b = basis.data;
        double[] projT = new double[d * l];
        for (int s = 0; s < d; s++) {
            int bRow = s * l;
            int base = s * (s - 1) / 2;
            for (int t = 0; t < s; t++) {
                double lst = strictLower[base + t];
                if (lst != 0.0) {
                    int pRow = t * l;
                    for (int k = 0; k < l; k++) {
                        projT[pRow + k] += lst * b[bRow + k];
                    }
                }
            }
            int pRow = s * l;
            for (int k = 0; k < l; k++) {
                projT[pRow + k] += b[bRow + k];
            }
        }
        return projT;
    }

    /** e_t = x − (x̄_t + Σ_{s&lt;t} L[t,s]·e_s). O(t). */
    @Override
    double innovation(int t, double x, double[] innovations, int off, double[] work, int workOff) {
        return x - (mean[t] + SemiseparableLdl.dot(strictLower, t * (t - 1) / 2, innovations, off, t));
    }

    @Override
    int workSize() {
        return 0;
    }

    @Override
    void restoreWork(int t, double[] innovations, int off, double[] work, int workOff) {
        // The dense prediction reads the innovations themselves.
    }
}
