package io.vigil.early;

import io.vigil.classify.LinearSvm;
import io.vigil.data.Dataset;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.GaussianMixtureEstimator;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.LinearSvmSection;
import io.vigil.model.VigilModel;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Adds what early decisions need to a trained model: the complete-series Gaussian(s) of thesis §5.4 (joint,
 * eq. 5.19, and/or one per class weighted by the priors, eq. 5.20), fitted with a shrinkage covariance on the
 * model's (standardised) training series in the dense or the low-rank form ({@link CovarianceForm}; the low-rank
 * one needs O(n·d) memory, so long series train), and a one-vs-rest linear SVM on its LDG training points
 * (§5.6.2).
 */
public final class EarlyModelTrainer {
    private EarlyModelTrainer() {}

    /**
     * What to fit.
     *
     * @param shrinkage covariance shrinkage of every Gaussian (n ≤ d is common, so the sample covariance is
     *     singular without it)
     * @param covariance covariance form of every Gaussian ({@link CovarianceForm#AUTO}: low-rank when n is small
     *     against d or d is long, dense otherwise; chosen per Gaussian, see {@link CovarianceForm#resolve})
     * @param estimators which estimators to store (at least one)
     * @param svmCost the linear SVM's cost C, or NaN to skip the SVM
     * @param seed LIBLINEAR's seed
     */
    public record Params(
            ShrinkageParams shrinkage,
            CovarianceForm covariance,
            Set<EstimatorType> estimators,
            double svmCost,
            long seed) {
        /** The default SVM cost C = 1 (LIBLINEAR's default). */
        public static final double DEFAULT_SVM_COST = 1.0;

        /** Validates and copies. */
        public Params {
            Objects.requireNonNull(shrinkage, "shrinkage");
            Objects.requireNonNull(covariance, "covariance");
            if (estimators.isEmpty()) {
                throw new IllegalArgumentException("at least one complete-series estimator is needed");
            }
            estimators = Set.copyOf(estimators);
            if (!Double.isNaN(svmCost) && !(svmCost > 0 && Double.isFinite(svmCost))) {
                throw new IllegalArgumentException("SVM cost must be finite and > 0, got " + svmCost);
            }
        }

        /** With the {@link CovarianceForm#AUTO} covariance form. */
        public Params(ShrinkageParams shrinkage, Set<EstimatorType> estimators, double svmCost, long seed) {
            this(shrinkage, CovarianceForm.AUTO, estimators, svmCost, seed);
        }

        /** Ledoit–Wolf shrinkage, automatic covariance form, both estimators, SVM with C = 1, seed 1. */
        public static Params defaults() {
            return new Params(ShrinkageParams.defaults(), EnumSet.allOf(EstimatorType.class), DEFAULT_SVM_COST, 1L);
        }

        /** The same with another covariance form. */
        public Params withCovariance(CovarianceForm form) {
            return new Params(shrinkage, form, estimators, svmCost, seed);
        }
    }

    /**
     * The model with its {@code complete_series} (and, unless skipped, {@code linear_svm}) sections set.
     *
     * @param model a model trained on {@code train}
     * @param train the training split the model was trained on, class indices in the model's class order
     * @throws IllegalArgumentException when the data does not match the model
     */
    public static VigilModel addSections(VigilModel model, Dataset train, Params params) {
        if (train.length() != model.length() || train.size() != model.trainSize()) {
            throw new IllegalArgumentException("training data has " + train.size() + " series of length "
                    + train.length() + " but the model was trained on " + model.trainSize() + " of length "
                    + model.length());
        }
        double[][] rows = train.rows();
        Standardizer std = model.standardizer().orElse(null);
        if (std != null) {
            rows = std.apply(rows);
        }
        SeriesGaussian joint = params.estimators().contains(EstimatorType.JOINT)
                ? SeriesGaussian.fit(rows, params.shrinkage(), params.covariance())
                : null;
        double[] weights = null;
        List<SeriesGaussian> mixture = null;
        if (params.estimators().contains(EstimatorType.GMM)) {
            GaussianMixtureEstimator.Components gmm = GaussianMixtureEstimator.fitComponents(
                    rows, train.classIndices(), model.numClasses(), params.shrinkage(), params.covariance());
            weights = gmm.weights();
            mixture = gmm.gaussians();
        }
        VigilModel.Builder b = model.toBuilder()
                .section(new CompleteSeriesSection(params.shrinkage(), params.covariance(), joint, weights, mixture));
        if (!Double.isNaN(params.svmCost())) {
            LinearSvm svm = LinearSvm.fit(
                    model.trainingPoints(),
                    model.trainingClasses(),
                    model.numClasses(),
                    params.svmCost(),
                    params.seed());
            double[][] w = new double[model.numClasses()][];
            double[] bias = new double[model.numClasses()];
            for (int g = 0; g < w.length; g++) {
                w[g] = svm.weights(g);
                bias[g] = svm.bias(g);
            }
            b.section(new LinearSvmSection(params.svmCost(), w, bias));
        }
        return b.build();
    }
}
