package io.vigil.cli;

import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/** What {@code train} and {@code inspect} say about a model's cross-fitted calibration. */
final class CalibrationReport {
    /** The τ values users ask for most; {@code train} warns about each it cannot certify. */
    static final double[] STANDARD_TAUS = {0.5, 0.8, 0.9, 0.95, 0.99};

    /** The largest number of training series {@link #uncertifiedTarget} counts up to. */
    static final int MAX_SERIES_ADVICE = 1_000_000;

    private CalibrationReport() {}

    /**
     * The one line {@code train} prints when the stored operating point's τ (the target of earliest-at-reliability)
     * cannot be certified, so the model waits for t = d: under which guarantee and correction it failed, and what would
     * certify it — the number of training series needed at today's cross-fitted disagreement rate (best replayed
     * curve, {@link CalibrationSection#seriesNeeded}), {@code --guarantee expected} when that certifies it on these
     * series, and the largest lower target that is certifiable now. Empty when the point is certified or there is none.
     */
    static Optional<String> uncertifiedTarget(VigilModel model, CalibrationSection c) {
        Optional<CalibrationSection.OperatingPoint> point = c.operatingPoint().filter(p -> !p.certified());
        if (point.isEmpty() || c.curves().isEmpty()) {
            return Optional.empty();
        }
        double tau = point.get().tau();
        int needed = Integer.MAX_VALUE;
        for (CalibrationSection.Curve curve : c.curves()) {
            OptionalInt n = c.seriesNeeded(curve, tau, MAX_SERIES_ADVICE);
            if (n.isPresent()) {
                // Series of single-member classes are never replayed; they come on top.
                needed = Math.min(needed, n.getAsInt() + model.trainSize() - curve.series());
            }
        }
        List<String> would = new ArrayList<>();
        if (needed != Integer.MAX_VALUE) {
            would.add(String.format(
                    Locale.ROOT, "with %d training series at today's cross-fitted disagreement rate", needed));
        }
        if (c.guarantee() == Guarantee.PAC && certifiesAny(c.withGuarantee(Guarantee.EXPECTED), tau)) {
            would.add("with --guarantee expected");
        }
        lowerCertified(c, tau).ifPresent(t -> would.add(String.format(Locale.ROOT, "at --target-reliability %.2f", t)));
        return Optional.of(String.format(
                Locale.ROOT,
                "vigil train: tau = %s cannot be certified on %d training series (%s, delta = %s, selection %s of %d "
                        + "candidates), so the model decides every series at its end (t = d); %s",
                tau,
                model.trainSize(),
                c.guarantee().cliName(),
                c.delta(),
                c.selection().cliName(),
                c.candidates(),
                would.isEmpty()
                        ? "neither more series at today's cross-fitted rate nor a target of 0.50 or more would be"
                        : "it would be " + String.join(", or ", would)));
    }

    /** Whether some replayed curve certifies τ. */
    private static boolean certifiesAny(CalibrationSection c, double tau) {
        return c.curves().stream().anyMatch(curve -> c.certify(curve, tau).certified());
    }

    /** The largest τ′ of 0.50, 0.51, … below τ that some curve certifies. */
    private static OptionalDouble lowerCertified(CalibrationSection c, double tau) {
        for (int k = (int) Math.ceil(tau * 100 - 1e-9) - 1; k >= 50; k--) {
            if (certifiesAny(c, k / 100.0)) {
                return OptionalDouble.of(k / 100.0);
            }
        }
        return OptionalDouble.empty();
    }

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
        if (c.guarantee() == Guarantee.EXPECTED) {
            o.put("crc_draw", c.crcDraw());
        }
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
