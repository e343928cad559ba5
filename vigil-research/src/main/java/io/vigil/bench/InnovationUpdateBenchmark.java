package io.vigil.bench;

import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.GaussianMixtureEstimator;
import io.vigil.gauss.JointGaussianEstimator;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.gauss.SymmetricPacked;
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
 * Cost of one per-sample update of the complete-series model (docs/method.md §3.1): the O(t) innovation
 * prediction plus the O(ℓ) mean update, for the {@code joint} estimator and a 4-class {@code gmm}, with
 * and without reading the conditional moments (mean + packed R_y) after each sample. Each call feeds the
 * next sample of a fixed series and restarts it after d samples, so the figure is the average over
 * t = 1..d (the prediction's dot product averages d/2 terms; in the low-rank form min(t + 1, r) terms plus an
 * axpy of that length).
 *
 * <p>Run: {@code java -cp target/vigil.jar org.openjdk.jmh.Main InnovationUpdate -f 1 -wi 2 -i 3}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class InnovationUpdateBenchmark {
    /** Series length d. */
    @Param({"128", "1024"})
    public int length;

    /** LDG dimension ℓ. */
    @Param({"30"})
    public int reduced;

    /** Training series n (split over 4 classes). */
    @Param({"100"})
    public int train;

    /** Covariance form of the Gaussians: dense or low-rank (the long-series form). */
    @Param({"dense", "low-rank"})
    public String covariance;

    private static final int CLASSES = 4;

    private JointGaussianEstimator joint;
    private GaussianMixtureEstimator gmm;
    private SeriesState jointState;
    private SeriesState gmmState;
    private double[] series;
    private double[] mean;
    private double[] packed;

    /** Fits both estimators to random-walk training series with class-dependent drift (fixed seed). */
    @Setup(Level.Trial)
    public void setUp() {
        SplittableRandom rng = new SplittableRandom(42);
        int n = train;
        double[][] rows = new double[n][length];
        int[] classOf = new int[n];
        for (int i = 0; i < n; i++) {
            classOf[i] = i % CLASSES;
            double drift = 0.05 * (classOf[i] - 1.5);
            double v = 0.0;
            for (int t = 0; t < length; t++) {
                v += drift + rng.nextGaussian() * 0.3;
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
        CovarianceForm form = CovarianceForm.fromId(covariance);
        joint = JointGaussianEstimator.fit(rows, basis, ShrinkageParams.defaults(), form);
        gmm = GaussianMixtureEstimator.fit(rows, classOf, CLASSES, basis, ShrinkageParams.defaults(), form);
        jointState = joint.newState();
        gmmState = gmm.newState();
        series = rows[1].clone();
        mean = new double[reduced];
        packed = new double[SymmetricPacked.size(reduced)];
    }

    /** Joint Gaussian: innovation + mean update only. */
    @Benchmark
    public int jointUpdate() {
        SeriesState s = jointState;
        if (s.isComplete()) {
            s.reset();
        }
        joint.update(s, series[s.time()]);
        return s.time();
    }

    /** Joint Gaussian: update, then m_y(t) and packed R_y(t) into caller buffers. */
    @Benchmark
    public double jointUpdateAndMoments() {
        SeriesState s = jointState;
        if (s.isComplete()) {
            s.reset();
        }
        joint.update(s, series[s.time()]);
        joint.conditionalMean(s, mean);
        joint.conditionalCovariance(s, packed);
        return mean[0] + packed[0];
    }

    /** Four-class mixture: per-class innovations, means and log-likelihoods. */
    @Benchmark
    public int gmmUpdate() {
        SeriesState s = gmmState;
        if (s.isComplete()) {
            s.reset();
        }
        gmm.update(s, series[s.time()]);
        return s.time();
    }

    /** Four-class mixture: update, posterior, mixture mean and packed mixture covariance (App. C). */
    @Benchmark
    public double gmmUpdateAndMoments() {
        SeriesState s = gmmState;
        if (s.isComplete()) {
            s.reset();
        }
        gmm.update(s, series[s.time()]);
        gmm.conditionalMean(s, mean);
        gmm.conditionalCovariance(s, packed);
        return mean[0] + packed[0];
    }
}
