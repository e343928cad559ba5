package io.vigil.experiment;

import io.vigil.api.TrainOptions;
import io.vigil.api.VigilTrainer;
import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.Coverage;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.evaluate.Binomial;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The reliability benchmark on one standard train/test split: train with the defaults of {@code vigil
 * train} (selection protocol and parameters by cross-validation, complete-series Gaussians, cross-fitted calibration
 * and the operating point chosen on training data only), then evaluate on the test split at the stored operating
 * point (accuracy, earliness, harmonic mean) and, with the operating point's rule and classifier, at each requested
 * τ (empirical reliability against τ with a one-sided binomial test) and at its earliest threshold. Nothing here
 * looks at the test split before the model is fixed.
 */
public final class ReliabilityExperiment {
    /**
     * TEASER with WEASEL slave classifiers (Schäfer &amp; Leser 2020; tsml-java, standard UCR splits, measured on this
     * hardware for this benchmark): accuracy and earliness per dataset, the reference the operating point is compared with.
     */
    public static final Map<String, double[]> TEASER = Map.of(
            "ItalyPowerDemand", new double[] {0.80, 0.49},
            "TwoLeadECG", new double[] {0.88, 0.36},
            "ECGFiveDays", new double[] {0.85, 0.20},
            "CBF", new double[] {0.90, 0.52},
            "GunPoint", new double[] {0.86, 0.27},
            "SyntheticControl", new double[] {0.78, 0.26});

    private ReliabilityExperiment() {}

    /**
     * One dataset's outcome.
     *
     * @param dataset name
     * @param trainSize training series
     * @param model the trained, calibrated model
     * @param operatingPoint the evaluation at the stored operating point
     * @param taus the evaluation at each requested τ with the operating point's rule and classifier
     * @param earliest the same rule and classifier at its least conservative replayed threshold, where it decides
     *     as early as it can: no threshold makes the rule less reliable than this (its reliability bounds from below
     *     what any announced τ can be calibrated to)
     * @param coverageTaus τ of the Gaussian-set coverage measured by cross-fitting
     * @param coverageBefore held-out coverage with the model's own R_y
     * @param coverageAfter held-out coverage with the inflated R_y
     * @param testCoverage coverage of the Gaussian 0.9-set on the test split (never seen in training)
     * @param seconds training plus evaluation time
     */
    public record Row(
            String dataset,
            int trainSize,
            VigilModel model,
            EarlyEvaluation.Result operatingPoint,
            EarlyEvaluation.Result taus,
            EarlyEvaluation.Result earliest,
            double[] coverageTaus,
            double[] coverageBefore,
            double[] coverageAfter,
            Coverage.Result testCoverage,
            double seconds) {}

    /** Trains, calibrates and evaluates one dataset. */
    public static Row run(TrainTest data, List<Double> taus, long seed, Progress progress) {
        return run(data, taus, seed, CalibrationParams.DEFAULT_DELTA, progress);
    }

    /** As {@link #run(TrainTest, List, long, Progress)} with the certificate's δ. */
    public static Row run(TrainTest data, List<Double> taus, long seed, double delta, Progress progress) {
        long start = System.nanoTime();
        Dataset train = data.train();
        Dataset test = data.test().classNames().equals(train.classNames())
                ? data.test()
                : data.test().withClasses(train.classNames());
        Trained trained = trainWithDefaults(train, seed, delta);
        VigilModel model = trained.model();
        CalibrationSection cal = model.section(CalibrationSection.class).orElseThrow();
        progress.step();
        Evaluated e = evaluate(train.name(), trained, test, taus);
        progress.stepBy(2);
        return new Row(
                train.name(),
                train.size(),
                model,
                e.operatingPoint(),
                e.taus(),
                e.earliest(),
                cal.coverageTaus(),
                cal.coverageBefore(),
                cal.coverageAfter(),
                Coverage.of(model, test, 0.9),
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * A model as {@code vigil train} builds it by default, and the decision parameters of its stored operating point.
     *
     * @param model selection, LDG, local QDA, complete-series Gaussians and the cross-fitted calibration
     * @param operatingPoint τ, rule, set, estimator and classifier chosen on the training split (the defaults when
     *     calibration chose none)
     */
    public record Trained(VigilModel model, DecisionParams operatingPoint) {}

    /**
     * One model's evaluation on a test split.
     *
     * @param operatingPoint at the stored operating point
     * @param taus at each requested τ with the operating point's rule and classifier
     * @param earliest the same rule and classifier at its least conservative replayed threshold
     */
    public record Evaluated(
            EarlyEvaluation.Result operatingPoint, EarlyEvaluation.Result taus, EarlyEvaluation.Result earliest) {}

    /** Evaluates a trained model on {@code test} (class indices in the model's order) at its operating point, at each τ and at its earliest. */
    public static Evaluated evaluate(String dataset, Trained trained, Dataset test, List<Double> taus) {
        VigilModel model = trained.model();
        DecisionParams base = trained.operatingPoint();
        CalibrationSection cal = model.section(CalibrationSection.class).orElseThrow();
        EarlyEvaluation.Result atPoint =
                EarlyEvaluation.run(dataset, model, null, test, List.of(base.tau()), base, Progress.none());
        EarlyEvaluation.Result atTaus = EarlyEvaluation.run(dataset, model, null, test, taus, base, Progress.none());
        // Announcing τ = the lowest replayed threshold certifies every threshold, so the rule runs at that one.
        EarlyEvaluation.Result earliest =
                EarlyEvaluation.run(dataset, model, null, test, List.of(cal.thresholds()[0]), base, Progress.none());
        return new Evaluated(atPoint, atTaus, earliest);
    }

    /** Trains and calibrates on {@code train} with every default, as {@code vigil train} does. */
    public static Trained trainWithDefaults(Dataset train, long seed) {
        return trainWithDefaults(train, seed, CalibrationParams.DEFAULT_DELTA);
    }

    /** As {@link #trainWithDefaults(Dataset, long)} with another δ, as {@code vigil train --delta} gives. */
    public static Trained trainWithDefaults(Dataset train, long seed, double delta) {
        return trainEach(train, seed, List.of(CalibrationParams.defaults(seed).withDelta(delta)))
                .get(0);
    }

    /**
     * As {@link #trainWithDefaults(Dataset, long)}, calibrated under each of {@code variants} (calibration parameters
     * that differ only in what is certified: guarantee, selection correction, δ, objective): the model is trained and
     * cross-fitted once ({@link CrossFitCalibrator#calibrateEach}), so the variants are compared on the same replays.
     *
     * @return one trained model per variant, in order
     */
    public static List<Trained> trainEach(Dataset train, long seed, List<CalibrationParams> variants) {
        return trainEach(train, seed, variants, false);
    }

    /**
     * As {@link #trainEach(Dataset, long, List)}; with {@code reselectInFolds} every calibration fold selects its own
     * k, γ, ℓ as the full model did instead of reusing the full model's ({@link CrossFitCalibrator#calibrateEach}).
     */
    public static List<Trained> trainEach(
            Dataset train, long seed, List<CalibrationParams> variants, boolean reselectInFolds) {
        return trainEach(train, seed, variants, reselectInFolds, 0);
    }

    /**
     * As {@link #trainEach(Dataset, long, List, boolean)}; a {@code holdout} share in (0, 1) calibrates on that part
     * of {@code train} held out of fitting and selection ({@code vigil train --calibration holdout:F}).
     */
    public static List<Trained> trainEach(
            Dataset train, long seed, List<CalibrationParams> variants, boolean reselectInFolds, double holdout) {
        TrainOptions options = TrainOptions.builder()
                .selection(TrainParams.builder().seed(seed).build())
                .sections(EarlyModelTrainer.Params.defaults())
                .calibration(variants.get(0))
                .reselectInFolds(reselectInFolds)
                .calibrationHoldout(holdout)
                .created(Instant.EPOCH)
                .build();
        List<Trained> out = new ArrayList<>();
        for (VigilModel m : VigilTrainer.trainEach(train, options, variants, Progress.none())) {
            out.add(new Trained(m, operatingPoint(m)));
        }
        return out;
    }

    /** The decision parameters of a calibrated model's stored operating point (the defaults when it has none). */
    static DecisionParams operatingPoint(VigilModel model) {
        model.section(CalibrationSection.class).orElseThrow();
        return DecisionOverrides.none().resolve(model);
    }

    /** The harmonic mean of TEASER's accuracy and earliness on a dataset, or NaN when not measured. */
    public static double teaserHarmonicMean(String dataset) {
        double[] t = TEASER.get(dataset);
        if (t == null) {
            return Double.NaN;
        }
        double e = 1 - t[1];
        return 2 * t[0] * e / (t[0] + e);
    }

    /** Summaries over rows: HM wins against TEASER, mean HM, mean reliability gap per τ, significant shortfalls. */
    public record Summary(int compared, int wins, double meanHm, double meanTeaserHm, List<String> shortfalls) {}

    /** The summary of a run. */
    public static Summary summarise(List<Row> rows) {
        int compared = 0;
        int wins = 0;
        double hm = 0;
        double teaser = 0;
        List<String> shortfalls = new ArrayList<>();
        for (Row r : rows) {
            double t = teaserHarmonicMean(r.dataset());
            if (!Double.isNaN(t)) {
                double h = r.operatingPoint().taus().get(0).harmonicMean();
                compared++;
                wins += h > t ? 1 : 0;
                hm += h;
                teaser += t;
            }
            for (EarlyEvaluation.TauResult tr : r.taus().taus()) {
                int n = tr.decisions().size();
                int k = (int) Math.round(tr.reliability() * n);
                if (Binomial.pBelow(k, n, tr.tau()) < 0.05) {
                    shortfalls.add(r.dataset() + " τ = " + tr.tau());
                }
            }
        }
        return new Summary(
                compared,
                wins,
                compared == 0 ? Double.NaN : hm / compared,
                compared == 0 ? Double.NaN : teaser / compared,
                shortfalls);
    }
}
