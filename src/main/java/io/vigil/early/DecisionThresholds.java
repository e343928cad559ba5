package io.vigil.early;

import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.LearnThenTest;
import java.util.Optional;

/**
 * The threshold an early classifier decides at, and what it certifies. With a model's {@code calibration} section
 * holding a cross-fitted replay of the same rule, classifier, set and estimator, the announced τ is mapped to the
 * least conservative replayed threshold λ whose rate of early labels differing from the complete-series label is
 * certified ≤ 1 − τ with confidence 1 − δ (Learn-then-Test, method notes §5). When τ cannot be certified — too few
 * training series, or no replayed threshold reliable enough — the rule takes the most conservative course there is:
 * it never decides before t = d, where the label is the complete-series label itself ({@link #neverEarly()}), and
 * {@link #certified()} is false. Without a matching replay the threshold is τ itself, uncertified, as the thesis's
 * rule has it. Also holds the calibrated variance inflation of R_y(t). Immutable.
 */
public final class DecisionThresholds {
    /**
     * The announced τ values a calibrated decision's reliability is reported on: the largest certified one whose
     * threshold the decision passes (0.50, 0.51, …, 0.99, then 0.995 and 0.999).
     */
    static final double[] REPORTED_TAUS = reportedTaus();

    private final double tau;
    private final double[] grid;
    private final int index;
    private final boolean calibrated;
    private final boolean certified;
    private final double pValue;
    private final CalibrationSection section;
    private final boolean inflate;
    private final int[] reportedIndex;
    private final boolean[] reportedCertified;

    private DecisionThresholds(
            double tau,
            double[] grid,
            int index,
            boolean calibrated,
            boolean certified,
            double pValue,
            CalibrationSection section,
            boolean inflate,
            int[] reportedIndex,
            boolean[] reportedCertified) {
        this.tau = tau;
        this.grid = grid;
        this.index = index;
        this.calibrated = calibrated;
        this.certified = certified;
        this.pValue = pValue;
        this.section = section;
        this.inflate = inflate;
        this.reportedIndex = reportedIndex;
        this.reportedCertified = reportedCertified;
    }

    /** The thresholds for these parameters on this model (see the class comment). */
    public static DecisionThresholds of(VigilModel model, DecisionParams params) {
        Optional<CalibrationSection> cal = model.section(CalibrationSection.class);
        boolean inflate = cal.isPresent() && params.estimator() == io.vigil.gauss.EstimatorType.JOINT;
        Optional<CalibrationSection.Curve> curve =
                cal.flatMap(s -> s.curve(params.rule(), params.classifier(), params.set(), params.estimator()));
        if (curve.isEmpty()) {
            return new DecisionThresholds(
                    params.tau(),
                    new double[] {params.tau()},
                    0,
                    false,
                    false,
                    Double.NaN,
                    cal.orElse(null),
                    inflate,
                    null,
                    null);
        }
        CalibrationSection s = cal.get();
        CalibrationSection.Curve c = curve.get();
        LearnThenTest.Result r = LearnThenTest.certify(c.series(), c.disagreements(), 1 - params.tau(), s.delta());
        int index = r.certified() ? r.index() : s.thresholds().length;
        int[] idx = new int[REPORTED_TAUS.length];
        boolean[] ok = new boolean[REPORTED_TAUS.length];
        for (int k = 0; k < REPORTED_TAUS.length; k++) {
            LearnThenTest.Result rk =
                    LearnThenTest.certify(c.series(), c.disagreements(), 1 - REPORTED_TAUS[k], s.delta());
            idx[k] = rk.index();
            ok[k] = rk.certified();
        }
        return new DecisionThresholds(
                params.tau(), s.thresholds(), index, true, r.certified(), r.pValue(), s, inflate, idx, ok);
    }

    /**
     * Thresholds for a replay: the rule is scored on {@code grid} ({@link EarlyClassifier#score}), with the model's
     * variance inflation, and nothing is certified. Cross-fitting uses it to replay every threshold at once.
     */
    public static DecisionThresholds forReplay(VigilModel model, DecisionParams params, double[] grid) {
        Optional<CalibrationSection> cal = model.section(CalibrationSection.class);
        boolean inflate = cal.isPresent() && params.estimator() == io.vigil.gauss.EstimatorType.JOINT;
        double[] g = grid.clone();
        for (int j = 0; j < g.length; j++) {
            if (!(g[j] > 0 && g[j] <= 1) || (j > 0 && g[j] <= g[j - 1])) {
                throw new IllegalArgumentException("replay thresholds must ascend within (0, 1]");
            }
        }
        return new DecisionThresholds(
                params.tau(), g, 0, false, false, Double.NaN, cal.orElse(null), inflate, null, null);
    }

    /** The announced τ. */
    public double tau() {
        return tau;
    }

    /** The threshold λ the rule decides at; NaN when it {@link #neverEarly() never decides early}. */
    public double threshold() {
        return neverEarly() ? Double.NaN : grid[index];
    }

    /** Whether τ could not be certified, so the rule waits for the complete series (t = d). */
    public boolean neverEarly() {
        return index >= grid.length;
    }

    /** Index of {@link #threshold()} in {@link #grid()} (the grid size when {@link #neverEarly()}). */
    public int index() {
        return index;
    }

    /** The thresholds a rule may be evaluated at (ascending; just τ when uncalibrated). */
    public double[] grid() {
        return grid.clone();
    }

    int gridSize() {
        return grid.length;
    }

    double gridValue(int j) {
        return grid[j];
    }

    /** Whether the model holds a cross-fitted replay of this rule, so that τ was mapped by risk control. */
    public boolean calibrated() {
        return calibrated;
    }

    /** Whether τ is certified: the rate of early labels differing from the complete label is ≤ 1 − τ w.p. ≥ 1 − δ. */
    public boolean certified() {
        return certified;
    }

    /** The Learn-then-Test p-value of the threshold used (NaN when uncalibrated). */
    public double pValue() {
        return pValue;
    }

    /** The variance inflation of R_y at sample t (1-based) of d; 1 without calibration or for the GMM estimator. */
    double inflation(int t, int d) {
        return inflate ? section.inflationAt(t, d) : 1.0;
    }

    /**
     * The reliability to report for a decision whose rule holds up to grid index {@code scoreIndex}: the largest
     * certified reported τ whose threshold it passes, and never less than the announced τ it was made at.
     */
    double reliabilityForScore(int scoreIndex) {
        return Math.max(tau, reportedReliability(scoreIndex));
    }

    /** The largest certified reported τ whose threshold index is at most {@code scoreIndex}, or 0 when none. */
    double reportedReliability(int scoreIndex) {
        double best = 0.0;
        for (int k = 0; k < REPORTED_TAUS.length; k++) {
            if (reportedCertified[k] && reportedIndex[k] <= scoreIndex) {
                best = Math.max(best, REPORTED_TAUS[k]);
            }
        }
        return best;
    }

    private static double[] reportedTaus() {
        double[] t = new double[52];
        for (int k = 0; k < 50; k++) {
            t[k] = (50 + k) / 100.0;
        }
        t[50] = 0.995;
        t[51] = 0.999;
        return t;
    }
}
