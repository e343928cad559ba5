package io.vigil.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

class ReliableDecisionRuleTest {
    /** Storage for the solver's report (bound, iterations, convergence) of the last call. */
    private final MinMaxResult result = new MinMaxResult();

    private static final int NO = ReliableDecisionRule.NO_DECISION;

    /** Relative slack for the witness point returned by the exact minimiser (it lies on the boundary). */
    private static final double FEASIBILITY_TOL = 1e-9;

    /** A random local-QDA problem with its conditional moments. */
    private record Problem(DiagonalQuadraticDiscriminants f, double[] m, DMatrixRMaj r, double[][] chol) {}

    private static Problem randomProblem(SplittableRandom rnd, int numClasses, int ell, double spread) {
        double[][] means = new double[numClasses][];
        double[][] vars = new double[numClasses][];
        double[] logPriors = new double[numClasses];
        double total = 0;
        for (int g = 0; g < numClasses; g++) {
            means[g] = Samples.gaussianVector(rnd, ell, 1.5);
            vars[g] = Samples.uniformVector(rnd, ell, 0.3, 2.0);
            logPriors[g] = 0.2 + rnd.nextDouble();
            total += logPriors[g];
        }
        for (int g = 0; g < numClasses; g++) {
            logPriors[g] = Math.log(logPriors[g] / total);
        }
        double[] m = Samples.plus(means[rnd.nextInt(numClasses)], Samples.gaussianVector(rnd, ell, 0.7));
        DMatrixRMaj r = Samples.randomSpd(rnd, ell, 0.05 * spread, spread);
        return new Problem(DiagonalQuadraticDiscriminants.of(means, vars, logPriors), m, r, Samples.cholesky(r));
    }

    private static int argmax(Discriminants f, double[] y) {
        int best = 0;
        for (int g = 1; g < f.numClasses(); g++) {
            if (f.value(g, y) > f.value(best, y)) {
                best = g;
            }
        }
        return best;
    }

    /** A point of the set of the given kind built from (m, R): uniform in the ball/box or on its boundary. */
    private static double[] samplePoint(SplittableRandom rnd, SetKind kind, Problem p, TauSet set, boolean boundary) {
        int ell = p.m.length;
        double radius = set.radius();
        if (kind == SetKind.NB_BOX) {
            double[] y = p.m.clone();
            int face = boundary ? rnd.nextInt(ell) : -1;
            for (int i = 0; i < ell; i++) {
                double u = i == face ? (rnd.nextBoolean() ? 1 : -1) : 2 * rnd.nextDouble() - 1;
                y[i] += u * radius * Math.sqrt(p.r.get(i, i));
            }
            return y;
        }
        double[] z = Samples.ballPoint(rnd, ell, boundary);
        for (int i = 0; i < ell; i++) {
            z[i] *= radius;
        }
        if (kind.usesFullCovariance()) {
            return Samples.plus(p.m, Samples.times(p.chol, z));
        }
        double[] y = p.m.clone();
        for (int i = 0; i < ell; i++) {
            y[i] += Math.sqrt(p.r.get(i, i)) * z[i];
        }
        return y;
    }

    @Test
    void decisionsAgreeWithBruteForceOverTheSet() {
        SplittableRandom rnd = new SplittableRandom(101);
        ReliableDecisionRule rule = new ReliableDecisionRule(4, 5);
        QuadraticMinMax solver = new QuadraticMinMax(4);
        TauSet set = new TauSet(4);
        int decided = 0;
        int waited = 0;
        for (int inst = 0; inst < 240; inst++) {
            int numClasses = 3 + inst % 3;
            int ell = 2 + inst % 3;
            double spread = new double[] {0.01, 0.1, 0.5}[inst % 3 == 0 ? 0 : rnd.nextInt(3)];
            Problem p = randomProblem(rnd, numClasses, ell, spread);
            double tau = new double[] {0.1, 0.5, 0.9}[rnd.nextInt(3)];
            for (SetKind kind : SetKind.values()) {
                new SetConstruction(kind, tau, 4).build(p.m, p.r, set);
                int c = rule.decide(p.f, set);
                String what = "instance " + inst + " " + kind;
                assertEquals(argmax(p.f, p.m), rule.lastGuess(), what);
                assertTrue(rule.lastChecks() <= numClasses - 1, what);
                if (c != NO) {
                    decided++;
                    assertEquals(rule.lastGuess(), c, what);
                    for (int s = 0; s < 400; s++) {
                        double[] y = samplePoint(rnd, kind, p, set, s % 2 == 0);
                        assertEquals(c, argmax(p.f, y), what + ": the label changes inside the set");
                    }
                } else {
                    waited++;
                    // A witness: some competitor h beats the guess at an exact minimiser of f_c − f_h inside the set.
                    assertTrue(hasWitness(p.f, set, solver, rule.lastGuess()), what + ": no witness for waiting");
                }
            }
        }
        assertTrue(decided > 150 && waited > 150, decided + " decided, " + waited + " waited");
    }

    private static boolean hasWitness(Discriminants f, TauSet set, QuadraticMinMax solver, int c) {
        int ell = f.dimension();
        double[] m = new double[ell];
        set.copyCenter(m);
        double[] gc = new double[ell];
        double[] cc = new double[ell];
        double[] gh = new double[ell];
        double[] ch = new double[ell];
        double vc = f.expand(c, m, gc, cc);
        for (int h = 0; h < f.numClasses(); h++) {
            if (h == c) {
                continue;
            }
            double vh = f.expand(h, m, gh, ch);
            double[] a = new double[ell];
            double[] g = new double[ell];
            for (int i = 0; i < ell; i++) {
                a[i] = cc[i] - ch[i];
                g[i] = gc[i] - gh[i];
            }
            double[] y = new double[ell];
            double min = solver.minimum(set, a, g, vc - vh, y, new MinMaxResult());
            if (min < 0 && set.contains(y, FEASIBILITY_TOL) && f.value(c, y) < f.value(h, y)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void linearDiscriminantsAgreeWithBruteForce() {
        SplittableRandom rnd = new SplittableRandom(102);
        ReliableDecisionRule rule = new ReliableDecisionRule(4, 5);
        QuadraticMinMax solver = new QuadraticMinMax(4);
        TauSet set = new TauSet(4);
        int decided = 0;
        for (int inst = 0; inst < 150; inst++) {
            int numClasses = 3 + inst % 3;
            int ell = 2 + inst % 3;
            double[][] w = new double[numClasses][];
            double[] b = new double[numClasses];
            for (int g = 0; g < numClasses; g++) {
                w[g] = Samples.gaussianVector(rnd, ell, 1.0);
                b[g] = Samples.gaussian(rnd);
            }
            LinearDiscriminants f = new LinearDiscriminants(w, b);
            Problem p = randomProblem(rnd, numClasses, ell, 0.2);
            for (SetKind kind : SetKind.values()) {
                new SetConstruction(kind, 0.8, 4).build(p.m, p.r, set);
                int c = rule.decide(f, set);
                if (c != NO) {
                    decided++;
                    for (int s = 0; s < 300; s++) {
                        assertEquals(c, argmax(f, samplePoint(rnd, kind, p, set, s % 2 == 0)));
                    }
                } else {
                    assertTrue(hasWitness(f, set, solver, rule.lastGuess()), "instance " + inst + " " + kind);
                }
            }
        }
        assertTrue(decided > 100, decided + " decided");
    }

    @Test
    void completeSeriesDecidesTheArgmaxAtTheMean() {
        SplittableRandom rnd = new SplittableRandom(103);
        ReliableDecisionRule rule = new ReliableDecisionRule(5, 6);
        TauSet set = new TauSet(5);
        for (int inst = 0; inst < 100; inst++) {
            Problem p = randomProblem(rnd, 2 + inst % 5, 1 + inst % 5, 1.0);
            int expected = argmax(p.f, p.m);
            for (SetKind kind : SetKind.values()) {
                new SetConstruction(kind, 0.99, 5).build(p.m, new DMatrixRMaj(p.m.length, p.m.length), set);
                assertEquals(TauSet.Shape.POINT, set.shape());
                assertEquals(expected, rule.decide(p.f, set));
                assertEquals(expected, rule.decideGeneral(p.f, set));
                assertEquals(1.0, rule.largestReliableTau(p.f, set, kind, 1e-6));
            }
        }
    }

    @Test
    void generalProcessAgreesWithTheSimpleRuleAndRespectsPropositionFour() {
        SplittableRandom rnd = new SplittableRandom(104);
        ReliableDecisionRule rule = new ReliableDecisionRule(4, 8);
        TauSet set = new TauSet(4);
        int[] checksSeen = new int[16];
        for (int inst = 0; inst < 400; inst++) {
            int numClasses = 2 + inst % 7;
            Problem p = randomProblem(rnd, numClasses, 2 + inst % 3, new double[] {0.02, 0.3, 2.0}[inst % 3]);
            SetKind kind = SetKind.values()[inst % 4];
            new SetConstruction(kind, 0.7, 4).build(p.m, p.r, set);
            int simple = rule.decide(p.f, set);
            int general = rule.decideGeneral(p.f, set);
            int checks = rule.lastChecks();
            assertEquals(simple, general, "instance " + inst);
            assertTrue(
                    checks >= numClasses - 1 && checks <= 2 * (numClasses - 1), checks + " checks, G = " + numClasses);
            checksSeen[checks - numClasses + 1]++;
            // Prop. 3: the answer is a class dominating every other one, and there is none when it says no.
            int dominator = NO;
            for (int c = 0; c < numClasses && dominator == NO; c++) {
                boolean all = true;
                for (int h = 0; h < numClasses && all; h++) {
                    all = h == c || rule.dominates(p.f, set, c, h);
                }
                if (all) {
                    dominator = c;
                }
            }
            assertEquals(dominator, general, "instance " + inst);
        }
        // Both ends of Prop. 4's range occur.
        assertTrue(checksSeen[0] > 0, "never G−1 checks");
        int above = 0;
        for (int k = 1; k < checksSeen.length; k++) {
            above += checksSeen[k];
        }
        assertTrue(above > 0, "never more than G−1 checks");
    }

    @Test
    void chebyshevNeverDecidesWhenTheChiSquareSetWaits() {
        // Same centre and shape: the Chebyshev radius is ≥ the χ² radius, so its set contains the other one.
        SplittableRandom rnd = new SplittableRandom(105);
        ReliableDecisionRule rule = new ReliableDecisionRule(5, 5);
        TauSet cheb = new TauSet(5);
        TauSet chi = new TauSet(5);
        int chebDecides = 0;
        int onlyChi = 0;
        for (int inst = 0; inst < 400; inst++) {
            Problem p = randomProblem(rnd, 3 + inst % 3, 1 + inst % 5, new double[] {0.01, 0.05, 0.3}[inst % 3]);
            double tau = 0.05 + 0.9 * rnd.nextDouble();
            boolean full = inst % 2 == 0;
            new SetConstruction(SetKind.CHEBYSHEV, tau, 5).build(p.m, p.r, cheb);
            new SetConstruction(SetKind.GAUSSIAN, tau, 5).build(p.m, p.r, chi);
            if (!full) {
                double[] var = new double[p.m.length];
                for (int i = 0; i < var.length; i++) {
                    var[i] = p.r.get(i, i);
                }
                new SetConstruction(SetKind.CHEBYSHEV, tau, 5).buildDiagonal(p.m, var, cheb);
                new SetConstruction(SetKind.NB_QUADRATIC, tau, 5).buildDiagonal(p.m, var, chi);
            }
            int a = rule.decide(p.f, cheb);
            int b = rule.decide(p.f, chi);
            if (a != NO) {
                chebDecides++;
                assertEquals(a, b, "instance " + inst);
            } else if (b != NO) {
                onlyChi++;
            }
        }
        assertTrue(chebDecides > 50 && onlyChi > 20, chebDecides + " / " + onlyChi);
    }

    @Test
    void largestTauIsTheReliabilityThreshold() {
        SplittableRandom rnd = new SplittableRandom(106);
        ReliableDecisionRule rule = new ReliableDecisionRule(4, 5);
        TauSet set = new TauSet(4);
        double tol = 1e-4;
        int interior = 0;
        for (int inst = 0; inst < 120; inst++) {
            Problem p = randomProblem(rnd, 3 + inst % 3, 2 + inst % 3, new double[] {0.02, 0.2, 1.0}[inst % 3]);
            SetKind kind = SetKind.values()[inst % 4];
            SetConstruction construction = new SetConstruction(kind, 0.5, 4);
            construction.build(p.m, p.r, set);
            double radiusBefore = set.radius();
            double star = rule.largestReliableTau(p.f, set, kind, tol);
            assertEquals(radiusBefore, set.radius(), "the radius is restored");
            // Monotone: reliable at every τ below τ*, at none above τ* + tol.
            for (double tau = 0.01; tau < 0.995; tau += 0.0123) {
                new SetConstruction(kind, tau, 4).build(p.m, p.r, set);
                boolean reliable = rule.decide(p.f, set) != NO;
                if (tau <= star) {
                    assertTrue(reliable, "instance " + inst + " " + kind + ": tau " + tau + " ≤ τ* " + star);
                } else if (tau > star + tol) {
                    assertFalse(reliable, "instance " + inst + " " + kind + ": tau " + tau + " > τ* " + star);
                }
            }
            if (star > 0.02 && star < 0.98) {
                interior++;
            }
        }
        assertTrue(interior > 30, interior + " thresholds inside (0.02, 0.98)");
    }

    @Test
    void classOfInterestModeAnnouncesOnlyTheChosenClass() {
        SplittableRandom rnd = new SplittableRandom(107);
        ReliableDecisionRule rule = new ReliableDecisionRule(4, 5);
        TauSet set = new TauSet(4);
        int yes = 0;
        for (int inst = 0; inst < 200; inst++) {
            int numClasses = 3 + inst % 3;
            Problem p = randomProblem(rnd, numClasses, 2 + inst % 3, new double[] {0.02, 0.2}[inst % 2]);
            new SetConstruction(SetKind.NB_QUADRATIC, 0.8, 4).build(p.m, p.r, set);
            int decision = rule.decide(p.f, set);
            for (int g = 0; g < numClasses; g++) {
                boolean reliable = rule.reliableAs(p.f, set, g);
                assertEquals(decision == g, reliable, "instance " + inst + " class " + g);
                if (g != argmax(p.f, p.m)) {
                    assertEquals(0, rule.lastChecks(), "a class losing at m needs no check");
                }
                yes += reliable ? 1 : 0;
            }
        }
        assertTrue(yes > 50, yes + " positive answers");
    }

    @Test
    void decidingDoesNotAllocateForDiagonalShapes() {
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        SplittableRandom rnd = new SplittableRandom(108);
        int ell = 30;
        int numClasses = 10;
        Problem p = randomProblem(rnd, numClasses, ell, 0.05);
        double[] var = new double[ell];
        for (int i = 0; i < ell; i++) {
            var[i] = p.r.get(i, i);
        }
        ReliableDecisionRule rule = new ReliableDecisionRule(ell, numClasses);
        TauSet set = new TauSet(ell);
        SetConstruction nbq = new SetConstruction(SetKind.NB_QUADRATIC, 0.9, ell);
        SetConstruction box = new SetConstruction(SetKind.NB_BOX, 0.9, ell);
        Runnable work = () -> {
            for (int k = 0; k < 2000; k++) {
                nbq.buildDiagonal(p.m, var, set);
                rule.decide(p.f, set);
                box.build(p.m, p.r, set);
                rule.decide(p.f, set);
            }
        };
        work.run();
        long tid = Thread.currentThread().getId();
        long before = bean.getThreadAllocatedBytes(tid);
        work.run();
        long allocated = bean.getThreadAllocatedBytes(tid) - before;
        // 4,000 decisions: one 16-byte object per decision would already be 64 kB.
        assertTrue(allocated < 4096, allocated + " bytes allocated");
    }

    @Test
    void mismatchedSizesAreRejected() {
        ReliableDecisionRule rule = new ReliableDecisionRule(3, 2);
        TauSet set = new TauSet(3);
        set.setDiagonalEllipsoid(new double[3], new double[] {1, 1, 1}, 1.0);
        DiagonalQuadraticDiscriminants twoD = DiagonalQuadraticDiscriminants.of(
                new double[][] {{0, 0}, {1, 1}}, new double[][] {{1, 1}, {1, 1}}, new double[] {-0.7, -0.7});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rule.decide(twoD, set));
        assertTrue(e.getMessage().contains("2") && e.getMessage().contains("3"), e.getMessage());
        DiagonalQuadraticDiscriminants three = new DiagonalQuadraticDiscriminants(3, 3);
        assertThrows(IllegalArgumentException.class, () -> rule.decide(three, set));
        assertThrows(
                IllegalArgumentException.class, () -> rule.largestReliableTau(twoD, set, SetKind.NB_QUADRATIC, 0.7));
    }
}
