package io.vigil.early;

import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import java.io.Serializable;
import java.util.Objects;

/**
 * What an early decision needs besides the model: the required probability τ that the early label matches
 * the complete-series label, the τ-set construction (thesis §5.2), the complete-series estimator (§5.4),
 * the classifier (§5.6) and, optionally, a class of interest that alone may be announced early (§5.7).
 * Shared by {@code vigil evaluate}, {@code vigil run} and the stream job so their flags mean the same;
 * serialisable because the stream job ships it to its workers.
 *
 * @param tau τ in (0, 1)
 * @param set the τ-set construction
 * @param estimator the complete-series estimator
 * @param classifier the classifier
 * @param classOfInterest the label (as in the training data) that alone may be announced before t = d, or
 *     null to announce any class
 * @param rule how the decision is made: the set rule or the probability rule (thesis eq. 5.1)
 */
public record DecisionParams(
        double tau,
        SetKind set,
        EstimatorType estimator,
        ClassifierKind classifier,
        String classOfInterest,
        DecisionRule rule)
        implements Serializable {
    /** Default τ of the stream job: announce when the label matches the complete one with probability 0.9. */
    public static final double DEFAULT_TAU = 0.9;

    /** Validates. */
    public DecisionParams {
        if (!(tau > 0.0 && tau < 1.0)) {
            throw new IllegalArgumentException("tau must lie strictly between 0 and 1, got " + tau);
        }
        Objects.requireNonNull(set, "set");
        Objects.requireNonNull(estimator, "estimator");
        Objects.requireNonNull(classifier, "classifier");
        Objects.requireNonNull(rule, "rule");
    }

    /** τ = 0.9, naive-Bayes quadratic set, joint Gaussian, local QDA, any class, the set rule. */
    public static DecisionParams defaults() {
        return new DecisionParams(
                DEFAULT_TAU,
                SetKind.NB_QUADRATIC,
                EstimatorType.JOINT,
                ClassifierKind.LOCAL_QDA,
                null,
                DecisionRule.SET);
    }

    /** The same with another τ. */
    public DecisionParams withTau(double t) {
        return new DecisionParams(t, set, estimator, classifier, classOfInterest, rule);
    }

    /** The same with another set construction. */
    public DecisionParams withSet(SetKind s) {
        return new DecisionParams(tau, s, estimator, classifier, classOfInterest, rule);
    }

    /** The same with another estimator. */
    public DecisionParams withEstimator(EstimatorType e) {
        return new DecisionParams(tau, set, e, classifier, classOfInterest, rule);
    }

    /** The same with another classifier. */
    public DecisionParams withClassifier(ClassifierKind c) {
        return new DecisionParams(tau, set, estimator, c, classOfInterest, rule);
    }

    /** The same with a class of interest (null: any class). */
    public DecisionParams withClassOfInterest(String label) {
        return new DecisionParams(tau, set, estimator, classifier, label, rule);
    }

    /** The same with another decision rule. */
    public DecisionParams withRule(DecisionRule r) {
        return new DecisionParams(tau, set, estimator, classifier, classOfInterest, r);
    }
}
