package io.vigil.early;

import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import java.util.Optional;

/**
 * The threshold an early classifier decides at, and what it certifies. With a model's {@code calibration} section
 * holding a cross-fitted replay of the same rule, classifier, set and estimator, the announced τ is mapped to the
 * least conservative replayed threshold λ whose rate of early labels differing from the complete-series label is
 * certified ≤ 1 − τ under the section's guarantee ({@link CalibrationSection#certify}: with confidence 1 − δ by
 * Learn-then-Test, or in expectation by conformal risk control; docs/method.md §5–§6). When τ cannot be certified — too few
 * training series, or no replayed threshold reliable enough — the rule takes the most conservative course there is:
 * it never decides before t = d, where the label is the complete-series label itself ({@link #neverEarly()}), and
 * {@link #certified()} is false. Without a matching replay the threshold is τ itself, uncertified, as the thesis's
 * rule has it. A rule with a class of interest was never replayed (the replays announce any class), so it is never
 * certified: it decides at τ itself, uncertified, and inherits no certificate from the unrestricted rule. Also holds
 * the calibrated variance inflation of R_y(t). Immutable.
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
        boolean inflate = cal.isPresent() && cal.get().inflates(params.estimator());
        Optional<CalibrationSection.Curve> curve = params.classOfInterest() != null
                ? Optional.empty()
                : cal.flatMap(s -> s.curve(params.rule(), params.classifier(), params.set(), params.estimator()));
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
        CalibrationSection.Certificate r = s.certify(c, params.tau());
        int index = r.certified() ? r.index() : s.thresholds().length;
        int[] idx = new int[REPORTED_TAUS.length];
        boolean[] ok = new boolean[REPORTED_TAUS.length];
        for (int k = 0; k < REPORTED_TAUS.length; k++) {
            CalibrationSection.Certificate rk = s.certify(c, REPORTED_TAUS[k]);
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
        boolean inflate = cal.isPresent() && cal.get().inflates(params.estimator());
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

    /**
     * Whether τ is certified: the rate of early labels differing from the complete label is ≤ 1 − τ w.p. ≥ 1 − δ
     * ({@code pac}) or in expectation ({@code expected}).
     */
    public boolean certified() {
        return certified;
    }

    /** {@code pac} or {@code expected} when τ is {@link #certified()}, else {@code none}. */
    public String guarantee() {
        return certified ? section.guarantee().cliName() : Guarantee.NONE;
    }

    /**
     * The confidence parameter δ of a {@code pac} certificate (the rate is ≤ 1 − τ with probability ≥ 1 − δ over
     * the training series); NaN when τ is not certified or certified in expectation.
     */
    public double delta() {
        return certified && section.guarantee() == Guarantee.PAC ? section.delta() : Double.NaN;
    }

    /**
     * The Learn-then-Test p-value of the threshold used, or the conformal bound (n·R̂ + U)/(n + 1) under the expected
     * guarantee (NaN when uncalibrated).
     */
    public double pValue() {
        return pValue;
    }

    /**
     * The variance inflation of R_y at sample t (1-based) of d; 1 without calibration or for an estimator the section's
     * inflation was not learned for ({@link CalibrationSection#inflates}).
     */
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
