package io.vigil.bench;

import io.vigil.gauss.CompleteSeriesEstimator;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.GaussianMixtureEstimator;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.LowRankGaussian;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.gauss.SubsetState;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.QRDecomposition;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost per observed value of conditioning on an arbitrary subset ({@link SubsetConditioner}, low-rank form, values
 * in a random order fixed per trial) beside the tabulated prefix update of the same Gaussian ({@link
 * JointGaussianEstimator}, low-rank form) at the same D = C·d: the first is O(q² + ℓq + ℓ²) per value with q the
 * factor's rank after the reduction ({@link SubsetConditioner#DEFAULT_RANK}; {@code -p rank=0}: unreduced, q = r = n −
 * 1, the exact conditioner), the second O(min(t + 1, r)). Each call feeds the next value and restarts after D values,
 * so figures average over the whole series. With {@code -p classes=G} (G &gt; 1) both are the {@code gmm} estimator's:
 * one low-rank Gaussian per class (series i in class i mod G), the any-order mixture ({@link
 * SubsetConditioner#mixture}) against the tabulated {@link GaussianMixtureEstimator}, G times the work per value.
 *
 * <p>Run: {@code java -cp target/vigil.jar org.openjdk.jmh.Main SubsetConditioning -f 1 -wi 2 -i 3}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class SubsetConditioningBenchmark {
    /** Values per series D = C·d (945 = 3 channels × 315, UWaveGestureLibrary). */
    @Param({"945"})
    public int length;

    /** LDG dimension ℓ. */
    @Param({"16"})
    public int reduced;

    /** Training series n; the factor rank is r = n − 1. */
    @Param({"50", "447"})
    public int train;

    /** Largest rank q of the any-order factor; 0 leaves it unreduced (r = n − 1). */
    @Param({"32", "0"})
    public int rank;

    /** Gaussian components G: 1 is the joint Gaussian, more the per-class mixture. */
    @Param({"1"})
    public int classes;

    private SubsetConditioner subset;
    private SubsetState subsetState;
    private CompleteSeriesEstimator prefix;
    private SeriesState prefixState;
    private int[] order;
    private double[] series;
    private int next;

    /** Fits the Gaussian to random-walk series (fixed seed) and draws a random arrival order. */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(26);
        double[][] rows = new double[train][length];
        for (int i = 0; i < train; i++) {
            double v = 0;
            for (int t = 0; t < length; t++) {
                v += 0.05 * (i % 4 - 1.5) + rng.nextGaussian() * 0.3;
                rows[i][t] = v;
            }
        }
        DMatrixRMaj a = new DMatrixRMaj(length, reduced);
        for (int i = 0; i < a.data.length; i++) {
            a.data[i] = rng.nextGaussian();
        }
        QRDecomposition<DMatrixRMaj> qr = DecompositionFactory_DDRM.qr(length, reduced);
        if (!qr.decompose(a)) {
            throw new IllegalStateException("QR of the random basis failed");
        }
        DMatrixRMaj basis = qr.getQ(null, true);
        int maxRank = rank == 0 ? Integer.MAX_VALUE : rank;
        if (classes == 1) {
            subset = SubsetConditioner.of(LowRankGaussian.fit(rows, ShrinkageParams.defaults()), basis, maxRank);
            prefix = JointGaussianEstimator.fit(rows, basis, ShrinkageParams.defaults(), CovarianceForm.LOW_RANK);
        } else {
            int[] classOf = new int[train];
            for (int i = 0; i < train; i++) {
                classOf[i] = i % classes;
            }
            GaussianMixtureEstimator.Components c = GaussianMixtureEstimator.fitComponents(
                    rows, classOf, classes, ShrinkageParams.defaults(), CovarianceForm.LOW_RANK);
            subset = SubsetConditioner.mixture(c.weights(), c.gaussians(), basis, maxRank);
            prefix = GaussianMixtureEstimator.of(c.weights(), c.gaussians(), basis);
        }
        subsetState = subset.newState();
        prefixState = prefix.newState();
        order = new int[length];
        for (int i = 0; i < length; i++) {
            order[i] = i;
        }
        for (int i = length - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int tmp = order[i];
            order[i] = order[j];
            order[j] = tmp;
        }
        series = rows[1].clone();
    }

    /** One value of an arbitrary subset, in random order. */
    @Benchmark
    public int subsetObserve() {
        if (next == length) {
            subset.reset(subsetState);
            next = 0;
        }
        int j = order[next++];
        subset.observe(subsetState, j, series[j]);
        return subsetState.observedCount();
    }

    /** One sample of the tabulated prefix path of the same Gaussian. */
    @Benchmark
    public int prefixUpdate() {
        SeriesState s = prefixState;
        if (s.isComplete()) {
            s.reset();
        }
        prefix.update(s, series[s.time()]);
        return s.time();
    }
}
