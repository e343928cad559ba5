package io.vigil.experiment;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import io.vigil.early.DecisionParams;
import io.vigil.early.DecisionThresholds;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.EarlyMethod;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.util.Progress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Earlier at equal quality, on one standard split: where the certified curve first reaches TEASER's accuracy, against
 * TEASER's earliness. The curve has one point per τ of a grid — the model {@code vigil train --target-reliability τ}
 * writes, i.e. the replayed rule that decides earliest among those certified at τ on the training replays (all τ
 * certified from one cross-fit; an uncertified τ decides every series at t = d) — evaluated on the test split. TEASER
 * is {@code evaluate --method teaser} trained on the same training split; the TEASER-WEASEL figures of {@link
 * ReliabilityExperiment#TEASER} are compared too. Beside them the default operating point's average cost (1 −
 * accuracy) + α·t/d and the one Mori et al.'s published accuracy and earliness give. Nothing is chosen on the test
 * split: the curve is read there, point by point, as a curve is drawn.
 */
public final class TeaserComparison {
    /**
     * Mori et al. (2017; stopping rule over probabilistic classifiers, cost function CF1, α = 0.8): published accuracy
     * and earliness (mean t/d) in whole per cent and hundredths of a per cent, as tabulated with other early
     * classifiers' published figures in the early_rnn repository (github.com/Francois-33/early_rnn, {@code
     * databases/sota_accuracy.csv} and {@code sota_earliness.csv}, column "SR1-CF1"); their harmonic means reproduce
     * the SR2-CF1 figures quoted for these six sets to ±0.007 (.740, .796, .746, .802, .833, .853 against .740, .796,
     * .746, .805, .833, .846).
     */
    public static final Map<String, double[]> MORI = Map.of(
            "ItalyPowerDemand", new double[] {0.90, 0.3711},
            "TwoLeadECG", new double[] {0.83, 0.2356},
            "ECGFiveDays", new double[] {0.62, 0.0634},
            "CBF", new double[] {0.89, 0.2704},
            "GunPoint", new double[] {0.93, 0.2460},
            "SyntheticControl", new double[] {0.94, 0.2190});

    private TeaserComparison() {}

    /**
     * One point of the certified curve on the test split.
     *
     * @param tau the target reliability the model was certified for
     * @param certified whether τ is certified (else every series is decided at t = d)
     * @param rule the replayed rule chosen at τ
     * @param classifier its classifier
     * @param accuracy test accuracy
     * @param earliness mean t/d on the test split
     */
    public record Point(
            double tau, boolean certified, String rule, String classifier, double accuracy, double earliness) {
        /** ml_edm's average cost (1 − accuracy) + α·earliness. */
        public double averageCost(double alpha) {
            return (1 - accuracy) + alpha * earliness;
        }
    }

    /**
     * One dataset's comparison.
     *
     * @param dataset name
     * @param trainSize training series
     * @param fullAccuracy the default model's accuracy on the complete test series
     * @param teaser TEASER's accuracy and earliness on the test split
     * @param curve one point per τ, in grid order
     * @param operatingPoint the default model ({@code vigil train} without flags) on the test split
     */
    public record Row(
            String dataset, int trainSize, double fullAccuracy, Point teaser, List<Point> curve, Point operatingPoint) {
        /** Copies the curve. */
        public Row {
            curve = List.copyOf(curve);
        }

        /** The earliest mean t/d at which a point of the curve is at least this accurate; NaN when none is. */
        public double reaches(double accuracy) {
            double best = Double.NaN;
            for (Point p : curve) {
                if (p.accuracy() >= accuracy - 1e-12 && !(p.earliness() >= best)) {
                    best = p.earliness();
                }
            }
            return best;
        }

        /** Whether the curve reaches this accuracy no later than this earliness. */
        public boolean noLater(double accuracy, double earliness) {
            return reaches(accuracy) <= earliness + 1e-12;
        }
    }

    /**
     * Trains TEASER and the certified curve on the training split and evaluates both on the test split.
     *
     * @param taus the curve's grid of target reliabilities
     * @param progress advanced once for the models and once per τ
     */
    public static Row run(TrainTest data, List<Double> taus, long seed, Progress progress) {
        return run(data, taus, seed, Guarantee.PAC, ConformalRiskControl.CONSERVATIVE, progress);
    }

    /**
     * As {@link #run(TrainTest, List, long, Progress)}, every model certified under {@code guarantee} (with its
     * default selection correction, as {@code vigil train --guarantee}) and, under expected, conformal draw {@code
     * crcDraw}.
     */
    public static Row run(
            TrainTest data, List<Double> taus, long seed, Guarantee guarantee, double crcDraw, Progress progress) {
        Dataset train = data.train();
        Dataset test = data.test().classNames().equals(train.classNames())
                ? data.test()
                : data.test().withClasses(train.classNames());
        CalibrationParams defaults = CalibrationParams.defaults(seed)
                .withGuarantee(guarantee, CalibrationParams.defaultSelection(guarantee))
                .withCrcDraw(guarantee == Guarantee.EXPECTED ? crcDraw : ConformalRiskControl.CONSERVATIVE);
        List<CalibrationParams> variants = new ArrayList<>();
        variants.add(defaults);
        for (double tau : taus) {
            variants.add(defaults.withObjective(CalibrationParams.Objective.EARLIEST_AT_RELIABILITY, tau));
        }
        List<ReliabilityExperiment.Trained> trained = ReliabilityExperiment.trainEach(train, seed, variants);
        progress.step();
        EarlyEvaluation.Result teaser = BaselineEvaluation.run(
                train.name(),
                trained.get(0).model(),
                train,
                test,
                BaselineEvaluation.Settings.defaults(EarlyMethod.TEASER),
                false,
                Progress.none());
        EarlyEvaluation.TauResult t = teaser.taus().get(0);
        Point teaserPoint = new Point(Double.NaN, false, "teaser", "1-nn", t.accuracy(), t.meanFraction());
        List<Point> curve = new ArrayList<>();
        Point operatingPoint = null;
        double full = Double.NaN;
        // τ values certified at the same threshold of the same rule decide alike (all from one cross-fit): each such
        // rule is evaluated once, so a dense grid costs one evaluation per distinct threshold, not per τ.
        Map<List<Object>, EarlyEvaluation.Result> evaluated = new HashMap<>();
        for (int k = 0; k < trained.size(); k++) {
            ReliabilityExperiment.Trained m = trained.get(k);
            DecisionParams p = m.operatingPoint();
            DecisionThresholds th = DecisionThresholds.of(m.model(), p);
            List<Object> key =
                    List.of(p.rule(), p.classifier(), p.set(), p.estimator(), th.calibrated() ? th.index() : p.tau());
            EarlyEvaluation.Result e = evaluated.computeIfAbsent(
                    key,
                    x -> EarlyEvaluation.run(
                            train.name(), m.model(), null, test, List.of(p.tau()), p, Progress.none()));
            EarlyEvaluation.TauResult r = e.taus().get(0);
            Point point = new Point(
                    p.tau(),
                    r.certified(),
                    p.rule().cliName(),
                    p.classifier().cliName(),
                    r.accuracy(),
                    r.meanFraction());
            if (k == 0) {
                operatingPoint = point;
                full = e.fullAccuracy();
            } else {
                curve.add(point);
                progress.step();
            }
        }
        return new Row(train.name(), train.size(), full, teaserPoint, curve, operatingPoint);
    }

    /** The average cost of Mori et al.'s published accuracy and earliness at α, or NaN for another dataset. */
    public static double moriAverageCost(String dataset, double alpha) {
        double[] m = MORI.get(dataset);
        return m == null ? Double.NaN : (1 - m[0]) + alpha * m[1];
    }
}
