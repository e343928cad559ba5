package io.vigil.early.calibrate;

import io.vigil.model.CalibrationSection;
import java.util.Optional;

/**
 * Chooses the operating point on cross-fitted replays (docs/method.md §5, "Objectives"): for every replayed rule and
 * every announced τ of a grid, the section's certification ({@link CalibrationSection#certify}) maps τ to a threshold;
 * the objective then picks — among the certified (rule, τ) pairs, or among all if none is certified — the largest
 * harmonic mean HM = 2·acc·(1 − t/d)/(acc + 1 − t/d) (ties → larger τ), the earliest mean decision at the target
 * reliability, or the smallest average cost (1 − acc) + A·t/d. An uncertified τ counts as deciding at t = d (HM 0,
 * t/d 1, the same cost for every uncertified candidate), which is what the rule then does.
 */
final class OperatingPoints {
    private OperatingPoints() {}

    /** The harmonic mean of accuracy and earliness 1 − t/d (0 when both are 0). */
    static double harmonicMean(double accuracy, double meanFraction) {
        double e = 1 - meanFraction;
        return accuracy + e > 0 ? 2 * accuracy * e / (accuracy + e) : 0.0;
    }

    /** ml_edm's average cost (src/ml_edm/metrics.py): (1 − accuracy) + α·earliness, earliness the mean t/d. */
    static double averageCost(double accuracy, double meanFraction, double alpha) {
        return (1 - accuracy) + alpha * meanFraction;
    }

    /** The τ values the objective looks at: the target alone for earliest-at-reliability, else {@code taus}. */
    static double[] candidateTaus(CalibrationParams p, double[] taus) {
        return p.objective() == CalibrationParams.Objective.EARLIEST_AT_RELIABILITY
                ? new double[] {p.targetReliability()}
                : taus.clone();
    }

    /** K: how many (curve, τ) candidates {@link #choose} picks among. */
    static int candidates(int curves, CalibrationParams p, double[] taus) {
        return Math.max(1, curves * candidateTaus(p, taus).length);
    }

    static Optional<CalibrationSection.OperatingPoint> choose(
            CalibrationSection s, CalibrationParams p, double[] taus) {
        CalibrationSection.OperatingPoint best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (CalibrationSection.Curve c : s.curves()) {
            for (double tau : candidateTaus(p, taus)) {
                CalibrationSection.OperatingPoint point = at(s, c, tau, p);
                double score = score(s, c, point, p);
                boolean better = best == null
                        || (point.certified() && !best.certified())
                        || (point.certified() == best.certified()
                                && (score > bestScore || (score == bestScore && tau > best.tau())));
                if (better) {
                    best = point;
                    bestScore = score;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    /** The operating point (curve, τ) as the section certifies it; its HM is that of the replays it is read from. */
    static CalibrationSection.OperatingPoint at(
            CalibrationSection s, CalibrationSection.Curve c, double tau, CalibrationParams p) {
        CalibrationSection.Certificate r = s.certify(c, tau);
        // An uncertified τ never decides early (DecisionThresholds): t/d = 1, HM = 0.
        double hm = r.certified() ? harmonicMean(c.accuracy(r.index()), c.meanFraction(r.index())) : 0.0;
        boolean earliest = p.objective() == CalibrationParams.Objective.EARLIEST_AT_RELIABILITY;
        return new CalibrationSection.OperatingPoint(
                tau,
                p.objective().cliName(),
                earliest ? p.targetReliability() : Double.NaN,
                c.rule(),
                c.classifier(),
                c.set(),
                c.estimator(),
                hm,
                r.certified(),
                p.objective() == CalibrationParams.Objective.COST ? p.delayCost() : Double.NaN);
    }

    /** Larger is better. */
    private static double score(
            CalibrationSection s,
            CalibrationSection.Curve c,
            CalibrationSection.OperatingPoint point,
            CalibrationParams p) {
        if (!point.certified()) {
            // An uncertified τ decides every series at t = d: the same complete-series labels whichever curve or τ,
            // so every uncertified candidate scores alike (ties → larger τ). The replays' accuracy at the least
            // conservative threshold describes early decisions this point never makes.
            return switch (p.objective()) {
                case HM -> 0.0;
                case EARLIEST_AT_RELIABILITY -> -1.0;
                case COST -> -(1 + p.delayCost());
            };
        }
        int j = s.certify(c, point.tau()).index();
        return switch (p.objective()) {
            case HM -> point.harmonicMean();
            case EARLIEST_AT_RELIABILITY -> -c.meanFraction(j);
            case COST -> -averageCost(c.accuracy(j), c.meanFraction(j), p.delayCost());
        };
    }
}
