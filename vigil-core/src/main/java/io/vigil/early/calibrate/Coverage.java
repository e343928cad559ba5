package io.vigil.early.calibrate;

import io.vigil.data.Dataset;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CalibrationSection;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import java.util.Optional;
import org.hipparchus.distribution.continuous.ChiSquaredDistribution;

/**
 * How often the Gaussian τ-set {y : (y − m_y(t))ᵀ R_y(t)⁻¹ (y − m_y(t)) ≤ χ²_ℓ(τ)} of a model contains the true LDG
 * projection y of series it is given — held-out series, to be honest (docs/method.md §5) — with the model's own R_y and
 * with R_y inflated by the calibrated κ(t). Averaged over series of the per-series fraction of samples t &lt; d covered
 * (samples of one series are not independent, so the series is the unit).
 */
public final class Coverage {
    private Coverage() {}

    /**
     * The coverage.
     *
     * @param before mean coverage with the model's R_y
     * @param after mean coverage with κ·R_y (equal to {@code before} without a calibration section)
     * @param afterStandardError standard error of {@code after} across series
     */
    public record Result(double before, double after, double afterStandardError) {}

    /**
     * The coverage of the τ-set on every series of {@code data} (raw values, class labels unused).
     *
     * @throws IllegalArgumentException when the model has no joint complete-series Gaussian or the lengths differ
     */
    public static Result of(VigilModel model, Dataset data, double tau) {
        JointGaussianEstimator est = JointGaussianEstimator.of(
                model.section(CompleteSeriesSection.class)
                        .flatMap(CompleteSeriesSection::jointGaussian)
                        .orElseThrow(() -> new IllegalArgumentException("the model has no joint Gaussian")),
                model.basis());
        if (data.length() != model.length()) {
            throw new IllegalArgumentException(
                    "series have length " + data.length() + " but the model expects " + model.length());
        }
        Optional<CalibrationSection> cal = model.section(CalibrationSection.class);
        Standardizer std = model.standardizer().orElse(null);
        int ell = model.dims();
        int d = model.length();
        double q = new ChiSquaredDistribution(ell).inverseCumulativeProbability(tau);
        double[] y = new double[ell];
        double[] m = new double[ell];
        double[] packed = new double[SymmetricPacked.size(ell)];
        double[] work = new double[ell * ell + ell];
        double sumBefore = 0;
        double sumAfter = 0;
        double sumAfterSq = 0;
        for (int i = 0; i < data.size(); i++) {
            double[] x = data.series(i);
            model.project(x, y);
            SeriesState s = est.newState();
            int inBefore = 0;
            int inAfter = 0;
            for (int t = 0; t < d - 1; t++) {
                est.update(s, std == null ? x[t] : std.apply(t, x[t]));
                est.conditionalMean(s, m);
                est.conditionalCovariance(s, packed);
                double d2 = Mahalanobis.squared(y, m, packed, ell, work);
                double kappa = cal.isPresent() ? cal.get().inflationAt(t + 1, d) : 1.0;
                inBefore += d2 <= q ? 1 : 0;
                inAfter += d2 / kappa <= q ? 1 : 0;
            }
            double b = (double) inBefore / Math.max(1, d - 1);
            double a = (double) inAfter / Math.max(1, d - 1);
            sumBefore += b;
            sumAfter += a;
            sumAfterSq += a * a;
        }
        int n = data.size();
        double meanAfter = sumAfter / n;
        double var = n > 1 ? (sumAfterSq - n * meanAfter * meanAfter) / (n - 1) : 0.0;
        return new Result(sumBefore / n, meanAfter, Math.sqrt(Math.max(0, var) / n));
    }
}
