package io.vigil.experiment;

import io.vigil.baseline.Ects;
import io.vigil.baseline.Teaser;
import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.EarlyMethod;
import io.vigil.evaluate.EarlyPrediction;
import io.vigil.evaluate.FixedTime;
import io.vigil.evaluate.FixedTimeBaselines;
import io.vigil.evaluate.PrefixClassifier;
import io.vigil.evaluate.PrefixClassifiers;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code vigil evaluate --method ects|fixed-qda|fixed-1nn|teaser}: trains a baseline early classifier on the training
 * split (every parameter it chooses is chosen there, never on the test split) and summarises its early decisions on
 * the test split in the same {@link EarlyEvaluation.Result} as Vigil's rule — one entry without τ, reliability being
 * agreement with the method's own label at t = d. Its µs per sample is the wall time of the test pass over the
 * samples the decisions read (Σ t_i); for the fixed-time methods that pass includes fitting the prefix classifiers,
 * which {@link PrefixClassifier} does in the same call.
 */
public final class BaselineEvaluation {
    /** Seed of the training-split cross-validation folds. */
    public static final long SEED = 15L;

    private BaselineEvaluation() {}

    /**
     * Method settings; NaN or 0 mean "choose on the training split".
     *
     * @param method not {@link EarlyMethod#VIGIL}
     * @param ectsSupport ECTS minimum support in [0, 1]
     * @param fixedFraction fixed-time fraction of d in (0, 1], or NaN to cross-validate
     * @param teaserPrefixes TEASER's S
     * @param teaserV TEASER's v in 1..5, or 0 to cross-validate
     * @param teaserMaster TEASER's master one-class SVM
     */
    public record Settings(
            EarlyMethod method,
            double ectsSupport,
            double fixedFraction,
            int teaserPrefixes,
            int teaserV,
            Teaser.Master teaserMaster) {
        /** Checks that the method is a baseline. */
        public Settings {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(teaserMaster, "teaserMaster");
            if (method == EarlyMethod.VIGIL) {
                throw new IllegalArgumentException("vigil is not a baseline; use EarlyEvaluation.run");
            }
        }

        /** Defaults for a method: support 0, fraction and v by cross-validation, S = 20, Gaussian-kernel master. */
        public static Settings defaults(EarlyMethod method) {
            return new Settings(
                    method, Ects.DEFAULT_SUPPORT, Double.NaN, Teaser.DEFAULT_PREFIXES, 0, Teaser.Master.RBF);
        }
    }

    /**
     * Trains the baseline on {@code train} and evaluates it on {@code test}.
     *
     * @param model supplies the class order and, for fixed-qda and the fixed-time curves, the LDG and local-QDA
     *     settings
     * @param train training split, class indices in the model's order
     * @param test test split, class indices in the model's order
     * @param curves whether to add the fixed-time baseline curves (10 %, …, 100 % of d) as {@code vigil} does
     * @param progress advanced once for the method and once for the curves
     */
    public static EarlyEvaluation.Result run(
            String dataset,
            VigilModel model,
            Dataset train,
            Dataset test,
            Settings settings,
            boolean curves,
            Progress progress) {
        Objects.requireNonNull(train, "a baseline needs the training split");
        if (test.size() == 0) {
            throw new IllegalArgumentException("the test split is empty");
        }
        if (train.length() != test.length()) {
            throw new IllegalArgumentException(
                    "training series have length " + train.length() + " but test series have length " + test.length());
        }
        double[][] x = train.rows();
        int[] y = train.classIndices();
        int g = train.numClasses();
        double[][] q = test.rows();
        Map<String, Object> params = new LinkedHashMap<>();
        String description;
        EarlyPrediction[] predictions = new EarlyPrediction[q.length];
        long start;
        switch (settings.method()) {
            case ECTS -> {
                Ects ects = Ects.fit(x, y, g, settings.ectsSupport());
                start = System.nanoTime();
                for (int i = 0; i < q.length; i++) {
                    predictions[i] = ects.predict(q[i]);
                }
                params.put("support", settings.ectsSupport());
                description = "ECTS (Xing, Pei & Yu 2012): 1-NN with minimum prediction lengths from reverse-nearest-"
                        + "neighbour stability and the cluster relaxation, minimum support " + settings.ectsSupport();
            }
            case FIXED_QDA, FIXED_1NN -> {
                boolean qda = settings.method() == EarlyMethod.FIXED_QDA;
                PrefixClassifier c = qda
                        ? PrefixClassifiers.localQda(FixedTimeBaselines.settings(model))
                        : PrefixClassifiers.oneNn();
                boolean chosen = Double.isNaN(settings.fixedFraction());
                double f = chosen ? FixedTime.chooseFraction(c, x, y, g, SEED) : settings.fixedFraction();
                start = System.nanoTime();
                predictions = FixedTime.predict(c, x, y, g, q, f);
                params.put("fraction", f);
                params.put("fraction_chosen_by", chosen ? "training cross-validation (HM)" : "user");
                params.put("t", predictions[0].t());
                description = (qda ? PrefixClassifiers.LOCAL_QDA : PrefixClassifiers.ONE_NN) + " at t/d = " + f
                        + (chosen
                                ? " (chosen by " + FixedTime.FOLDS + "-fold cross-validation on the training split)"
                                : "");
            }
            case TEASER -> {
                Teaser teaser = Teaser.fit(
                        x, y, g, settings.teaserPrefixes(), settings.teaserV(), settings.teaserMaster(), SEED);
                start = System.nanoTime();
                for (int i = 0; i < q.length; i++) {
                    predictions[i] = teaser.predict(q[i]);
                }
                params.put("prefixes", teaser.prefixLengths().length);
                params.put("v", teaser.v());
                params.put("v_chosen_by", settings.teaserV() == 0 ? "training cross-validation (HM)" : "user");
                params.put("master", teaser.master().cliName());
                params.put("nu", teaser.nu());
                params.put("gamma", Double.isNaN(teaser.gamma()) ? null : teaser.gamma());
                params.put("slave", Teaser.SLAVE);
                description = "TEASER (Schäfer & Leser 2020), S = " + teaser.prefixLengths().length + ", v = "
                        + teaser.v() + "; slave: " + Teaser.SLAVE + "; master: "
                        + teaser.master().description()
                        + " (ν = " + teaser.nu()
                        + (Double.isNaN(teaser.gamma()) ? "" : ", γ = " + teaser.gamma()) + ")";
            }
            default -> throw new IllegalStateException("not a baseline: " + settings.method());
        }
        long nanos = System.nanoTime() - start;
        progress.step();
        int d = test.length();
        List<SeriesDecision> decisions = new ArrayList<>();
        long samples = 0;
        int completeCorrect = 0;
        for (int i = 0; i < predictions.length; i++) {
            EarlyPrediction p = predictions[i];
            decisions.add(new SeriesDecision(i, p.t(), p.label(), p.completeLabel(), test.classOf(i), p.t() < d));
            samples += p.t();
            completeCorrect += p.completeLabel() == test.classOf(i) ? 1 : 0;
        }
        EarlyEvaluation.TauResult summary = EarlyEvaluation.summarise(
                Double.NaN,
                new EarlyReplay.Result(decisions, samples, nanos),
                d,
                Double.NaN,
                false,
                false,
                Guarantee.NONE);
        List<FixedTimeBaselines.Point> baselines = curves ? FixedTimeBaselines.compute(model, train, test) : List.of();
        progress.step();
        return new EarlyEvaluation.Result(
                dataset,
                test.size(),
                d,
                completeCorrect / (double) test.size(),
                DecisionParams.defaults(),
                List.of(summary),
                baselines,
                settings.method(),
                description,
                params);
    }
}
