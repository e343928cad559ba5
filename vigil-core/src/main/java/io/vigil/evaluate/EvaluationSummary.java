package io.vigil.evaluate;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.early.TauSaturation;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code evaluate --json}'s object, fields in this order: the figures per τ ({@link Tau}), then the method and
 * its own fields ({@link Vigil} or {@link Baseline}), the model, the fixed-time baselines and the report directory.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record EvaluationSummary(
        String dataset,
        int testSize,
        int length,
        double fullAccuracy,
        List<Tau> taus,
        String method,
        @JsonUnwrapped Vigil vigil,
        @JsonUnwrapped Baseline baseline,
        String model,
        String fingerprint,
        List<FixedTimeBaselines.Point> baselines,
        @JsonInclude(Include.NON_NULL) String report) {
    /** The summary of evaluation {@code r} of model {@code m} (file {@code file}) under {@code pattern}; {@code report} the report directory or null. */
    public static EvaluationSummary of(
            EarlyEvaluation.Result r, VigilModel m, ObservationPattern pattern, String file, String report) {
        List<Tau> taus = r.taus().stream().map(t -> Tau.of(t, r.isVigil(), m)).toList();
        return new EvaluationSummary(
                r.dataset(),
                r.testSize(),
                r.length(),
                r.fullAccuracy(),
                taus,
                r.method().cliName(),
                r.isVigil() ? Vigil.of(r, m, pattern) : null,
                r.isVigil() ? null : new Baseline(r.description(), r.methodParams()),
                file,
                m.fingerprint(),
                r.baselines(),
                report);
    }

    /**
     * One τ's figures, ending with {@code earliness} (= {@code mean_fraction}); {@code delta} is δ of a pac certificate,
     * else null; {@code tau}, {@code announced}, {@code certified}, guarantee, target and δ are null for baselines.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Tau(
            Double tau,
            double reliability,
            double accuracy,
            double meanT,
            double meanFraction,
            int decidedEarly,
            double usPerSample,
            double harmonicMean,
            Double announced,
            Boolean certified,
            Double threshold,
            double earliness,
            String guarantee,
            Double target,
            Double delta,
            Map<String, Double> avgCost) {
        public static Tau of(EarlyEvaluation.TauResult t, boolean vigil, VigilModel model) {
            Double tau = vigil ? t.tau() : null;
            Map<String, Double> cost = new LinkedHashMap<>();
            for (double alpha : EarlyEvaluation.AVERAGE_COST_ALPHAS) {
                cost.put(String.valueOf(alpha), t.averageCost(alpha));
            }
            return new Tau(
                    tau,
                    t.reliability(),
                    t.accuracy(),
                    t.meanT(),
                    t.meanFraction(),
                    t.decidedEarly(),
                    t.usPerSample(),
                    t.harmonicMean(),
                    tau,
                    vigil ? t.certified() : null,
                    Double.isNaN(t.threshold()) ? null : t.threshold(),
                    t.meanFraction(),
                    vigil ? t.guarantee() : null,
                    tau,
                    vigil ? pacDelta(t.guarantee(), model) : null,
                    cost);
        }
    }

    /** The fields of a {@code --method vigil} evaluation: the decision parameters, patterns and operating point. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Vigil(
            String set,
            String estimator,
            String classifier,
            String classOfInterest,
            String rule,
            PatternSummary pattern,
            PatternSummary calibratedPattern,
            Point operatingPoint,
            CalibrationSummary.Saturation tauSaturated) {
        public static Vigil of(EarlyEvaluation.Result r, VigilModel model, ObservationPattern pattern) {
            DecisionParams p = r.params();
            return new Vigil(
                    p.set().cliName(),
                    p.estimator().id(),
                    p.classifier().cliName(),
                    p.classOfInterest(),
                    p.rule().cliName(),
                    PatternSummary.of(pattern),
                    model.section(CalibrationSection.class)
                            .map(c -> PatternSummary.of(c.pattern()))
                            .orElse(null),
                    DecisionOverrides.operatingPoint(model)
                            .map(o -> new Point(o.tau(), o.objective(), o.rule().cliName()))
                            .orElse(null),
                    saturation(r, model).map(CalibrationSummary.Saturation::of).orElse(null));
        }
    }

    /** {@code operating_point}: the model's stored operating point. */
    public record Point(double tau, String objective, String rule) {}

    /** The fields of a baseline's evaluation: one line naming it and its settings by name. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Baseline(String description, Map<String, Object> methodParams) {}
    /**
     * δ of a {@code pac} certificate (the section's), else null: what the operating point's certificate is held
     * with, for the rate over all series.
     */
    public static Double pacDelta(String guarantee, VigilModel model) {
        return "pac".equals(guarantee)
                ? model.section(CalibrationSection.class)
                        .map(CalibrationSection::delta)
                        .orElse(null)
                : null;
    }

    /**
     * The τ range, among the reported τ and those evaluated, that all certify the least conservative threshold of the
     * evaluated rule's replay ({@link TauSaturation}); empty without a replay of that rule or with a class of interest
     * (never certified).
     */
    public static Optional<TauSaturation> saturation(EarlyEvaluation.Result r, VigilModel model) {
        DecisionParams p = r.params();
        if (p.classOfInterest() != null) {
            return Optional.empty();
        }
        double[] asked =
                r.taus().stream().mapToDouble(EarlyEvaluation.TauResult::tau).toArray();
        return model.section(CalibrationSection.class)
                .flatMap(c -> c.curve(p.rule(), p.classifier(), p.set(), p.estimator())
                        .flatMap(curve -> TauSaturation.of(c, curve, asked)));
    }
}
