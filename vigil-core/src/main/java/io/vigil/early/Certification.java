package io.vigil.early;

import io.vigil.model.VigilModel;
import java.util.Locale;

/**
 * Whether a model's decisions at given parameters are certified, in the words every front end uses (inspect, {@code
 * vigil run}'s start line, the demo, the dashboard): an operating point whose τ could not be certified decides every
 * series only at t = d ({@link DecisionThresholds#neverEarly}), which must never look like a normal deployment.
 *
 * @param tau the announced τ
 * @param calibrated whether the model holds a cross-fitted replay of the rule (so τ was mapped by risk control)
 * @param certified whether τ is certified
 * @param neverEarly whether the rule never decides before t = d because τ could not be certified
 * @param guarantee {@code pac} or {@code expected} when certified, else {@code none}
 */
public record Certification(double tau, boolean calibrated, boolean certified, boolean neverEarly, String guarantee) {
    /** The certification of {@code model}'s decisions at {@code params}. */
    public static Certification of(VigilModel model, DecisionParams params) {
        return of(DecisionThresholds.of(model, params));
    }

    /** The certification {@code t} gives. */
    public static Certification of(DecisionThresholds t) {
        return new Certification(t.tau(), t.calibrated(), t.certified(), t.neverEarly(), t.guarantee());
    }

    /** 1 when certified, else 0 (the metric {@code vigil_operating_point_certified}). */
    public int metricValue() {
        return certified ? 1 : 0;
    }

    /**
     * One short phrase: {@code certified (pac)}, {@code NOT CERTIFIED: decides only at t = d (never early)}, or
     * {@code not certified: no calibration for this rule, decides at tau itself without a guarantee}.
     */
    public String phrase() {
        if (certified) {
            return "certified (" + guarantee + ")";
        }
        if (neverEarly) {
            return "NOT CERTIFIED: decides only at t = d (never early)";
        }
        return "not certified: no calibration for this rule, decides at tau itself without a guarantee";
    }

    /** {@code tau 0.9 } followed by the {@link #phrase()}. */
    public String describe() {
        return String.format(Locale.ROOT, "tau %s %s", tau, phrase());
    }
}
