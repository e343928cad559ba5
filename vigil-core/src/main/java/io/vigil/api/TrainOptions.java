package io.vigil.api;

import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.model.CreationTime;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.select.TrainParams;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything {@link VigilTrainer#train} needs besides the data: how LDG and local QDA are selected (thesis §3.4–3.5),
 * which complete-series Gaussians and SVM are stored for early decisions (§5.4, §5.6.2), and how the decision
 * thresholds are calibrated on cross-fitted training replays (docs/method.md §5–§6). Immutable; {@link #defaults()}
 * are {@code vigil train}'s defaults, so a model trained with them equals the one {@code vigil train} writes for the
 * same data and seed.
 *
 * @param selection the LDG / local-QDA selection parameters (their seed is the fold assignment's)
 * @param sections the complete-series estimators, their covariance shrinkage and form, and the SVM cost
 * @param calibration the cross-fitted calibration, or empty to store no certificate ({@code --no-calibration}: τ is
 *     then the threshold itself, uncertified)
 * @param reselectInFolds whether every calibration fold selects k, γ and ℓ afresh as the full model did instead of
 *     reusing the full model's choice (one selection per fold; single-domain training only)
 * @param calibrationHoldout 0 for cross-fitted calibration; otherwise the share F ∈ (0, 1) of the training series held
 *     out of fitting and selection and replayed through the deployed model to certify it ({@link
 *     VigilTrainer#train}, docs/guarantee.md "Holdout calibration"; {@value #DEFAULT_HOLDOUT} by default in {@code vigil
 *     train --calibration holdout})
 * @param created the creation time written into the model ({@link CreationTime#now()} by default:
 *     {@code SOURCE_DATE_EPOCH} when set, so model files are reproducible)
 */
public record TrainOptions(
        TrainParams selection,
        EarlyModelTrainer.Params sections,
        Optional<CalibrationParams> calibration,
        boolean reselectInFolds,
        double calibrationHoldout,
        Instant created) {
    /** The share of the training series {@code --calibration holdout} holds out when no share is given. */
    public static final double DEFAULT_HOLDOUT = 0.3;

    /** Validates. */
    public TrainOptions {
        if (!(calibrationHoldout >= 0 && calibrationHoldout < 1)) {
            throw new IllegalArgumentException(
                    "the calibration holdout share must lie in (0, 1), got " + calibrationHoldout);
        }
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(sections, "sections");
        Objects.requireNonNull(calibration, "calibration");
        Objects.requireNonNull(created, "created");
    }

    /** {@code vigil train}'s defaults with seed {@value TrainParams#DEFAULT_SEED}. */
    public static TrainOptions defaults() {
        return builder().build();
    }

    /** A builder at {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.selection = selection;
        b.sections = sections;
        b.calibration = calibration.orElse(null);
        b.calibrate = calibration.isPresent();
        b.reselectInFolds = reselectInFolds;
        b.calibrationHoldout = calibrationHoldout;
        b.created = created;
        return b;
    }

    /**
     * {@code vigil train}'s calibration defaults for a seed: the earliest-at-reliability objective at reliability 0.9,
     * the pac guarantee at δ = 0.1 with its default selection correction, folds chosen by the training set's size
     * ({@link CalibrationParams#AUTO_FOLDS}), the joint estimator, complete observation.
     */
    public static CalibrationParams defaultCalibration(long seed) {
        return CalibrationParams.defaults(seed)
                .withFoldsAndDelta(CalibrationParams.AUTO_FOLDS, CalibrationParams.DEFAULT_DELTA)
                .withObjective(
                        CalibrationParams.Objective.EARLIEST_AT_RELIABILITY,
                        CalibrationParams.DEFAULT_TARGET_RELIABILITY,
                        Double.NaN)
                .withGuarantee(
                        io.vigil.reliability.risk.Guarantee.PAC,
                        CalibrationParams.defaultSelection(io.vigil.reliability.risk.Guarantee.PAC))
                .withCrcDraw(ConformalRiskControl.CONSERVATIVE);
    }

    /** {@code vigil train}'s complete-series defaults for a seed (LIBLINEAR's): both estimators, Ledoit–Wolf, auto. */
    public static EarlyModelTrainer.Params defaultSections(long seed) {
        EarlyModelTrainer.Params d = EarlyModelTrainer.Params.defaults();
        return new EarlyModelTrainer.Params(d.shrinkage(), d.covariance(), d.estimators(), d.svmCost(), seed);
    }

    /** Builds {@link TrainOptions}; every part starts at {@code vigil train}'s default. */
    public static final class Builder {
        private long seed = TrainParams.DEFAULT_SEED;
        private TrainParams selection;
        private EarlyModelTrainer.Params sections;
        private CalibrationParams calibration;
        private boolean calibrate = true;
        private boolean reselectInFolds;
        private double calibrationHoldout;
        private Instant created;

        private Builder() {}

        /**
         * The seed of every part left at its default (fold assignment of the selection and of the calibration,
         * LIBLINEAR's), as {@code vigil train --seed}; parts set explicitly keep their own.
         */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** The selection parameters. */
        public Builder selection(TrainParams p) {
            this.selection = Objects.requireNonNull(p, "selection");
            return this;
        }

        /** The complete-series sections to fit. */
        public Builder sections(EarlyModelTrainer.Params p) {
            this.sections = Objects.requireNonNull(p, "sections");
            return this;
        }

        /** The calibration parameters (and calibration on). */
        public Builder calibration(CalibrationParams p) {
            this.calibration = Objects.requireNonNull(p, "calibration");
            this.calibrate = true;
            return this;
        }

        /** No calibration: the model stores no certificate. */
        public Builder noCalibration() {
            this.calibration = null;
            this.calibrate = false;
            return this;
        }

        /** Whether calibration folds reselect k, γ, ℓ. */
        public Builder reselectInFolds(boolean on) {
            this.reselectInFolds = on;
            return this;
        }

        /**
         * Holdout calibration on a share {@code fraction} ∈ (0, 1) of the training series (0: cross-fitted, the
         * default).
         */
        public Builder calibrationHoldout(double fraction) {
            this.calibrationHoldout = fraction;
            return this;
        }

        /** The creation time written into the model. */
        public Builder created(Instant t) {
            this.created = Objects.requireNonNull(t, "created");
            return this;
        }

        /** The options. */
        public TrainOptions build() {
            return new TrainOptions(
                    selection != null
                            ? selection
                            : TrainParams.builder().seed(seed).build(),
                    sections != null ? sections : defaultSections(seed),
                    calibrate
                            ? Optional.of(calibration != null ? calibration : defaultCalibration(seed))
                            : Optional.empty(),
                    reselectInFolds,
                    calibrationHoldout,
                    created != null ? created : CreationTime.now());
        }
    }
}
