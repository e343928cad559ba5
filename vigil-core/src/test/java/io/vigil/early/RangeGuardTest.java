package io.vigil.early;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.Dataset;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.JointGaussian;
import io.vigil.gauss.SeriesGaussian;
import io.vigil.gauss.Shrinkage;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.ldg.Standardizer;
import io.vigil.model.CompleteSeriesSection;
import io.vigil.model.VigilModel;
import java.util.List;
import java.util.Random;
import org.ejml.data.DMatrixRMaj;
import org.junit.jupiter.api.Test;

/** The per-t training range of a model and the bounds of {@code --range-guard}. */
class RangeGuardTest {
    @Test
    void aStandardisingModelUsesThePerTimeMeanAndStandardDeviationOfItsTrainingSeries() {
        VigilModel m = EarlyFixtures.CBF_STANDARDIZED_MODEL;
        Standardizer std = m.standardizer().orElseThrow();
        double[][] moments = RangeGuard.trainingMoments(m);
        assertArrayEquals(std.means(), moments[0]);
        assertArrayEquals(std.scales(), moments[1]);
        Dataset train = EarlyFixtures.CBF.train();
        for (int t = 0; t < train.length(); t += 17) {
            double sum = 0.0;
            for (int i = 0; i < train.size(); i++) {
                sum += train.value(i, t);
            }
            double mean = sum / train.size();
            double ss = 0.0;
            for (int i = 0; i < train.size(); i++) {
                ss += (train.value(i, t) - mean) * (train.value(i, t) - mean);
            }
            assertEquals(mean, moments[0][t], 1e-9, "mean at t = " + (t + 1));
            assertEquals(Math.sqrt(ss / (train.size() - 1)), moments[1][t], 1e-9, "sd at t = " + (t + 1));
        }
        RangeGuard guard = RangeGuard.of(m, 8.0);
        for (int t = 1; t <= m.length(); t++) {
            double high = moments[0][t - 1] + 8.0 * moments[1][t - 1];
            double low = moments[0][t - 1] - 8.0 * moments[1][t - 1];
            assertFalse(guard.outside(t, high));
            assertFalse(guard.outside(t, low));
            assertFalse(guard.outside(t, moments[0][t - 1]));
            assertTrue(guard.outside(t, Math.nextUp(high)));
            assertTrue(guard.outside(t, Math.nextDown(low)));
            assertTrue(guard.outside(t, 1e308));
            assertTrue(guard.outside(t, -1e308));
        }
    }

    @Test
    void otherwiseTheJointGaussiansMeanAndMarginalVariance() {
        VigilModel m = EarlyFixtures.CBF_MODEL;
        assertTrue(m.standardizer().isEmpty());
        SeriesGaussian joint = m.section(CompleteSeriesSection.class)
                .orElseThrow()
                .jointGaussian()
                .orElseThrow();
        double[][] moments = RangeGuard.trainingMoments(m);
        assertArrayEquals(joint.mean(), moments[0]);
        DMatrixRMaj cov = joint.covariance();
        for (int t = 0; t < m.length(); t++) {
            assertEquals(Math.sqrt(cov.get(t, t)), moments[1][t], 1e-9 * Math.sqrt(cov.get(t, t)));
        }
    }

    @Test
    void aModelWithOnlyTheMixtureUsesThePooledMixtureMoments() {
        double[] w = {3.0, 1.0}; // normalised: 0.75, 0.25
        SeriesGaussian a = diagonal(new double[] {0, 1, 2}, new double[] {1, 4, 9});
        SeriesGaussian b = diagonal(new double[] {2, 1, 0}, new double[] {1, 1, 1});
        double[][] m = RangeGuard.mixtureMoments(w, List.of(a, b));
        // t = 1: mean 0.5, E[x²] = 0.75·1 + 0.25·(1 + 4) = 2, variance 1.75; t = 2: 1, 0.75·5 + 0.25·2 − 1 = 3.25
        assertArrayEquals(new double[] {0.5, 1.0, 1.5}, m[0], 1e-12);
        assertArrayEquals(
                new double[] {Math.sqrt(1.75), Math.sqrt(3.25), Math.sqrt(0.75 * 13 + 0.25 * 1 - 2.25)}, m[1], 1e-12);

        VigilModel full = EarlyFixtures.CBF_MODEL;
        CompleteSeriesSection s = full.section(CompleteSeriesSection.class).orElseThrow();
        VigilModel mixtureOnly = full.toBuilder()
                .removeSection(CompleteSeriesSection.NAME)
                .section(
                        new CompleteSeriesSection(s.shrinkage(), s.covariance(), null, s.mixtureWeights(), s.mixture()))
                .build();
        double[][] pooled = RangeGuard.trainingMoments(mixtureOnly);
        double[][] expected = RangeGuard.mixtureMoments(s.mixtureWeights(), s.mixture());
        assertArrayEquals(expected[0], pooled[0]);
        assertArrayEquals(expected[1], pooled[1]);
        double[][] joint = RangeGuard.trainingMoments(full);
        for (int t = 0; t < full.length(); t++) {
            // Two estimates of one training distribution: the pooled mixture and the joint Gaussian agree closely.
            assertEquals(joint[0][t], pooled[0][t], 0.05 * joint[1][t], "mean at t = " + (t + 1));
            assertEquals(joint[1][t], pooled[1][t], 0.25 * joint[1][t], "sd at t = " + (t + 1));
        }
    }

    @Test
    void marginalVariancesAreTheCovarianceDiagonalInBothForms() {
        Random r = new Random(5L);
        double[][] rows = new double[30][12];
        for (double[] row : rows) {
            double shared = r.nextGaussian();
            for (int t = 0; t < row.length; t++) {
                row[t] = shared * (t + 1) + r.nextGaussian();
            }
        }
        for (CovarianceForm form : List.of(CovarianceForm.DENSE, CovarianceForm.LOW_RANK)) {
            SeriesGaussian g = SeriesGaussian.fit(rows, ShrinkageParams.defaults(), form);
            DMatrixRMaj cov = g.covariance();
            double[] v = g.marginalVariances();
            for (int t = 0; t < 12; t++) {
                assertEquals(cov.get(t, t), v[t], 1e-9 * cov.get(t, t), form + " t = " + t);
            }
        }
    }

    /** A model file written before the guard existed (complete_series section version 1) has a guard too. */
    @Test
    void anOlderModelFileHasAGuardWithoutANewField() throws Exception {
        String name = "/models/synthetic-control-complete-series-v1.json";
        byte[] bytes;
        try (java.io.InputStream in = RangeGuardTest.class.getResourceAsStream(name)) {
            bytes = in.readAllBytes();
        }
        VigilModel old = io.vigil.model.json.ModelFile.standard().read(bytes, name);
        double[][] moments = RangeGuard.trainingMoments(old);
        assertEquals(old.length(), moments[0].length);
        for (int t = 0; t < old.length(); t++) {
            assertTrue(Double.isFinite(moments[0][t]) && moments[1][t] > 0.0, "t = " + (t + 1));
        }
        RangeGuard guard = RangeGuard.of(old, 8.0);
        assertFalse(guard.outside(1, moments[0][0]));
        assertTrue(guard.outside(1, 1e308));
    }

    @Test
    void kMustBePositiveAndFinite() {
        for (double k : new double[] {0.0, -1.0, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> RangeGuard.of(EarlyFixtures.CBF_MODEL, k), "K " + k);
        }
        assertEquals(2.5, RangeGuard.of(EarlyFixtures.CBF_MODEL, 2.5).k());
    }

    private static SeriesGaussian diagonal(double[] mean, double[] variances) {
        DMatrixRMaj cov = new DMatrixRMaj(mean.length, mean.length);
        for (int t = 0; t < mean.length; t++) {
            cov.set(t, t, variances[t]);
        }
        return JointGaussian.fromCovariance(mean, cov, Shrinkage.external());
    }
}
