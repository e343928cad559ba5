package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;

/**
 * Per held-out series, the fraction of its prefixes t = 1..d−1 whose Gaussian 0.9-set (an estimator's m_y(t), R_y(t))
 * contains the series' true projection — with the model's own R_y and with R_y inflated by a section's κ. The
 * calibration tests check κ against it on series neither the model nor its folds saw.
 */
final class HeldOutCoverage {
    private HeldOutCoverage() {}

    /** {@code [0][i]}: series i's coverage with R_y as fitted; {@code [1][i]}: inflated by {@code cal}'s κ. */
    static double[][] perSeries(VigilModel model, CompleteSeriesEstimator est, CalibrationSection cal, Dataset test) {
        int ell = model.dims();
        int d = model.length();
        double q = new ChiSquaredDistribution(ell).inverseCumulativeProbability(0.9);
        double[] y = new double[ell];
        double[] m = new double[ell];
        double[] packed = new double[SymmetricPacked.size(ell)];
        double[] work = new double[ell * ell + ell];
        double[][] out = new double[2][test.size()];
        // The estimator works on the model's scale; project(x) standardises by itself.
        Standardizer std = model.standardizer().orElse(null);
        for (int i = 0; i < test.size(); i++) {
            double[] x = test.series(i);
            model.project(x, y);
            SeriesState s = est.newState();
            int before = 0;
            int after = 0;
            for (int t = 0; t < d - 1; t++) {
                est.update(s, std == null ? x[t] : std.apply(t, x[t]));
                est.conditionalMean(s, m);
                est.conditionalCovariance(s, packed);
                double d2 = Mahalanobis.squared(y, m, packed, ell, work);
                before += d2 <= q ? 1 : 0;
                after += d2 / cal.inflationAt(t + 1, d) <= q ? 1 : 0;
            }
            out[0][i] = (double) before / (d - 1);
            out[1][i] = (double) after / (d - 1);
        }
        return out;
    }
}
