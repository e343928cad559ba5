package io.vigil.reliability;

/**
 * The multi-class reliable decision rule (5.18): announce class c for the incomplete series only if f_c − f_h ≥ 0 on
 * the whole set A for every h ≠ c (thesis §5.3.4–5.3.5), plus the two related questions of §5.7.
 *
 * <ul>
 *   <li>{@link #decide}: the guess-and-check rule for sets containing their centre m (all four constructions of
 *       §5.2): c = argmax_g f_g(m); then at most G−1 checks min_A (f_c − f_h) ≥ 0, strongest competitor (largest
 *       f_h(m)) first, stopping at the first failure.
 *   <li>{@link #decideGeneral}: the candidate/dominated/tied process of Props. 3–4, correct for any set; between G−1
 *       and 2(G−1) checks.
 *   <li>{@link #reliableAs}: class-of-interest mode — only ever announce one chosen class g*.
 *   <li>{@link #largestReliableTau}: the largest τ at which the current label is reliable, by bisection on τ.
 * </ul>
 *
 * <p>Each check is an exact, early-exiting {@link QuadraticMinMax#minAtLeastZero}, which only says "yes" on a certified
 * lower bound, so the rule is conservative also under rounding. One instance per worker: buffers are sized at
 * construction and reused; nothing is allocated per decision for diagonal shapes. Not thread-safe.
 */
public final class ReliableDecisionRule {
    /** Returned by the decision methods when the set straddles a decision boundary ("wait"). */
    public static final int NO_DECISION = -1;

    private static final byte CANDIDATE = 0;
    private static final byte DOMINATED = 1;
    private static final byte TIED = 2;

    private final int maxDim;
    private final int maxClasses;
    private final QuadraticMinMax solver;
    private final MinMaxResult check = new MinMaxResult();
    private final double[][] grad;
    private final double[][] curv;
    private final double[] value;
    private final double[] diffGrad;
    private final double[] diffCurv;
    private final int[] order;
    private final byte[] state;
    private double[] center = new double[0];
    private int lastChecks;
    private int lastGuess = NO_DECISION;

    /**
     * @param maxDim largest feature dimension ℓ
     * @param maxClasses largest number of classes G
     */
    public ReliableDecisionRule(int maxDim, int maxClasses) {
        if (maxDim < 1 || maxClasses < 1) {
            throw new IllegalArgumentException(
                    "maxDim and maxClasses must be at least 1, got " + maxDim + " and " + maxClasses);
        }
        this.maxDim = maxDim;
        this.maxClasses = maxClasses;
        this.solver = new QuadraticMinMax(maxDim);
        this.grad = new double[maxClasses][maxDim];
        this.curv = new double[maxClasses][maxDim];
        this.value = new double[maxClasses];
        this.diffGrad = new double[maxDim];
        this.diffCurv = new double[maxDim];
        this.order = new int[maxClasses];
        this.state = new byte[maxClasses];
    }

    /** The number of min-checks min_A(f_c − f_h) ≥ 0 performed by the last decision call. */
    int lastChecks() {
        return lastChecks;
    }

    /** argmax_g f_g(m) of the last decision call: the label that is announced when the rule decides. */
    int lastGuess() {
        return lastGuess;
    }

    /**
     * Guess-and-check rule (§5.3.4). Valid for sets that contain their centre m, which all {@link SetKind}s do.
     *
     * @return the reliable class c, or {@link #NO_DECISION}
     */
    public int decide(Discriminants f, TauSet a) {
        int numClasses = expandAll(f, a);
        int c = lastGuess;
        sortCompetitors(numClasses, c);
        for (int k = 0; k < numClasses - 1; k++) {
            if (!dominatesExpanded(a, c, order[k])) {
                return NO_DECISION;
            }
        }
        return c;
    }

    /**
     * General candidate/dominated/tied process (§5.3.5, Props. 3–4), correct whether or not A contains m. Candidates
     * are paired in decreasing order of f_g(m). Uses between G−1 and 2(G−1) checks (Prop. 4).
     *
     * @return the class that dominates every other class on A, or {@link #NO_DECISION}
     */
    int decideGeneral(Discriminants f, TauSet a) {
        int numClasses = expandAll(f, a);
        sortAll(numClasses);
        for (int g = 0; g < numClasses; g++) {
            state[g] = CANDIDATE;
        }
        int candidates = numClasses;
        while (candidates >= 2) {
            int c = -1;
            int h = -1;
            for (int k = 0; k < numClasses && h < 0; k++) {
                int g = order[k];
                if (state[g] == CANDIDATE) {
                    if (c < 0) {
                        c = g;
                    } else {
                        h = g;
                    }
                }
            }
            if (dominatesExpanded(a, c, h)) {
                state[h] = DOMINATED;
                candidates--;
            } else if (dominatesExpanded(a, h, c)) {
                state[c] = DOMINATED;
                candidates--;
            } else {
                state[c] = TIED;
                state[h] = TIED;
                candidates -= 2;
            }
        }
        if (candidates == 0) {
            return NO_DECISION;
        }
        int winner = -1;
        for (int g = 0; g < numClasses; g++) {
            if (state[g] == CANDIDATE) {
                winner = g;
            }
        }
        // Final comparison: the survivor must dominate every tied class; dominated ones follow by transitivity.
        for (int k = 0; k < numClasses; k++) {
            int g = order[k];
            if (state[g] == TIED && !dominatesExpanded(a, winner, g)) {
                return NO_DECISION;
            }
        }
        return winner;
    }

    /**
     * Class-of-interest mode (§5.7): whether class g* can be announced reliably, i.e. f_{g*} − f_h ≥ 0 on A for all h
     * ≠ g*. Since A contains m, g* losing at m already answers no without any check.
     */
    public boolean reliableAs(Discriminants f, TauSet a, int classOfInterest) {
        int numClasses = expandAll(f, a);
        if (classOfInterest < 0 || classOfInterest >= numClasses) {
            throw new IllegalArgumentException(
                    "class of interest " + classOfInterest + " is outside 0.." + (numClasses - 1));
        }
        if (value[classOfInterest] < value[lastGuess]) {
            return false;
        }
        sortCompetitors(numClasses, classOfInterest);
        for (int k = 0; k < numClasses - 1; k++) {
            if (!dominatesExpanded(a, classOfInterest, order[k])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether class c dominates class h on A: min_{y∈A} (f_c − f_h)(y) ≥ 0 (one check).
     */
    public boolean dominates(Discriminants f, TauSet a, int c, int h) {
        int numClasses = expandAll(f, a);
        if (c < 0 || c >= numClasses || h < 0 || h >= numClasses) {
            throw new IllegalArgumentException("classes " + c + ", " + h + " must lie in 0.." + (numClasses - 1));
        }
        return dominatesExpanded(a, c, h);
    }

    /**
     * The largest τ at which {@link #decide} announces the current guess argmax_g f_g(m), to within {@code
     * tolerance} (§5.7: "what is the probability that the label will match?"). Bisection on τ is valid because every
     * radius of {@link SetKind} is strictly increasing in τ while centre and shape do not depend on τ: the sets are
     * nested, min_A(f_c − f_h) is non-increasing in τ, and "reliable at τ" is monotone (true up to some τ*, then
     * false).
     *
     * <p>The set's radius is changed during the search and restored afterwards; {@code kind} must be the construction
     * the set was built with (its radius function is used for each trial τ).
     *
     * @param tolerance absolute tolerance on τ, in (0, 0.5)
     * @return τ* rounded down to the tolerance (the last τ verified reliable); 0 if not reliable even at τ =
     *     tolerance; 1 if A is the single point m (the series is complete) and the guess is a strict winner there
     */
    double largestReliableTau(Discriminants f, TauSet a, SetKind kind, double tolerance) {
        if (!(tolerance > 0.0 && tolerance < 0.5)) {
            throw new IllegalArgumentException("tolerance must lie in (0, 0.5), got " + tolerance);
        }
        if (a.shape() != TauSet.Shape.POINT && kind.isBox() != (a.shape() == TauSet.Shape.BOX)) {
            throw new IllegalArgumentException(
                    "set kind " + kind.cliName() + " does not match a set of shape " + a.shape());
        }
        double original = a.radius();
        try {
            if (a.numActive() == 0) {
                return decide(f, a) != NO_DECISION ? 1.0 : 0.0;
            }
            int ell = a.dimension();
            if (!reliableAt(f, a, kind, ell, tolerance)) {
                return 0.0;
            }
            double lo = tolerance;
            double hi = 1.0 - tolerance;
            if (reliableAt(f, a, kind, ell, hi)) {
                return hi;
            }
            while (hi - lo > tolerance) {
                double mid = 0.5 * (lo + hi);
                if (reliableAt(f, a, kind, ell, mid)) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            return lo;
        } finally {
            a.setRadius(original);
        }
    }

    private boolean reliableAt(Discriminants f, TauSet a, SetKind kind, int ell, double tau) {
        a.setRadius(kind.radius(ell, tau));
        return decide(f, a) != NO_DECISION;
    }

    // ---- internals ----

    /** Expands every class about the set's centre; sets {@link #lastGuess} and resets {@link #lastChecks}. */
    private int expandAll(Discriminants f, TauSet a) {
        int ell = a.dimension();
        int numClasses = f.numClasses();
        if (f.dimension() != ell) {
            throw new IllegalArgumentException(
                    "the discriminants have dimension " + f.dimension() + ", the set has dimension " + ell);
        }
        if (ell > maxDim) {
            throw new IllegalArgumentException(
                    "the set has dimension " + ell + ", this rule was sized for maxDim = " + maxDim);
        }
        if (numClasses > maxClasses) {
            throw new IllegalArgumentException(
                    "there are " + numClasses + " classes, this rule was sized for maxClasses = " + maxClasses);
        }
        if (center.length != ell) {
            // ℓ is fixed per model, so this happens once.
            center = new double[ell];
        }
        a.copyCenter(center);
        int best = 0;
        for (int g = 0; g < numClasses; g++) {
            value[g] = f.expand(g, center, grad[g], curv[g]);
            if (value[g] > value[best]) {
                best = g;
            }
        }
        lastGuess = best;
        lastChecks = 0;
        return numClasses;
    }

    private boolean dominatesExpanded(TauSet a, int c, int h) {
        int ell = a.dimension();
        double[] gc = grad[c];
        double[] gh = grad[h];
        double[] cc = curv[c];
        double[] ch = curv[h];
        for (int i = 0; i < ell; i++) {
            diffGrad[i] = gc[i] - gh[i];
            diffCurv[i] = cc[i] - ch[i];
        }
        lastChecks++;
        return solver.minAtLeastZero(a, diffCurv, diffGrad, value[c] - value[h], check);
    }

    /** order[0..G−2] = classes other than c, by decreasing f_h(m) (insertion sort; G is small). */
    private void sortCompetitors(int numClasses, int c) {
        int n = 0;
        for (int g = 0; g < numClasses; g++) {
            if (g != c) {
                insert(n++, g);
            }
        }
    }

    private void sortAll(int numClasses) {
        for (int g = 0; g < numClasses; g++) {
            insert(g, g);
        }
    }

    private void insert(int n, int g) {
        int k = n;
        while (k > 0 && value[order[k - 1]] < value[g]) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = g;
    }
}
