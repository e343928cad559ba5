package io.vigil.gauss;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The shrinkage covariance of {@link ShrinkageCovariance} — Σ̂ = (1 − δ)S + δμI, S the maximum-likelihood sample
 * covariance of n series of length d, μ = tr(S)/d, δ by Ledoit–Wolf, OAS, a fixed value or none — computed without
 * any d×d matrix, as the identity-plus-low-rank form Σ̂ = a·I + U Uᵀ with
 *
 * <pre>
 *   a = δμ,   U = √((1 − δ)/n) · X_cᵀ   (d×n; X_c the n×d centred series, rank ≤ n − 1),     (1)
 * </pre>
 *
 * which is exact because S = X_cᵀX_c/n. U is stored rotated, U·Q = √((1 − δ)/n)·Rᵀ with X_c = Q R (Householder
 * QR, O(n²d)), which leaves UUᵀ unchanged, drops the numerically zero direction (r = n − 1: the centred rows sum to
 * zero) and makes U lower trapezoidal — row t has at most t + 1 non-zeros, so the first r steps of the sequential
 * conditioning cost O(t), not O(r) ({@link SemiseparableLdl}). Every scalar the intensity formulas need comes from the n×n Gram matrix
 * G = X_c X_cᵀ = W Λ Wᵀ (O(n²d) to form, O(n³) to decompose). Write X_c = Y Vᵀ with Y = W Λ^{1/2} (n×n) and V
 * (d×n) with orthonormal columns on the data span; then S = V (Λ/n) Vᵀ and, because V preserves Frobenius norms,
 *
 * <pre>
 *   tr S = tr G / n,   ‖S‖²_F = ‖G‖²_F / n²,                                                   (2)
 *   ‖S − μI‖²_F = Σ_{i ≤ m} (λ_i/n − μ)² + (d − m)·μ²,   m = min(n, d), λ_1 ≥ … ≥ λ_n,          (3)
 *   ‖r_k r_kᵀ − S‖²_F = ‖y_k y_kᵀ − Λ/n‖²_F,   r_k = V y_k the k-th centred series,              (4)
 * </pre>
 *
 * the last d − m eigenvalues of S being exactly 0. (3) and (4) are sums of squares, as in the dense estimator, so
 * nothing cancels; Ledoit &amp; Wolf's b̄² = n⁻² Σ_k (4) costs O(n³). The intensities are then the dense estimator's
 * formulas verbatim (see {@link ShrinkageCovariance}). With {@code none} (δ = 0) and n ≤ d the result is the
 * singular sample covariance (a = 0); {@link LowRankGaussian#fit} then adds the same ridge ladder as the dense fit.
 * With δ = 1 the low-rank term vanishes (r = 0). Memory O(nd + n²).
 */
final class LowRankShrinkage {
    private LowRankShrinkage() {}

    /**
     * Mean, a, U and the shrinkage record.
     *
     * @param mean x̄ (length d)
     * @param identityScale a = δμ ≥ 0
     * @param factor U, d×r row-major (row t = u_tᵀ)
     * @param rank r (the numerical rank of X_c, n − 1 for distinct series; 0 when δ = 1)
     * @param shrinkage what the estimate did
     */
    record Estimate(double[] mean, double identityScale, double[] factor, int rank, Shrinkage shrinkage) {}

    /**
     * Estimates mean and the identity-plus-low-rank shrinkage covariance (1).
     *
     * @param rows n ≥ 2 series of equal length d ≥ 1, finite; not modified
     * @throws IllegalArgumentException on fewer than 2 rows, ragged rows or non-finite values
     * @throws CovarianceFitException when every row is identical
     */
    static Estimate estimate(double[][] rows, ShrinkageParams params) {
        Objects.requireNonNull(params, "params");
        int n = rows.length;
        int d = ShrinkageCovariance.checkRows(rows);
        if ((long) n * d > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(n + " series of length " + d + " exceed one Java array");
        }
        // Mean by Welford's update, the same arithmetic as MomentAccumulator (so both forms share x̄ bit for bit).
        double[] mean = new double[d];
        for (int k = 0; k < n; k++) {
            double[] x = rows[k];
            double invN = 1.0 / (k + 1);
            for (int i = 0; i < d; i++) {
                if (!Double.isFinite(x[i])) {
                    throw new IllegalArgumentException("vector element " + i + " is not finite: " + x[i]);
                }
                mean[i] += (x[i] - mean[i]) * invN;
            }
        }
        double[] centred = new double[n * d]; // X_c, n×d row-major
        for (int k = 0; k < n; k++) {
            double[] x = rows[k];
            int off = k * d;
            for (int i = 0; i < d; i++) {
                centred[off + i] = x[i] - mean[i];
            }
        }
        DMatrixRMaj gram = gram(centred, n, d);
        double traceG = 0.0;
        double frobG = 0.0;
        for (int k = 0; k < n; k++) {
            traceG += gram.data[k * n + k];
        }
        for (double v : gram.data) {
            frobG += v * v;
        }
        double trace = traceG / n;
        double mu = trace / d;
        if (!(mu > 0.0)) {
            throw new CovarianceFitException(
                    "all " + n + " series are identical: the sample covariance is zero, nothing to shrink toward");
        }
        double traceSq = frobG / ((double) n * n);
        GramSpectrum spec = GramSpectrum.of(gram);
        int m = Math.min(n, d);
        double dist2 = (double) (d - m) * mu * mu;
        for (int i = 0; i < m; i++) {
            double v = spec.values()[i] / n - mu;
            dist2 += v * v;
        }
        double delta =
                switch (params.method()) {
                    case LEDOIT_WOLF -> ledoitWolfIntensity(spec, n, dist2);
                    case OAS -> oasIntensity(trace, traceSq, dist2, n, d);
                    case FIXED -> params.intensity();
                    case NONE -> 0.0;
                };
        double a = delta * mu;
        double[] factor = new double[0];
        int rank = 0;
        if (delta < 1.0) {
            // U = c·X_cᵀ rotated to lower-trapezoidal form: X_c = Q R (Householder), U·Q = c·Rᵀ, UUᵀ unchanged.
            int kept = householderR(centred, n, d);
            rank = numericalRank(centred, n, d, kept);
            double c = Math.sqrt((1.0 - delta) / n);
            factor = new double[d * rank];
            for (int i = 0; i < rank; i++) {
                int row = i * d;
                for (int t = i; t < d; t++) {
                    factor[t * rank + i] = c * centred[row + t];
                }
            }
        }
        Shrinkage info = new Shrinkage(params.method(), ShrinkageTarget.SCALED_IDENTITY, mu, delta, n);
        return new Estimate(mean, a, factor, rank, info);
    }

    /**
     * Householder QR of the n×d row-major matrix x in place (Golub &amp; Van Loan, Alg. 5.2.1, applied row-wise so
     * every update is an axpy over a row): on return its upper trapezoid holds R, whose first m = min(n, d) rows
     * are meaningful; the entries below the diagonal are left unspecified. Returns m. O(n²d).
     */
    static int householderR(double[] x, int n, int d) {
        int m = Math.min(n, d);
        double[] v = new double[n];
        double[] w = new double[d];
        for (int j = 0; j < m; j++) {
            int len = n - j;
            double scale = 0.0;
            for (int i = 0; i < len; i++) {
                scale = Math.max(scale, Math.abs(x[(j + i) * d + j]));
            }
            if (scale == 0.0) {
                continue; // column already zero below the diagonal: R[j][j] = 0, no reflection
            }
            double norm2 = 0.0;
            for (int i = 0; i < len; i++) {
                double e = x[(j + i) * d + j] / scale;
                v[i] = e;
                norm2 += e * e;
            }
            double norm = scale * Math.sqrt(norm2);
            double x0 = x[j * d + j];
            double alpha = x0 >= 0.0 ? -norm : norm;
            for (int i = 0; i < len; i++) {
                v[i] = x[(j + i) * d + j];
            }
            v[0] = x0 - alpha;
            double vv = 0.0;
            for (int i = 0; i < len; i++) {
                vv += v[i] * v[i];
            }
            if (vv == 0.0) {
                continue;
            }
            double tau = 2.0 / vv;
            // w = vᵀ X[j:, j+1:], then X[j:, j+1:] −= τ v w.
            java.util.Arrays.fill(w, j + 1, d, 0.0);
            for (int i = 0; i < len; i++) {
                double vi = v[i];
                if (vi != 0.0) {
                    int row = (j + i) * d;
                    for (int c = j + 1; c < d; c++) {
                        w[c] += vi * x[row + c];
                    }
                }
            }
            for (int i = 0; i < len; i++) {
                double f = tau * v[i];
                if (f != 0.0) {
                    int row = (j + i) * d;
                    for (int c = j + 1; c < d; c++) {
                        x[row + c] -= f * w[c];
                    }
                }
            }
            x[j * d + j] = alpha;
        }
        return m;
    }

    /**
     * The number of leading rows of R to keep: trailing rows whose norm is at most {@code 16·n·ε·‖R‖_F} are dropped.
     * Householder QR is backward stable, X_c + ΔX = Q R with ‖ΔX‖_F ≲ c·n·ε·‖X_c‖_F (Higham, <i>Accuracy and
     * Stability</i>, Thm 19.4) and ‖R‖_F = ‖X_c‖_F, so such a row is indistinguishable from zero. The centred rows
     * sum to zero, so when the first n − 1 samples are linearly independent R's last row is such a row and r = n − 1
     * (300 generated CBF series of length 20,000: 2.4e-13·‖R‖_F against the bound 1.1e-12·‖R‖_F); a row kept
     * needlessly only costs time.
     */
    private static int numericalRank(double[] r, int n, int d, int m) {
        double[] rowNorm = new double[m];
        double frob2 = 0.0;
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            int row = i * d;
            for (int t = i; t < d; t++) {
                s += r[row + t] * r[row + t];
            }
            rowNorm[i] = Math.sqrt(s);
            frob2 += s;
        }
        double tol = 16.0 * n * Math.ulp(1.0) * Math.sqrt(frob2);
        int rank = m;
        while (rank > 0 && rowNorm[rank - 1] <= tol) {
            rank--;
        }
        return rank;
    }

    /** G = X_c X_cᵀ, lower triangle by four-way unrolled dot products, mirrored (exactly symmetric). */
    private static DMatrixRMaj gram(double[] x, int n, int d) {
        DMatrixRMaj g = new DMatrixRMaj(n, n);
        for (int k = 0; k < n; k++) {
            int ok = k * d;
            for (int j = 0; j <= k; j++) {
                double s = SemiseparableLdl.dot(x, ok, x, j * d, d);
                g.data[k * n + j] = s;
                g.data[j * n + k] = s;
            }
        }
        return g;
    }

    /** Ledoit–Wolf δ = min(b̄², d̂²)/d̂² with b̄² = n⁻² Σ_k ‖y_k y_kᵀ − Λ/n‖²_F (4). */
    private static double ledoitWolfIntensity(GramSpectrum spec, int n, double dist2) {
        if (dist2 == 0.0) {
            return 0.0;
        }
        double[] lambdaOverN = new double[n];
        for (int i = 0; i < n; i++) {
            lambdaOverN[i] = spec.values()[i] / n;
        }
        double[] y = new double[n];
        double sum = 0.0;
        for (int k = 0; k < n; k++) {
            for (int i = 0; i < n; i++) {
                y[i] = spec.vectors().data[k * n + i] * Math.sqrt(spec.values()[i]);
            }
            double rowSum = 0.0;
            for (int i = 0; i < n; i++) {
                double yi = y[i];
                double off = 0.0;
                for (int j = 0; j < i; j++) {
                    double v = yi * y[j];
                    off += v * v;
                }
                double v = yi * yi - lambdaOverN[i];
                rowSum += 2.0 * off + v * v;
            }
            sum += rowSum;
        }
        double bbar2 = sum / ((double) n * n);
        return Math.min(bbar2, dist2) / dist2;
    }

    /** OAS δ (Chen et al. 2010, eq. 23), as {@link ShrinkageCovariance} with the traces from (2) and (3). */
    private static double oasIntensity(double trace, double traceSq, double dist2, int n, int d) {
        if (dist2 == 0.0) {
            return 0.0;
        }
        double p = d;
        double num = (1.0 - 2.0 / p) * traceSq + trace * trace;
        double den = (n + 1.0 - 2.0 / p) * dist2;
        return Math.min(1.0, Math.max(0.0, num / den));
    }
}
