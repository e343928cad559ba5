package io.vigil.cli;

import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** What {@code train} and {@code inspect} say about a model's cross-fitted calibration. */
final class CalibrationReport {
    /** The τ values users ask for most; {@code train} warns about each it cannot certify. */
    static final double[] STANDARD_TAUS = {0.5, 0.8, 0.9, 0.95, 0.99};

    private CalibrationReport() {}

    /** The curve of the operating point's rule (or the first replayed one). */
    static Optional<CalibrationSection.Curve> mainCurve(CalibrationSection c) {
        return c.operatingPoint()
                .flatMap(p -> c.curve(p.rule(), p.classifier(), p.set(), p.estimator()))
                .or(() -> c.curves().stream().findFirst());
    }

    /** The standard τ values the main curve cannot certify. */
    static List<Double> uncertified(VigilModel model, CalibrationSection c) {
        List<Double> out = new ArrayList<>();
        mainCurve(c).ifPresent(curve -> {
            for (double tau : STANDARD_TAUS) {
                if (!c.certify(curve, tau).certified()) {
                    out.add(tau);
                }
            }
        });
        return out;
    }

    /**
     * The JSON object of the section: folds, δ, guarantee, selection correction and its K, inflation, coverage,
     * operating point, uncertified τ, and per standard τ the cross-fitted reliability a rule needs to be certified on
     * this many series ({@link CalibrationSection#requiredReliability}) — how much more reliable than announced the
     * decisions will be at least; {@code null} when τ cannot be certified on this many series at all (1.0 means
     * "certifiable with no disagreement").
     */
    static Map<String, Object> json(VigilModel model, CalibrationSection c) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("folds", c.folds());
        o.put("delta", c.delta());
        o.put("guarantee", c.guarantee().cliName());
        o.put("selection", c.selection().cliName());
        o.put("candidates", c.candidates());
        o.put("inflation", c.inflation());
        Map<String, Object> cov = new LinkedHashMap<>();
        cov.put("taus", c.coverageTaus());
        cov.put("before", c.coverageBefore());
        cov.put("after", c.coverageAfter());
        o.put("coverage", cov);
        o.put(
                "operating_point",
                c.operatingPoint().map(CalibrationReport::point).orElse(null));
        o.put("uncertified_taus", uncertified(model, c));
        int series = mainCurve(c).map(CalibrationSection.Curve::series).orElse(1);
        Map<String, Object> required = new LinkedHashMap<>();
        for (double tau : STANDARD_TAUS) {
            OptionalDouble r = c.requiredReliability(series, tau);
            required.put(String.valueOf(tau), r.isPresent() ? r.getAsDouble() : null);
        }
        o.put("required_reliability", required);
        o.put("smallest_certifiable_alpha", c.smallestCertifiableAlpha(series));
        return o;
    }

    static Map<String, Object> point(CalibrationSection.OperatingPoint p) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("tau", p.tau());
        o.put("objective", p.objective());
        o.put("rule", p.rule().cliName());
        o.put("classifier", p.classifier().cliName());
        o.put("set", p.set().cliName());
        o.put("estimator", p.estimator().id());
        o.put("harmonic_mean", p.harmonicMean());
        o.put("certified", p.certified());
        if (!Double.isNaN(p.targetReliability())) {
            o.put("target_reliability", p.targetReliability());
        }
        if (!Double.isNaN(p.delayCost())) {
            o.put("delay_cost", p.delayCost());
        }
        return o;
    }
}
