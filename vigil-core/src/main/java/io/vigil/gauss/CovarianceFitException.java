package io.vigil.gauss;

/**
 * A Gaussian of the complete-series model could not be fitted for a numerical reason (zero scatter,
 * covariance not positive definite even after the largest allowed ridge). The message states the
 * reason; wrong arguments throw {@link IllegalArgumentException} instead.
 */
public final class CovarianceFitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** With the one-line reason. */
    public CovarianceFitException(String reason) {
        super(reason);
    }
}
