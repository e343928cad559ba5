package io.vigil.gauss;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The conditional moments of the LDG features Y = BᵀX of a complete series given <em>any</em> observed subset of
 * its coordinates, one value at a time in arrival order (thesis §5.4, eq. 5.19 on the observed index set O; method
 * notes §7): any channel, any time, any order, with values that never come simply never observed. Immutable and
 * shared; the per-series part is a {@link SubsetState}.
 *
 * <p><b>Factor form.</b> Write the complete-series Gaussian as X = x̄ + W f + ε with latent f ~ N(0, I_r) and ε ~
 * N(0, a·I), so Σ = a·I + W Wᵀ: the low-rank form is this with W = U ({@link LowRankGaussian}); the dense form is it
 * with a = 0 and W = L·D^{1/2} from Σ = L D Lᵀ ({@link JointGaussian}), r = D. Observing x_j (row w_j of W, row b_j
 * of B) while j is unobserved is one innovation:
 *
 * <pre>
 *   p = P w_j,  s = w_jᵀ p + a = Var(x_j | O),  e = x_j − x̄_j − w_jᵀ f̂ = x_j − E[x_j | O]
 *   q = G p + a·b_j = Cov(Y, x_j | O)            (G = B_Uᵀ W_U over the still unobserved rows U)
 *   f̂ += p·e/s,  P −= p pᵀ/s                     (posterior of f: mean and covariance)
 *   m_y += q·e/s,  R_y −= q qᵀ/s,  log p(x_O) += log N(e; 0, s)
 *   G −= b_j w_jᵀ                                 (j leaves U)
 * </pre>
 *
 * starting from f̂ = 0, P = I, G = BᵀW, m_y = Bᵀx̄ and R_y = BᵀΣB. These are the Gram–Schmidt steps of the notes
 * (v = Σ_{·j} − Σ_{·O}Σ_{OO}⁻¹Σ_{Oj} = W P w_j + a·e_j, so q = Bᵀv), hence equal to the closed form m = x̄ +
 * Σ_{·O}Σ_{OO}⁻¹(x_O − x̄_O), R = Σ − Σ_{·O}Σ_{OO}⁻¹Σ_{O·} for every O and every order (tested against a dense
 * solve). Work per value O(r² + ℓr + ℓ²), no matrix inverted; per-series state r² + ℓr + ℓ(ℓ + 1) + r + 2ℓ + r
 * doubles plus the observed set — for the low-rank form with r = n − 1 that is the price of arbitrary order, so
 * a fixed, complete arrival order (a univariate prefix, or C channels interleaved sample by sample, which is a prefix
 * of the time-major vector) keeps using the tabulated {@link ConditionalModel}.
 *
 * <p><b>Reduced rank.</b> That price is O(r²) per value with r = n − 1 for the low-rank form (r = 446 on 447
 * training series: ≈ 1 ms per value) and r = D for the dense one. So the factor is first reduced to its q ≤ {@link
 * #DEFAULT_RANK} largest directions, the rest of its variance going into the isotropic term ({@link ProbabilisticPca}:
 * the maximum-likelihood probabilistic-PCA form of Σ, Tipping &amp; Bishop 1999): every value then costs O(q² + ℓq +
 * ℓ²) and the state holds q² + ℓq + ℓ² doubles. The moments are then exactly those of the reduced Gaussian N(x̄,
 * σ²·I + W_q W_qᵀ) given the observed set (eq. 5.19 with Σ_q for Σ) — a different, slightly less informed Gaussian
 * than the model's, so early decisions from it are calibrated by replays through this same conditioner ({@link
 * io.vigil.early.EarlyClassifier#observeAt}), never by the prefix path's. When every value has been observed the
 * moments are Bᵀx whatever Σ, so the complete-series label does not change.
 *
 * <p><b>Deferred prefix.</b> A state may carry the tabulated prefix state of the same series ({@link
 * SubsetState#attachPrefix}): while the values arrive as a time-major prefix (index = number observed) the caller
 * decides on that state and only {@link #defer records} the values here, O(1) each; the first value out of that
 * order conditions the factor form on the recorded prefix and then on itself, and the prefix state is no longer used.
 */
public final class SubsetConditioner {
    /**
     * Largest rank q of the factor conditioned on (a factor of higher rank is reduced to its q largest directions):
     * per value ≈ 1.5q² + 2ℓq + ℓ²/2 multiply-adds, ≈ 3,900 at ℓ = 30 — the order of the tabulated prefix path's
     * per-sample work at d ≈ 1,000 — and on the sets measured the reduction changed neither reliability nor earliness
     * beyond noise (BENCHMARKS.md, "Cost per observed value in any order").
     */
    public static final int DEFAULT_RANK = 32;

    private final int length;
    private final int rank;
    private final int reduced;
    private final double noise;
    private final double[] mean; // x̄, D
    private final double[] factor; // W, D×r row-major
    private final double[] basis; // B, D×ℓ row-major
    private final double[] initialG; // BᵀW, ℓ×r row-major
    private final double[] initialMean; // Bᵀx̄, ℓ
    private final double[] initialCov; // BᵀΣB, ℓ×ℓ row-major

    private SubsetConditioner(double[] mean, double noise, double[] factor, int rank, DMatrixRMaj basis) {
        this.length = mean.length;
        this.rank = rank;
        this.reduced = basis.numCols;
        this.noise = noise;
        this.mean = mean;
        this.factor = factor;
        this.basis = basis.data.clone();
        int d = length;
        int l = reduced;
        int r = rank;
        this.initialG = new double[l * r];
        this.initialMean = new double[l];
        for (int j = 0; j < d; j++) {
            for (int k = 0; k < l; k++) {
                double b = this.basis[j * l + k];
                initialMean[k] += b * mean[j];
                for (int i = 0; i < r; i++) {
                    initialG[k * r + i] += b * factor[j * r + i];
                }
            }
        }
        this.initialCov = new double[l * l];
        for (int k = 0; k < l; k++) {
            for (int m = 0; m <= k; m++) {
                double s = 0;
                for (int i = 0; i < r; i++) {
                    s += initialG[k * r + i] * initialG[m * r + i];
                }
                double bb = 0;
                for (int j = 0; j < d; j++) {
                    bb += this.basis[j * l + k] * this.basis[j * l + m];
                }
                s += noise * bb;
                initialCov[k * l + m] = s;
                initialCov[m * l + k] = s;
            }
        }
    }

    /**
     * The conditioner for a complete-series Gaussian in either form and an LDG basis, its factor reduced to at most
     * {@link #DEFAULT_RANK} directions.
     *
     * @param gaussian the Gaussian of the (standardised) complete series, D = C·d coordinates
     * @param basis B, D×ℓ, finite; copied
     */
    public static SubsetConditioner of(SeriesGaussian gaussian, DMatrixRMaj basis) {
        return of(gaussian, basis, DEFAULT_RANK);
    }

    /**
     * The conditioner for a complete-series Gaussian in either form and an LDG basis, its factor W reduced to its
     * {@code maxRank} largest directions when its rank is higher ({@link ProbabilisticPca}); otherwise exact.
     *
     * @param maxRank q ≥ 1
     * @throws IllegalArgumentException when the basis does not have D rows or maxRank &lt; 1
     */
    public static SubsetConditioner of(SeriesGaussian gaussian, DMatrixRMaj basis, int maxRank) {
        Objects.requireNonNull(gaussian, "gaussian");
        ConditionalModel.checkBasis(basis, gaussian.length());
        if (maxRank < 1) {
            throw new IllegalArgumentException("the rank of the any-order factor must be ≥ 1, got " + maxRank);
        }
        int d = gaussian.length();
        double[] mean;
        double a;
        double[] w;
        int r;
        if (gaussian instanceof LowRankGaussian low) {
            DMatrixRMaj u = low.factor();
            mean = low.mean();
            a = low.identityScale();
            w = u.data;
            r = u.numCols;
        } else {
            JointGaussian dense = (JointGaussian) gaussian;
            w = dense.unitLower().data;
            double[] diag = dense.innovationVariances();
            for (int t = 0; t < d; t++) {
                double root = Math.sqrt(diag[t]);
                for (int s = t; s < d; s++) {
                    w[s * d + t] *= root;
                }
            }
            mean = dense.mean();
            a = 0.0;
            r = d;
        }
        if (r > maxRank && maxRank < d) {
            ProbabilisticPca.Reduced reduced = ProbabilisticPca.reduce(w, d, r, a, maxRank);
            return new SubsetConditioner(mean, reduced.noise(), reduced.factor(), reduced.rank(), basis);
        }
        return new SubsetConditioner(mean, a, w, r, basis);
    }

    /** The isotropic part a (σ² after a reduction) of the covariance conditioned on. */
    public double noise() {
        return noise;
    }

    /**
     * The covariance conditioned on, a·I + W Wᵀ, as a new D×D matrix (O(D²r): for tests and reports on short
     * series).
     */
    public DMatrixRMaj covariance() {
        return LowRankGaussian.scaledIdentityPlusGram(noise, factor, length, rank);
    }

    /** Coordinates D = C·d. */
    public int length() {
        return length;
    }

    /** Reduced dimension ℓ. */
    public int reducedDimension() {
        return reduced;
    }

    /** Rank r of the factor W. */
    public int rank() {
        return rank;
    }

    /** A state with nothing observed. */
    public SubsetState newState() {
        SubsetState s = new SubsetState(length, rank, reduced);
        reset(s);
        return s;
    }

    /** Back to nothing observed; allocation-free. */
    public void reset(SubsetState s) {
        s.requireShape(length, rank, reduced);
        Arrays.fill(s.latentMean, 0.0);
        Arrays.fill(s.latentCov, 0.0);
        for (int i = 0; i < rank; i++) {
            s.latentCov[i * rank + i] = 1.0;
        }
        System.arraycopy(initialG, 0, s.gain, 0, initialG.length);
        System.arraycopy(initialMean, 0, s.mean, 0, reduced);
        System.arraycopy(initialCov, 0, s.cov, 0, initialCov.length);
        s.observed.clear();
        s.count = 0;
        s.conditioned = 0;
        s.deferred = 0;
        s.logLikelihood = 0.0;
        s.firstInnovation = 0.0;
        s.lastIndex = -1;
        if (s.prefix != null) {
            s.prefix.reset();
            s.onPrefix = true;
        }
    }

    /**
     * Records the next coordinate of a time-major prefix without conditioning the factor form on it, O(1): for a
     * state whose {@linkplain SubsetState#onPrefix() values so far are a deferred prefix}, whose caller decides on
     * the attached prefix state instead. The moments here are conditioned on the recorded values by the next {@link
     * #observe}.
     *
     * @throws IllegalStateException when the state is not on its prefix
     * @throws IllegalArgumentException when index is not the next coordinate of the prefix, or x is not finite
     */
    public void defer(SubsetState s, int index, double x) {
        if (!s.onPrefix) {
            throw new IllegalStateException("the state's values are no longer a time-major prefix");
        }
        if (index != s.count) {
            throw new IllegalArgumentException(
                    "coordinate " + index + " does not continue the time-major prefix of " + s.count + " values");
        }
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("value of coordinate " + index + " is " + x);
        }
        s.prefixValues[index] = x;
        s.deferred++;
        s.observed.set(index);
        s.lastIndex = index;
        s.count++;
    }

    /**
     * Conditions on coordinate {@code index} = x (a standardised value; in the time-major layout index = t·C + c).
     * Allocation-free.
     *
     * @throws IllegalArgumentException when the index is outside 0..D−1, already observed, or x is not finite
     */
    public void observe(SubsetState s, int index, double x) {
        if (index < 0 || index >= length) {
            throw new IllegalArgumentException("coordinate " + index + " is outside 0.." + (length - 1));
        }
        if (s.observed.get(index)) {
            throw new IllegalArgumentException("coordinate " + index + " was already observed");
        }
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("value of coordinate " + index + " is " + x);
        }
        s.onPrefix = false;
        for (int j = s.conditioned; j < s.deferred; j++) {
            update(s, j, s.prefixValues[j]);
        }
        update(s, index, x);
        s.observed.set(index);
        s.lastIndex = index;
        s.count++;
    }

    /** One innovation of the factor form (the class comment's steps); allocation-free. */
    private void update(SubsetState s, int index, double x) {
        int r = rank;
        int l = reduced;
        int wRow = index * r;
        int bRow = index * l;
        double[] p = s.scratchLatent;
        double[] q = s.scratchFeature;
        double[] cov = s.latentCov;
        double s2 = noise;
        double predicted = mean[index];
        // P and R_y are kept in their lower triangles only (symmetric by construction, half the downdate work):
        // p = P w_j as the lower triangle's rows, then its strict upper part (row k, column i < k) as axpys.
        for (int i = 0; i < r; i++) {
            double acc = 0;
            int row = i * r;
            for (int k = 0; k <= i; k++) {
                acc += cov[row + k] * factor[wRow + k];
            }
            p[i] = acc;
        }
        for (int k = 1; k < r; k++) {
            double wk = factor[wRow + k];
            int row = k * r;
            for (int i = 0; i < k; i++) {
                p[i] += cov[row + i] * wk;
            }
        }
        for (int i = 0; i < r; i++) {
            s2 += factor[wRow + i] * p[i];
            predicted += factor[wRow + i] * s.latentMean[i];
        }
        double e = x - predicted;
        double[] g = s.gain;
        for (int k = 0; k < l; k++) {
            double acc = noise * basis[bRow + k];
            int row = k * r;
            for (int i = 0; i < r; i++) {
                acc += g[row + i] * p[i];
            }
            q[k] = acc;
        }
        double inv = 1.0 / s2;
        double step = e * inv;
        for (int i = 0; i < r; i++) {
            s.latentMean[i] += p[i] * step;
            double pi = p[i] * inv;
            int row = i * r;
            for (int k = 0; k <= i; k++) {
                cov[row + k] -= pi * p[k];
            }
        }
        for (int k = 0; k < l; k++) {
            s.mean[k] += q[k] * step;
            double qk = q[k] * inv;
            int row = k * l;
            for (int m = 0; m <= k; m++) {
                s.cov[row + m] -= qk * q[m];
            }
            double b = basis[bRow + k];
            int gRow = k * r;
            for (int i = 0; i < r; i++) {
                g[gRow + i] -= b * factor[wRow + i];
            }
        }
        s.logLikelihood += -0.5 * Math.log(2.0 * Math.PI * s2) - 0.5 * e * step;
        if (s.conditioned == 0) {
            s.firstInnovation = e;
        }
        s.conditioned++;
    }

    /** m_y = E[Y | observed] into {@code out} (length ℓ). */
    public void conditionalMean(SubsetState s, double[] out) {
        requireConditioned(s);
        ConditionalModel.checkLength(out, reduced, "mean output");
        System.arraycopy(s.mean, 0, out, 0, reduced);
    }

    /** R_y = Cov(Y | observed) into {@code out} (ℓ×ℓ). */
    public void conditionalCovariance(SubsetState s, DMatrixRMaj out) {
        requireConditioned(s);
        ConditionalModel.checkSquare(out, reduced);
        int l = reduced;
        for (int k = 0; k < l; k++) {
            for (int m = 0; m <= k; m++) {
                double v = s.cov[k * l + m];
                out.data[k * l + m] = v;
                out.data[m * l + k] = v;
            }
        }
    }

    /**
     * R_y = Cov(Y | observed) into {@code out} in the {@link SymmetricPacked} layout (its lower triangle by rows, the
     * same values {@link #conditionalCovariance(SubsetState, DMatrixRMaj)} gives).
     *
     * @param out at least ℓ(ℓ + 1)/2 values, overwritten from offset 0
     */
    public void conditionalCovariance(SubsetState s, double[] out) {
        requireConditioned(s);
        int l = reduced;
        if (out.length < SymmetricPacked.size(l)) {
            throw new IllegalArgumentException("packed covariance output has " + out.length + " values but ℓ = " + l
                    + " needs " + SymmetricPacked.size(l));
        }
        for (int k = 0, at = 0; k < l; at += ++k) {
            System.arraycopy(s.cov, k * l, out, at, k + 1);
        }
    }

    /** The diagonal of R_y, Var(Y_k | observed), into {@code out} (length ℓ). */
    public void conditionalVariances(SubsetState s, double[] out) {
        requireConditioned(s);
        ConditionalModel.checkLength(out, reduced, "variance output");
        for (int k = 0; k < reduced; k++) {
            out[k] = s.cov[k * reduced + k];
        }
    }

    private static void requireConditioned(SubsetState s) {
        if (s.conditioned != s.count) {
            throw new IllegalStateException("the state's " + s.count + " values are a deferred time-major prefix; its "
                    + "moments are the prefix state's until a value out of that order arrives");
        }
    }
}
