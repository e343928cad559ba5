package io.vigil.gauss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Properties every {@link CompleteSeriesEstimator} must have, run against both implementations. */
class EstimatorContractTest {
    /** Moments of O(1)-scaled data computed two ways; rounding only (see ConditionalModelTest.REL_TOL). */
    static final double TOL = 1e-10;

    static final int D = 24;
    static final int L = 5;

    private static final double[][] ROWS;
    private static final int[] CLASSES;
    private static final DMatrixRMaj BASIS;

    static {
        SplittableRandom rng = new SplittableRandom(2024);
        ROWS = new double[30][];
        CLASSES = new int[30];
        for (int i = 0; i < 30; i++) {
            CLASSES[i] = i % 3;
            ROWS[i] = GaussTestSupport.randomVector(D, 1.0, rng);
            for (int t = 0; t < D; t++) {
                ROWS[i][t] += Math.sin(0.3 * t * (CLASSES[i] + 1));
            }
        }
        BASIS = GaussTestSupport.randomOrthonormal(D, L, rng);
    }

    static Stream<Arguments> estimators() {
        return Stream.of(EstimatorType.values())
                .map(type -> Arguments.of(
                        type, CompleteSeriesEstimator.fit(type, ROWS, CLASSES, 3, BASIS, ShrinkageParams.defaults())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("estimators")
    void dimensionsAndNames(EstimatorType type, CompleteSeriesEstimator est) {
        assertEquals(type, est.type());
        assertEquals(type, EstimatorType.fromId(type.id()));
        assertEquals(D, est.length());
        assertEquals(L, est.reducedDimension());
        assertEquals(type == EstimatorType.JOINT ? 1 : 3, est.components());
        assertArrayEquals(BASIS.data, est.basis().data, 0.0);
        SeriesState s = est.newState();
        assertEquals(0, s.time());
        assertEquals(0.0, est.logLikelihood(s), 0.0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("estimators")
    void packedAndDenseCovarianceAgreeAndArePositiveSemidefinite(EstimatorType type, CompleteSeriesEstimator est) {
        SeriesState s = est.newState();
        double[] packed = new double[SymmetricPacked.size(L)];
        DMatrixRMaj dense = new DMatrixRMaj(L, L);
        DMatrixRMaj unpacked = new DMatrixRMaj(L, L);
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(L, false, true);
        double[] x = ROWS[4];
        double previousLogLik = 0.0;
        for (int t = 0; t <= D; t++) {
            if (t > 0) {
                est.update(s, x[t - 1]);
            }
            est.conditionalCovariance(s, packed);
            est.conditionalCovariance(s, dense);
            SymmetricPacked.unpack(packed, unpacked);
            assertArrayEquals(dense.data, unpacked.data, 1e-15, "t = " + t);
            assertTrue(eig.decompose(dense.copy()));
            double scale = Math.max(1.0, GaussTestSupport.maxAbs(dense));
            for (int i = 0; i < L; i++) {
                assertTrue(eig.getEigenvalue(i).real >= -TOL * scale, "R_y(" + t + ") must be PSD");
            }
            double ll = est.logLikelihood(s);
            assertTrue(Double.isFinite(ll));
            if (t > 0) {
                assertTrue(ll != previousLogLik, "each sample changes the log-likelihood");
            }
            previousLogLik = ll;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("estimators")
    void completeSeriesHasKnownFeaturesAndZeroCovariance(EstimatorType type, CompleteSeriesEstimator est) {
        SeriesState s = est.newState();
        double[] x = GaussTestSupport.randomVector(D, 1.5, new SplittableRandom(1));
        for (double v : x) {
            est.update(s, v);
        }
        double[] m = new double[L];
        est.conditionalMean(s, m);
        assertArrayEquals(GaussTestSupport.project(BASIS, x), m, TOL * 10);
        DMatrixRMaj r = new DMatrixRMaj(L, L);
        est.conditionalCovariance(s, r);
        assertTrue(GaussTestSupport.maxAbs(r) <= TOL, "R_y(d) = 0, got " + GaussTestSupport.maxAbs(r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("estimators")
    void shapeErrorsNameBothSizes(EstimatorType type, CompleteSeriesEstimator est) {
        SeriesState foreign = new SeriesState(D + 1, L, est.components());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> est.update(foreign, 0.0));
        assertTrue(e.getMessage().contains("d = " + (D + 1)) && e.getMessage().contains("d = " + D), e.getMessage());
        SeriesState s = est.newState();
        IllegalArgumentException m =
                assertThrows(IllegalArgumentException.class, () -> est.conditionalMean(s, new double[L + 1]));
        assertTrue(
                m.getMessage().contains(String.valueOf(L + 1)) && m.getMessage().contains("ℓ = " + L));
        assertThrows(IllegalArgumentException.class, () -> est.conditionalCovariance(s, new double[L]));
        assertThrows(IllegalArgumentException.class, () -> est.conditionalCovariance(s, new DMatrixRMaj(L, L + 1)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("estimators")
    void updateAndMomentsDoNotAllocate(EstimatorType type, CompleteSeriesEstimator est) {
        Assumptions.assumeTrue(
                ManagementFactory.getThreadMXBean() instanceof ThreadMXBean,
                "per-thread allocation counter unavailable");
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(mx.isThreadAllocatedMemorySupported(), "per-thread allocation counter unsupported");
        mx.setThreadAllocatedMemoryEnabled(true);
        SeriesState s = est.newState();
        double[] m = new double[L];
        double[] packed = new double[SymmetricPacked.size(L)];
        double[] x = ROWS[7];
        long tid = Thread.currentThread().getId();
        int rounds = 2000;
        runSeries(est, s, x, m, packed, rounds); // warm-up
        long before = mx.getThreadAllocatedBytes(tid);
        runSeries(est, s, x, m, packed, rounds);
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        // 2000 series × 24 samples: any per-sample allocation would show as ≥ 48,000 × 16 bytes.
        // A few hundred bytes of slack cover the counter call itself.
        assertTrue(allocated < 1024, type + " allocated " + allocated + " bytes over " + rounds * D + " updates");
    }

    private static void runSeries(
            CompleteSeriesEstimator est, SeriesState s, double[] x, double[] m, double[] packed, int rounds) {
        for (int r = 0; r < rounds; r++) {
            s.reset();
            for (double v : x) {
                est.update(s, v);
                est.conditionalMean(s, m);
                est.conditionalCovariance(s, packed);
            }
        }
    }

    @Test
    void estimatorTypeParsing() {
        assertEquals(EstimatorType.JOINT, EstimatorType.fromId("joint"));
        assertEquals(EstimatorType.GMM, EstimatorType.fromId(" GMM"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EstimatorType.fromId("kde"));
        assertTrue(e.getMessage().contains("joint, gmm"), e.getMessage());
    }

    @Test
    void symmetricPackedLayout() {
        assertEquals(0, SymmetricPacked.index(0, 0));
        assertEquals(1, SymmetricPacked.index(1, 0));
        assertEquals(1, SymmetricPacked.index(0, 1));
        assertEquals(5, SymmetricPacked.index(2, 2));
        assertEquals(6, SymmetricPacked.size(3));
        DMatrixRMaj a = new DMatrixRMaj(new double[][] {{1, 2, 4}, {2, 3, 5}, {4, 5, 6}});
        double[] p = new double[6];
        SymmetricPacked.pack(a, p);
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, p, 0.0);
        DMatrixRMaj b = new DMatrixRMaj(3, 3);
        SymmetricPacked.unpack(p, b);
        assertArrayEquals(a.data, b.data, 0.0);
        assertThrows(IllegalArgumentException.class, () -> SymmetricPacked.unpack(new double[5], b));
    }
}
