package io.vigil.evaluate;

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
 * The notes about a model's calibration that {@code vigil train} and {@code vigil inspect} print, and that an
 * embedder training with {@code VigilTrainer} can show alike: what would certify an uncertified τ, what the
 * {@code expected} guarantee bounds and where its draw came from (the JSON form is {@link CalibrationSummary}).
 */
public final class CalibrationNotes {
    /** The largest number of training series {@link #uncertifiedTarget} counts up to. */
    public static final int MAX_SERIES_ADVICE = 1_000_000;

    private CalibrationNotes() {}

    /**
     * The note a newly trained model gets when the stored operating point's τ (the target of earliest-at-reliability)
     * cannot be certified, so the model waits for t = d: under which guarantee and correction it failed, and what
     * would certify it <em>on new data</em> — the number of training series needed at today's cross-fitted
     * disagreement rate (best replayed curve, {@link CalibrationSection#seriesNeeded}), and under {@code expected}
     * where ⌊α(n + 1)⌋ = 0 the fewest series that let the series rather than the draw decide. It names no lower
     * target and no other guarantee to try on these series: a choice made after seeing this result is one the
     * certificate that would follow does not cover (it holds for a target and guarantee fixed before the replays).
     * Empty when the point is certified or there is none.
     */
    public static Optional<String> uncertifiedTarget(VigilModel model, CalibrationSection c) {
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
                "tau = %s cannot be certified on %d training series (%s, delta = %s, selection %s of %d "
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
     * The note for an {@code expected} model: what the bound is an
     * average over (conformal risk control, docs/guarantee.md).
     */
    public static String expectedLine() {
        return "expected bounds the disagreement rate averaged over training runs (training sets and draws U, "
                + "uncertified runs included), not this model's rate; --guarantee pac bounds this model's";
    }

    /** The conformal draw of an {@code expected} model and where it came from ({@link DrawSource}). */
    public static String drawLine(CalibrationSection c) {
        String u = "conformal draw U = " + c.crcDraw();
        return switch (c.crcDrawSource()) {
            case DRAWN -> u + " (drawn: derived from --seed and the training data; retraining reproduces it)";
            case GIVEN -> u + " (given by --crc-draw: it reproduces a model, but a U chosen by hand or kept after "
                    + "seeing the result is not a draw, and the expected guarantee does not cover it)";
            case CONSERVATIVE -> u + " (not randomised)";
            case UNRECORDED -> u + " (source not recorded: written by an older vigil)";
        };
    }

    /**
     * The notes a newly trained model gets, in order, one line each (the caller prefixes its name): its operating
     * point's τ cannot be certified ({@link #uncertifiedTarget}), or else the standard τ values the training set is
     * too small to certify (docs/method.md §5); under {@code expected} with an incomplete observation pattern, how
     * many replays disagree at the strictest threshold; under {@code expected}, the conformal draw and what the bound
     * averages over. Empty without a calibration section.
     */
    public static List<String> afterTraining(VigilModel model) {
        CalibrationSection c = model.section(CalibrationSection.class).orElse(null);
        if (c == null) {
            return List.of();
        }
        List<String> notes = new ArrayList<>();
        Optional<String> target = uncertifiedTarget(model, c);
        List<Double> taus = CalibrationSummary.uncertified(c);
        if (target.isPresent()) {
            notes.add(target.get());
        } else if (!taus.isEmpty()) {
            notes.add("warning: with " + model.trainSize() + " training series the default rule cannot certify tau = "
                    + taus + " (" + c.guarantee().cliName() + ", delta = " + c.delta() + ", selection "
                    + c.selection().cliName() + " of " + c.candidates() + " candidates); those are decided at t = d"
                    + " and reported \"certified\": false");
        }
        if (c.guarantee() == Guarantee.EXPECTED && !c.pattern().isComplete()) {
            c.operatingPoint()
                    .flatMap(op -> c.curve(op.rule(), op.classifier(), op.set(), op.estimator()))
                    .ifPresent(curve -> notes.add(expectedUnderPattern(c, curve)));
        }
        if (c.guarantee() == Guarantee.EXPECTED && !c.curves().isEmpty()) {
            notes.add(drawLine(c));
            notes.add(expectedLine());
        }
        return notes;
    }

    /**
     * Conformal risk control (Angelopoulos et al. 2022, Theorem 1) needs every series to agree with its
     * complete-series label at the most conservative threshold, which holds for complete series but not when values
     * go missing — a series that ends undecided is labelled at E[x | observed] and may disagree. This note gives how
     * many replays of the operating point's curve disagree at its strictest threshold; when any does, the section
     * certifies no τ ({@code CalibrationSection#certify}); {@code pac} needs no such premise (docs/guarantee.md,
     * "Under an incomplete pattern, use pac").
     */
    private static String expectedUnderPattern(CalibrationSection c, CalibrationSection.Curve curve) {
        int[] dis = curve.disagreements();
        int end = dis[dis.length - 1];
        return String.format(
                Locale.ROOT,
                "warning: --guarantee expected needs every series to agree with its complete-series label at the most"
                        + " conservative threshold; under pattern '%s' series that end undecided are labelled at"
                        + " E[x | observed], and at the strictest threshold %d of %d replayed series (%.3f) disagree%s;"
                        + " --guarantee pac needs no such premise",
                c.pattern(),
                end,
                curve.series(),
                end / (double) curve.series(),
                end > 0 ? ", so the premise fails and expected certifies no tau" : "");
    }
}
