package io.vigil.early;

import io.vigil.model.CalibrationSection;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.DoubleStream;

/**
 * Several announced τ that certify the same, least conservative replayed threshold λ and so give the same decisions
 * (docs/guarantee.md, "The threshold grid"): {@code train} and {@code evaluate} say so in one line, since otherwise a
 * user comparing {@code --tau 0.5} with {@code --tau 0.95} sees identical results and no reason. Certification is
 * monotone in τ (a larger τ never maps to a less conservative threshold), so the τ that reach the grid's bottom form
 * one range from the smallest τ looked at. The range is read off the reported τ (0.50, 0.51, …, 0.99, 0.995, 0.999)
 * and any τ asked for.
 *
 * @param fromTau the smallest τ of the range
 * @param toTau the largest τ of the range
 * @param threshold the least conservative threshold of the model's grid, which all of them use
 * @param meanFraction the cross-fitted mean t/d of the curve at that threshold
 * @param disagreementRate the cross-fitted disagreement rate of the curve at that threshold
 * @param olderGrid whether the model was replayed on a grid that stops above {@link #GRID_FLOOR}
 *     (a model written by an older vigil), so that retraining can go lower
 */
public record TauSaturation(
        double fromTau,
        double toTau,
        double threshold,
        double meanFraction,
        double disagreementRate,
        boolean olderGrid) {
    /**
     * The least conservative threshold of the default grid ({@code CalibrationParams.defaultThresholds()}): 10⁻¹²,
     * a set that is practically the conditional mean in every dimension LDG keeps.
     */
    public static final double GRID_FLOOR = 1e-12;

    /** The range on the curve for the reported τ alone, or empty when fewer than two of them reach the bottom. */
    public static Optional<TauSaturation> of(CalibrationSection s, CalibrationSection.Curve c) {
        return of(s, c, new double[0]);
    }

    /**
     * The range on the curve among the reported τ and {@code asked} (τ outside (0, 1) ignored), or empty when fewer
     * than two distinct τ certify the grid's least conservative threshold.
     */
    public static Optional<TauSaturation> of(CalibrationSection s, CalibrationSection.Curve c, double[] asked) {
        double[] taus = DoubleStream.concat(Arrays.stream(DecisionThresholds.REPORTED_TAUS), Arrays.stream(asked))
                .filter(t -> t > 0 && t < 1)
                .sorted()
                .distinct()
                .toArray();
        double from = Double.NaN;
        double to = Double.NaN;
        int count = 0;
        for (double tau : taus) {
            CalibrationSection.Certificate r = s.certify(c, tau);
            if (r.certified() && r.index() == 0) {
                from = count == 0 ? tau : from;
                to = tau;
                count++;
            }
        }
        if (count < 2) {
            return Optional.empty();
        }
        double lowest = s.thresholds()[0];
        return Optional.of(
                new TauSaturation(from, to, lowest, c.meanFraction(0), c.disagreementRate(0), lowest > GRID_FLOOR));
    }

    /**
     * The one line: "τ 0.5–0.95 all use the least conservative threshold 0.02; the grid cannot go lower: …", with why
     * — a model replayed on the older grid (retraining replays lower thresholds), or the rule deciding there at the
     * cross-fitted mean t/d and disagreement rate given, about as early as it can.
     */
    public String message() {
        String head = String.format(
                Locale.ROOT,
                "τ %s–%s all use the least conservative threshold %s; the grid cannot go lower: ",
                number(fromTau),
                number(toTau),
                number(threshold));
        String stats = String.format(
                Locale.ROOT,
                "the cross-fitted replays decide there at mean t/d %.3f with disagreement rate %.3f",
                meanFraction,
                disagreementRate);
        if (olderGrid) {
            return head + "this model was replayed at thresholds from " + number(threshold)
                    + " (written by an older vigil; retraining replays them down to "
                    + number(GRID_FLOOR) + "), and " + stats;
        }
        return head + stats + ", so these τ give the same decisions and a lower τ cannot decide earlier";
    }

    /** Shortest round-trip form: 0.5, 0.95, 0.02, 1.0E-12. */
    private static String number(double x) {
        return Double.toString(x);
    }
}
