package io.vigil.model;

import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.JointGaussian;
import io.vigil.gauss.LowRankGaussian;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.ShrinkageParams;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The complete-series model of thesis §5.4 in a model file (section {@code complete_series}): the joint
 * Gaussian over the length-d series (eq. 5.19) and/or the one-Gaussian-per-class mixture with prior weights
 * (eq. 5.20), each with the shrinkage that produced its covariance and in its own covariance form (dense LDLᵀ
 * factors, or a scaled identity plus a low-rank factor: {@link CovarianceForm}). The Gaussians live in the model's
 * (standardised, when the model standardises) series space; the value-independent conditional covariance
 * table R_y(t) is derived from them and the LDG basis when the model is loaded (it is not stored: it costs
 * O(d²ℓ) dense or O(d·ℓ·r) low-rank to rebuild and would otherwise duplicate the factors). Immutable.
 *
 * @param shrinkage the shrinkage parameters used for every Gaussian (their outcome is in each Gaussian's
 *     {@link SeriesGaussian#fitInfo()})
 * @param covariance the covariance form that was asked for ({@link CovarianceForm#AUTO} chooses per Gaussian;
 *     each Gaussian's {@link SeriesGaussian#form()} is what was used)
 * @param joint the joint Gaussian, or null when not trained
 * @param mixtureWeights the mixture weights (class priors), or null when the mixture was not trained
 * @param mixture the per-class Gaussians in class order, or null when not trained
 */
public record CompleteSeriesSection(
        ShrinkageParams shrinkage,
        CovarianceForm covariance,
        SeriesGaussian joint,
        double[] mixtureWeights,
        List<SeriesGaussian> mixture)
        implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "complete_series";

    /** Checks that at least one estimator is present and the mixture parts agree. */
    public CompleteSeriesSection {
        Objects.requireNonNull(shrinkage, "shrinkage");
        Objects.requireNonNull(covariance, "covariance");
        if ((mixtureWeights == null) != (mixture == null)) {
            throw new IllegalArgumentException("mixture weights and mixture components must both be present or absent");
        }
        if (joint == null && mixture == null) {
            throw new IllegalArgumentException(
                    "a complete_series section needs the joint Gaussian, the mixture or both");
        }
        if (mixture != null) {
            mixture = List.copyOf(mixture);
            mixtureWeights = mixtureWeights.clone();
            if (mixtureWeights.length != mixture.size()) {
                throw new IllegalArgumentException(
                        mixtureWeights.length + " mixture weights but " + mixture.size() + " components");
            }
        }
    }

    /** A section of dense Gaussians (what version 1 of the section held). */
    public CompleteSeriesSection(
            ShrinkageParams shrinkage, JointGaussian joint, double[] mixtureWeights, List<JointGaussian> mixture) {
        this(
                shrinkage,
                CovarianceForm.DENSE,
                joint,
                mixtureWeights,
                mixture == null ? null : List.<SeriesGaussian>copyOf(mixture));
    }

    /** The estimators this section holds. */
    public List<EstimatorType> available() {
        if (joint != null && mixture != null) {
            return List.of(EstimatorType.JOINT, EstimatorType.GMM);
        }
        return joint != null ? List.of(EstimatorType.JOINT) : List.of(EstimatorType.GMM);
    }

    /** The joint Gaussian, if trained. */
    public Optional<SeriesGaussian> jointGaussian() {
        return Optional.ofNullable(joint);
    }

    @Override
    public double[] mixtureWeights() {
        return mixtureWeights == null ? null : mixtureWeights.clone();
    }

    /** Equal when every stored number is bit-identical (what a save → load round trip must preserve). */
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CompleteSeriesSection s)) {
            return false;
        }
        return shrinkage.equals(s.shrinkage)
                && covariance == s.covariance
                && sameGaussian(joint, s.joint)
                && Arrays.equals(mixtureWeights, s.mixtureWeights)
                && sameMixture(mixture, s.mixture);
    }

    @Override
    public int hashCode() {
        return Objects.hash(shrinkage, covariance, available(), Arrays.hashCode(mixtureWeights));
    }

    private static boolean sameMixture(List<SeriesGaussian> a, List<SeriesGaussian> b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.size() != b.size()) {
            return false;
        }
        for (int g = 0; g < a.size(); g++) {
            if (!sameGaussian(a.get(g), b.get(g))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameGaussian(SeriesGaussian a, SeriesGaussian b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof JointGaussian x && b instanceof JointGaussian y) {
            return x.sameFactors(y);
        }
        if (a instanceof LowRankGaussian x && b instanceof LowRankGaussian y) {
            return x.sameFactors(y);
        }
        return false;
    }

    @Override
    public String sectionName() {
        return NAME;
    }

    @Override
    public boolean required() {
        return false;
    }

    @Override
    public void checkShape(ModelShape shape) {
        if (joint != null && joint.length() != shape.length()) {
            throw new IllegalArgumentException(NAME + ".joint has length " + joint.length()
                    + " but the model's series length is " + shape.length());
        }
        if (mixture != null) {
            if (mixture.size() != shape.numClasses()) {
                throw new IllegalArgumentException(NAME + ".gmm has " + mixture.size()
                        + " components but the model has " + shape.numClasses() + " classes");
            }
            for (int g = 0; g < mixture.size(); g++) {
                if (mixture.get(g).length() != shape.length()) {
                    throw new IllegalArgumentException(NAME + ".gmm.components[" + g + "] has length "
                            + mixture.get(g).length() + " but the model's series length is " + shape.length());
                }
            }
        }
    }
}
