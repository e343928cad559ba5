package io.vigil.cli;

import io.vigil.evaluate.CalibrationSummary;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The lines {@code train} and {@code inspect} print about a model's cross-fitted calibration (its JSON form is {@link
 * CalibrationSummary}).
 */
final class CalibrationReport {
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
        int series = CalibrationSummary.mainCurve(c)
                .map(CalibrationSection.Curve::series)
                .orElse(model.trainSize());
        double alpha = (1 - tau) / c.correction();
        int endsWrong = CalibrationSummary.mainCurve(c)
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
}
