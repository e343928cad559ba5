package io.vigil.classify;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import io.vigil.reliability.LinearDiscriminants;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LinearSvmTest {
    /** Blobs: G classes in ℓ dimensions, class g centred at 4·e_(g mod ℓ)·(1 + g/ℓ), unit noise scaled by {@code sd}. */
    private static double[][] blobs(int n, int numClasses, int ell, double sd, long seed, int[] labels) {
        Random rnd = new Random(seed);
        double[][] y = new double[n][ell];
        for (int i = 0; i < n; i++) {
            int g = i % numClasses;
            labels[i] = g;
            for (int j = 0; j < ell; j++) {
                y[i][j] = sd * rnd.nextGaussian();
            }
            y[i][g % ell] += 4.0 * (1 + g / ell);
        }
        return y;
    }

    @Test
    void separableBlobsAreFittedPerfectlyAndDiscriminantsMatchPredict() {
        int[] labels = new int[300];
        double[][] y = blobs(300, 4, 4, 0.3, 1, labels);
        LinearSvm svm = LinearSvm.fit(y, labels, 4, 1.0, 42);
        assertEquals(4, svm.numClasses());
        assertEquals(4, svm.dimension());
        LinearDiscriminants f = svm.discriminants();
        for (int i = 0; i < y.length; i++) {
            assertEquals(labels[i], svm.predict(y[i]), "example " + i);
            for (int g = 0; g < 4; g++) {
                assertEquals(svm.decisionValue(g, y[i]), f.value(g, y[i]), 1e-12);
            }
        }
    }

    @Test
    void fitIsDeterministicForAGivenSeed() {
        int[] labels = new int[200];
        double[][] y = blobs(200, 3, 5, 1.5, 2, labels);
        LinearSvm a = LinearSvm.fit(y, labels, 3, 0.5, 7);
        LinearSvm b = LinearSvm.fit(y, labels, 3, 0.5, 7);
        for (int g = 0; g < 3; g++) {
            assertArrayEquals(a.weights(g), b.weights(g));
            assertEquals(a.bias(g), b.bias(g));
        }
    }

    @Test
    void oneVsRestMatchesLiblinearsOwnMultiClassTraining() {
        // LIBLINEAR trains the same G one-vs-rest problems internally; with a tight tolerance both solutions are the
        // unique minimiser of each strictly convex primal, so the weights agree to the solver tolerance.
        int[] labels = new int[240];
        double[][] y = blobs(240, 3, 3, 1.2, 3, labels);
        double eps = 1e-8;
        LinearSvm svm = LinearSvm.fit(y, labels, 3, new LinearSvm.Params(1.0, LinearSvm.Loss.L2_LOSS, eps, 100000, 5));

        Problem prob = new Problem();
        prob.l = y.length;
        prob.n = 4;
        prob.bias = 1.0;
        prob.x = new Feature[y.length][];
        prob.y = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            prob.x[i] = new Feature[] {
                new FeatureNode(1, y[i][0]),
                new FeatureNode(2, y[i][1]),
                new FeatureNode(3, y[i][2]),
                new FeatureNode(4, 1)
            };
            prob.y[i] = labels[i];
        }
        Linear.disableDebugOutput();
        Model model = Linear.train(prob, new Parameter(SolverType.L2R_L2LOSS_SVC_DUAL, 1.0, 100000, eps));
        int[] order = model.getLabels();
        for (int k = 0; k < order.length; k++) {
            int g = order[k];
            for (int j = 0; j < 3; j++) {
                assertEquals(model.getDecfunCoef(j + 1, k), svm.weights(g)[j], 1e-6, "class " + g + " weight " + j);
            }
            assertEquals(model.getDecfunBias(k), svm.bias(g), 1e-6, "class " + g + " bias");
        }
    }

    @Test
    void twoClassesGiveTwoMirroredDiscriminants() {
        int[] labels = new int[100];
        double[][] y = blobs(100, 2, 2, 1.0, 4, labels);
        LinearSvm svm =
                LinearSvm.fit(y, labels, 2, new LinearSvm.Params(2.0, LinearSvm.Loss.L2_LOSS, 1e-10, 100000, 1));
        assertEquals(2, svm.numClasses());
        // "0 vs rest" and "1 vs rest" are the same strictly convex problem with flipped signs; with a tight tolerance
        // the dual solver (linear convergence for the squared hinge) pins the unique w to well below 1e-6.
        for (int j = 0; j < 2; j++) {
            assertEquals(-svm.weights(0)[j], svm.weights(1)[j], 1e-6);
        }
        assertEquals(-svm.bias(0), svm.bias(1), 1e-6);
        LinearSvm hinge = LinearSvm.fit(y, labels, 2, new LinearSvm.Params(2.0, LinearSvm.Loss.L1_LOSS, 0.1, 1000, 1));
        int correct = 0;
        int correctHinge = 0;
        for (int i = 0; i < y.length; i++) {
            correct += svm.predict(y[i]) == labels[i] ? 1 : 0;
            correctHinge += hinge.predict(y[i]) == labels[i] ? 1 : 0;
        }
        // The blobs are 4 apart with unit noise: about 2.5% overlap, so ≥ 90 of 100 is a loose floor.
        assertTrue(correct >= 90, correct + " of 100");
        assertTrue(correctHinge >= 90, correctHinge + " of 100");
    }

    @Test
    void invalidInputsAreRejected() {
        double[][] y = {{0, 1}, {1, 0}, {2, 2}};
        assertThrows(IllegalArgumentException.class, () -> LinearSvm.fit(y, new int[] {0, 1}, 2, 1, 0));
        IllegalArgumentException ragged = assertThrows(
                IllegalArgumentException.class,
                () -> LinearSvm.fit(new double[][] {{0, 1}, {1}}, new int[] {0, 1}, 2, 1, 0));
        assertTrue(
                ragged.getMessage().contains("length 1") && ragged.getMessage().contains("length 2"));
        assertThrows(IllegalArgumentException.class, () -> LinearSvm.fit(y, new int[] {0, 1, 3}, 3, 1, 0));
        IllegalArgumentException missing =
                assertThrows(IllegalArgumentException.class, () -> LinearSvm.fit(y, new int[] {0, 1, 1}, 3, 1, 0));
        assertTrue(missing.getMessage().contains("class 2"), missing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LinearSvm.fit(y, new int[] {0, 1, 1}, 2, 0.0, 0));
        assertThrows(IllegalArgumentException.class, () -> new LinearSvm.Params(1, LinearSvm.Loss.L2_LOSS, -1, 10, 0));
    }
}
