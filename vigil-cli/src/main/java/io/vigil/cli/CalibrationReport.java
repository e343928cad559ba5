package io.vigil.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.early.TauSaturation;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
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
     * cannot be certified, so the model waits for t = d: under which guarantee and correction it failed, and what
     * would certify it <em>on new data</em> — the number of training series needed at today's cross-fitted
     * disagreement rate (best replayed curve, {@link CalibrationSection#seriesNeeded}), and under {@code expected}
     * where ⌊α(n + 1)⌋ = 0 the fewest series that let the series rather than the draw decide. It names no lower
     * target and no other guarantee to try on these series: a choice made after seeing this result is one the
     * certificate that would follow does not cover (it holds for a target and guarantee fixed before the replays).
     * Empty when the point is certified or there is none.
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
        String drawNote = "";
        int series = mainCurve(c).map(CalibrationSection.Curve::series).orElse(model.trainSize());
        double alpha = (1 - tau) / c.correction();
        int endsWrong = mainCurve(c)
                .map(m -> m.monotoneDisagreements().length == 0
                        ? 0
                        : m.monotoneDisagreements()[m.monotoneDisagreements().length - 1])
                .orElse(0);
        if (c.guarantee() == Guarantee.EXPECTED && !c.pattern().isComplete() && endsWrong > 0) {
            would.clear();
            drawNote = String.format(
                    Locale.ROOT,
                    " (expected certifies nothing under pattern '%s': %d of %d replayed series disagree at the "
                            + "strictest threshold, so conformal risk control's premise fails; --guarantee pac needs "
                            + "no such premise)",
                    c.pattern(),
                    endsWrong,
                    series);
        } else if (c.guarantee() == Guarantee.EXPECTED && ConformalRiskControl.drawDecides(series, alpha)) {
            drawNote = String.format(
                    Locale.ROOT,
                    " (expected certifies nothing here: with %d replayed series floor(alpha (n + 1)) = 0 and the draw U "
                            + "alone would decide; %d series allow a certificate)",
                    series,
                    ConformalRiskControl.seriesForAnyCertificate(alpha));
        }
        return Optional.of(String.format(
                Locale.ROOT,
                "vigil train: tau = %s cannot be certified on %d training series (%s, delta = %s, selection %s of %d "
                        + "candidates)%s, so the model decides every series at its end (t = d); on new data %s; "
                        + "choosing a lower target or the other guarantee after this result is not covered by the "
                        + "certificate that follows",
                tau,
                model.trainSize(),
                c.guarantee().cliName(),
                c.delta(),
                c.selection().cliName(),
                c.candidates(),
                drawNote,
                would.isEmpty()
                        ? "no number of series at today's cross-fitted rate would certify it"
                        : "it would be certified " + String.join(", or ", would)));
    }

    /**
     * The one line {@code train} and {@code inspect} print for an {@code expected} model: what the bound is an
     * average over (conformal risk control, docs/guarantee.md).
     */
    static String expectedLine() {
        return "expected bounds the disagreement rate averaged over training runs (training sets and draws U, "
                + "uncertified runs included), not this model's rate; --guarantee pac bounds this model's";
    }

    /** The conformal draw of an {@code expected} model and where it came from ({@link DrawSource}). */
    static String drawLine(CalibrationSection c) {
        String u = "conformal draw U = " + c.crcDraw();
        return switch (c.crcDrawSource()) {
            case DRAWN -> u + " (drawn: derived from --seed and the training data; retraining reproduces it)";
            case GIVEN -> u + " (given by --crc-draw: it reproduces a model, but a U chosen by hand or kept after "
                    + "seeing the result is not a draw, and the expected guarantee does not cover it)";
            case CONSERVATIVE -> u + " (not randomised)";
            case UNRECORDED -> u + " (source not recorded: written by an older vigil)";
        };
    }

    /** The curve of the operating point's rule (or the first replayed one). */
    static Optional<CalibrationSection.Curve> mainCurve(CalibrationSection c) {
        return c.operatingPoint()
                .flatMap(p -> c.curve(p.rule(), p.classifier(), p.set(), p.estimator()))
                .or(() -> c.curves().stream().findFirst());
    }

    /**
     * The τ range of the main curve that all certify the grid's least conservative threshold ({@link TauSaturation}),
     * or empty.
     */
    static Optional<TauSaturation> saturation(CalibrationSection c) {
        return mainCurve(c).flatMap(curve -> TauSaturation.of(c, curve));
    }

    /** {@code tau_saturated}: the τ range that all use the least conservative threshold, and its one line. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Saturation(
            double fromTau,
            double toTau,
            double threshold,
            double meanFraction,
            double disagreementRate,
            String message) {
        static Saturation of(TauSaturation t) {
            return new Saturation(
                    t.fromTau(), t.toTau(), t.threshold(), t.meanFraction(), t.disagreementRate(), t.message());
        }
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
     * The JSON object of the section ({@link Summary}): folds, δ, guarantee, selection correction and its K,
     * inflation, coverage, operating point, uncertified τ, the τ range that all use the least conservative threshold
     * ({@code tau_saturated}, null when there is none), and per standard τ the cross-fitted reliability a rule needs
     * to be certified on this many series ({@link CalibrationSection#requiredReliability}) — how much more reliable
     * than announced the decisions will be at least; {@code null} when τ cannot be certified on this many series at
     * all (1.0 means "certifiable with no disagreement").
     */
    static Summary json(VigilModel model, CalibrationSection c) {
        int series = mainCurve(c).map(CalibrationSection.Curve::series).orElse(1);
        Map<String, Double> required = new LinkedHashMap<>();
        for (double tau : STANDARD_TAUS) {
            OptionalDouble r = c.requiredReliability(series, tau);
            required.put(String.valueOf(tau), r.isPresent() ? r.getAsDouble() : null);
        }
        boolean expected = c.guarantee() == Guarantee.EXPECTED;
        return new Summary(
                c.folds(),
                c.isHoldout() ? c.holdout() : null,
                c.delta(),
                c.guarantee().cliName(),
                expected ? c.crcDraw() : null,
                expected ? c.crcDrawSource().cliName() : null,
                c.selection().cliName(),
                c.candidates(),
                c.inflation(),
                new Coverage(c.coverageTaus(), c.coverageBefore(), c.coverageAfter()),
                c.operatingPoint().map(Point::of).orElse(null),
                uncertified(model, c),
                saturation(c).map(Saturation::of).orElse(null),
                required,
                c.smallestCertifiableAlpha(series));
    }

    /** The calibration section as {@code train} and {@code inspect} write it with {@code --json}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Summary(
            int folds,
            @JsonInclude(Include.NON_NULL) Double holdout,
            double delta,
            String guarantee,
            @JsonInclude(Include.NON_NULL) Double crcDraw,
            @JsonInclude(Include.NON_NULL) String crcDrawSource,
            String selection,
            int candidates,
            double[] inflation,
            Coverage coverage,
            Point operatingPoint,
            List<Double> uncertifiedTaus,
            Saturation tauSaturated,
            Map<String, Double> requiredReliability,
            double smallestCertifiableAlpha) {}

    /** {@code coverage}: the coverage at each τ before and after inflation. */
    record Coverage(double[] taus, double[] before, double[] after) {}

    /** {@code operating_point}: the stored operating point; target reliability and delay cost when it has them. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Point(
            double tau,
            String objective,
            String rule,
            String classifier,
            String set,
            String estimator,
            double harmonicMean,
            boolean certified,
            @JsonInclude(Include.NON_NULL) Double targetReliability,
            @JsonInclude(Include.NON_NULL) Double delayCost) {
        static Point of(CalibrationSection.OperatingPoint p) {
            return new Point(
                    p.tau(),
                    p.objective(),
                    p.rule().cliName(),
                    p.classifier().cliName(),
                    p.set().cliName(),
                    p.estimator().id(),
                    p.harmonicMean(),
                    p.certified(),
                    Double.isNaN(p.targetReliability()) ? null : p.targetReliability(),
                    Double.isNaN(p.delayCost()) ? null : p.delayCost());
        }
    }
}
