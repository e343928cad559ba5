package io.vigil.flink.cli;

import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import java.util.Optional;
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
            description = "Set holding probability tau (thesis 5.2): naive-Bayes quadratic (5.4), naive-Bayes box "
                    + "(5.5), Chebyshev (5.3) or the Gaussian ellipsoid with the full covariance (default: the "
                    + "model's operating point, else nb-quadratic).")
    String set;

    @Option(
            names = "--estimator",
            paramLabel = "joint|gmm",
            description = "Complete-series estimator (thesis 5.4): joint Gaussian (5.19) or per-class mixture (5.20) "
                    + "(default: the model's operating point, else joint).")
    String estimator;

    @Option(
            names = "--classifier",
            paramLabel = "local-qda|linear-svm",
            description = "Classifier whose complete-series label must be matched (default: the model's operating "
                    + "point, else local-qda).")
    String classifier;

    @Option(
            names = "--rule",
            paramLabel = "set|probability",
            description = "Decision rule: set (f_c - f_h >= 0 on the whole tau-set, thesis 5.2-5.3) or probability "
                    + "(P(label = c | prefix) >= tau under the conditional Gaussian, thesis 5.1, with a valid set as "
                    + "its fast path) (default: the model's operating point, else set).")
    String rule;

    @Option(
            names = "--class-of-interest",
            paramLabel = "LABEL",
            description = "Announce only this class early (thesis 5.7); other series are decided at t = d.")
    String classOfInterest;

    /**
     * The options the user gave, parsed ({@link DecisionOverrides}: the rest comes from the model's operating point).
     *
     * @param tau the τ given on the command line, or null
     * @throws IllegalArgumentException on a value that does not parse (callers turn it into a usage error)
     */
    public DecisionOverrides overrides(Double tau) {
        return new DecisionOverrides(
                tau,
                set != null ? SetKind.fromCliName(set) : null,
                estimator != null ? EstimatorType.fromId(estimator) : null,
                classifier != null ? ClassifierKind.fromCliName(classifier) : null,
                classOfInterest,
                rule != null ? DecisionRule.fromCliName(rule) : null);
    }

    /**
     * The parameters: each option the user gave, else the model's stored operating point, else the defaults ({@link
     * DecisionOverrides#resolve}).
     *
     * @param tau the τ given on the command line, or null
     * @throws IllegalArgumentException on a value that does not parse (callers turn it into a usage error)
     */
    public DecisionParams resolve(Double tau, Optional<CalibrationSection.OperatingPoint> point) {
        return overrides(tau).resolve(point);
    }

    /**
     * The estimator given with {@code --estimator}, else the default (joint): the one a model trained for these options
     * is calibrated for, so that its decisions are certified.
     *
     * @throws IllegalArgumentException on a value that does not parse
     */
    public EstimatorType estimatorOrDefault() {
        return estimator != null
                ? EstimatorType.fromId(estimator)
                : DecisionParams.defaults().estimator();
    }
}
