package io.vigil.model;

import io.vigil.data.ObservationPattern;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.Arrays;
import java.util.List;

/**
 * The checks a {@link CalibrationSection} runs on construction (and so on load); every message names the field of
 * the model file.
 */
final class CalibrationChecks {
    private static final String NAME = CalibrationSection.NAME;

    private CalibrationChecks() {}

    /** Every inflation factor finite and positive. */
    static void inflation(double[] inflation) {
        for (int b = 0; b < inflation.length; b++) {
            if (!(inflation[b] > 0) || !Double.isFinite(inflation[b])) {
                throw new IllegalArgumentException(
                        NAME + ".inflation[" + b + "] must be finite and > 0, got " + inflation[b]);
            }
        }
    }

    /** At least one threshold, ascending within (0, 1]. */
    static void thresholds(double[] thresholds) {
        if (thresholds.length == 0) {
            throw new IllegalArgumentException(NAME + ".thresholds is empty");
        }
        for (int j = 0; j < thresholds.length; j++) {
            if (!(thresholds[j] > 0 && thresholds[j] <= 1) || (j > 0 && thresholds[j] <= thresholds[j - 1])) {
                throw new IllegalArgumentException(
                        NAME + ".thresholds must ascend within (0, 1], got " + Arrays.toString(thresholds));
            }
        }
    }

    /** One estimator for every curve, one count per threshold. */
    static void curves(List<CalibrationSection.Curve> curves, int thresholds) {
        for (CalibrationSection.Curve c : curves) {
            if (c.estimator() != curves.get(0).estimator()) {
                throw new IllegalArgumentException(
                        NAME + ".curves mix the " + curves.get(0).estimator().id() + " and "
                                + c.estimator().id() + " estimators; one inflation is learned for one estimator");
            }
            if (c.disagreements().length != thresholds) {
                throw new IllegalArgumentException(NAME + ".curves: " + c.rule().cliName() + "/"
                        + c.classifier().cliName() + " has " + c.disagreements().length + " counts for "
                        + thresholds + " thresholds");
            }
        }
    }

    /** Under the expected guarantee, the monotonised counts it needs. */
    static void expectedCurves(List<CalibrationSection.Curve> curves, Guarantee guarantee) {
        if (guarantee == Guarantee.EXPECTED) {
            for (CalibrationSection.Curve c : curves) {
                if (c.monotoneDisagreements().length == 0) {
                    throw new IllegalArgumentException(
                            NAME + ".curves: " + c.rule().cliName() + "/"
                                    + c.classifier().cliName() + " has no monotone_disagreements, which the expected "
                                    + "guarantee needs");
                }
            }
        }
    }

    /**
     * Whether conformal risk control's premise can hold for the replays: its bound (Angelopoulos et al. 2022,
     * Theorem 1) needs every series' loss at the most conservative threshold to be at most α, i.e. 0 for a 0/1 loss.
     * For complete series that is so by construction (the last value gives the complete-series label); under an
     * incomplete observation pattern a series that ends undecided is labelled at E[x | observed] and may disagree,
     * and when a replayed series does so at the strictest threshold the premise is seen to fail: {@code expected}
     * then certifies nothing, and {@code pac}, which needs no such premise, is the guarantee to use
     * (docs/guarantee.md, "Under an incomplete pattern, use pac").
     */
    static boolean expectedPremiseHolds(ObservationPattern pattern, int[] monotone) {
        return pattern.isComplete() || monotone[monotone.length - 1] == 0;
    }

    /** The conformal risk control draw U: in (0, 1], and 1 under pac. */
    static void crcDraw(double crcDraw, Guarantee guarantee) {
        if (!(crcDraw > 0 && crcDraw <= 1)) {
            throw new IllegalArgumentException(NAME + ".crc_draw must lie in (0, 1], got " + crcDraw);
        }
        if (guarantee == Guarantee.PAC && crcDraw != ConformalRiskControl.CONSERVATIVE) {
            throw new IllegalArgumentException(
                    NAME + ".crc_draw applies to the expected guarantee only, got " + crcDraw + " under pac");
        }
    }

    /** The counts of {@link Selection#NESTED}'s family: present exactly under it, consistent across curves and thresholds. */
    static void nested(List<CalibrationSection.Curve> curves, int m, Selection selection, int[] raw, int[] monotone) {
        boolean wanted = selection == Selection.NESTED && !curves.isEmpty();
        if (!wanted) {
            if (raw.length != 0 || monotone.length != 0) {
                throw new IllegalArgumentException(NAME + ".nested counts need selection nested and curves");
            }
            return;
        }
        int n = curves.get(0).series();
        if (raw.length != m || monotone.length != m) {
            throw new IllegalArgumentException(
                    NAME + ".nested needs " + m + " counts per array, got " + raw.length + " and " + monotone.length);
        }
        for (CalibrationSection.Curve c : curves) {
            if (c.series() != n) {
                throw new IllegalArgumentException(NAME + ".nested needs every curve to replay the same series");
            }
        }
        for (int j = 0; j < m; j++) {
            boolean increases = j > 0 && monotone[j] > monotone[j - 1];
            if (raw[j] < 0 || raw[j] > monotone[j] || monotone[j] > n || increases) {
                throw new IllegalArgumentException(NAME + ".nested counts at threshold " + j + " (" + raw[j] + ", "
                        + monotone[j] + ") must satisfy 0 ≤ disagreements ≤ monotone ≤ " + n
                        + " with monotone not increasing with the threshold");
            }
        }
    }
}
