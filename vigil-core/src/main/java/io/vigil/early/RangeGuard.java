package io.vigil.early;

import io.vigil.gauss.SeriesGaussian;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import java.util.List;
import java.util.Objects;

/**
 * Tells whether a streamed sample lies outside the training range: beyond ±K standard deviations of the training
 * series at its t. A model never saw such values, so a decision they feed into (the rule itself is unchanged) is
 * flagged rather than trusted blindly: a single 1e308 can otherwise announce a class at t = 1 with reliability 0.99.
 *
 * <p>The per-t mean and standard deviation come from the model file: the standardisation's per-t training mean and
 * standard deviation when the model standardises (exactly the training statistics); otherwise the complete-series
 * Gaussian of thesis §5.4 — the joint Gaussian's mean and marginal variance Σ_tt, or, for a model with only the
 * per-class mixture, the pooled mixture moments m_t = Σ_g w_g μ_gt and v_t = Σ_g w_g (Σ_g,tt + μ_gt²) − m_t². So
 * every model file that can decide early, older ones included, has a guard; nothing new is stored.
 *
 * <p>The bounds are precomputed, so a sample costs two compares. Immutable and thread-safe.
 */
public final class RangeGuard {
    /** The default K of {@code --range-guard}. */
    public static final double DEFAULT_K = 8.0;

    private final double k;
    private final double[] low;
    private final double[] high;

    private RangeGuard(double k, double[] low, double[] high) {
        this.k = k;
        this.low = low;
        this.high = high;
    }

    /**
     * The guard at ±K standard deviations for a model.
     *
     * @param k positive and finite
     * @throws IllegalArgumentException when K is not positive and finite, or the model has neither a standardisation
     *     nor a complete-series section
     */
    public static RangeGuard of(VigilModel model, double k) {
        Objects.requireNonNull(model, "model");
        if (!(k > 0.0) || !Double.isFinite(k)) {
            throw new IllegalArgumentException("the range guard K must be positive and finite, got " + k);
        }
        double[][] moments = trainingMoments(model);
        int d = moments[0].length;
        double[] low = new double[d];
        double[] high = new double[d];
        for (int t = 0; t < d; t++) {
            double reach = k * moments[1][t];
            low[t] = moments[0][t] - reach;
            high[t] = moments[0][t] + reach;
        }
        return new RangeGuard(k, low, high);
    }

    /**
     * The per-t training mean and standard deviation of a model's series (see the class comment), raw units.
     *
     * @return {mean, standard deviation}, each of length d
     */
    public static double[][] trainingMoments(VigilModel model) {
        Standardizer std = model.standardizer().orElse(null);
        if (std != null) {
            return new double[][] {std.means(), std.scales()};
        }
        CompleteSeriesSection section = model.section(CompleteSeriesSection.class)
                .orElseThrow(() -> new IllegalArgumentException("the model has neither a standardisation nor a "
                        + "complete_series section: no per-t training mean and standard deviation for the range "
                        + "guard"));
        if (section.jointGaussian().isPresent()) {
            SeriesGaussian joint = section.jointGaussian().get();
            return new double[][] {joint.mean(), sqrt(joint.marginalVariances())};
        }
        return mixtureMoments(section.mixtureWeights(), section.mixture());
    }

    /** Mean and standard deviation per t of the mixture Σ_g w_g N(μ_g, Σ_g) (weights normalised to sum 1). */
    static double[][] mixtureMoments(double[] weights, List<SeriesGaussian> components) {
        double total = 0.0;
        for (double w : weights) {
            total += w;
        }
        int d = components.get(0).length();
        double[] mean = new double[d];
        double[] second = new double[d];
        for (int g = 0; g < components.size(); g++) {
            double w = weights[g] / total;
            double[] mu = components.get(g).mean();
            double[] var = components.get(g).marginalVariances();
            for (int t = 0; t < d; t++) {
                mean[t] += w * mu[t];
                second[t] += w * (var[t] + mu[t] * mu[t]);
            }
        }
        double[] sd = new double[d];
        for (int t = 0; t < d; t++) {
            sd[t] = Math.sqrt(Math.max(0.0, second[t] - mean[t] * mean[t]));
        }
        return new double[][] {mean, sd};
    }

    private static double[] sqrt(double[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = Math.sqrt(v[i]);
        }
        return out;
    }

    /** K. */
    public double k() {
        return k;
    }

    /** Series length d the bounds cover. */
    public int length() {
        return low.length;
    }

    /** True when x(t) lies beyond ±K standard deviations of the training series at t (1 ≤ t ≤ d). */
    public boolean outside(int t, double value) {
        return value < low[t - 1] || value > high[t - 1];
    }

    /**
     * The bounds as {@link io.vigil.data.ValueBounds} for reading a file against them (time-major, as {@link
     * #outside}), with what a value beyond them does.
     */
    public io.vigil.data.ValueBounds bounds(
            io.vigil.data.OutOfRangePolicy policy, java.util.function.Consumer<String> notice) {
        String what = "the model's training range (±" + k + " standard deviations at its t)";
        return new io.vigil.data.ValueBounds(low.clone(), high.clone(), policy, what, notice);
    }

    /** x(t) moved to the nearer bound when it lies outside them ({@link io.vigil.data.OutOfRangePolicy#CLIP}), else x(t). */
    public double clip(int t, double value) {
        return Math.max(low[t - 1], Math.min(high[t - 1], value));
    }
}
