package io.vigil.gauss;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The {@code joint} complete-series estimator: X ~ N(x̄, Σ) fitted to all training series (thesis
 * §5.4.1, eq. 5.19), conditional moments in LDG space updated by innovations ({@link ConditionalModel}).
 * Per sample: one O(t) prediction, one O(ℓ) axpy; R_y(t) is a table lookup. Immutable, thread-safe.
 */
public final class JointGaussianEstimator implements CompleteSeriesEstimator {
    private final ConditionalModel model;

    private JointGaussianEstimator(ConditionalModel model) {
        this.model = model;
    }

    /**
     * Fits the Gaussian with shrinkage and builds the conditional model.
     *
     * @param rows n ≥ 2 training series (n×d); not modified
     * @param basis B, d×ℓ; copied
     * @param shrinkage covariance shrinkage
     */
    public static JointGaussianEstimator fit(double[][] rows, DMatrixRMaj basis, ShrinkageParams shrinkage) {
        if (rows.length > 0) {
            ConditionalModel.checkBasis(basis, rows[0].length);
        }
        return of(JointGaussian.fit(rows, shrinkage), basis);
    }

    /**
     * From a fitted or restored Gaussian; rebuilds the R_y table deterministically from (L, D, B), so a
     * model restored from the same factors gives identical tables.
     *
     * @param basis B, d×ℓ; copied
     */
    public static JointGaussianEstimator of(JointGaussian gaussian, DMatrixRMaj basis) {
        return new JointGaussianEstimator(ConditionalModel.build(gaussian, basis));
    }

    /** The conditional model (x̄, L, D, P, R_y table). */
    public ConditionalModel model() {
        return model;
    }

    /** The fitted Gaussian (for persistence). */
    public JointGaussian gaussian() {
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
        return new SeriesState(model.length(), model.reducedDimension(), 1);
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
        double e = model.innovation(t, x, state.innovations, 0);
        state.innovations[t] = e;
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
