package io.vigil.gauss;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The {@code gmm} complete-series estimator: one Gaussian per class with weights w_g = class priors
 * (thesis §5.4.2, eq. 5.20), each with its own shrinkage covariance.
 *
 * <p>Per sample and class the innovations of that class's {@link ConditionalModel} update the class
 * conditional mean m_g and the log-likelihood log p(z | g) = Σ_s log N(e^g_s; 0, D^g_s), so the posterior
 * p(g | z) ∝ w_g p(z | g) costs O(1) per class per sample on top of the O(t + ℓ) innovation (evaluated
 * by log-sum-exp with the maximum subtracted). The mixture moments follow Appendix C:
 * m = Σ_g p(g|z) m_g and R = Σ_g p(g|z)(R_g + m_g m_gᵀ) − m mᵀ, evaluated in the algebraically equal form
 * R = Σ_g p(g|z)(R_g + (m_g − m)(m_g − m)ᵀ), a sum of positive semidefinite terms with no cancellation.
 * Mean O(Gℓ), covariance O(Gℓ²), no allocation (scratch lives in the {@link SeriesState}).
 *
 * <p>A class with a single training series (UCR DiatomSizeReduction has one), or whose series are all
 * identical, has no scatter of its own: its Gaussian takes the class mean and the pooled within-class
 * shrinkage covariance of the classes with ≥ 2 series, and {@link FitInfo#note()} says so. Each class's
 * Gaussian may be dense or low-rank ({@link CovarianceForm}); the per-class formulas are the same.
 * Immutable, thread-safe.
 */
public final class GaussianMixtureEstimator implements CompleteSeriesEstimator {
    /**
     * Stored weights must sum to 1 within this: they are n_g/n computed in double precision (error
     * ≤ G·ε) or read back from a model file with 17 significant digits; 1e-9 is far above either and far
     * below any real mistake.
     */
    static final double WEIGHT_SUM_TOLERANCE = 1e-9;

    private final ConditionalModel[] models;
    private final double[] weights;
    private final double[] logWeights;
    private final int length;
    private final int reduced;
    private final int[] workOffsets;
    private final int workSize;
    /** Identifies this estimator's working vectors in a {@link SeriesState} without keeping the estimator alive. */
    private final Object workToken = new Object();

    private GaussianMixtureEstimator(ConditionalModel[] models, double[] weights) {
        this.models = models;
        this.weights = weights;
        this.logWeights = new double[weights.length];
        for (int g = 0; g < weights.length; g++) {
            logWeights[g] = Math.log(weights[g]);
        }
        this.length = models[0].length();
        this.reduced = models[0].reducedDimension();
        this.workOffsets = new int[models.length];
        int w = 0;
        for (int g = 0; g < models.length; g++) {
            workOffsets[g] = w;
            w += models[g].workSize();
        }
        this.workSize = w;
    }

    /**
     * Fits one shrinkage Gaussian per class in the dense form and uses the class frequencies as weights (eq. 5.20).
     *
     * @param rows n×d training series; not modified
     * @param classOf class index of each row, 0..classCount−1; every class must occur
     * @param classCount G ≥ 1
     * @param basis B, d×ℓ; copied
     * @param shrinkage covariance shrinkage for every class (and for the pooled fallback)
     * @throws IllegalArgumentException on bad shapes, a class with no series, or no class with ≥ 2
     *     series when one is needed for the pooled fallback
     */
    public static GaussianMixtureEstimator fit(
            double[][] rows, int[] classOf, int classCount, DMatrixRMaj basis, ShrinkageParams shrinkage) {
        return fit(rows, classOf, classCount, basis, shrinkage, CovarianceForm.DENSE);
    }

    /**
     * As {@link #fit(double[][], int[], int, DMatrixRMaj, ShrinkageParams)} with each class's Gaussian in the given
     * covariance form ({@link CovarianceForm#AUTO} resolves per class with its n_g and d).
     */
    public static GaussianMixtureEstimator fit(
            double[][] rows,
            int[] classOf,
            int classCount,
            DMatrixRMaj basis,
            ShrinkageParams shrinkage,
            CovarianceForm form) {
        if (rows.length > 0) {
            ConditionalModel.checkBasis(basis, rows[0].length);
        }
        Components c = fitComponents(rows, classOf, classCount, shrinkage, form);
        return of(c.weights(), c.gaussians(), basis);
    }

    /**
     * The class weights and Gaussians of the mixture, without building the conditional models (what a model
     * file stores).
     *
     * @param weights w_g = n_g/n
     * @param gaussians one per class, in class order
     */
    public record Components(double[] weights, List<SeriesGaussian> gaussians) {
        /** Copies. */
        public Components {
            weights = weights.clone();
            gaussians = List.copyOf(gaussians);
        }

        @Override
        public double[] weights() {
            return weights.clone();
        }
    }

    /**
     * Fits the per-class Gaussians and weights of {@link #fit(double[][], int[], int, DMatrixRMaj, ShrinkageParams,
     * CovarianceForm)}.
     *
     * @throws IllegalArgumentException on bad shapes, a class with no series, or no class with ≥ 2 series when one
     *     is needed for the pooled fallback
     */
    public static Components fitComponents(
            double[][] rows, int[] classOf, int classCount, ShrinkageParams shrinkage, CovarianceForm form) {
        Objects.requireNonNull(classOf, "classOf");
        Objects.requireNonNull(shrinkage, "shrinkage");
        Objects.requireNonNull(form, "form");
        int n = rows.length;
        if (n == 0) {
            throw new IllegalArgumentException("no training series");
        }
        if (classOf.length != n) {
            throw new IllegalArgumentException(n + " series but " + classOf.length + " class indices");
        }
        if (classCount < 1) {
            throw new IllegalArgumentException("class count must be ≥ 1, got " + classCount);
        }
        int d = rows[0].length;
        int[] counts = new int[classCount];
        for (int i = 0; i < n; i++) {
            int g = classOf[i];
            if (g < 0 || g >= classCount) {
                throw new IllegalArgumentException(
                        "series " + i + " has class index " + g + " outside 0.." + (classCount - 1));
            }
            if (rows[i].length != d) {
                throw new IllegalArgumentException(
                        "series " + i + " has length " + rows[i].length + " but series 0 has length " + d);
            }
            counts[g]++;
        }
        for (int g = 0; g < classCount; g++) {
            if (counts[g] == 0) {
                throw new IllegalArgumentException("class " + g + " has no training series");
            }
        }
        double[][][] byClass = new double[classCount][][];
        for (int g = 0; g < classCount; g++) {
            byClass[g] = new double[counts[g]][];
        }
        int[] fill = new int[classCount];
        for (int i = 0; i < n; i++) {
            byClass[classOf[i]][fill[classOf[i]]++] = rows[i];
        }
        List<SeriesGaussian> gaussians = new ArrayList<>(classCount);
        SeriesGaussian pooled = null;
        for (int g = 0; g < classCount; g++) {
            String reason = null;
            SeriesGaussian fitted = null;
            if (counts[g] < 2) {
                reason = "class " + g + " has 1 training series";
            } else {
                try {
                    fitted = SeriesGaussian.fit(byClass[g], shrinkage, form);
                } catch (CovarianceFitException e) {
                    reason = "class " + g + ": " + e.getMessage();
                }
            }
            if (fitted == null) {
                if (pooled == null) {
                    pooled = pooledWithinClass(byClass, counts, d, shrinkage, form);
                }
                double[] classMean = new double[d];
                for (double[] x : byClass[g]) {
                    for (int t = 0; t < d; t++) {
                        classMean[t] += x[t];
                    }
                }
                for (int t = 0; t < d; t++) {
                    classMean[t] /= counts[g];
                }
                FitInfo info = pooled.fitInfo()
                        .withNote(reason + "; covariance = pooled within-class estimate from "
                                + pooled.fitInfo().shrinkage().sampleCount() + " residuals");
                fitted = pooled instanceof JointGaussian dense
                        ? dense.withMean(classMean, info)
                        : ((LowRankGaussian) pooled).withMean(classMean, info);
            }
            gaussians.add(fitted);
        }
        double[] w = new double[classCount];
        for (int g = 0; g < classCount; g++) {
            w[g] = (double) counts[g] / n;
        }
        return new Components(w, gaussians);
    }

    private static SeriesGaussian pooledWithinClass(
            double[][][] byClass, int[] counts, int d, ShrinkageParams shrinkage, CovarianceForm form) {
        int total = 0;
        for (int c : counts) {
            if (c >= 2) {
                total += c;
            }
        }
        if (total < 2) {
            throw new IllegalArgumentException(
                    "the gmm estimator needs at least one class with 2 or more training series");
        }
        double[][] residuals = new double[total][];
        int r = 0;
        for (int g = 0; g < byClass.length; g++) {
            if (counts[g] < 2) {
                continue;
            }
            double[] m = new double[d];
            for (double[] x : byClass[g]) {
                for (int t = 0; t < d; t++) {
                    m[t] += x[t];
                }
            }
            for (int t = 0; t < d; t++) {
                m[t] /= counts[g];
            }
            for (double[] x : byClass[g]) {
                double[] res = new double[d];
                for (int t = 0; t < d; t++) {
                    res[t] = x[t] - m[t];
                }
                residuals[r++] = res;
            }
        }
        return SeriesGaussian.fit(residuals, shrinkage, form);
    }

    /**
     * From fitted or restored class Gaussians (either form, mixed freely); rebuilds every R_y table
     * deterministically from the stored factors and B.
     *
     * @param weights w_g &gt; 0, summing to 1 within {@link #WEIGHT_SUM_TOLERANCE}; copied
     * @param gaussians one per class, all of the same length d
     * @param basis B, d×ℓ; copied
     */
    public static GaussianMixtureEstimator of(
            double[] weights, List<? extends SeriesGaussian> gaussians, DMatrixRMaj basis) {
        int classCount = gaussians.size();
        if (classCount < 1) {
            throw new IllegalArgumentException("a mixture needs at least one component");
        }
        if (weights.length != classCount) {
            throw new IllegalArgumentException(weights.length + " weights but " + classCount + " components");
        }
        checkWeights(weights);
        int d = gaussians.get(0).length();
        ConditionalModel.checkBasis(basis, d);
        DMatrixRMaj b = basis.copy();
        ConditionalModel[] models = new ConditionalModel[classCount];
        for (int g = 0; g < classCount; g++) {
            SeriesGaussian jg = Objects.requireNonNull(gaussians.get(g), "component " + g);
            if (jg.length() != d) {
                throw new IllegalArgumentException(
                        "component " + g + " has length " + jg.length() + " but component 0 has length " + d);
            }
            models[g] = ConditionalModel.build(jg, b);
        }
        return new GaussianMixtureEstimator(models, weights.clone());
    }

    /**
     * Checks mixture weights: each finite and &gt; 0, summing to 1 within {@link #WEIGHT_SUM_TOLERANCE}.
     *
     * @throws IllegalArgumentException naming the first bad weight or the sum
     */
    static void checkWeights(double[] weights) {
        double sum = 0.0;
        for (int g = 0; g < weights.length; g++) {
            if (!(weights[g] > 0.0) || Double.isInfinite(weights[g])) {
                throw new IllegalArgumentException("weight " + g + " must be finite and > 0, got " + weights[g]);
            }
            sum += weights[g];
        }
        if (Math.abs(sum - 1.0) > WEIGHT_SUM_TOLERANCE) {
            throw new IllegalArgumentException("weights sum to " + sum + ", not 1");
        }
    }

    /** The class weights w_g (copy). */
    public double[] weights() {
        return weights.clone();
    }

    /** The Gaussian of class g (for persistence). */
    public SeriesGaussian component(int g) {
        return componentModel(g).gaussian();
    }

    /** The conditional model of class g. */
    ConditionalModel componentModel(int g) {
        if (g < 0 || g >= models.length) {
            throw new IllegalArgumentException("component " + g + " is outside 0.." + (models.length - 1));
        }
        return models[g];
    }

    @Override
    public EstimatorType type() {
        return EstimatorType.GMM;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public int reducedDimension() {
        return reduced;
    }

    @Override
    public int components() {
        return models.length;
    }

    @Override
    public DMatrixRMaj basis() {
        return models[0].basis();
    }

    @Override
    public SeriesState newState() {
        SeriesState s = new SeriesState(length, reduced, models.length);
        if (workSize > 0) {
            Arrays.fill(s.claimWork(workToken, workSize), 0.0);
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
        if (t == length) {
            throw new IllegalStateException("series already complete: all d = " + t + " samples observed");
        }
        double[] work = null;
        if (workSize > 0) {
            work = state.work;
            if (!state.workValid(workToken, workSize)) {
                work = state.claimWork(workToken, workSize);
                for (int g = 0; g < models.length; g++) {
                    models[g].restoreWork(t, state.innovations, g * length, work, workOffsets[g]);
                }
            }
        }
        for (int g = 0; g < models.length; g++) {
            ConditionalModel m = models[g];
            int off = g * length;
            double e = m.innovation(t, x, state.innovations, off, work, workOffsets[g]);
            state.innovations[off + t] = e;
            m.accumulateMean(t, e, state.meanShift, g * reduced);
            state.logLikelihood[g] += m.logDensity(t, e);
        }
        state.workTime = t + 1;
        state.time = t + 1;
    }

    /**
     * The class posterior p(g | x_1..x_t) ∝ w_g p(x_1..x_t | g) (§5.4.2), by log-sum-exp.
     *
     * @param out length G, overwritten
     */
    public void posterior(SeriesState state, double[] out) {
        check(state);
        if (out.length != models.length) {
            throw new IllegalArgumentException(
                    "posterior output has length " + out.length + " but G = " + models.length);
        }
        computePosterior(state, out);
    }

    /** Fills {@code out} with the posterior; returns log Σ_g w_g p(z|g). */
    private double computePosterior(SeriesState state, double[] out) {
        int classCount = models.length;
        double max = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < classCount; g++) {
            double a = logWeights[g] + state.logLikelihood[g];
            out[g] = a;
            max = Math.max(max, a);
        }
        double sum = 0.0;
        for (int g = 0; g < classCount; g++) {
            double p = Math.exp(out[g] - max);
            out[g] = p;
            sum += p;
        }
        double inv = 1.0 / sum;
        for (int g = 0; g < classCount; g++) {
            out[g] *= inv;
        }
        return max + Math.log(sum);
    }

    @Override
    public void conditionalMean(SeriesState state, double[] out) {
        check(state);
        ConditionalModel.checkLength(out, reduced, "mean output");
        mixtureMean(state, out);
    }

    private void mixtureMean(SeriesState state, double[] out) {
        double[] post = state.scratchPosterior;
        computePosterior(state, post);
        Arrays.fill(out, 0.0);
        for (int g = 0; g < models.length; g++) {
            double p = post[g];
            ConditionalModel m = models[g];
            int off = g * reduced;
            for (int k = 0; k < reduced; k++) {
                out[k] += p * (m.initialMean(k) + state.meanShift[off + k]);
            }
        }
    }

    @Override
    public void conditionalCovariance(SeriesState state, double[] packedOut) {
        check(state);
        int q = SymmetricPacked.size(reduced);
        if (packedOut.length < q) {
            throw new IllegalArgumentException(
                    "packed output has " + packedOut.length + " values but ℓ = " + reduced + " needs ℓ(ℓ+1)/2 = " + q);
        }
        double[] mean = state.scratchMean;
        mixtureMean(state, mean);
        double[] post = state.scratchPosterior;
        double[] diff = state.scratchDiff;
        Arrays.fill(packedOut, 0, q, 0.0);
        int t = state.time;
        for (int g = 0; g < models.length; g++) {
            double p = post[g];
            ConditionalModel m = models[g];
            int off = g * reduced;
            for (int k = 0; k < reduced; k++) {
                diff[k] = m.initialMean(k) + state.meanShift[off + k] - mean[k];
            }
            double[] table = m.tableRef();
            int base = t * q;
            int idx = 0;
            for (int i = 0; i < reduced; i++) {
                double di = diff[i];
                for (int j = 0; j <= i; j++) {
                    packedOut[idx] += p * (table[base + idx] + di * diff[j]);
                    idx++;
                }
            }
        }
    }

    @Override
    public void conditionalCovariance(SeriesState state, DMatrixRMaj out) {
        check(state);
        ConditionalModel.checkSquare(out, reduced);
        double[] mean = state.scratchMean;
        mixtureMean(state, mean);
        double[] post = state.scratchPosterior;
        double[] diff = state.scratchDiff;
        double[] o = out.data;
        Arrays.fill(o, 0, reduced * reduced, 0.0);
        int t = state.time;
        for (int g = 0; g < models.length; g++) {
            double p = post[g];
            ConditionalModel m = models[g];
            int off = g * reduced;
            for (int k = 0; k < reduced; k++) {
                diff[k] = m.initialMean(k) + state.meanShift[off + k] - mean[k];
            }
            double[] table = m.tableRef();
            int idx = t * SymmetricPacked.size(reduced);
            for (int i = 0; i < reduced; i++) {
                double di = diff[i];
                int row = i * reduced;
                for (int j = 0; j <= i; j++) {
                    o[row + j] += p * (table[idx++] + di * diff[j]);
                }
            }
        }
        for (int i = 0; i < reduced; i++) {
            for (int j = 0; j < i; j++) {
                o[j * reduced + i] = o[i * reduced + j];
            }
        }
    }

    @Override
    public double logLikelihood(SeriesState state) {
        check(state);
        return computePosterior(state, state.scratchPosterior);
    }

    private void check(SeriesState state) {
        Objects.requireNonNull(state, "state");
        state.requireSameShape(length, reduced, models.length);
    }
}
