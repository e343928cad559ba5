package io.vigil.evaluate;

import io.vigil.data.Dataset;
import io.vigil.model.VigilModel;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed-time baselines of thesis figures 5.6–5.11: classifiers trained on the first t samples of every
 * training series and applied to the first t samples of every test series, for t at 10 %, 20 %, …, 100 % of
 * d. Local QDA refits LDG on the prefixes with the model's γ, neighbour count, ℓ (capped at t) and local-QDA
 * k; 1-NN uses Euclidean distance on the raw prefixes. Each baseline's reliability is its agreement with its
 * own label at t = d, the same event the early rule is judged by.
 */
public final class FixedTimeBaselines {
    /** Baseline method names as they appear in reports. */
    public static final String LOCAL_QDA = PrefixClassifiers.LOCAL_QDA;

    /** Baseline method names as they appear in reports. */
    public static final String ONE_NN = PrefixClassifiers.ONE_NN;

    private FixedTimeBaselines() {}

    /**
     * One baseline at one prefix length.
     *
     * @param method {@link #LOCAL_QDA} or {@link #ONE_NN}
     * @param fraction t/d as requested (0.1, …, 1.0)
     * @param t prefix length
     * @param reliability agreement with the same method's label at t = d
     * @param accuracy agreement with the true labels
     */
    public record Point(String method, double fraction, int t, double reliability, double accuracy) {}

    /**
     * Computes both baselines at 10 %, …, 100 % of d.
     *
     * @param train training split, class indices in the model's order
     * @param test test split, class indices in the model's order
     */
    public static List<Point> compute(VigilModel model, Dataset train, Dataset test) {
        int d = test.length();
        int steps = 10;
        int[][] qda = new int[steps][];
        int[][] nn = new int[steps][];
        int[] ts = new int[steps];
        PrefixClassifier localQda = PrefixClassifiers.localQda(settings(model));
        PrefixClassifier oneNn = PrefixClassifiers.oneNn();
        double[][] trainRows = train.rows();
        double[][] testRows = test.rows();
        for (int s = 0; s < steps; s++) {
            int t = Math.max(1, (int) Math.ceil((s + 1) * d / (double) steps));
            ts[s] = t;
            double[][] trainPrefix = Prefixes.of(trainRows, t);
            double[][] testPrefix = Prefixes.of(testRows, t);
            qda[s] = localQda.fitPredict(trainPrefix, train.classIndices(), train.numClasses(), testPrefix);
            nn[s] = oneNn.fitPredict(trainPrefix, train.classIndices(), train.numClasses(), testPrefix);
        }
        List<Point> out = new ArrayList<>();
        for (int s = 0; s < steps; s++) {
            out.add(point(LOCAL_QDA, (s + 1) / (double) steps, ts[s], qda[s], qda[steps - 1], test));
        }
        for (int s = 0; s < steps; s++) {
            out.add(point(ONE_NN, (s + 1) / (double) steps, ts[s], nn[s], nn[steps - 1], test));
        }
        return out;
    }

    private static Point point(String method, double fraction, int t, int[] labels, int[] complete, Dataset test) {
        int same = 0;
        int correct = 0;
        for (int i = 0; i < labels.length; i++) {
            same += labels[i] == complete[i] ? 1 : 0;
            correct += labels[i] == test.classOf(i) ? 1 : 0;
        }
        return new Point(method, fraction, t, same / (double) labels.length, correct / (double) labels.length);
    }

    /** The model's LDG and local-QDA settings, which the local-QDA prefix refits reuse. */
    public static PrefixClassifiers.LdgQdaSettings settings(VigilModel model) {
        return new PrefixClassifiers.LdgQdaSettings(
                model.ldgNeighbors(),
                model.gamma(),
                model.dims(),
                model.qdaNeighbors(),
                model.standardizer().isPresent());
    }
}
