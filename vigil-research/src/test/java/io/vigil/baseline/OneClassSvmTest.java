package io.vigil.baseline;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Gaussian-kernel ν one-class SVM: the ν-property on a cloud, and the support it learns. */
class OneClassSvmTest {
    private static double[][] cloud(int n, long seed) {
        Random rnd = new Random(seed);
        double[][] x = new double[n][2];
        for (double[] p : x) {
            p[0] = rnd.nextGaussian();
            p[1] = rnd.nextGaussian();
        }
        return x;
    }

    /**
     * Schölkopf et al. 2001, Prop. 4: the fraction of training points strictly outside is at most ν (up to the
     * solver's tolerance) and the fraction of support vectors at least ν.
     */
    @Test
    void nuBoundsTheOutliersAndTheSupportVectors() {
        double[][] x = cloud(200, 1L);
        int previous = -1;
        for (double nu : new double[] {0.05, 0.2, 0.5}) {
            OneClassSvm svm = OneClassSvm.fit(x, nu, 0.5);
            int rejected = 0;
            for (double[] p : x) {
                rejected += svm.decision(p) < -OneClassSvm.TOLERANCE ? 1 : 0;
            }
            assertTrue(rejected <= nu * x.length, "ν = " + nu + ": " + rejected + " rejected");
            assertTrue(svm.supportSize() >= nu * x.length, "ν = " + nu + ": " + svm.supportSize() + " SVs");
            assertTrue(svm.supportSize() > previous, "more ν, more support vectors");
            previous = svm.supportSize();
        }
    }

    @Test
    void theCentreIsAcceptedAndFarPointsAreNot() {
        OneClassSvm svm = OneClassSvm.fit(cloud(150, 2L), 0.1, 0.5);
        assertTrue(svm.accepts(new double[] {0, 0}));
        assertFalse(svm.accepts(new double[] {6, 6}));
        assertFalse(svm.accepts(new double[] {-7, 0}));
        assertTrue(svm.rho() > 0);
    }

    @Test
    void badParametersAreRejected() {
        double[][] x = cloud(10, 3L);
        assertThrows(IllegalArgumentException.class, () -> OneClassSvm.fit(x, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> OneClassSvm.fit(x, 0.1, 0));
        assertThrows(IllegalArgumentException.class, () -> OneClassSvm.fit(new double[0][], 0.1, 1));
    }
}
