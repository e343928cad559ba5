package io.vigil.early.calibrate;

import io.vigil.model.CalibrationSection;
import io.vigil.reliability.risk.LearnThenTest;
import java.util.Optional;

/**
 * Chooses the operating point on cross-fitted replays (method notes §5, "Objectives"): for every replayed rule and
 * every announced τ of a grid, Learn-then-Test maps τ to a threshold; the objective then picks — among the certified
 * (rule, τ) pairs, or among all if none is certified — the largest harmonic mean HM = 2·acc·(1 − t/d)/(acc + 1 − t/d)
 * (ties → larger τ), or the earliest mean decision at the target reliability. An uncertified τ counts as deciding at
 * t = d (HM 0), which is what the rule then does.
 */
final class OperatingPoints {
    private OperatingPoints() {}

    /** The harmonic mean of accuracy and earliness 1 − t/d (0 when both are 0). */
    static double harmonicMean(double accuracy, double meanFraction) {
        double e = 1 - meanFraction;
        return accuracy + e > 0 ? 2 * accuracy * e / (accuracy + e) : 0.0;
    }

    static Optional<CalibrationSection.OperatingPoint> choose(
            CalibrationSection s, CalibrationParams p, double[] taus) {
        CalibrationSection.OperatingPoint best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        boolean bestCertified = false;
        boolean earliest = p.objective() == CalibrationParams.Objective.EARLIEST_AT_RELIABILITY;
        double[] candidates = earliest ? new double[] {p.targetReliability()} : taus;
        for (CalibrationSection.Curve c : s.curves()) {
            for (double tau : candidates) {
                LearnThenTest.Result r = LearnThenTest.certify(c.series(), c.disagreements(), 1 - tau, s.delta());
                int j = r.index();
                // An uncertified τ never decides early (DecisionThresholds): t/d = 1, HM = 0.
                double fraction = r.certified() ? c.meanFraction(j) : 1.0;
                double hm = r.certified() ? harmonicMean(c.accuracy(j), fraction) : 0.0;
                double score = earliest ? -fraction : hm;
                boolean better = (r.certified() && !bestCertified)
                        || (r.certified() == bestCertified
                                && (score > bestScore || (score == bestScore && best != null && tau > best.tau())));
                if (best == null || better) {
                    best = new CalibrationSection.OperatingPoint(
                            tau,
                            p.objective().cliName(),
                            earliest ? p.targetReliability() : Double.NaN,
                            c.rule(),
                            c.classifier(),
                            c.set(),
                            c.estimator(),
                            hm,
                            r.certified());
                    bestScore = score;
                    bestCertified = r.certified();
                }
            }
        }
        return Optional.ofNullable(best);
    }
}
