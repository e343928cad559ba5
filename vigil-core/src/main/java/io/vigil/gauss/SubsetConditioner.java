package io.vigil.gauss;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The conditional moments of the LDG features Y = BᵀX of a complete series given <em>any</em> observed subset of
 * its coordinates, one value at a time in arrival order (thesis §5.4, eq. 5.19 on the observed index set O; docs/method.md
 *  §7): any channel, any time, any order, with values that never come simply never observed. Immutable and
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
 * starting from f̂ = 0, P = I, G = BᵀW, m_y = Bᵀx̄ and R_y = BᵀΣB. These are the Gram–Schmidt steps of docs/method.md §7
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
 *
 * <p><b>Per-class mixture.</b> The {@code gmm} estimator's complete-series model is a mixture Σ_g w_g N(x̄_g, Σ_g)
 * (thesis eq. 5.20). Given the observed set O it is again a mixture, of the components conditioned on O with weights
 * p(g | x_O) ∝ w_g N(x_O; x̄_{g,O}, Σ_{g,OO}) (Appendix C). {@link #mixture} conditions one factor form per class on
 * every value, exactly as above, each accumulating its own log-likelihood log N(x_O; ·) from its innovations; the
 * posterior is a log-sum-exp over them and the moments are m = Σ_g p_g m_g and R = Σ_g p_g (R_g + (m_g − m)(m_g −
 * m)ᵀ), the form {@link GaussianMixtureEstimator} uses on prefixes. Work and state are G times the single
 * Gaussian's, plus O(Gℓ²) for the moments when the rule asks for them. Each class's factor is reduced to its own
 * q ≤ {@link #DEFAULT_RANK} directions.
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
    private final int reduced;
    private final double[] basis; // B, D×ℓ row-major
    private final FactorComponent[] components;
    private final double[] logWeights; // log w_g
    private final int largestRank;

    private SubsetConditioner(FactorComponent[] components, double[] weights, double[] basis, int length, int reduced) {
        this.length = length;
        this.reduced = reduced;
        this.basis = basis;
        this.components = components;
        this.logWeights = new double[components.length];
        int largest = 0;
        for (int g = 0; g < components.length; g++) {
            logWeights[g] = Math.log(weights[g]);
            largest = Math.max(largest, components[g].rank);
        }
        this.largestRank = largest;
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
        return mixture(new double[] {1.0}, List.of(gaussian), basis, maxRank);
    }

    /**
     * The conditioner for the per-class mixture Σ_g w_g N(x̄_g, Σ_g) of the {@code gmm} estimator (thesis eq. 5.20;
     * the class comment's "Per-class mixture"), each component's factor reduced to at most {@code maxRank}
     * directions.
     *
     * @param weights w_g &gt; 0, summing to 1 within {@link GaussianMixtureEstimator#WEIGHT_SUM_TOLERANCE}; copied
     * @param gaussians one per class, all with D coordinates, either form
     * @param basis B, D×ℓ, finite; copied
     * @param maxRank q ≥ 1
     * @throws IllegalArgumentException on an empty mixture, mismatched counts or lengths, bad weights, a basis without
     *     D rows or maxRank &lt; 1
     */
    public static SubsetConditioner mixture(
            double[] weights, List<? extends SeriesGaussian> gaussians, DMatrixRMaj basis, int maxRank) {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(gaussians, "gaussians");
        int classes = gaussians.size();
        if (classes < 1) {
            throw new IllegalArgumentException("a mixture needs at least one component");
        }
        if (weights.length != classes) {
            throw new IllegalArgumentException(weights.length + " weights but " + classes + " components");
        }
        if (maxRank < 1) {
            throw new IllegalArgumentException("the rank of the any-order factor must be ≥ 1, got " + maxRank);
        }
        GaussianMixtureEstimator.checkWeights(weights);
        int d = Objects.requireNonNull(gaussians.get(0), "component 0").length();
        ConditionalModel.checkBasis(basis, d);
        double[] b = basis.data.clone();
        FactorComponent[] components = new FactorComponent[classes];
        for (int g = 0; g < classes; g++) {
            SeriesGaussian gaussian = Objects.requireNonNull(gaussians.get(g), "component " + g);
            if (gaussian.length() != d) {
                throw new IllegalArgumentException(
                        "component " + g + " has length " + gaussian.length() + " but component 0 has length " + d);
            }
            components[g] = FactorComponent.of(gaussian, b, basis.numCols, maxRank);
        }
        return new SubsetConditioner(components, weights, b, d, basis.numCols);
    }

    /** Number of Gaussian components G (1 for the joint Gaussian, the class count for the mixture). */
    public int components() {
        return components.length;
    }

    /** The isotropic part a (σ² after a reduction) of the covariance conditioned on, of component 0. */
    public double noise() {
        return noise(0);
    }

    /** The isotropic part a (σ² after a reduction) of component g's covariance. */
    public double noise(int g) {
        return component(g).noise;
    }

    /**
     * The covariance conditioned on, a·I + W Wᵀ, of component 0 (the joint Gaussian's), as a new D×D matrix (O(D²r):
     * for tests and reports on short series).
     */
    public DMatrixRMaj covariance() {
        return covariance(0);
    }

    /** Component g's covariance a·I + W Wᵀ as a new D×D matrix (as {@link #covariance()}). */
    public DMatrixRMaj covariance(int g) {
        FactorComponent c = component(g);
        return LowRankGaussian.scaledIdentityPlusGram(c.noise, c.factor, length, c.rank);
    }

    /** Component g's mean x̄_g (copy). */
    public double[] mean(int g) {
        return component(g).mean.clone();
    }

    private FactorComponent component(int g) {
        if (g < 0 || g >= components.length) {
            throw new IllegalArgumentException("component " + g + " is outside 0.." + (components.length - 1));
        }
        return components[g];
    }

    /** Coordinates D = C·d. */
    public int length() {
        return length;
    }

    /** Reduced dimension ℓ. */
    public int reducedDimension() {
        return reduced;
    }

    /** Rank r of the factor W (the largest over the components of a mixture). */
    public int rank() {
        return largestRank;
    }

    /**
     * Doubles a state holds for the conditioned moments (not counting the observed set or an attached prefix state):
     * per component r² + ℓr + ℓ² + r + ℓ, plus the shared scratch and, for a mixture, its moments and posterior.
     */
    public long stateDoubles() {
        long l = reduced;
        long total = largestRank + l;
        for (FactorComponent c : components) {
            long r = c.rank;
            total += r * r + l * r + l * l + r + l;
        }
        if (components.length > 1) {
            total += l * l + l + components.length;
        }
        return total;
    }

    /** A state with nothing observed. */
    public SubsetState newState() {
        int[] ranks = new int[components.length];
        for (int g = 0; g < ranks.length; g++) {
            ranks[g] = components[g].rank;
        }
        SubsetState s = new SubsetState(length, ranks, reduced);
        reset(s);
        return s;
    }

    /** Back to nothing observed; allocation-free. */
    public void reset(SubsetState s) {
        requireShape(s);
        for (int g = 0; g < components.length; g++) {
            FactorComponent c = components[g];
            SubsetState.Block b = s.blocks[g];
            int r = c.rank;
            Arrays.fill(b.latentMean, 0.0);
            Arrays.fill(b.latentCov, 0.0);
            for (int i = 0; i < r; i++) {
                b.latentCov[i * r + i] = 1.0;
            }
            System.arraycopy(c.initialG, 0, b.gain, 0, c.initialG.length);
            System.arraycopy(c.initialMean, 0, b.mean, 0, reduced);
            System.arraycopy(c.initialCov, 0, b.cov, 0, c.initialCov.length);
            b.logLikelihood = 0.0;
        }
        s.observed.clear();
        s.count = 0;
        s.conditioned = 0;
        s.deferred = 0;
        s.logLikelihood = 0.0;
        s.firstInnovation = 0.0;
        s.lastIndex = -1;
        s.mixtureReady = false;
        if (s.prefix != null) {
            s.prefix.reset();
            s.onPrefix = true;
        }
    }

    private void requireShape(SubsetState s) {
        Objects.requireNonNull(s, "state");
        boolean same = s.length() == length && s.blocks.length == components.length && s.reduced() == reduced;
        for (int g = 0; same && g < components.length; g++) {
            same = s.blocks[g].rank == components[g].rank;
        }
        if (!same) {
            throw new IllegalArgumentException("subset state has another shape than the conditioner (D = " + length
                    + ", G = " + components.length + ", largest r = " + largestRank + ", ℓ = " + reduced + ")");
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
        requireShape(s);
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
        requireShape(s);
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

    /** One innovation of every component's factor form; allocation-free. */
    private void update(SubsetState s, int index, double x) {
        for (int g = 0; g < components.length; g++) {
            double e = components[g].update(s.blocks[g], s.scratchLatent, s.scratchFeature, index, x);
            if (s.conditioned == 0 && g == 0) {
                s.firstInnovation = e;
            }
        }
        if (components.length == 1) {
            s.logLikelihood = s.blocks[0].logLikelihood;
        } else {
            s.logLikelihood = posterior(s);
            s.mixtureReady = false;
        }
        s.conditioned++;
    }

    /**
     * p(g | x_O) ∝ w_g N(x_O; ·) into the state's posterior by log-sum-exp with the maximum subtracted; returns
     * log p(x_O) under the mixture.
     */
    private double posterior(SubsetState s) {
        double[] post = s.posterior;
        double max = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < components.length; g++) {
            post[g] = logWeights[g] + s.blocks[g].logLikelihood;
            max = Math.max(max, post[g]);
        }
        double sum = 0.0;
        for (int g = 0; g < components.length; g++) {
            post[g] = Math.exp(post[g] - max);
            sum += post[g];
        }
        double inv = 1.0 / sum;
        for (int g = 0; g < components.length; g++) {
            post[g] *= inv;
        }
        return max + Math.log(sum);
    }

    /**
     * The mixture's m = Σ p_g m_g and the lower triangle of R = Σ p_g (R_g + (m_g − m)(m_g − m)ᵀ) into the state,
     * once per conditioned value (Appendix C, in the cancellation-free form {@link GaussianMixtureEstimator} uses).
     */
    private void mixtureMoments(SubsetState s) {
        if (s.mixtureReady) {
            return;
        }
        if (s.conditioned == 0) {
            posterior(s); // nothing observed: the weights
        }
        int l = reduced;
        double[] m = s.mixtureMean;
        double[] r = s.mixtureCov;
        double[] diff = s.scratchFeature;
        Arrays.fill(m, 0.0);
        Arrays.fill(r, 0.0);
        for (int g = 0; g < components.length; g++) {
            double p = s.posterior[g];
            double[] mg = s.blocks[g].mean;
            for (int k = 0; k < l; k++) {
                m[k] += p * mg[k];
            }
        }
        for (int g = 0; g < components.length; g++) {
            double p = s.posterior[g];
            SubsetState.Block b = s.blocks[g];
            for (int k = 0; k < l; k++) {
                diff[k] = b.mean[k] - m[k];
            }
            for (int k = 0; k < l; k++) {
                int row = k * l;
                double dk = diff[k];
                for (int j = 0; j <= k; j++) {
                    r[row + j] += p * (b.cov[row + j] + dk * diff[j]);
                }
            }
        }
        s.mixtureReady = true;
    }

    /** m_y of the state: the single Gaussian's, or the mixture's. */
    private double[] meanOf(SubsetState s) {
        if (components.length == 1) {
            return s.blocks[0].mean;
        }
        mixtureMoments(s);
        return s.mixtureMean;
    }

    /** R_y of the state, lower triangle of an ℓ×ℓ row-major array: the single Gaussian's, or the mixture's. */
    private double[] covOf(SubsetState s) {
        if (components.length == 1) {
            return s.blocks[0].cov;
        }
        mixtureMoments(s);
        return s.mixtureCov;
    }

    /**
     * p(g | observed) of each component into {@code out} (length G; the weights before any value; 1 for the joint
     * Gaussian).
     */
    public void posterior(SubsetState s, double[] out) {
        requireShape(s);
        requireConditioned(s);
        ConditionalModel.checkLength(out, components.length, "posterior output");
        if (components.length == 1) {
            out[0] = 1.0;
            return;
        }
        mixtureMoments(s);
        System.arraycopy(s.posterior, 0, out, 0, components.length);
    }

    /** m_y = E[Y | observed] into {@code out} (length ℓ). */
    public void conditionalMean(SubsetState s, double[] out) {
        requireShape(s);
        requireConditioned(s);
        ConditionalModel.checkLength(out, reduced, "mean output");
        System.arraycopy(meanOf(s), 0, out, 0, reduced);
    }

    /** R_y = Cov(Y | observed) into {@code out} (ℓ×ℓ). */
    public void conditionalCovariance(SubsetState s, DMatrixRMaj out) {
        requireShape(s);
        requireConditioned(s);
        ConditionalModel.checkSquare(out, reduced);
        double[] cov = covOf(s);
        int l = reduced;
        for (int k = 0; k < l; k++) {
            for (int m = 0; m <= k; m++) {
                double v = cov[k * l + m];
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
        requireShape(s);
        requireConditioned(s);
        int l = reduced;
        if (out.length < SymmetricPacked.size(l)) {
            throw new IllegalArgumentException("packed covariance output has " + out.length + " values but ℓ = " + l
                    + " needs " + SymmetricPacked.size(l));
        }
        double[] cov = covOf(s);
        for (int k = 0, at = 0; k < l; at += ++k) {
            System.arraycopy(cov, k * l, out, at, k + 1);
        }
    }

    /** The diagonal of R_y, Var(Y_k | observed), into {@code out} (length ℓ). */
    public void conditionalVariances(SubsetState s, double[] out) {
        requireShape(s);
        requireConditioned(s);
        ConditionalModel.checkLength(out, reduced, "variance output");
        double[] cov = covOf(s);
        for (int k = 0; k < reduced; k++) {
            out[k] = cov[k * reduced + k];
        }
    }

    private static void requireConditioned(SubsetState s) {
        if (s.conditioned != s.count) {
            throw new IllegalStateException("the state's " + s.count + " values are a deferred time-major prefix; its "
                    + "moments are the prefix state's until a value out of that order arrives");
        }
    }
}
