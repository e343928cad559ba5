package io.vigil.cli;

import io.vigil.early.ClassifierKind;
import io.vigil.early.DecisionParams;
import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.SetKind;
import picocli.CommandLine.Option;

/**
 * The early-decision options {@code vigil evaluate} and {@code vigil run} share ({@code @Mixin DecisionOptions
 * decision;}), declared once so both mean the same by them and have the same defaults. τ is declared by each
 * command ({@code evaluate} takes a list, {@code run} one value).
 */
public final class DecisionOptions {
    @Option(
            names = "--set",
            paramLabel = "nb-quadratic|nb-box|chebyshev|gaussian",
            defaultValue = "nb-quadratic",
            description = "Set holding probability tau (thesis 5.2): naive-Bayes quadratic (5.4), naive-Bayes box "
                    + "(5.5), Chebyshev (5.3) or the Gaussian ellipsoid with the full covariance "
                    + "(default: ${DEFAULT-VALUE}).")
    String set;

    @Option(
            names = "--estimator",
            paramLabel = "joint|gmm",
            defaultValue = "joint",
            description = "Complete-series estimator (thesis 5.4): joint Gaussian (5.19) or per-class mixture (5.20) "
                    + "(default: ${DEFAULT-VALUE}).")
    String estimator;

    @Option(
            names = "--classifier",
            paramLabel = "local-qda|linear-svm",
            defaultValue = "local-qda",
            description = "Classifier whose complete-series label must be matched (default: ${DEFAULT-VALUE}).")
    String classifier;

    @Option(
            names = "--class-of-interest",
            paramLabel = "LABEL",
            description = "Announce only this class early (thesis 5.7); other series are decided at t = d.")
    String classOfInterest;

    /**
     * The parameters with the given τ.
     *
     * @throws IllegalArgumentException on a value that does not parse (callers turn it into a usage error)
     */
    public DecisionParams params(double tau) {
        return new DecisionParams(
                tau,
                SetKind.fromCliName(set),
                EstimatorType.fromId(estimator),
                ClassifierKind.fromCliName(classifier),
                classOfInterest);
    }
}
