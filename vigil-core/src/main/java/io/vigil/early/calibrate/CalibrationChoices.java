package io.vigil.early.calibrate;

import io.vigil.gauss.EstimatorType;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;

/**
 * The calibration choices as a user names them ({@code vigil train}'s options, docs/method.md §5–§6), checked
 * together and turned into {@link CalibrationParams}: an option that only applies beside another (the target
 * reliability, the delay cost, the conformal draw) is refused without it, naming both.
 *
 * @param objective how the operating point is chosen ({@link CalibrationParams.Objective#fromCliName})
 * @param delayCost the delay cost A of the {@code cost} objective, or null
 * @param guarantee {@code pac} or {@code expected} ({@link Guarantee#fromCliName})
 * @param crcDraw the draw U of {@code expected}: {@code random}, {@code conservative} or a number in (0, 1]; null is
 *     {@code random}
 * @param selectionCorrection the selection correction ({@link Selection#fromCliName}), or null for the guarantee's
 *     default
 * @param estimator the complete-series estimator's id ({@link EstimatorType#fromId})
 * @param targetReliability the reliability the earliest-at-reliability objective must certify, or null for its default
 * @param folds {@code auto} or a fold count of at least 2
 * @param delta the confidence δ of the certificate
 */
public record CalibrationChoices(
        String objective,
        Double delayCost,
        String guarantee,
        String crcDraw,
        String selectionCorrection,
        String estimator,
        Double targetReliability,
        String folds,
        double delta) {
    /**
     * The parameters these choices give, seeded by {@code seed}.
     *
     * @throws IllegalArgumentException naming the option, on a value out of range or an option without the one it needs
     */
    public CalibrationParams params(long seed) {
        CalibrationParams.Objective o = CalibrationParams.Objective.fromCliName(objective);
        if (o != CalibrationParams.Objective.EARLIEST_AT_RELIABILITY && targetReliability != null) {
            throw new IllegalArgumentException(
                    "--target-reliability only applies to --objective " + "earliest-at-reliability");
        }
        if (o == CalibrationParams.Objective.COST && delayCost == null) {
            throw new IllegalArgumentException("--objective cost needs --delay-cost A");
        }
        if (o != CalibrationParams.Objective.COST && delayCost != null) {
            throw new IllegalArgumentException("--delay-cost only applies to --objective cost");
        }
        Guarantee g = Guarantee.fromCliName(guarantee);
        if (g != Guarantee.EXPECTED && crcDraw != null) {
            throw new IllegalArgumentException("--crc-draw only applies to --guarantee expected");
        }
        return CalibrationParams.defaults(seed)
                .withFoldsAndDelta(parseFolds(folds), delta)
                .withObjective(o, target(o), delayCost == null ? Double.NaN : delayCost)
                .withGuarantee(g, selection(g))
                .withEstimator(EstimatorType.fromId(estimator))
                .withCrcDraw(
                        g == Guarantee.EXPECTED && !derivesDraw()
                                ? parseDraw(crcDraw)
                                : ConformalRiskControl.CONSERVATIVE);
    }

    /** Whether U is to be derived from the seed and the data ({@link #withDerivedDraw}): expected with random. */
    public boolean derivesDraw() {
        return Guarantee.fromCliName(guarantee) == Guarantee.EXPECTED && (crcDraw == null || "random".equals(crcDraw));
    }

    /**
     * {@code p} with the reproducible draw of {@link ConformalRiskControl#derivedDraw} when {@link #derivesDraw()},
     * else {@code p}: the same data, options and seed then give the same model file.
     */
    public CalibrationParams withDerivedDraw(CalibrationParams p, long seed, String fingerprint) {
        return derivesDraw() ? p.withCrcDraw(ConformalRiskControl.derivedDraw(seed, fingerprint), DrawSource.DRAWN) : p;
    }

    /** {@code auto} → {@link CalibrationParams#AUTO_FOLDS}, else an integer ≥ 2. */
    public static int parseFolds(String value) {
        if ("auto".equals(value)) {
            return CalibrationParams.AUTO_FOLDS;
        }
        try {
            int k = Integer.parseInt(value.strip());
            if (k >= 2) {
                return k;
            }
        } catch (NumberFormatException e) {
            // reported below with the accepted values
        }
        throw new IllegalArgumentException("--calibration-folds must be auto or an integer >= 2, got '" + value + "'");
    }

    /**
     * {@code conservative} → 1; else U itself ({@code random} is derived from the seed and the data instead, {@link
     * #withDerivedDraw}).
     */
    public static double parseDraw(String value) {
        if ("conservative".equals(value)) {
            return ConformalRiskControl.CONSERVATIVE;
        }
        double u = number(value);
        if (u > 0 && u <= 1) {
            return u;
        }
        throw new IllegalArgumentException(
                "--crc-draw must be random, conservative or a number in (0, 1], got '" + value + "'");
    }

    /** {@code text} as a number, NaN when it is none (the caller's message then names the accepted forms). */
    public static double number(String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The given target reliability, its default for earliest-at-reliability, else NaN. */
    private double target(CalibrationParams.Objective o) {
        if (targetReliability != null) {
            return targetReliability;
        }
        return o == CalibrationParams.Objective.EARLIEST_AT_RELIABILITY
                ? CalibrationParams.DEFAULT_TARGET_RELIABILITY
                : Double.NaN;
    }

    /** The given selection correction, else the guarantee's default. */
    private Selection selection(Guarantee g) {
        return selectionCorrection == null
                ? CalibrationParams.defaultSelection(g)
                : Selection.fromCliName(selectionCorrection);
    }
}
