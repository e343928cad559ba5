package io.vigil.ldg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** Thesis §3.1.1: objective (3.4), its gradient (3.5) and Algorithm 1. */
class GradientRefinementTest {
    /** Three classes in d = 10 with unequal spreads, so the eigen solution (a Jensen bound) is not optimal. */
    private static double[][] rows(int[] y, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        double[][] x = new double[y.length][10];
        for (int i = 0; i < y.length; i++) {
            y[i] = i % 3;
            for (int t = 0; t < 10; t++) {
                double centre = t == y[i] ? 1.5 : 0.0;
                x[i][t] = centre + (t < 3 ? 0.8 : 0.4 + 0.2 * t) * r.nextGaussian();
            }
        }
        return x;
    }

    @Test
    void gradientMatchesCentralDifferences() {
        int[] y = new int[45];
        double[][] x = rows(y, 3);
        GradientRefinement problem = GradientRefinement.of(x, y, 3, 4);
        SplittableRandom r = new SplittableRandom(4);
        for (int trial = 0; trial < 5; trial++) {
            double[][] bt = new double[2][10];
            double[][] e = new double[2][10];
            for (int c = 0; c < 2; c++) {
                for (int t = 0; t < 10; t++) {
                    bt[c][t] = r.nextGaussian() * 0.3;
                    e[c][t] = r.nextGaussian();
                }
            }
            double[][] grad = new double[2][10];
            problem.objectiveAndGradient(bt, grad);
            double analytic = 0;
            for (int c = 0; c < 2; c++) {
                for (int t = 0; t < 10; t++) {
                    analytic += grad[c][t] * e[c][t];
                }
            }
            double h = 1e-5;
            double numeric = (problem.objective(shift(bt, e, h)) - problem.objective(shift(bt, e, -h))) / (2 * h);
            // Central differences err by O(h²·f''') ≈ 1e-10 here, plus rounding ε·|f|/h ≈ 1e-9 relative.
            assertEquals(analytic, numeric, 1e-6 * Math.max(1, Math.abs(analytic)), "trial " + trial);
        }
    }

    @Test
    void everyFurtherIterationKeepsOrLowersTheObjectiveAndTheBasisStaysOrthonormal() {
        int[] y = new int[60];
        double[][] x = rows(y, 5);
        LdgBasis eigen = Ldg.fit(x, y, 3, new LdgParams(4, 0.5));
        GradientRefinement problem = GradientRefinement.of(x, y, 3, 4);
        double previous = Double.POSITIVE_INFINITY;
        double first = Double.NaN;
        for (int iterations : new int[] {1, 2, 3, 5, 8, 13, 30, 200}) {
            LdgBasis refined =
                    GradientRefinement.refine(x, y, 3, 4, eigen, 2, new GradientRefinement.Params(iterations, 1e-12));
            LdgRefinement rec = refined.refinement().orElseThrow();
            if (Double.isNaN(first)) {
                first = rec.objectiveBefore();
                assertEquals(problem.objective(rows(eigen, 2)), first, 1e-9 * Math.abs(first));
            }
            assertEquals(first, rec.objectiveBefore(), 0.0, "every run starts from the eigen solution");
            assertTrue(rec.objectiveAfter() <= previous, iterations + " iterations: " + rec);
            assertEquals(problem.objective(rows(refined, 2)), rec.objectiveAfter(), 1e-9 * Math.abs(first));
            previous = rec.objectiveAfter();
            DMatrixRMaj b = refined.basis(2);
            LdgBasis.of(b, refined.eigenvalues()); // throws unless BᵀB = I within 1e-8
        }
        assertTrue(
                previous < first - 1e-3 * Math.abs(first),
                "the descent improves on the eigen solution: " + first + " -> " + previous);
    }

    @Test
    void badShapesAreNamed() {
        int[] y = new int[30];
        double[][] x = rows(y, 7);
        LdgBasis eigen = Ldg.fit(x, y, 3, new LdgParams(3, 0.5));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> GradientRefinement.refine(
                        x, y, 3, 3, eigen, eigen.rank() + 1, GradientRefinement.Params.DEFAULTS));
        assertTrue(e.getMessage().contains("directions"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new GradientRefinement.Params(0, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> new GradientRefinement.Params(10, 0));
    }

    private static double[][] shift(double[][] bt, double[][] e, double h) {
        double[][] out = new double[bt.length][];
        for (int c = 0; c < bt.length; c++) {
            out[c] = bt[c].clone();
            for (int t = 0; t < out[c].length; t++) {
                out[c][t] += h * e[c][t];
            }
        }
        return out;
    }

    private static double[][] rows(LdgBasis b, int dims) {
        double[][] out = new double[dims][b.inputDim()];
        for (int c = 0; c < dims; c++) {
            for (int t = 0; t < b.inputDim(); t++) {
                out[c][t] = b.component(t, c);
            }
        }
        return out;
    }
}
