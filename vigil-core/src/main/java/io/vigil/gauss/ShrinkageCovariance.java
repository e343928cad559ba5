package io.vigil.gauss;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * Shrinkage covariance estimate toward a scaled identity, Σ̂ = (1 − δ)S + δμI with S the
 * maximum-likelihood sample covariance (divisor n) and μ = tr(S)/d. The complete-series model needs a
 * well-conditioned, positive-definite Σ even when n ≤ d (Beef: 30 series of length 470), where S itself
 * is singular (docs/method.md §3.1, thesis eq. 5.19).
 *
 * <p>Intensity δ:
 *
 * <ul>
 *   <li>Ledoit &amp; Wolf (2004, J. Multivar. Anal. 88, Lemmas 3.2–3.5, Thm 3.1): with the normalised
 *       Frobenius norm ‖A‖² = tr(AAᵀ)/d, d̂² = ‖S − μI‖², b̄² = n⁻² Σ_k ‖r_k r_kᵀ − S‖² (r_k = x_k − x̄),
 *       b² = min(b̄², d̂²), δ = b²/d̂². The b̄² sum is evaluated as a sum of squares (never as the
 *       cancelling Σ‖r_k‖⁴ − n‖S‖²), in a second pass over the rows because it needs the final mean.
 *   <li>OAS, Chen, Wiesel, Eldar &amp; Hero (2010, IEEE TSP 58(10), eq. 23): δ = min(1,
 *       ((1 − 2/d)tr(S²) + tr²(S)) / ((n + 1 − 2/d)(tr(S²) − tr²(S)/d))), with the denominator formed
 *       as the sum of squares ‖S − μI‖²_F.
 *   <li>Fixed δ, or none (δ = 0).
 * </ul>
 *
 * When S is already a multiple of the identity (d̂² = 0, e.g. d = 1) δ does not matter and is reported
 * as 0. Mean and scatter come from the one-pass {@link MomentAccumulator}.
 */
public final class ShrinkageCovariance {
    private ShrinkageCovariance() {}

    /**
     * Estimates mean and shrunk covariance of the rows.
     *
     * @param rows n ≥ 2 series of equal length d ≥ 1, finite; not modified
     * @param params shrinkage method and optional fixed intensity
     * @throws IllegalArgumentException on fewer than 2 rows, ragged rows or non-finite values
     * @throws CovarianceFitException when every row is identical (zero scatter: no scale to shrink toward)
     */
    public static CovarianceEstimate estimate(double[][] rows, ShrinkageParams params) {
        Objects.requireNonNull(params, "params");
        int n = rows.length;
        int d = checkRows(rows);
        MomentAccumulator acc = new MomentAccumulator(d);
        for (int k = 0; k < n; k++) {
            acc.add(rows[k]);
        }
        double[] mean = new double[d];
        acc.mean(mean);
        DMatrixRMaj s = new DMatrixRMaj(d, d);
        acc.scatter(s);
        double invN = 1.0 / n;
        double trace = 0.0;
        for (int i = 0; i < s.data.length; i++) {
            s.data[i] *= invN;
        }
        for (int i = 0; i < d; i++) {
            trace += s.data[i * d + i];
        }
        double mu = trace / d;
        if (!(mu > 0.0)) {
            throw new CovarianceFitException(
                    "all " + n + " series are identical: the sample covariance is zero, nothing to shrink toward");
        }
        // ‖S − μI‖²_F as a sum of squares (no tr(S²) − tr²(S)/d cancellation).
        double dist2 = 0.0;
        for (int i = 0; i < d; i++) {
            int row = i * d;
            for (int j = 0; j < i; j++) {
                double v = s.data[row + j];
                dist2 += 2.0 * v * v;
            }
            double v = s.data[row + i] - mu;
            dist2 += v * v;
        }
        double delta;
        switch (params.method()) {
            case LEDOIT_WOLF:
                delta = ledoitWolfIntensity(rows, mean, s, dist2);
                break;
            case OAS:
                delta = oasIntensity(s, trace, dist2, n);
                break;
            case FIXED:
                delta = params.intensity();
                break;
            case NONE:
                delta = 0.0;
                break;
            default:
                throw new IllegalStateException("unhandled shrinkage method " + params.method());
        }
        double keep = 1.0 - delta;
        double add = delta * mu;
        for (int i = 0; i < d; i++) {
            int row = i * d;
            for (int j = 0; j < d; j++) {
                s.data[row + j] *= keep;
            }
            s.data[row + i] += add;
        }
        Shrinkage info = new Shrinkage(params.method(), ShrinkageTarget.SCALED_IDENTITY, mu, delta, n);
        return new CovarianceEstimate(mean, s, info);
    }

    /**
     * Checks that there are n ≥ 2 series of one length d ≥ 1 and returns d (finiteness is checked where the values
     * are read).
     */
    static int checkRows(double[][] rows) {
        int n = rows.length;
        if (n < 2) {
            throw new IllegalArgumentException("a covariance estimate needs at least 2 series, got " + n);
        }
        int d = rows[0].length;
        if (d < 1) {
            throw new IllegalArgumentException("series have length 0");
        }
        for (int k = 1; k < n; k++) {
            if (rows[k].length != d) {
                throw new IllegalArgumentException(
                        "series " + k + " has length " + rows[k].length + " but series 0 has length " + d);
            }
        }
        return d;
    }

    /** Ledoit–Wolf δ = min(b̄², d̂²)/d̂²; both norms carry the same 1/d so it cancels. */
    private static double ledoitWolfIntensity(double[][] rows, double[] mean, DMatrixRMaj s, double dist2) {
        if (dist2 == 0.0) {
            return 0.0;
        }
        int n = rows.length;
        int d = mean.length;
        double[] r = new double[d];
        double sum = 0.0;
        for (double[] x : rows) {
            for (int i = 0; i < d; i++) {
                r[i] = x[i] - mean[i];
            }
            double rowSum = 0.0;
            for (int i = 0; i < d; i++) {
                double ri = r[i];
                int row = i * d;
                double off = 0.0;
                for (int j = 0; j < i; j++) {
                    double v = ri * r[j] - s.data[row + j];
                    off += v * v;
                }
                double v = ri * ri - s.data[row + i];
                rowSum += 2.0 * off + v * v;
            }
            sum += rowSum;
        }
        double bbar2 = sum / ((double) n * n);
        double b2 = Math.min(bbar2, dist2);
        return b2 / dist2;
    }

    /** OAS δ (Chen et al. 2010, eq. 23) with tr(S²) − tr²(S)/d = ‖S − μI‖²_F. */
    private static double oasIntensity(DMatrixRMaj s, double trace, double dist2, int n) {
        if (dist2 == 0.0) {
            return 0.0;
        }
        int d = s.numRows;
        double traceSq = 0.0;
        for (double v : s.data) {
            traceSq += v * v;
        }
        double p = d;
        double num = (1.0 - 2.0 / p) * traceSq + trace * trace;
        double den = (n + 1.0 - 2.0 / p) * dist2;
        return Math.min(1.0, Math.max(0.0, num / den));
    }
}
