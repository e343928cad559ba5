package io.vigil.gauss;

import io.vigil.util.EnumNames;

/**
 * The two complete-series estimators of thesis §5.4, by the names the command line uses. Persist by
 * {@link #id()}, never by ordinal.
 */
public enum EstimatorType {
    /** One Gaussian for all training series (eq. 5.19): {@link JointGaussianEstimator}. */
    JOINT("joint"),
    /** One Gaussian per class, weighted by the class priors (eq. 5.20): {@link GaussianMixtureEstimator}. */
    GMM("gmm");

    private final String id;

    EstimatorType(String id) {
        this.id = id;
    }

    /** The command-line and model-file name. */
    public String id() {
        return id;
    }

    /**
     * Parses an {@link #id()} (case-insensitive).
     *
     * @throws IllegalArgumentException naming the valid ids when {@code id} is unknown
     */
    public static EstimatorType fromId(String id) {
        return EnumNames.parse(EstimatorType.class, id, EstimatorType::id, "estimator");
    }
}
