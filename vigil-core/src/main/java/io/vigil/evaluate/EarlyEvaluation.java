package io.vigil.evaluate;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code vigil evaluate}'s computation (thesis §5.5 protocol): replays every test series sample by sample
 * through {@link EarlyClassifier} for each τ and summarises earliness (mean t, mean t/d, count decided before
 * d), reliability (early label = the same classifier's complete-series label) and accuracy, with the
 * fixed-time baselines alongside.
 */
public final class EarlyEvaluation {
    /**
     * The delay costs α at which {@code evaluate --json} reports ml_edm's average cost. ml_edm's {@code average_cost}
     * takes α as an argument and the package fixes no grid, so these four, from coarse to fine, are Vigil's own grid.
     */
    public static final double[] AVERAGE_COST_ALPHAS = {0.001, 0.01, 0.1, 0.5};

    private EarlyEvaluation() {}

    /**
     * The summary at one τ.
     *
     * @param tau τ
     * @param decisions one per test series
     * @param reliability fraction of series whose early label equals the complete-series label
     * @param accuracy fraction of series whose early label is the true label
     * @param meanT mean decision time t_i
     * @param meanFraction mean t_i/d
     * @param decidedEarly number of series decided before t = d
     * @param usPerSample mean wall-clock microseconds per sample (update + decision check)
     * @param threshold the threshold λ the rule decided at (τ itself when uncalibrated)
     * @param calibrated whether τ was mapped to λ by risk control on cross-fitted replays
     * @param certified whether τ is certified (rate of early labels ≠ complete label ≤ 1 − τ w.p. ≥ 1 − δ, or in
     *     expectation)
     * @param guarantee {@code pac} or {@code expected} when certified, else {@code none}
     */
    public record TauResult(
            double tau,
            List<SeriesDecision> decisions,
            double reliability,
            double accuracy,
            double meanT,
            double meanFraction,
            int decidedEarly,
            double usPerSample,
            double threshold,
            boolean calibrated,
            boolean certified,
            String guarantee) {
        /** Copies the list. */
        public TauResult {
            decisions = List.copyOf(decisions);
            Objects.requireNonNull(guarantee, "guarantee");
        }

        /**
         * ml_edm's average cost (Renault et al. 2024; {@code metrics.average_cost}): (1 − accuracy) + α·earliness, the
         * earliness being the mean t/d.
         */
        public double averageCost(double alpha) {
            return (1 - accuracy) + alpha * meanFraction;
        }

        /** HM = 2·acc·(1 − t/d)/(acc + 1 − t/d), the harmonic mean of accuracy and earliness (Schäfer &amp; Leser). */
        public double harmonicMean() {
            double e = 1 - meanFraction;
            return accuracy + e > 0 ? 2 * accuracy * e / (accuracy + e) : 0.0;
        }

        /** The two-sided 95 % Clopper–Pearson interval of the reliability (binomial over the test series). */
        public double[] reliabilityInterval() {
            return Binomial.clopperPearson((int) Math.round(reliability * decisions.size()), decisions.size(), 0.05);
        }
    }

    /**
     * Everything one evaluation produced.
     *
     * @param dataset data set name
     * @param testSize number of test series
     * @param length d
     * @param fullAccuracy the classifier's accuracy on the complete test series
     * @param params the decision parameters (τ varies per entry of {@code taus})
     * @param taus one entry per τ, in the order given
     * @param baselines fixed-time baselines, empty when no training data was given
     * @param method the early classifier evaluated
     * @param description one line naming the method and its settings (empty for {@link EarlyMethod#VIGIL}, whose
     *     settings are {@code params})
     * @param methodParams the baseline's settings, chosen or given, by name (empty for {@link EarlyMethod#VIGIL})
     */
    public record Result(
            String dataset,
            int testSize,
            int length,
            double fullAccuracy,
            DecisionParams params,
            List<TauResult> taus,
            List<FixedTimeBaselines.Point> baselines,
            EarlyMethod method,
            String description,
            Map<String, Object> methodParams) {
        /** Copies the lists and the map (keeping its order). */
        public Result {
            taus = List.copyOf(taus);
            baselines = List.copyOf(baselines);
            methodParams = Collections.unmodifiableMap(new LinkedHashMap<>(methodParams));
        }

        /** Whether this is Vigil's rule, whose entries carry τ. */
        public boolean isVigil() {
            return method == EarlyMethod.VIGIL;
        }
    }

    /**
     * Runs the evaluation.
     *
     * @param train the training split for the baselines (class indices in the model's order), or null to skip
     *     them
     * @param test the test split, class indices in the model's order
     * @param taus the τ values, each in (0, 1)
     * @param params the other decision parameters (their τ is ignored)
     * @param progress advanced once per τ and once for the baselines
     */
    public static Result run(
            String dataset,
            VigilModel model,
            Dataset train,
            Dataset test,
            List<Double> taus,
            DecisionParams params,
            Progress progress) {
        return run(dataset, model, train, test, taus, params, ObservationPattern.complete(), progress);
    }

    /**
     * As {@link #run(String, VigilModel, Dataset, Dataset, List, DecisionParams, Progress)} with every test series
     * observed under {@code pattern}, seeded per series by its id {@code DATASET/test/INDEX} ({@link
     * EarlyReplay#run(EarlyClassifier, Dataset, ObservationPattern, String)}).
     */
    public static Result run(
            String dataset,
            VigilModel model,
            Dataset train,
            Dataset test,
            List<Double> taus,
            DecisionParams params,
            ObservationPattern pattern,
            Progress progress) {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(pattern, "pattern");
        if (taus.isEmpty()) {
            throw new IllegalArgumentException("at least one τ is needed");
        }
        if (test.length() != model.length()) {
            throw new IllegalArgumentException(
                    "test series have length " + test.length() + " but the model expects " + model.length());
        }
        if (test.size() == 0) {
            throw new IllegalArgumentException("the test split is empty");
        }
        List<TauResult> results = new ArrayList<>();
        double fullAccuracy = Double.NaN;
        for (double tau : taus) {
            EarlyClassifier c = EarlyClassifier.of(model, params.withTau(tau));
            EarlyReplay.Result r = EarlyReplay.run(c, test, pattern, dataset + "/test/");
            results.add(summarise(tau, r, test.length(), c.thresholds()));
            if (Double.isNaN(fullAccuracy)) {
                int correct = 0;
                for (SeriesDecision d : r.decisions()) {
                    correct += d.completeLabel() == d.trueLabel() ? 1 : 0;
                }
                fullAccuracy = correct / (double) test.size();
            }
            progress.step();
        }
        List<FixedTimeBaselines.Point> baselines =
                train == null ? List.of() : FixedTimeBaselines.compute(model, train, test);
        progress.step();
        return new Result(
                dataset,
                test.size(),
                test.length(),
                fullAccuracy,
                params.withTau(taus.get(0)),
                results,
                baselines,
                EarlyMethod.VIGIL,
                "",
                Map.of());
    }

    public static TauResult summarise(double tau, EarlyReplay.Result r, int length, DecisionThresholds th) {
        return summarise(tau, r, length, th.threshold(), th.calibrated(), th.certified(), th.guarantee());
    }

    /** The summary of one replay; {@code tau} and {@code threshold} are NaN for methods without τ. */
    public static TauResult summarise(
            double tau,
            EarlyReplay.Result r,
            int length,
            double threshold,
            boolean calibrated,
            boolean certified,
            String guarantee) {
        int n = r.decisions().size();
        int reliable = 0;
        int correct = 0;
        int early = 0;
        long sumT = 0;
        for (SeriesDecision d : r.decisions()) {
            reliable += d.reliable() ? 1 : 0;
            correct += d.correct() ? 1 : 0;
            early += d.early() ? 1 : 0;
            sumT += d.t();
        }
        double meanT = sumT / (double) n;
        return new TauResult(
                tau,
                r.decisions(),
                reliable / (double) n,
                correct / (double) n,
                meanT,
                meanT / length,
                early,
                r.microsPerSample(),
                threshold,
                calibrated,
                certified,
                guarantee);
    }
}
