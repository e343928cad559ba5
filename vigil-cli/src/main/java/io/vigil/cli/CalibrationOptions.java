package io.vigil.cli;

import io.vigil.api.TrainOptions;
import io.vigil.early.calibrate.CalibrationChoices;
import io.vigil.early.calibrate.CalibrationParams;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}'s options for cross-fitted calibration (docs/method.md §5–§6): how many folds, the confidence δ of
 * the certified reliability, which guarantee certificates carry and how they account for the choice of the operating
 * point, and how the stored operating point is chosen.
 */
public final class CalibrationOptions {
    @Option(
            names = "--objective",
            paramLabel = "hm|earliest-at-reliability|cost",
            defaultValue = "earliest-at-reliability",
            description = "How the stored operating point is chosen on cross-fitted training replays: the earliest "
                    + "decisions certified at --target-reliability, the largest harmonic mean of accuracy and "
                    + "earliness, or the smallest average cost (1 - accuracy) + A * t/d with A = --delay-cost "
                    + "(default: ${DEFAULT-VALUE}). When the target cannot be certified, train says what would "
                    + "certify it and the model decides at the end of each series.")
    String objective;

    @Option(
            names = "--delay-cost",
            paramLabel = "A",
            description = "Delay cost A >= 0 of --objective cost: a decision at t/d costs A * t/d, a wrong label 1.")
    Double delayCost;

    @Option(
            names = "--guarantee",
            paramLabel = "pac|expected",
            defaultValue = "pac",
            description = "What a certified tau promises: pac, the rate of early labels differing from the "
                    + "complete-series label is at most 1 - tau with probability 1 - D over the training series "
                    + "(Learn-then-Test); expected, its expectation is (conformal risk control, certifies with fewer "
                    + "series) (default: ${DEFAULT-VALUE}).")
    String guarantee;

    @Option(
            names = "--crc-draw",
            paramLabel = "random|conservative|U",
            description = "With --guarantee expected, the draw U in (0, 1] of conformal risk control: a threshold "
                    + "is certified when (disagreements + U) / (n + 1) <= 1 - tau. random (default) derives U from "
                    + "--seed and the training data (reproducible, independent of the calibration results), so the "
                    + "expected disagreement rate is 1 - tau rather than up to 1/(n + 1) below it; the model stores U "
                    + "and its source; U reproduces a model, but a U chosen by hand (or kept after seeing the result) "
                    + "voids the expected guarantee; conservative is U = 1, the form without randomisation.")
    String crcDraw;

    @Option(
            names = "--selection-correction",
            paramLabel = "bonferroni|split|nested|fixed|none",
            description = "How the certificate accounts for the operating point being chosen among rules and taus "
                    + "on the same replays: fixed (certify only the default rule, the set rule with local QDA, fixed "
                    + "before training, so no choice among rules needs correcting), bonferroni (certify at D/K, or "
                    + "1 - tau over K for expected, K the candidates), split (choose on half the replayed series, "
                    + "certify on the other half), nested (certify one threshold for all rules at once: a series "
                    + "counts when any rule disagrees) or none (valid only for a rule and tau fixed in advance) "
                    + "(default: fixed, with either guarantee).")
    String selectionCorrection;

    @Option(
            names = "--estimator",
            paramLabel = "joint|gmm",
            defaultValue = "joint",
            description = "Complete-series estimator the calibrated rules condition with, so the certificate and the "
                    + "stored operating point are for it: joint (one Gaussian, thesis 5.19) or gmm (one Gaussian per "
                    + "class, 5.20; conditioned on any observed subset under an observation pattern) "
                    + "(default: ${DEFAULT-VALUE}). It must "
                    + "be among --estimators.")
    String estimator;

    @Option(
            names = "--target-reliability",
            paramLabel = "R",
            description = "Reliability R in (0, 1) the earliest-at-reliability objective must certify (default: 0.9).")
    Double targetReliability;

    @Option(
            names = "--calibration-folds",
            paramLabel = "K|auto",
            defaultValue = "auto",
            description = "Folds of the cross-fitted calibration, capped by the smallest class (default: "
                    + "${DEFAULT-VALUE}: 10, or 5 when series × series × length exceeds 1e9, where each fold's refit "
                    + "is costly).")
    String folds;

    @Option(
            names = "--delta",
            paramLabel = "D",
            defaultValue = "0.1",
            description = "Risk-control confidence: an announced tau is certified when the rate of early labels "
                    + "differing from the complete-series label is at most 1 - tau with probability 1 - D "
                    + "(default: ${DEFAULT-VALUE}).")
    double delta;

    @Option(
            names = "--reselect-in-folds",
            description = "Select k, gamma and the dimension afresh in every calibration fold, as for the full model, "
                    + "instead of reusing the full model's choice (which saw the held-out series); costs one selection "
                    + "per fold.")
    boolean reselectInFolds;

    @Option(
            names = "--calibration",
            paramLabel = "cross-fit|holdout[:F]",
            defaultValue = "cross-fit",
            description = "How the operating point is certified (default: ${DEFAULT-VALUE}). cross-fit: every series "
                    + "is replayed through a model refitted without its fold, and the deployed model, fitted on all "
                    + "series, is assumed to behave like those fold models. holdout:F: a stratified share F (default "
                    + "0.3) is set aside before selection and fitting and replayed through the deployed model itself, "
                    + "so the certificate is exactly for the model written; it costs earliness (fewer series to fit "
                    + "and to certify on).")
    String scheme;

    @Option(
            names = "--no-calibration",
            description = "Skip cross-fitted calibration: tau is used as the threshold itself, uncertified (as "
                    + "models of earlier Vigil versions).")
    boolean skip;

    /**
     * The holdout share of {@code --calibration}: 0 for {@code cross-fit}, {@link TrainOptions#DEFAULT_HOLDOUT} for
     * {@code holdout}, F for {@code holdout:F} with F in (0, 1).
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static double parseScheme(String value) {
        String v = value.strip();
        if ("cross-fit".equals(v)) {
            return 0;
        }
        if ("holdout".equals(v)) {
            return TrainOptions.DEFAULT_HOLDOUT;
        }
        double f = v.startsWith("holdout:") ? CalibrationChoices.number(v.substring("holdout:".length())) : Double.NaN;
        if (f > 0 && f < 1) {
            return f;
        }
        throw new IllegalArgumentException(
                "--calibration must be cross-fit, holdout or holdout:F with F in (0, 1), got '" + value + "'");
    }

    /** The holdout share of {@code --calibration} (0: cross-fit). */
    double holdout() {
        return parseScheme(scheme);
    }

    /** Whether to calibrate. */
    boolean enabled() {
        return !skip;
    }

    /** The choices these options name, checked together by {@link CalibrationChoices#params}. */
    CalibrationChoices choices() {
        return new CalibrationChoices(
                objective,
                delayCost,
                guarantee,
                crcDraw,
                selectionCorrection,
                estimator,
                targetReliability,
                folds,
                delta);
    }

    /**
     * The parameters.
     *
     * @throws IllegalArgumentException on a value out of range (callers turn it into a usage error)
     */
    CalibrationParams params(long seed) {
        return choices().params(seed);
    }

    /** {@code p} with the draw derived from the seed and the data when the options ask for it. */
    CalibrationParams withDerivedDraw(CalibrationParams p, long seed, String fingerprint) {
        return choices().withDerivedDraw(p, seed, fingerprint);
    }
}
