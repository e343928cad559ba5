package io.vigil.early;

import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.GaussianMixtureEstimator;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.probability.ClassProbability;
import java.util.Objects;

/**
 * Builds the complete-series parts of an {@link EarlyClassifier} from a model's {@code complete_series} section
 * (thesis §5.4, docs/method.md §3.1 and §7): the prefix estimator of either type, the any-order conditioner, and the
 * table of Cholesky factors of R_y(t) the probability rule reuses. Every failure names the missing part and how to
 * get it.
 */
final class CompleteSeriesModels {
    /**
     * Most doubles of the table of Cholesky factors of R_y(t) the probability rule precomputes for the joint
     * estimator (d·ℓ(ℓ+1)/2 ≤ 2²⁴, 128 MB; d = 1,024, ℓ = 30 needs 3.8 MB); beyond it each sample factors R_y(t).
     */
    static final long MAX_FACTOR_TABLE_DOUBLES = 1L << 24;

    private CompleteSeriesModels() {}

    /** See {@link EarlyClassifier#estimator(VigilModel, EstimatorType)}. */
    static CompleteSeriesEstimator estimator(VigilModel model, EstimatorType type) {
        Objects.requireNonNull(type, "type");
        if (type == EstimatorType.JOINT) {
            return jointEstimator(model);
        }
        CompleteSeriesSection section = completeSeries(model);
        if (section.mixture() == null) {
            throw missing(section, EstimatorType.GMM);
        }
        return GaussianMixtureEstimator.of(section.mixtureWeights(), section.mixture(), model.basis());
    }

    /** See {@link EarlyClassifier#jointEstimator(VigilModel)}. */
    static JointGaussianEstimator jointEstimator(VigilModel model) {
        CompleteSeriesSection section = completeSeries(model);
        return JointGaussianEstimator.of(
                section.jointGaussian().orElseThrow(() -> missing(section, EstimatorType.JOINT)), model.basis());
    }

    /**
     * The any-order conditioner of the model's complete-series model on its LDG basis — the joint Gaussian (eq. 5.19)
     * or, for {@link EstimatorType#GMM}, the per-class mixture (eq. 5.20) — each Gaussian's factor reduced to {@link
     * SubsetConditioner#DEFAULT_RANK} directions.
     */
    static SubsetConditioner conditioner(VigilModel model, EstimatorType type) {
        CompleteSeriesSection section = completeSeries(model);
        if (type == EstimatorType.GMM) {
            if (section.mixture() == null) {
                throw missing(section, EstimatorType.GMM);
            }
            return SubsetConditioner.mixture(
                    section.mixtureWeights(), section.mixture(), model.basis(), SubsetConditioner.DEFAULT_RANK);
        }
        SeriesGaussian g = section.jointGaussian().orElseThrow(() -> missing(section, EstimatorType.JOINT));
        return SubsetConditioner.of(g, model.basis());
    }

    /**
     * The lower Cholesky factors of R_y(t), t = 1..d−1, packed one after another: R_y(t) of the joint estimator does
     * not depend on the observed values (docs/method.md §3.1), so the probability rule factors it once per model
     * instead of once per sample. Null when the table would exceed {@link #MAX_FACTOR_TABLE_DOUBLES}.
     */
    static double[] factorTable(JointGaussianEstimator joint, int d, int ell) {
        int size = SymmetricPacked.size(ell);
        if ((long) d * size > MAX_FACTOR_TABLE_DOUBLES) {
            return null;
        }
        double[] table = new double[d * size];
        double[] packed = new double[size];
        for (int t = 1; t < d; t++) {
            joint.model().conditionalCovariance(t, packed);
            ClassProbability.choleskyPacked(packed, 0, table, (t - 1) * size, ell);
        }
        return table;
    }

    private static CompleteSeriesSection completeSeries(VigilModel model) {
        return model.section(CompleteSeriesSection.class)
                .orElseThrow(() -> new IllegalArgumentException("the model has no complete_series section (the "
                        + "Gaussian of the complete series, thesis §5.4) and cannot decide early; retrain it with "
                        + "this Vigil's `vigil train`"));
    }

    private static IllegalArgumentException missing(CompleteSeriesSection section, EstimatorType wanted) {
        return new IllegalArgumentException("the model's complete_series section holds only "
                + section.available().stream().map(EstimatorType::id).toList() + ", not the " + wanted.id()
                + " estimator; retrain with `vigil train --estimator " + wanted.id() + "` (or both)");
    }
}
