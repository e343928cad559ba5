package io.vigil.early.calibrate;

import io.vigil.early.DecisionParams;
import io.vigil.model.CalibrationSection;
import io.vigil.reliability.risk.ConformalRiskControl;
import io.vigil.reliability.risk.DrawSource;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * The certification step of a {@link CrossFitCalibrator} run (docs/method.md §5–6): the calibration section with its
 * curves and operating point, the choice among curves and thresholds accounted for as {@link
 * CalibrationParams#selection} says (none, Bonferroni, nested family, or choose on one half of the replayed series
 * and certify on the other).
 */
final class Certification {
    private Certification() {}

    /**
     * The section with its curves and operating point, the choice accounted for as {@link CalibrationParams#selection}
     * says: uncorrected, Bonferroni over the K candidates the objective looks at, or chosen on one half of the
     * replayed series (split stratified by class, seeded) and certified on the other, whose curves alone are kept.
     */
    static CalibrationSection certified(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<FoldReplays.CurveSpec> specs,
            List<List<FoldReplays.SeriesReplay>> perCurve,
            double[] coverageBefore,
            double[] coverageAfter) {
        int m = p.thresholds().length;
        List<CalibrationSection.Curve> all = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            all.add(FoldReplays.curve(specs.get(c).params(), perCurve.get(c), m));
        }
        if (p.selection() == Selection.FIXED) {
            all = all.stream().filter(Certification::isFixed).limit(1).toList();
        }
        if (p.selection() != Selection.SPLIT || all.isEmpty()) {
            // Bonferroni over every (curve, τ) candidate; nested and fixed leave no choice of curve to correct for,
            // only the τ the objective chooses among (one, the target, for earliest-at-reliability).
            int k =
                    switch (p.selection()) {
                        case BONFERRONI -> OperatingPoints.candidates(all.size(), p, CrossFitCalibrator.OPERATING_TAUS);
                        case NESTED, FIXED -> OperatingPoints.candidates(1, p, CrossFitCalibrator.OPERATING_TAUS);
                        default -> 1;
                    };
            boolean nested = p.selection() == Selection.NESTED && !all.isEmpty();
            int[][] counts = nested ? nestedCounts(perCurve, m) : new int[][] {new int[0], new int[0]};
            CalibrationSection withCurves = section(
                    folds, p, kappa, all, Optional.empty(), k, p.selection(), coverageBefore, coverageAfter, counts);
            return withCurves.withOperatingPoint(
                    OperatingPoints.choose(withCurves, p, CrossFitCalibrator.OPERATING_TAUS));
        }
        boolean[] certifying = splitHalves(perCurve.get(0), p.seed());
        if (perCurve.get(0).size() < 2) {
            throw new IllegalArgumentException("--selection split needs at least two replayed series");
        }
        List<CalibrationSection.Curve> choosing = new ArrayList<>();
        List<CalibrationSection.Curve> certifyingCurves = new ArrayList<>();
        for (int c = 0; c < specs.size(); c++) {
            List<FoldReplays.SeriesReplay> in = new ArrayList<>();
            List<FoldReplays.SeriesReplay> out = new ArrayList<>();
            for (int i = 0; i < perCurve.get(c).size(); i++) {
                (certifying[i] ? in : out).add(perCurve.get(c).get(i));
            }
            choosing.add(FoldReplays.curve(specs.get(c).params(), out, m));
            certifyingCurves.add(FoldReplays.curve(specs.get(c).params(), in, m));
        }
        CalibrationSection chooser =
                section(folds, p, kappa, choosing, Optional.empty(), 1, Selection.NONE, coverageBefore, coverageAfter);
        CalibrationSection certifier = section(
                folds, p, kappa, certifyingCurves, Optional.empty(), 1, Selection.SPLIT, coverageBefore, coverageAfter);
        Optional<CalibrationSection.OperatingPoint> point = OperatingPoints.choose(
                        chooser, p, CrossFitCalibrator.OPERATING_TAUS)
                .map(q -> OperatingPoints.at(
                        certifier,
                        certifier
                                .curve(q.rule(), q.classifier(), q.set(), q.estimator())
                                .orElseThrow(),
                        q.tau(),
                        p));
        return section(folds, p, kappa, certifyingCurves, point, 1, Selection.SPLIT, coverageBefore, coverageAfter);
    }

    /**
     * Whether a curve is {@link Selection#FIXED}'s: the default decision rule and classifier (every replayed curve
     * conditions with the one estimator {@link CalibrationParams#estimator} names).
     */
    static boolean isFixed(CalibrationSection.Curve c) {
        DecisionParams d = DecisionParams.defaults();
        return c.rule() == d.rule() && c.classifier() == d.classifier() && c.set() == d.set();
    }

    /**
     * The counts of {@link Selection#NESTED}'s family, per threshold: series that disagree with their complete-series
     * label on at least one curve ({@code [0]}), and on at least one curve at that threshold or a more conservative
     * one ({@code [1]}, the union of the curves' monotonised losses, itself monotone). Every curve replays the same
     * series in the same order.
     */
    static int[][] nestedCounts(List<List<FoldReplays.SeriesReplay>> perCurve, int m) {
        int n = perCurve.get(0).size();
        int[] raw = new int[m];
        int[] monotone = new int[m];
        for (int i = 0; i < n; i++) {
            boolean later = false;
            for (int j = m - 1; j >= 0; j--) {
                boolean differs = false;
                for (List<FoldReplays.SeriesReplay> curve : perCurve) {
                    FoldReplays.SeriesReplay r = curve.get(i);
                    differs |= r.stopLabel()[j] != r.complete();
                }
                later |= differs;
                raw[j] += differs ? 1 : 0;
                monotone[j] += later ? 1 : 0;
            }
        }
        return new int[][] {raw, monotone};
    }

    /**
     * Which replayed series certify under {@link Selection#SPLIT} (true) and which choose (false): within each class
     * a seeded shuffle, alternately; with an odd count the certifying half gets the extra series.
     */
    static boolean[] splitHalves(List<FoldReplays.SeriesReplay> replays, long seed) {
        Map<Integer, List<Integer>> byClass = new TreeMap<>();
        for (int i = 0; i < replays.size(); i++) {
            byClass.computeIfAbsent(replays.get(i).truth(), k -> new ArrayList<>())
                    .add(i);
        }
        boolean[] certifying = new boolean[replays.size()];
        Random rnd = new Random(seed ^ 0x5EED5L);
        boolean next = true;
        for (List<Integer> members : byClass.values()) {
            Collections.shuffle(members, rnd);
            for (int i : members) {
                certifying[i] = next;
                next = !next;
            }
        }
        return certifying;
    }

    /** The section of these parts (the expected guarantee needs curves; a curve-less section is pac). */
    static CalibrationSection section(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<CalibrationSection.Curve> curves,
            Optional<CalibrationSection.OperatingPoint> point,
            int candidates,
            Selection selection,
            double[] coverageBefore,
            double[] coverageAfter) {
        return section(
                folds, p, kappa, curves, point, candidates, selection, coverageBefore, coverageAfter, new int[][] {
                    new int[0], new int[0]
                });
    }

    /** As above, with the counts of {@link Selection#NESTED}'s family ({@link #nestedCounts}; empty for the others). */
    static CalibrationSection section(
            int folds,
            CalibrationParams p,
            double[] kappa,
            List<CalibrationSection.Curve> curves,
            Optional<CalibrationSection.OperatingPoint> point,
            int candidates,
            Selection selection,
            double[] coverageBefore,
            double[] coverageAfter,
            int[][] nested) {
        Guarantee g = curves.isEmpty() ? Guarantee.PAC : p.guarantee();
        return new CalibrationSection(
                folds,
                p.seed(),
                p.delta(),
                kappa,
                p.thresholds(),
                curves,
                CrossFitCalibrator.COVERAGE_TAUS,
                coverageBefore,
                coverageAfter,
                point,
                g,
                selection,
                candidates,
                nested[0],
                nested[1],
                p.pattern(),
                g == Guarantee.EXPECTED ? p.crcDraw() : ConformalRiskControl.CONSERVATIVE,
                g == Guarantee.EXPECTED ? p.crcDrawSource() : DrawSource.CONSERVATIVE,
                0);
    }
}
