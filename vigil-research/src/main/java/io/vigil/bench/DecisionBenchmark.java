package io.vigil.bench;

import io.vigil.reliability.DiagonalQuadraticDiscriminants;
import io.vigil.reliability.ReliableDecisionRule;
import io.vigil.reliability.SetConstruction;
import io.vigil.reliability.SetKind;
import io.vigil.reliability.TauSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.ejml.data.DMatrixRMaj;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-sample cost of the reliable decision check (thesis (5.18)) at ℓ = 30, G = 10 with local-QDA discriminants
 * (diagonal class covariances): build the set A from (m, R) and run the guess-and-check rule. A pool of 256 synthetic
 * samples is cycled; {@code regime} selects samples on which the rule decides (all G−1 = 9 checks pass, the worst case),
 * waits (usually one failing check), or a mix of both. Run with {@code java -cp target/vigil.jar
 * org.openjdk.jmh.Main DecisionBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class DecisionBenchmark {
    private static final int ELL = 30;
    private static final int CLASSES = 10;
    private static final int POOL = 256;
    private static final double TAU = 0.9;

    /** The set construction (CLI name). */
    @Param({"nb-quadratic", "nb-box", "gaussian"})
    public String set;

    /** Which samples to cycle through: decide, wait or mixed. */
    @Param({"decide", "wait", "mixed"})
    public String regime;

    private DiagonalQuadraticDiscriminants discriminants;
    private SetConstruction construction;
    private ReliableDecisionRule rule;
    private TauSet tauSet;
    private double[][] means;
    private DMatrixRMaj[] covariances;
    private int next;

    /** Builds the class Gaussians and a pool of samples of the requested regime. */
    @Setup
    public void setUp() {
        SplittableRandom rnd = new SplittableRandom(2012);
        double[][] mu = new double[CLASSES][ELL];
        double[][] var = new double[CLASSES][ELL];
        double[] logPrior = new double[CLASSES];
        for (int g = 0; g < CLASSES; g++) {
            for (int i = 0; i < ELL; i++) {
                mu[g][i] = 1.5 * gaussian(rnd);
                var[g][i] = 0.3 + 1.7 * rnd.nextDouble();
            }
            logPrior[g] = Math.log(1.0 / CLASSES);
        }
        discriminants = DiagonalQuadraticDiscriminants.of(mu, var, logPrior);
        construction = new SetConstruction(SetKind.fromCliName(set), TAU, ELL);
        rule = new ReliableDecisionRule(ELL, CLASSES);
        tauSet = new TauSet(ELL);
        means = new double[POOL][];
        covariances = new DMatrixRMaj[POOL];
        int filled = 0;
        int decided = 0;
        int attempts = 0;
        while (filled < POOL) {
            if (++attempts > 1_000_000) {
                throw new IllegalStateException("could not build a '" + regime + "' pool for " + set);
            }
            double[] m = new double[ELL];
            int g = rnd.nextInt(CLASSES);
            for (int i = 0; i < ELL; i++) {
                m[i] = mu[g][i] + 0.5 * gaussian(rnd);
            }
            double scale = Math.pow(10.0, -3.0 + 3.0 * rnd.nextDouble());
            DMatrixRMaj r = randomCovariance(rnd, scale);
            construction.build(m, r, tauSet);
            boolean decides = rule.decide(discriminants, tauSet) != ReliableDecisionRule.NO_DECISION;
            boolean keep = regime.equals("mixed") || (regime.equals("decide") == decides);
            if (keep) {
                means[filled] = m;
                covariances[filled] = r;
                filled++;
                decided += decides ? 1 : 0;
            }
        }
        System.out.printf("%n[pool] set=%s regime=%s: %d of %d samples decide%n", set, regime, decided, POOL);
    }

    /** Set construction plus the decision rule for one sample. */
    @Benchmark
    public int decide() {
        int k = next;
        next = (k + 1) & (POOL - 1);
        construction.build(means[k], covariances[k], tauSet);
        return rule.decide(discriminants, tauSet);
    }

    /** R = scale·(AAᵀ/ℓ + 0.1·I) with a Gaussian A: a full, well-conditioned covariance. */
    private static DMatrixRMaj randomCovariance(SplittableRandom rnd, double scale) {
        double[][] a = new double[ELL][ELL];
        for (double[] row : a) {
            for (int j = 0; j < ELL; j++) {
                row[j] = gaussian(rnd);
            }
        }
        DMatrixRMaj r = new DMatrixRMaj(ELL, ELL);
        for (int i = 0; i < ELL; i++) {
            for (int j = 0; j <= i; j++) {
                double s = 0.0;
                for (int k = 0; k < ELL; k++) {
                    s += a[i][k] * a[j][k];
                }
                s = scale * (s / ELL + (i == j ? 0.1 : 0.0));
                r.set(i, j, s);
                r.set(j, i, s);
            }
        }
        return r;
    }

    private static double gaussian(SplittableRandom rnd) {
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2.0 * Math.log(1.0 - u1)) * Math.cos(2.0 * Math.PI * u2);
    }
}
