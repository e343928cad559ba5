package io.vigil.bench;

import io.vigil.data.Dataset;
import io.vigil.early.Decision;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.SeriesState;
import io.vigil.gauss.ShrinkageParams;
import io.vigil.gauss.SubsetState;
import io.vigil.model.VigilModel;
import io.vigil.reliability.ClassifierKind;
import io.vigil.reliability.DecisionRule;
import io.vigil.reliability.SetKind;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * End-to-end per-sample cost of an early decision (target: median ≤ 10 µs at ℓ = 30, n = 1,000 training
 * series, G = 10, d = 1,024): standardisation, the joint-Gaussian innovation update of the per-series state,
 * the conditional mean and R_y(t), local QDA's class Gaussians around m_y, the τ-set and the guess-and-check
 * rule, or the probability rule's fast path and quasi-Monte-Carlo estimate (target: median ≤ 20 µs) — one
 * {@link EarlyClassifier#observe} call. Test series are fed sample by sample, restarting at t = d,
 * so every t is visited. Sample mode reports the median. Run with {@code java -cp target/vigil.jar
 * org.openjdk.jmh.Main EarlyDecisionBenchmark}; long series with {@code -p length=20000 -p
 * covariance=low-rank} (the dense form needs d×d matrices). With {@code -p channels=3 -p order=random} the same
 * vectors are read as C channels (time-major) and every call observes one value in a random order fixed per series
 * ({@link EarlyClassifier#observeAt}, the any-order path of a stream with missing or late values), so {@code -p
 * length=945} compares it per value with the univariate per-sample cost at d = 945.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx4g"})
public class EarlyDecisionBenchmark {
    private static final int TEST = 50;
    private static final int CLASSES = 10;
    private static final int ELL = 30;

    /** Series length d. */
    @Param({"128", "1024"})
    public int length;

    /** Training series n. */
    @Param({"1000"})
    public int train;

    /** Covariance form of the complete-series Gaussian (dense LDLᵀ or scaled identity + low rank). */
    @Param({"dense"})
    public String covariance;

    /** The τ-set construction. */
    @Param({"nb-quadratic"})
    public String set;

    /** The classifier (local QDA refits its class Gaussians around m_y every sample; the SVM is fixed). */
    @Param({"local-qda", "linear-svm"})
    public String classifierKind;

    /** The decision rule: the set rule, or the probability rule (thesis eq. 5.1) with its set fast path. */
    @Param({"set", "probability"})
    public String rule;

    /** Channels C the vectors of {@link #length} values are read as (time-major). */
    @Param({"1"})
    public int channels;

    /** Arrival order: {@code time-major} (the prefix path) or {@code random} (the any-order path, per value). */
    @Param({"time-major"})
    public String order;

    private EarlyClassifier classifier;
    private EarlyClassifier.Workspace workspace;
    private final Decision decision = Decision.labelOnly();
    private SeriesState state;
    private SubsetState subset;
    private int[][] orders;
    private int next;
    private double[][] series;
    private int current;

    /** Trains the model (fixed LDG/QDA parameters, no search) on synthetic data. */
    @Setup
    public void setUp() {
        GaussianBlobs data = GaussianBlobs.generate(train + TEST, length, CLASSES, 2012);
        List<String> names = new ArrayList<>();
        for (int g = 0; g < CLASSES; g++) {
            names.add(Integer.toString(g));
        }
        double[][] trainRows = new double[train][];
        int[] trainY = new int[train];
        System.arraycopy(data.x(), 0, trainRows, 0, train);
        System.arraycopy(data.y(), 0, trainY, 0, train);
        Dataset trainSet =
                Dataset.of("bench", trainRows, trainY, names).withChannels(Dataset.defaultChannelNames(channels));
        series = new double[TEST][];
        System.arraycopy(data.x(), train, series, 0, TEST);
        TrainParams p = TrainParams.builder()
                .gamma(0.5)
                .dims(ELL)
                .neighbors(32)
                .qdaNeighbors(32)
                .build();
        VigilModel model = Trainer.train(trainSet, p, Instant.EPOCH, Progress.none());
        model = EarlyModelTrainer.addSections(
                model,
                trainSet,
                new EarlyModelTrainer.Params(
                        ShrinkageParams.defaults(),
                        CovarianceForm.fromId(covariance),
                        EnumSet.of(EstimatorType.JOINT),
                        1.0,
                        1L));
        classifier = EarlyClassifier.of(
                model,
                DecisionParams.defaults()
                        .withSet(SetKind.fromCliName(set))
                        .withClassifier(ClassifierKind.fromCliName(classifierKind))
                        .withRule(DecisionRule.fromCliName(rule)));
        workspace = classifier.newWorkspace();
        state = classifier.newState();
        if (order.equals("random")) {
            subset = classifier.newSubsetState();
            SplittableRandom rng = new SplittableRandom(26);
            orders = new int[TEST][];
            for (int i = 0; i < TEST; i++) {
                orders[i] = rng.ints(0, length).distinct().limit(length).toArray();
            }
        } else if (!order.equals("time-major")) {
            throw new IllegalArgumentException("order must be time-major or random, got " + order);
        }
    }

    /** One sample: update + decision check. */
    @Benchmark
    public int observe() {
        if (subset != null) {
            return observeAnyOrder();
        }
        if (state.isComplete()) {
            state.reset();
            current = (current + 1) % TEST;
        }
        classifier.observe(state, series[current][state.time()], workspace, decision);
        return decision.label();
    }

    private int observeAnyOrder() {
        if (next == length) {
            classifier.resetSubsetState(subset);
            current = (current + 1) % TEST;
            next = 0;
        }
        int j = orders[current][next++];
        classifier.observeAt(subset, j / channels, j % channels, series[current][j], workspace, decision);
        return decision.label();
    }
}
