package io.vigil.baseline;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;
import io.vigil.data.Folds;
import java.util.Random;

/**
 * TEASER, two-tier early and accurate series classification (Schäfer &amp; Leser 2020, §3): S prefix lengths
 * t_s = ⌈s·d/S⌉; at each a slave classifier gives class probabilities, a one-class SVM master trained on the slave's
 * features of correctly classified training series accepts or rejects the slave's label, and a label is announced
 * once v consecutive prefixes produced accepted predictions of that same label (a rejection or a different label
 * restarts the count); at t = d the slave's label is always announced.
 *
 * <p>Vigil's own slave instead of WEASEL (issue 15 allows it): Euclidean 1-NN on the raw prefix, with class
 * probabilities p_g ∝ 1/δ_g from the distance δ_g to the nearest training prefix of class g (one-hot when a distance
 * is 0). The master's features are (p_1, …, p_G, p_(1) − p_(2)), the probabilities and the gap between the two
 * largest (Schäfer &amp; Leser §3.2). Master training data are leave-one-out slave features of the training series,
 * so the master never sees a series its slave was fitted on.
 *
 * <p>Master: a linear one-class SVM (LIBLINEAR's {@code ONECLASS_SVM}, Schölkopf et al.'s ν formulation) instead
 * of the paper's RBF kernel; on these features it accepts a label when the probability gap is large enough. The
 * paper's grid search over the master's ν and over v ∈ {1, …, 5} is done on the training split only, by stratified
 * k-fold cross-validation maximising the harmonic mean of accuracy and earliness ({@link EarlyScores}; paper §3.3);
 * ties go to the smaller v, then the smaller ν.
 */
public final class Teaser {
    /** Default number of prefix lengths S (paper §4: every d/20). */
    public static final int DEFAULT_PREFIXES = 20;

    /** Largest v searched (paper §3.3). */
    public static final int MAX_V = 5;

    /** The one-class SVM ν values searched. */
    static final double[] NU_GRID = {0.05, 0.1, 0.2};

    /** Folds of the v and ν search. */
    public static final int FOLDS = 5;

    /** The slave, as named in reports. */
    public static final String SLAVE = "1-NN on raw prefixes, probabilities from per-class nearest distances";

    private final double[][] train;
    private final int[] y;
    private final int numClasses;
    private final int[] lengths;
    private final Model[] masters;
    private final int v;
    private final double nu;

    private Teaser(double[][] train, int[] y, int numClasses, int[] lengths, Model[] masters, int v, double nu) {
        this.train = train;
        this.y = y;
        this.numClasses = numClasses;
        this.lengths = lengths;
        this.masters = masters;
        this.v = v;
        this.nu = nu;
    }

    /**
     * Trains slaves and masters, choosing v and ν by cross-validation on {@code train} when {@code v} is 0.
     *
     * @param train n ≥ 2 training series of length d
     * @param y class index of each
     * @param numClasses G
     * @param prefixes S ≥ 1 (fewer distinct lengths when d &lt; S)
     * @param v consecutive accepted agreeing predictions, 1..{@link #MAX_V}, or 0 to choose by cross-validation
     * @param seed fold and solver seed
     */
    public static Teaser fit(double[][] train, int[] y, int numClasses, int prefixes, int v, long seed) {
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
        double[] choice = crossValidate(rows, labels, numClasses, lengths, v, seed);
        Model[] masters = trainMasters(rows, labels, numClasses, lengths, choice[1], seed);
        return new Teaser(rows, labels, numClasses, lengths, masters, (int) choice[0], choice[1]);
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
        return nu;
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

    /** Chooses (v, ν) by stratified k-fold cross-validation on the training split; a fixed v only searches ν. */
    private static double[] crossValidate(double[][] x, int[] y, int numClasses, int[] lengths, int v, long seed) {
        int d = x[0].length;
        int[][] folds = Folds.stratifiedKFold(y, numClasses, FOLDS, seed);
        int[][] correct = new int[NU_GRID.length][MAX_V + 1];
        double[][] fraction = new double[NU_GRID.length][MAX_V + 1];
        for (int[] test : folds) {
            int[] fit = Folds.complement(test, x.length);
            double[][] fx = Folds.rows(x, fit);
            int[] fy = Folds.labels(y, fit);
            for (int a = 0; a < NU_GRID.length; a++) {
                Model[] masters = trainMasters(fx, fy, numClasses, lengths, NU_GRID[a], seed);
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
        double[] choice = {v == 0 ? 1 : v, NU_GRID[0]};
        for (int c = 1; c <= MAX_V; c++) {
            if (v != 0 && c != v) {
                continue;
            }
            for (int a = 0; a < NU_GRID.length; a++) {
                double hm = EarlyScores.harmonicMean(correct[a][c] / (double) x.length, fraction[a][c] / x.length);
                if (hm > best) {
                    best = hm;
                    choice = new double[] {c, NU_GRID[a]};
                }
            }
        }
        return choice;
    }

    /**
     * One master per prefix length, fitted on the leave-one-out slave features of the training series the slave
     * labels correctly; null (reject everything) when fewer than two are correct.
     */
    private static Model[] trainMasters(double[][] x, int[] y, int numClasses, int[] lengths, double nu, long seed) {
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
        Linear.disableDebugOutput();
        Model[] masters = new Model[lengths.length];
        for (int s = 0; s < lengths.length; s++) {
            int count = 0;
            for (int i = 0; i < n; i++) {
                count += correct[s][i] ? 1 : 0;
            }
            if (count < 2) {
                continue;
            }
            Problem prob = new Problem();
            prob.l = count;
            prob.n = numClasses + 1;
            prob.bias = -1;
            prob.x = new Feature[count][];
            prob.y = new double[count];
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (correct[s][i]) {
                    prob.x[k] = nodes(features[s][i]);
                    prob.y[k] = 1.0;
                    k++;
                }
            }
            Parameter p = new Parameter(SolverType.ONECLASS_SVM, 1.0, 0.01);
            p.setNu(nu);
            p.setRandom(new Random(seed + s));
            masters[s] = Linear.train(prob, p);
        }
        return masters;
    }

    /** Replays one series: slave labels and master verdicts at every prefix length. */
    private static Trace trace(double[] q, double[][] x, int[] y, int numClasses, int[] lengths, Model[] masters) {
        double[][] f = slaveFeatures(q, x, y, numClasses, lengths, -1);
        int[] labels = new int[lengths.length];
        boolean[] accepted = new boolean[lengths.length];
        double[] value = new double[1];
        for (int s = 0; s < lengths.length; s++) {
            labels[s] = argmax(f[s], numClasses);
            accepted[s] = masters[s] != null && Linear.predictValues(masters[s], nodes(f[s]), value) > 0;
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
