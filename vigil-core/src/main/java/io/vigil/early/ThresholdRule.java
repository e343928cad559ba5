package io.vigil.early;

import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import io.vigil.gauss.SymmetricPacked;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.Discriminants;
import io.vigil.reliability.PointClassifier;
import io.vigil.reliability.ReliableDecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.TauSet;
import io.vigil.reliability.probability.ClassProbability;
import io.vigil.reliability.probability.StoppingBoundary;
import org.ejml.data.DMatrixRMaj;

/**
 * The early-decision rule at a threshold λ, for one sample's conditional moments and discriminants: the set rule
 * announces c when f_c − f_h ≥ 0 on the whole λ-set (thesis §5.2–5.3); the probability rule also announces c when
 * P(ĝ(Y) = c | z) ≥ λ (thesis eq. 5.1), its quasi-Monte-Carlo estimate stopped as soon as a confidence interval
 * excludes λ ({@link StoppingBoundary}), with a set that holds mass ≥ λ as its fast path (if it decides, the
 * probability is ≥ λ). R_y is inflated by the calibrated factor κ(t) (sets: radius·√κ). Both rules are monotone in
 * λ, so one sample's {@link #scoreIndex score} — the largest threshold of the grid at which the rule decides — gives
 * the decision at every threshold, which is what cross-fitted replays and reported reliabilities need. Immutable;
 * per-thread state lives in a {@link Scratch}.
 */
final class ThresholdRule {
    /** Absolute tolerance of the uncalibrated reliability bisection on τ: three decimals are what a report shows. */
    static final double RELIABILITY_TOLERANCE = 1e-3;

    private final DecisionParams params;
    private final DecisionThresholds thresholds;
    private final SetKind setKind;
    private final double[] radii;
    /** The probability rule's stopping boundary per grid threshold (null for the set rule). */
    private final StoppingBoundary[] boundaries;

    private final int classOfInterest;
    private final int dims;
    private final int numClasses;
    private final int length;

    private final PointClassifier points;
    /** Cholesky factors of R_y(t) per t (joint estimator, probability rule), or null to factor per sample. */
    private final double[] factors;

    /**
     * @param points the classifier by its labels at points, for classifiers without discriminants (k-NN), else null
     * @param factors packed Cholesky factors of R_y(t), t = 1..d−1, or null
     */
    ThresholdRule(
            DecisionParams params,
            DecisionThresholds thresholds,
            int dims,
            int numClasses,
            int classOfInterest,
            int length,
            PointClassifier points,
            double[] factors) {
        this.points = points;
        this.factors = factors;
        this.params = params;
        this.thresholds = thresholds;
        this.dims = dims;
        this.numClasses = numClasses;
        this.classOfInterest = classOfInterest;
        this.length = length;
        this.setKind = params.rule() == DecisionRule.PROBABILITY ? fastPathSet(params.set()) : params.set();
        this.radii = new double[thresholds.gridSize()];
        for (int j = 0; j < radii.length; j++) {
            radii[j] = setKind.radius(dims, thresholds.gridValue(j));
        }
        this.boundaries = params.rule() == DecisionRule.PROBABILITY ? new StoppingBoundary[radii.length] : null;
        for (int j = 0; boundaries != null && j < radii.length; j++) {
            boundaries[j] = StoppingBoundary.of(thresholds.gridValue(j), ClassProbability.DEFAULT_POINTS);
        }
    }

    /**
     * The set the probability rule may use as its fast path: one that holds mass ≥ λ under the Gaussian — the
     * Gaussian ellipsoid (exactly λ), the box (Šidák) or Chebyshev's — and otherwise the box, since the naive-Bayes
     * ellipsoid can hold less than λ when R is correlated (docs/method.md §5).
     */
    static SetKind fastPathSet(SetKind requested) {
        return requested == SetKind.NB_QUADRATIC ? SetKind.NB_BOX : requested;
    }

    /** The set kind the rule builds. */
    SetKind setKind() {
        return setKind;
    }

    Scratch newScratch() {
        return new Scratch();
    }

    /**
     * Fixes the sample: builds the set's shape from κ(t)·R_y(t) and remembers the discriminants and the mean.
     *
     * @param m the conditional mean (kept by reference until the next call)
     */
    void prepare(Scratch s, CompleteSeriesEstimator est, SeriesState state, double[] m, Discriminants f) {
        s.f = f;
        s.m = m;
        s.probabilityReady = false;
        s.scale = Math.sqrt(thresholds.inflation(state.time(), length));
        s.seed = state.innovation(0, 0);
        double r = radii[Math.min(thresholds.index(), radii.length - 1)] * s.scale;
        if (setKind.usesFullCovariance()) {
            est.conditionalCovariance(state, s.dense);
            s.set.setFullEllipsoid(m, s.dense, r);
            s.packedReady = false;
        } else {
            est.conditionalCovariance(state, s.packed);
            for (int i = 0; i < dims; i++) {
                s.diagonal[i] = s.packed[SymmetricPacked.index(i, i)];
            }
            if (setKind.isBox()) {
                s.set.setBox(m, s.diagonal, r);
            } else {
                s.set.setDiagonalEllipsoid(m, s.diagonal, r);
            }
            s.packedReady = true;
        }
        s.est = est;
        s.state = state;
        s.conditioner = null;
        s.subsetState = null;
    }

    /**
     * As {@link #prepare} for moments conditioned on an arbitrary observed subset ({@link SubsetConditioner}): κ is
     * taken at the observed count |O| of C·d values, as at t of a prefix, and the series' seed is its first
     * innovation; R_y depends on which values were observed, so it is never taken from the per-t factor table.
     */
    void prepareSubset(Scratch s, SubsetConditioner c, SubsetState state, double[] m, Discriminants f) {
        s.f = f;
        s.m = m;
        s.probabilityReady = false;
        s.scale = Math.sqrt(thresholds.inflation(state.observedCount(), length));
        s.seed = state.firstInnovation();
        double r = radii[Math.min(thresholds.index(), radii.length - 1)] * s.scale;
        if (setKind.usesFullCovariance()) {
            c.conditionalCovariance(state, s.dense);
            s.set.setFullEllipsoid(m, s.dense, r);
        } else {
            c.conditionalVariances(state, s.diagonal);
            if (setKind.isBox()) {
                s.set.setBox(m, s.diagonal, r);
            } else {
                s.set.setDiagonalEllipsoid(m, s.diagonal, r);
            }
        }
        s.packedReady = false; // packed only when the probability rule asks for it
        s.est = null;
        s.state = null;
        s.conditioner = c;
        s.subsetState = state;
    }

    /** The announced label at grid index j (beyond the grid: never early), or {@link Decision#NO_DECISION}. */
    int decideAt(Scratch s, int j) {
        if (j >= radii.length) {
            return Decision.NO_DECISION;
        }
        int c = decideBySet(s, radii[j] * s.scale);
        if (c != Decision.NO_DECISION || params.rule() != DecisionRule.PROBABILITY) {
            return c;
        }
        ClassProbability p = probability(s);
        return p.atLeast(seedOf(s), boundaries[j]) ? p.guess() : Decision.NO_DECISION;
    }

    /** The largest grid index at which the rule decides (−1: none). The label is the guess c at every index. */
    int scoreIndex(Scratch s) {
        return scoreIndex(s, -1);
    }

    /**
     * As {@link #scoreIndex(Scratch)} for a caller that needs no index at or below {@code floor}: returns the score
     * when it is above {@code floor}, else {@code floor} — and stops as soon as that is known (a replay that has
     * already seen the rule decide at the lower thresholds).
     */
    int scoreIndex(Scratch s, int floor) {
        int lo = Math.max(floor, -1);
        // The set part (the fast path) is monotone in λ: nothing above lo when it fails just above; else binary search.
        if (lo + 1 < radii.length && decideBySet(s, radii[lo + 1] * s.scale) != Decision.NO_DECISION) {
            lo++;
            int hi = radii.length;
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (decideBySet(s, radii[mid] * s.scale) != Decision.NO_DECISION) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        if (params.rule() == DecisionRule.PROBABILITY) {
            lo = probability(s).score(seedOf(s), boundaries, lo);
        }
        return lo;
    }

    /** The candidate label at this sample: argmax_g f_g(m), or the class of interest. */
    int guess(Scratch s) {
        if (classOfInterest >= 0) {
            return classOfInterest;
        }
        if (s.f == null) {
            return points.classify(s.m);
        }
        int best = 0;
        double bestValue = s.f.value(0, s.m);
        for (int g = 1; g < numClasses; g++) {
            double v = s.f.value(g, s.m);
            if (v > bestValue) {
                best = g;
                bestValue = v;
            }
        }
        return best;
    }

    /**
     * The reliability a decision at the announced τ reports: the largest τ′ at which the label holds, never below τ
     * (calibrated: the largest certified reported τ whose threshold the rule passes; otherwise a bisection on the
     * set's τ and, for the probability rule, the estimated probability itself).
     */
    double reliability(Scratch s) {
        if (thresholds.calibrated()) {
            return thresholds.reliabilityForScore(scoreIndex(s));
        }
        double tau = thresholds.tau();
        double best = Math.max(tau, bisectSetTau(s, tau));
        if (params.rule() == DecisionRule.PROBABILITY) {
            best = Math.max(best, probability(s).probability(seedOf(s)));
        }
        return Math.min(best, 1.0);
    }

    /**
     * The reliability of the candidate label {@link #guess} when the rule does not decide at the announced τ: the
     * largest τ′ &lt; τ at which it would (calibrated: the largest certified reported τ the score passes, 0 when none;
     * otherwise the set's τ by bisection from {@link #RELIABILITY_TOLERANCE}, 0 when the set fails even there, and,
     * for the probability rule, the estimated probability, kept below τ: the stopping rule can wait on an estimate
     * over all points that reaches τ when its first points stopped it).
     */
    double reliabilityBelowTau(Scratch s) {
        if (thresholds.calibrated()) {
            return thresholds.reportedReliability(scoreIndex(s));
        }
        // The set shrinks to the point m as τ → 0; the bisection starts at the tolerance, 0 when even that fails.
        double best = 0.0;
        if (decideBySet(s, setKind.radius(dims, RELIABILITY_TOLERANCE) * s.scale) != Decision.NO_DECISION) {
            best = bisectSetTau(s, RELIABILITY_TOLERANCE);
        }
        if (params.rule() == DecisionRule.PROBABILITY) {
            double p = probability(s).probability(seedOf(s));
            best = Math.max(best, Math.min(p, Math.nextDown(thresholds.tau())));
        }
        return Math.min(best, 1.0);
    }

    private double bisectSetTau(Scratch s, double floor) {
        double original = s.set.radius();
        try {
            double lo = floor;
            if (decideBySet(s, setKind.radius(dims, lo) * s.scale) == Decision.NO_DECISION) {
                return floor;
            }
            double hi = 1.0 - RELIABILITY_TOLERANCE;
            if (hi <= lo || decideBySet(s, setKind.radius(dims, hi) * s.scale) != Decision.NO_DECISION) {
                return Math.max(lo, hi);
            }
            while (hi - lo > RELIABILITY_TOLERANCE) {
                double mid = 0.5 * (lo + hi);
                if (decideBySet(s, setKind.radius(dims, mid) * s.scale) != Decision.NO_DECISION) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo;
        } finally {
            s.set.setRadius(original);
        }
    }

    private int decideBySet(Scratch s, double radius) {
        if (s.f == null) {
            return Decision.NO_DECISION; // k-NN: no discriminants for a set to bound
        }
        s.set.setRadius(radius);
        if (classOfInterest >= 0) {
            return s.rule.reliableAs(s.f, s.set, classOfInterest) ? classOfInterest : Decision.NO_DECISION;
        }
        return s.rule.decide(s.f, s.set);
    }

    private ClassProbability probability(Scratch s) {
        if (!s.probabilityReady) {
            if (factors != null && s.subsetState == null) {
                s.probability.setFactor(factors, (s.state.time() - 1) * SymmetricPacked.size(dims), s.scale * s.scale);
            } else {
                if (!s.packedReady) {
                    if (s.subsetState != null) {
                        s.conditioner.conditionalCovariance(s.subsetState, s.packed);
                    } else {
                        s.est.conditionalCovariance(s.state, s.packed);
                    }
                    s.packedReady = true;
                }
                s.probability.setCovariance(s.packed, s.scale * s.scale);
            }
            if (s.f == null) {
                s.probability.setClassifier(points, s.m, classOfInterest);
            } else {
                s.probability.setDiscriminants(s.f, s.m, classOfInterest);
            }
            s.probabilityReady = true;
        }
        return s.probability;
    }

    /** The series' seed: the bits of its first innovation, which every replay of the series reproduces exactly. */
    private static long seedOf(Scratch s) {
        return Double.doubleToLongBits(s.seed);
    }

    /** One thread's buffers for the rule. Not thread-safe. */
    final class Scratch {
        private final TauSet set = new TauSet(dims);
        private final ReliableDecisionRule rule = new ReliableDecisionRule(dims, numClasses);
        private final double[] packed = new double[SymmetricPacked.size(dims)];
        private final double[] diagonal = new double[dims];
        private final DMatrixRMaj dense = new DMatrixRMaj(dims, dims);
        private final ClassProbability probability = params.rule() == DecisionRule.PROBABILITY
                ? new ClassProbability(dims, numClasses, ClassProbability.DEFAULT_POINTS)
                : null;
        private Discriminants f;
        private double[] m;
        private double scale = 1.0;
        private double seed;
        private boolean packedReady;
        private boolean probabilityReady;
        private CompleteSeriesEstimator est;
        private SeriesState state;
        private SubsetConditioner conditioner;
        /** The observed subset the moments were prepared from ({@link #prepareSubset}); null for a prefix. */
        private SubsetState subsetState;

        private Scratch() {}
    }
}
