package io.vigil.gauss;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

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
        String key = id.trim().toLowerCase(Locale.ROOT);
        for (EstimatorType e : values()) {
            if (e.id.equals(key)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown estimator '" + id + "'; expected one of "
                + Arrays.stream(values()).map(EstimatorType::id).collect(Collectors.joining(", ")));
    }
}
