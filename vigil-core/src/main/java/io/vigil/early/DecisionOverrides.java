package io.vigil.early;

import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import java.util.Optional;

/**
 * The one place where the decision parameters a model is used with are resolved: each part given here, else the
 * operating point the model stores (chosen by {@code vigil train} on cross-fitted training replays and certified
 * there), else the defaults of {@link DecisionParams#defaults()} (τ 0.9, nb-quadratic, joint, local QDA, set rule).
 * {@code vigil evaluate}, {@code vigil run}, {@code vigil demo} and {@link io.vigil.api.Vigil} all resolve through it,
 * so an embedding that gives nothing decides as {@code vigil evaluate} does without flags.
 *
 * @param tau τ, or null for the operating point's
 * @param set the τ-set construction, or null
 * @param estimator the complete-series estimator, or null
 * @param classifier the classifier, or null
 * @param classOfInterest the one class that may be announced early (thesis §5.7), or null for any class (never taken
 *     from the operating point)
 * @param rule the decision rule, or null
 */
public record DecisionOverrides(
        Double tau,
        SetKind set,
        EstimatorType estimator,
        ClassifierKind classifier,
        String classOfInterest,
        DecisionRule rule) {
    private static final DecisionOverrides NONE = new DecisionOverrides(null, null, null, null, null, null);

    /** Nothing overridden: the model's operating point, else the defaults. */
    public static DecisionOverrides none() {
        return NONE;
    }

    /** The same with τ given. */
    public DecisionOverrides withTau(Double t) {
        return new DecisionOverrides(t, set, estimator, classifier, classOfInterest, rule);
    }

    /** The same with the set construction given. */
    public DecisionOverrides withSet(SetKind s) {
        return new DecisionOverrides(tau, s, estimator, classifier, classOfInterest, rule);
    }

    /** The same with the estimator given. */
    public DecisionOverrides withEstimator(EstimatorType e) {
        return new DecisionOverrides(tau, set, e, classifier, classOfInterest, rule);
    }

    /** The same with the classifier given. */
    public DecisionOverrides withClassifier(ClassifierKind c) {
        return new DecisionOverrides(tau, set, estimator, c, classOfInterest, rule);
    }

    /** The same with a class of interest. */
    public DecisionOverrides withClassOfInterest(String label) {
        return new DecisionOverrides(tau, set, estimator, classifier, label, rule);
    }

    /** The same with the rule given. */
    public DecisionOverrides withRule(DecisionRule r) {
        return new DecisionOverrides(tau, set, estimator, classifier, classOfInterest, r);
    }

    /** The parameters for {@code model}: these overrides, else its operating point, else the defaults. */
    public DecisionParams resolve(VigilModel model) {
        return resolve(operatingPoint(model));
    }

    /** The parameters: these overrides, else {@code point}'s parts, else the defaults. */
    public DecisionParams resolve(Optional<CalibrationSection.OperatingPoint> point) {
        DecisionParams d = DecisionParams.defaults();
        return new DecisionParams(
                tau != null
                        ? tau
                        : point.map(CalibrationSection.OperatingPoint::tau).orElse(d.tau()),
                set != null
                        ? set
                        : point.map(CalibrationSection.OperatingPoint::set).orElse(d.set()),
                estimator != null
                        ? estimator
                        : point.map(CalibrationSection.OperatingPoint::estimator)
                                .orElse(d.estimator()),
                classifier != null
                        ? classifier
                        : point.map(CalibrationSection.OperatingPoint::classifier)
                                .orElse(d.classifier()),
                classOfInterest,
                rule != null
                        ? rule
                        : point.map(CalibrationSection.OperatingPoint::rule).orElse(d.rule()));
    }

    /** The operating point stored in a model, if any. */
    public static Optional<CalibrationSection.OperatingPoint> operatingPoint(VigilModel model) {
        return model.section(CalibrationSection.class).flatMap(CalibrationSection::operatingPoint);
    }

    /**
     * A warning when the model was calibrated for another complete-series estimator than the one the decisions use:
     * their thresholds are then neither certified nor inflated by a κ learned for them.
     *
     * @param what how to name the model in the line (its file)
     */
    public static Optional<String> otherEstimatorWarning(VigilModel model, DecisionParams params, String what) {
        return model.section(CalibrationSection.class)
                .filter(c -> !c.curves().isEmpty() && !c.inflates(params.estimator()))
                .flatMap(CalibrationSection::operatingPoint)
                .map(op -> "warning: " + what + " was calibrated for --estimator "
                        + op.estimator().id() + ", not "
                        + params.estimator().id() + "; its decisions with "
                        + params.estimator().id()
                        + " are not certified (retrain with --estimator "
                        + params.estimator().id() + ")");
    }
}
