package io.vigil.flink.cli;

import io.vigil.early.DecisionParams;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
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
     * The parameters: each option the user gave, else the model's stored operating point, else the defaults (τ 0.9,
     * nb-quadratic, joint, local-qda, set rule).
     *
     * @param tau the τ given on the command line, or null
     * @throws IllegalArgumentException on a value that does not parse (callers turn it into a usage error)
     */
    public DecisionParams resolve(Double tau, Optional<CalibrationSection.OperatingPoint> point) {
        DecisionParams d = DecisionParams.defaults();
        double t = tau != null
                ? tau
                : point.map(CalibrationSection.OperatingPoint::tau).orElse(d.tau());
        return new DecisionParams(
                t,
                set != null
                        ? SetKind.fromCliName(set)
                        : point.map(CalibrationSection.OperatingPoint::set).orElse(d.set()),
                estimator != null
                        ? EstimatorType.fromId(estimator)
                        : point.map(CalibrationSection.OperatingPoint::estimator)
                                .orElse(d.estimator()),
                classifier != null
                        ? ClassifierKind.fromCliName(classifier)
                        : point.map(CalibrationSection.OperatingPoint::classifier)
                                .orElse(d.classifier()),
                classOfInterest,
                rule != null
                        ? DecisionRule.fromCliName(rule)
                        : point.map(CalibrationSection.OperatingPoint::rule).orElse(d.rule()));
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

    /**
     * A warning when the model was calibrated for another complete-series estimator than the one the decisions use:
     * their thresholds are then neither certified nor inflated by a κ learned for them.
     *
     * @param what how to name the model in the line (its file)
     */
    public static Optional<String> otherEstimator(VigilModel model, DecisionParams params, String what) {
        return model.section(CalibrationSection.class)
                .filter(c -> !c.curves().isEmpty() && !c.inflates(params.estimator()))
                .flatMap(CalibrationSection::operatingPoint)
                .map(op -> "warning: " + what + " was calibrated for --estimator "
                        + op.estimator().id()
                        + ", not " + params.estimator().id() + "; its decisions with "
                        + params.estimator().id()
                        + " are not certified (retrain with --estimator "
                        + params.estimator().id() + ")");
    }

    /** The operating point stored in a model, if any. */
    public static Optional<CalibrationSection.OperatingPoint> operatingPoint(VigilModel model) {
        return model.section(CalibrationSection.class).flatMap(CalibrationSection::operatingPoint);
    }
}
