package io.vigil.baseline;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import io.vigil.data.Folds;
import io.vigil.evaluate.EarlyPrediction;
import io.vigil.evaluate.EarlyScores;
import io.vigil.evaluate.Prefixes;
import java.util.Random;

/**
 * TEASER, two-tier early and accurate series classification (Schäfer &amp; Leser 2020): S prefix lengths
 * t_s = ⌈s·d/S⌉; at each a slave classifier gives class probabilities, a one-class SVM master trained on the slave's
 * features of correctly classified training series accepts or rejects the slave's label, and a label is announced
 * once v consecutive prefixes produced accepted predictions of that same label (a rejection or a different label
 * restarts the count); at t = d the slave's label is always announced.
 *
 * <p>Vigil's own slave instead of WEASEL (the comparison allows any slave classifier): Euclidean 1-NN on the raw prefix, with class
 * probabilities p_g ∝ 1/δ_g from the distance δ_g to the nearest training prefix of class g (one-hot when a distance
 * is 0). The master's features are (p_1, …, p_G, p_(1) − p_(2)), the probabilities and the gap between the two
 * largest, as in the paper. Master training data are leave-one-out slave features of the training series,
 * so the master never sees a series its slave was fitted on.
 *
 * <p>Master ({@link Master}): the paper's one-class SVM with a Gaussian kernel ({@link OneClassSvm}), or a linear
 * one-class SVM (LIBLINEAR's {@code ONECLASS_SVM}), which on these features accepts a label when the probability gap
 * is large enough. The paper's grid search over the master's ν (and γ for the Gaussian kernel) and over
 * v ∈ {1, …, 5} is done on the training split only, by stratified k-fold cross-validation maximising the harmonic
 * mean of accuracy and earliness ({@link EarlyScores}); ties go to the smaller v, then the earlier grid
 * point.
 */
public final class Teaser {
    /** Default number of prefix lengths S (the paper's default: a prefix every d/20). */
    public static final int DEFAULT_PREFIXES = 20;

    /** Largest v searched, as in the paper. */
    public static final int MAX_V = 5;

    /** The one-class SVM ν values searched. */
    static final double[] NU_GRID = {0.05, 0.1, 0.2};

    /** The Gaussian kernel γ values searched (features lie in [0, 1]). */
    static final double[] GAMMA_GRID = {1, 10, 100};

    /** The master's one-class SVM. */
    public enum Master {
        /** Gaussian-kernel ν one-class SVM, as in the paper ({@link OneClassSvm}). */
        RBF("rbf", "one-class SVM, Gaussian kernel"),
        /** Linear ν one-class SVM (LIBLINEAR {@code ONECLASS_SVM}). */
        LINEAR("linear", "linear one-class SVM (LIBLINEAR)");

        private final String cliName;
        private final String description;

        Master(String cliName, String description) {
            this.cliName = cliName;
            this.description = description;
        }

        /** The name on the command line and in JSON. */
        public String cliName() {
            return cliName;
        }

        /** A short description for reports. */
        public String description() {
            return description;
        }

        /**
         * Parses a name.
         *
         * @throws IllegalArgumentException naming the accepted values
         */
        public static Master parse(String name) {
            for (Master m : values()) {
                if (m.cliName.equalsIgnoreCase(name.strip())) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown TEASER master '" + name + "'; expected rbf or linear");
        }

        /** The (ν, γ) grid searched; γ is NaN for the linear master. */
        double[][] grid() {
            int gammas = this == RBF ? GAMMA_GRID.length : 1;
            double[][] out = new double[NU_GRID.length * gammas][];
            int k = 0;
            for (double nu : NU_GRID) {
                for (int c = 0; c < gammas; c++) {
                    out[k++] = new double[] {nu, this == RBF ? GAMMA_GRID[c] : Double.NaN};
                }
            }
            return out;
        }
    }

    /** One fitted master: accepts or rejects a slave's features. */
    private interface Acceptor {
        boolean accepts(double[] features);
    }

    /** Folds of the v and ν search. */
    public static final int FOLDS = 5;

    /** The slave, as named in reports. */
    public static final String SLAVE = "1-NN on raw prefixes, probabilities from per-class nearest distances";

    private final double[][] train;
    private final int[] y;
    private final int numClasses;
    private final int[] lengths;
    private final Acceptor[] masters;
    private final int v;
    private final double[] masterParams;
    private final Master master;

    private Teaser(
            double[][] train,
            int[] y,
            int numClasses,
            int[] lengths,
            Acceptor[] masters,
            int v,
            double[] masterParams,
            Master master) {
        this.train = train;
        this.y = y;
        this.numClasses = numClasses;
        this.lengths = lengths;
        this.masters = masters;
        this.v = v;
        this.masterParams = masterParams;
        this.master = master;
    }

    /** As {@link #fit(double[][], int[], int, int, int, Master, long)} with the paper's Gaussian-kernel master. */
    public static Teaser fit(double[][] train, int[] y, int numClasses, int prefixes, int v, long seed) {
        return fit(train, y, numClasses, prefixes, v, Master.RBF, seed);
    }

    /**
     * Trains slaves and masters, choosing v and ν by cross-validation on {@code train} when {@code v} is 0.
     *
     * @param train n ≥ 2 training series of length d
     * @param y class index of each
     * @param numClasses G
     * @param prefixes S ≥ 1 (fewer distinct lengths when d &lt; S)
     * @param v consecutive accepted agreeing predictions, 1..{@link #MAX_V}, or 0 to choose by cross-validation
     * @param master the masters' one-class SVM
     * @param seed fold and solver seed
     */
    public static Teaser fit(double[][] train, int[] y, int numClasses, int prefixes, int v, Master master, long seed) {
        int d = Prefixes.checkedLength(train, y, numClasses);
        if (train.length < 2) {
            throw new IllegalArgumentException("TEASER needs at least 2 training series, got " + train.length);
        }
        if (v < 0 || v > MAX_V) {
            throw new IllegalArgumentException("TEASER v must lie in 1.." + MAX_V + " (0 = cross-validate), got " + v);
        }
        int[] lengths = prefixLengths(d, prefixes);
        double[][] rows = new double[train.length][];
        for (int i = 0; i < train.length; i++) {
            rows[i] = train[i].clone();
        }
        int[] labels = y.clone();
        double[] choice = crossValidate(rows, labels, numClasses, lengths, v, master, seed);
        double[] params = {choice[1], choice[2]};
        Acceptor[] masters = trainMasters(rows, labels, numClasses, lengths, master, params, seed);
        return new Teaser(rows, labels, numClasses, lengths, masters, (int) choice[0], params, master);
    }

    /** The prefix lengths t_s = max(1, ⌈s·d/S⌉), s = 1..S, without repeats; the last is d. */
    public static int[] prefixLengths(int d, int prefixes) {
        if (prefixes < 1) {
            throw new IllegalArgumentException("TEASER needs at least 1 prefix length, got " + prefixes);
        }
        int[] out = new int[prefixes];
        int k = 0;
        for (int s = 1; s <= prefixes; s++) {
            int t = Math.max(1, (int) Math.ceil(s * (double) d / prefixes - 1e-9));
            if (k == 0 || t > out[k - 1]) {
                out[k++] = t;
            }
        }
        return java.util.Arrays.copyOf(out, k);
    }

    /** The v in use. */
    public int v() {
        return v;
    }

    /** The masters' ν in use. */
    public double nu() {
        return masterParams[0];
    }

    /** The masters' kernel γ in use (NaN for the linear master). */
    public double gamma() {
        return masterParams[1];
    }

    /** The masters' kind. */
    public Master master() {
        return master;
    }

    /** The prefix lengths t_s. */
    public int[] prefixLengths() {
        return lengths.clone();
    }

    /** The early decision for one series with the trained v. */
    public EarlyPrediction predict(double[] x) {
        return predict(x, v);
    }

    /**
     * The early decision for one series with a given v (the same slaves and masters).
     *
     * @param x a series of length d
     * @param consecutive v in 1..{@link #MAX_V}
     */
    public EarlyPrediction predict(double[] x, int consecutive) {
        if (x.length != train[0].length) {
            throw new IllegalArgumentException(
                    "series has length " + x.length + " but TEASER was trained on " + train[0].length);
        }
        if (consecutive < 1 || consecutive > MAX_V) {
            throw new IllegalArgumentException("TEASER v must lie in 1.." + MAX_V + ", got " + consecutive);
        }
        Trace tr = trace(x, train, y, numClasses, lengths, masters);
        int s = decide(tr, consecutive);
        return new EarlyPrediction(tr.labels[s], lengths[s], tr.labels[lengths.length - 1]);
    }

    /** Slave labels and master verdicts of one series at every prefix length. */
    record Trace(int[] labels, boolean[] accepted) {}

    /**
     * The prefix index at which a label is announced: the first s where the last v prefixes were all accepted
     * with the same label, else the last prefix.
     */
    static int decide(Trace tr, int consecutive) {
        int run = 0;
        int previous = -1;
        int last = tr.labels.length - 1;
        for (int s = 0; s < last; s++) {
            if (!tr.accepted[s]) {
                run = 0;
                previous = -1;
                continue;
            }
            run = tr.labels[s] == previous ? run + 1 : 1;
            previous = tr.labels[s];
            if (run >= consecutive) {
                return s;
            }
        }
        return last;
    }

    /**
     * Chooses (v, ν, γ) by stratified k-fold cross-validation on the training split; a fixed v only searches the
     * master's grid. Returns {v, ν, γ}.
     */
    private static double[] crossValidate(
            double[][] x, int[] y, int numClasses, int[] lengths, int v, Master master, long seed) {
        int d = x[0].length;
        int[][] folds = Folds.stratifiedKFold(y, numClasses, FOLDS, seed);
        double[][] grid = master.grid();
        int[][] correct = new int[grid.length][MAX_V + 1];
        double[][] fraction = new double[grid.length][MAX_V + 1];
        for (int[] test : folds) {
            int[] fit = Folds.complement(test, x.length);
            double[][] fx = Folds.rows(x, fit);
            int[] fy = Folds.labels(y, fit);
            for (int a = 0; a < grid.length; a++) {
                Acceptor[] masters = trainMasters(fx, fy, numClasses, lengths, master, grid[a], seed);
                for (int i : test) {
                    Trace tr = trace(x[i], fx, fy, numClasses, lengths, masters);
                    for (int c = 1; c <= MAX_V; c++) {
                        int s = decide(tr, c);
                        correct[a][c] += tr.labels[s] == y[i] ? 1 : 0;
                        fraction[a][c] += lengths[s] / (double) d;
                    }
                }
            }
        }
        double best = Double.NEGATIVE_INFINITY;
        double[] choice = {v == 0 ? 1 : v, grid[0][0], grid[0][1]};
        for (int c = 1; c <= MAX_V; c++) {
            if (v != 0 && c != v) {
                continue;
            }
            for (int a = 0; a < grid.length; a++) {
                double hm = EarlyScores.harmonicMean(correct[a][c] / (double) x.length, fraction[a][c] / x.length);
                if (hm > best) {
                    best = hm;
                    choice = new double[] {c, grid[a][0], grid[a][1]};
                }
            }
        }
        return choice;
    }

    /**
     * One master per prefix length, fitted on the leave-one-out slave features of the training series the slave
     * labels correctly; null (reject everything) when fewer than two are correct.
     *
     * @param params {ν, γ}
     */
    private static Acceptor[] trainMasters(
            double[][] x, int[] y, int numClasses, int[] lengths, Master master, double[] params, long seed) {
        int n = x.length;
        double[][][] features = new double[lengths.length][n][];
        boolean[][] correct = new boolean[lengths.length][n];
        for (int i = 0; i < n; i++) {
            double[][] perPrefix = slaveFeatures(x[i], x, y, numClasses, lengths, i);
            for (int s = 0; s < lengths.length; s++) {
                features[s][i] = perPrefix[s];
                correct[s][i] = argmax(perPrefix[s], numClasses) == y[i];
            }
        }
        Acceptor[] masters = new Acceptor[lengths.length];
        for (int s = 0; s < lengths.length; s++) {
            int count = 0;
            for (int i = 0; i < n; i++) {
                count += correct[s][i] ? 1 : 0;
            }
            if (count < 2) {
                continue;
            }
            double[][] accepted = new double[count][];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (correct[s][i]) {
                    accepted[k++] = features[s][i];
                }
            }
            masters[s] = master == Master.RBF
                    ? OneClassSvm.fit(accepted, params[0], params[1])::accepts
                    : linear(accepted, params[0], seed + s);
        }
        return masters;
    }

    /** LIBLINEAR's linear ν one-class SVM on the given features. */
    private static Acceptor linear(double[][] features, double nu, long seed) {
        Linear.disableDebugOutput();
        Problem prob = new Problem();
        prob.l = features.length;
        prob.n = features[0].length;
        prob.bias = -1;
        prob.x = new Feature[features.length][];
        prob.y = new double[features.length];
        for (int i = 0; i < features.length; i++) {
            prob.x[i] = nodes(features[i]);
            prob.y[i] = 1.0;
        }
        Parameter p = new Parameter(SolverType.ONECLASS_SVM, 1.0, 0.01);
        p.setNu(nu);
        p.setRandom(new Random(seed));
        Model model = Linear.train(prob, p);
        double[] value = new double[1];
        return f -> Linear.predictValues(model, nodes(f), value) > 0;
    }

    /** Replays one series: slave labels and master verdicts at every prefix length. */
    private static Trace trace(double[] q, double[][] x, int[] y, int numClasses, int[] lengths, Acceptor[] masters) {
        double[][] f = slaveFeatures(q, x, y, numClasses, lengths, -1);
        int[] labels = new int[lengths.length];
        boolean[] accepted = new boolean[lengths.length];
        for (int s = 0; s < lengths.length; s++) {
            labels[s] = argmax(f[s], numClasses);
            accepted[s] = masters[s] != null && masters[s].accepts(f[s]);
        }
        return new Trace(labels, accepted);
    }

    /**
     * The slave's features (p_1..p_G, gap) at every prefix length, distances accumulated sample by sample.
     *
     * @param skip a training index to leave out (leave-one-out), or −1
     */
    private static double[][] slaveFeatures(
            double[] q, double[][] x, int[] y, int numClasses, int[] lengths, int skip) {
        double[] dist = new double[x.length];
        double[][] out = new double[lengths.length][];
        int t = 0;
        for (int s = 0; s < lengths.length; s++) {
            for (; t < lengths[s]; t++) {
                for (int j = 0; j < x.length; j++) {
                    double diff = q[t] - x[j][t];
                    dist[j] += diff * diff;
                }
            }
            double[] nearest = new double[numClasses];
            java.util.Arrays.fill(nearest, Double.POSITIVE_INFINITY);
            for (int j = 0; j < x.length; j++) {
                if (j != skip) {
                    nearest[y[j]] = Math.min(nearest[y[j]], dist[j]);
                }
            }
            out[s] = probabilities(nearest);
        }
        return out;
    }

    /** p_g ∝ 1/δ_g (one-hot at the first zero distance; 0 for classes without training series), then the gap. */
    static double[] probabilities(double[] squaredDistances) {
        int g = squaredDistances.length;
        double[] f = new double[g + 1];
        int zero = -1;
        for (int c = 0; c < g && zero < 0; c++) {
            if (squaredDistances[c] == 0) {
                zero = c;
            }
        }
        if (zero >= 0) {
            f[zero] = 1;
        } else {
            double sum = 0;
            for (int c = 0; c < g; c++) {
                f[c] = Double.isInfinite(squaredDistances[c]) ? 0 : 1 / Math.sqrt(squaredDistances[c]);
                sum += f[c];
            }
            for (int c = 0; c < g; c++) {
                f[c] /= sum;
            }
        }
        double first = 0;
        double second = 0;
        for (int c = 0; c < g; c++) {
            if (f[c] > first) {
                second = first;
                first = f[c];
            } else if (f[c] > second) {
                second = f[c];
            }
        }
        f[g] = first - second;
        return f;
    }

    private static int argmax(double[] f, int numClasses) {
        int best = 0;
        for (int c = 1; c < numClasses; c++) {
            if (f[c] > f[best]) {
                best = c;
            }
        }
        return best;
    }

    private static Feature[] nodes(double[] f) {
        Feature[] out = new Feature[f.length];
        for (int j = 0; j < f.length; j++) {
            out[j] = new FeatureNode(j + 1, f[j]);
        }
        return out;
    }
}
