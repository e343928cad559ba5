package io.vigil.gauss;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The {@code joint} complete-series estimator: X ~ N(x̄, Σ) fitted to all training series (thesis
 * §5.4.1, eq. 5.19), conditional moments in LDG space updated by innovations ({@link ConditionalModel}).
 * Per sample: one prediction — O(t) for a {@link CovarianceForm#DENSE} Gaussian, O(r) for a {@link
 * CovarianceForm#LOW_RANK} one — and one O(ℓ) axpy; R_y(t) is a table lookup. Immutable, thread-safe.
 */
public final class JointGaussianEstimator implements CompleteSeriesEstimator {
    private final ConditionalModel model;
    /** Identifies this estimator's working vectors in a {@link SeriesState} without keeping the estimator alive. */
    private final Object workToken = new Object();

    private JointGaussianEstimator(ConditionalModel model) {
        this.model = model;
    }

    /**
     * Fits the Gaussian with shrinkage in the dense form and builds the conditional model.
     *
     * @param rows n ≥ 2 training series (n×d); not modified
     * @param basis B, d×ℓ; copied
     * @param shrinkage covariance shrinkage
     */
    public static JointGaussianEstimator fit(double[][] rows, DMatrixRMaj basis, ShrinkageParams shrinkage) {
        return fit(rows, basis, shrinkage, CovarianceForm.DENSE);
    }

    /**
     * Fits the Gaussian with shrinkage in the given covariance form and builds the conditional model.
     *
     * @param rows n ≥ 2 training series (n×d); not modified
     * @param basis B, d×ℓ; copied
     * @param shrinkage covariance shrinkage
     * @param form covariance representation ({@link CovarianceForm#AUTO} resolves with n and d)
     */
    public static JointGaussianEstimator fit(
            double[][] rows, DMatrixRMaj basis, ShrinkageParams shrinkage, CovarianceForm form) {
        if (rows.length > 0) {
            ConditionalModel.checkBasis(basis, rows[0].length);
        }
        return of(SeriesGaussian.fit(rows, shrinkage, form), basis);
    }

    /**
     * From a fitted or restored Gaussian; rebuilds the R_y table deterministically from the stored factors and
     * B, so a model restored from the same factors gives identical tables.
     *
     * @param basis B, d×ℓ; copied
     */
    public static JointGaussianEstimator of(SeriesGaussian gaussian, DMatrixRMaj basis) {
        return new JointGaussianEstimator(ConditionalModel.build(gaussian, basis));
    }

    /** The conditional model (x̄, L, D, P, R_y table). */
    public ConditionalModel model() {
        return model;
    }

    /** The fitted Gaussian (for persistence). */
    public SeriesGaussian gaussian() {
        return model.gaussian();
    }

    @Override
    public EstimatorType type() {
        return EstimatorType.JOINT;
    }

    @Override
    public int length() {
        return model.length();
    }

    @Override
    public int reducedDimension() {
        return model.reducedDimension();
    }

    @Override
    public int components() {
        return 1;
    }

    @Override
    public DMatrixRMaj basis() {
        return model.basis();
    }

    @Override
    public SeriesState newState() {
        SeriesState s = new SeriesState(model.length(), model.reducedDimension(), 1);
        if (model.workSize() > 0) {
            Arrays.fill(s.claimWork(workToken, model.workSize()), 0.0);
        }
        return s;
    }

    @Override
    public void update(SeriesState state, double x) {
        check(state);
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("sample " + (state.time + 1) + " is not finite: " + x);
        }
        int t = state.time;
        if (t == model.length()) {
            throw new IllegalStateException("series already complete: all d = " + t + " samples observed");
        }
        double[] work = null;
        int size = model.workSize();
        if (size > 0) {
            work = state.work;
            if (!state.workValid(workToken, size)) {
                work = state.claimWork(workToken, size);
                model.restoreWork(t, state.innovations, 0, work, 0);
            }
        }
        double e = model.innovation(t, x, state.innovations, 0, work, 0);
        state.innovations[t] = e;
        state.workTime = t + 1;
        model.accumulateMean(t, e, state.meanShift, 0);
        state.logLikelihood[0] += model.logDensity(t, e);
        state.time = t + 1;
    }

    @Override
    public void conditionalMean(SeriesState state, double[] out) {
        check(state);
        int l = model.reducedDimension();
        ConditionalModel.checkLength(out, l, "mean output");
        for (int k = 0; k < l; k++) {
            out[k] = model.initialMean(k) + state.meanShift[k];
        }
    }

    @Override
    public void conditionalCovariance(SeriesState state, double[] packedOut) {
        check(state);
        model.conditionalCovariance(state.time, packedOut);
    }

    @Override
    public void conditionalCovariance(SeriesState state, DMatrixRMaj out) {
        check(state);
        model.conditionalCovariance(state.time, out);
    }

    @Override
    public double logLikelihood(SeriesState state) {
        check(state);
        return state.logLikelihood[0];
    }

    private void check(SeriesState state) {
        Objects.requireNonNull(state, "state");
        state.requireSameShape(model.length(), model.reducedDimension(), 1);
    }
}
