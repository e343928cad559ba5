package io.vigil.baseline;

import io.vigil.evaluate.EarlyPrediction;
import io.vigil.evaluate.Prefixes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * ECTS, early classification on time series (Xing, Pei &amp; Yu 2012), as thesis §5.5.1 describes it: a 1-NN
 * classifier on prefixes in which every training series x_i carries a minimum prediction length MPL(x_i), and a
 * test prefix x(1:t) is labelled by its nearest training prefix x_j(1:t) as soon as t ≥ MPL(x_j); at t = d it is
 * always labelled.
 *
 * <p>MPL of a single series (thesis §5.5.1): with NN<sup>ℓ</sup>(x_j) the nearest other training series at prefix
 * length ℓ (Euclidean, ties to the lower index) and RNN<sup>ℓ</sup>(x_i) = {x_j : NN<sup>ℓ</sup>(x_j) = x_i} the
 * reverse nearest neighbours, MPL(x_i) is the smallest k with RNN<sup>ℓ</sup>(x_i) = RNN<sup>d</sup>(x_i) ≠ ∅ for
 * all k ≤ ℓ ≤ d, and d when RNN<sup>d</sup>(x_i) = ∅.
 *
 * <p>Cluster relaxation (Xing et al.; thesis §5.5.1: "the above procedure was too conservative"): single-linkage agglomerative
 * clustering of the complete training series that merges only mutual-nearest clusters of one class. For every
 * cluster S formed, RNN<sup>ℓ</sup>(S) = {x_j ∉ S : NN<sup>ℓ</sup>(x_j) ∈ S}; S is usable when it is 1-NN
 * consistent at d (every member's nearest neighbour lies in S), RNN<sup>d</sup>(S) ≠ ∅ and its support |S|/n_g
 * (n_g the training size of its class) reaches the minimum support. MPL(S) is then the smallest k such that for all
 * k ≤ ℓ ≤ d, S is 1-NN consistent at ℓ and RNN<sup>ℓ</sup>(S) = RNN<sup>d</sup>(S); every member's MPL becomes
 * min(MPL(x_i), MPL(S)). Minimum support 0, the value Xing et al. use in most experiments (thesis §5.6.5), gives
 * the earliest classifier. The cluster criteria (same-class mutual nearest merges, 1-NN consistency, support
 * |S|/n_g) are this implementation's reading of the paper; the thesis summarises them only in words.
 */
public final class Ects {
    /** Default minimum support, as in most of Xing et al.'s experiments (thesis §5.6.5). */
    public static final double DEFAULT_SUPPORT = 0.0;

    private final double[][] train;
    private final int[] y;
    private final int d;
    private final int[] mpl;

    private Ects(double[][] train, int[] y, int[] mpl) {
        this.train = train;
        this.y = y;
        this.d = train[0].length;
        this.mpl = mpl;
    }

    /**
     * Learns the MPL of every training series.
     *
     * @param train n ≥ 2 training series of one length d
     * @param y class index of each
     * @param numClasses G
     * @param minSupport minimum support in [0, 1]
     */
    public static Ects fit(double[][] train, int[] y, int numClasses, double minSupport) {
        int d = Prefixes.checkedLength(train, y, numClasses);
        if (train.length < 2) {
            throw new IllegalArgumentException("ECTS needs at least 2 training series, got " + train.length);
        }
        if (!(minSupport >= 0 && minSupport <= 1)) {
            throw new IllegalArgumentException("ECTS minimum support must lie in [0, 1], got " + minSupport);
        }
        double[][] full = new double[train.length][train.length];
        int[][] nn = nearestNeighbours(train, full);
        int[] mpl = seriesMpl(nn, train.length, d);
        relaxByClusters(nn, full, y, numClasses, minSupport, mpl);
        double[][] copy = new double[train.length][];
        for (int i = 0; i < train.length; i++) {
            copy[i] = train[i].clone();
        }
        return new Ects(copy, y.clone(), mpl);
    }

    /** The minimum prediction length of every training series, 1..d. */
    public int[] minimumPredictionLengths() {
        return mpl.clone();
    }

    /**
     * Replays one series sample by sample: at every t the nearest training prefix x_j(1:t) decides once
     * t ≥ MPL(x_j), and at t = d always.
     *
     * @param x a series of length d
     */
    public EarlyPrediction predict(double[] x) {
        if (x.length != d) {
            throw new IllegalArgumentException("series has length " + x.length + " but ECTS was trained on " + d);
        }
        double[] dist = new double[train.length];
        int label = -1;
        int decidedAt = -1;
        int nearest = 0;
        for (int t = 0; t < d; t++) {
            nearest = 0;
            for (int j = 0; j < train.length; j++) {
                double diff = x[t] - train[j][t];
                dist[j] += diff * diff;
                if (dist[j] < dist[nearest]) {
                    nearest = j;
                }
            }
            if (label < 0 && t + 1 >= mpl[nearest]) {
                label = y[nearest];
                decidedAt = t + 1;
            }
        }
        return new EarlyPrediction(label, decidedAt, y[nearest]);
    }

    /**
     * NN<sup>ℓ</sup> of every series at every prefix length: {@code nn[ℓ−1][i]}, the nearest other series
     * (ties to the lower index). Leaves the complete-series squared distances in {@code full}.
     */
    static int[][] nearestNeighbours(double[][] x, double[][] full) {
        int n = x.length;
        int d = x[0].length;
        int[][] nn = new int[d][n];
        for (int t = 0; t < d; t++) {
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    double diff = x[i][t] - x[j][t];
                    full[i][j] += diff * diff;
                    full[j][i] = full[i][j];
                }
            }
            for (int i = 0; i < n; i++) {
                int best = -1;
                for (int j = 0; j < n; j++) {
                    if (j != i && (best < 0 || full[i][j] < full[i][best])) {
                        best = j;
                    }
                }
                nn[t][i] = best;
            }
        }
        return nn;
    }

    /**
     * MPL of every series from RNN stability: RNN<sup>ℓ</sup>(x_i) differs from RNN<sup>d</sup>(x_i) exactly when
     * some x_j has NN<sup>ℓ</sup>(x_j) ≠ NN<sup>d</sup>(x_j) with x_i one of the two, so MPL(x_i) is one past the
     * last such ℓ; d when RNN<sup>d</sup>(x_i) = ∅.
     */
    static int[] seriesMpl(int[][] nn, int n, int d) {
        int[] lastChange = new int[n];
        int[] last = nn[d - 1];
        for (int l = 1; l < d; l++) {
            for (int j = 0; j < n; j++) {
                if (nn[l - 1][j] != last[j]) {
                    lastChange[nn[l - 1][j]] = l;
                    lastChange[last[j]] = l;
                }
            }
        }
        boolean[] hasReverse = new boolean[n];
        for (int j = 0; j < n; j++) {
            hasReverse[last[j]] = true;
        }
        int[] mpl = new int[n];
        for (int i = 0; i < n; i++) {
            mpl[i] = hasReverse[i] ? lastChange[i] + 1 : d;
        }
        return mpl;
    }

    /** Single-linkage clustering over same-class mutual nearest clusters; lowers members' MPL to MPL(S). */
    private static void relaxByClusters(
            int[][] nn, double[][] full, int[] y, int numClasses, double minSupport, int[] mpl) {
        int n = y.length;
        int d = nn.length;
        int[] classSize = new int[numClasses];
        for (int g : y) {
            classSize[g]++;
        }
        List<int[]> members = new ArrayList<>();
        double[][] link = new double[n][];
        boolean[] active = new boolean[n];
        for (int i = 0; i < n; i++) {
            members.add(new int[] {i});
            link[i] = full[i].clone();
            active[i] = true;
        }
        while (true) {
            int[] nearest = new int[n];
            for (int a = 0; a < n; a++) {
                nearest[a] = -1;
                if (!active[a]) {
                    continue;
                }
                for (int b = 0; b < n; b++) {
                    if (b != a && active[b] && (nearest[a] < 0 || link[a][b] < link[a][nearest[a]])) {
                        nearest[a] = b;
                    }
                }
            }
            int mergeA = -1;
            for (int a = 0; a < n; a++) {
                int b = nearest[a];
                if (b > a && nearest[b] == a && y[members.get(a)[0]] == y[members.get(b)[0]]) {
                    if (mergeA < 0 || link[a][b] < link[mergeA][nearest[mergeA]]) {
                        mergeA = a;
                    }
                }
            }
            if (mergeA < 0) {
                return;
            }
            int a = mergeA;
            int b = nearest[a];
            int[] s = Arrays.copyOf(members.get(a), members.get(a).length + members.get(b).length);
            System.arraycopy(members.get(b), 0, s, members.get(a).length, members.get(b).length);
            members.set(a, s);
            active[b] = false;
            for (int c = 0; c < n; c++) {
                link[a][c] = Math.min(link[a][c], link[b][c]);
                link[c][a] = link[a][c];
            }
            int g = y[s[0]];
            if (s.length / (double) classSize[g] >= minSupport) {
                int k = clusterMpl(nn, s, n, d);
                if (k > 0) {
                    for (int i : s) {
                        mpl[i] = Math.min(mpl[i], k);
                    }
                }
            }
        }
    }

    /**
     * MPL(S), or −1 when S is not 1-NN consistent at d or RNN<sup>d</sup>(S) = ∅.
     *
     * @param s the cluster's members
     */
    static int clusterMpl(int[][] nn, int[] s, int n, int d) {
        boolean[] in = new boolean[n];
        for (int i : s) {
            in[i] = true;
        }
        int[] last = nn[d - 1];
        boolean reverse = false;
        for (int j = 0; j < n; j++) {
            if (in[j] && !in[last[j]]) {
                return -1;
            }
            reverse |= !in[j] && in[last[j]];
        }
        if (!reverse) {
            return -1;
        }
        for (int l = d - 1; l >= 1; l--) {
            int[] at = nn[l - 1];
            for (int j = 0; j < n; j++) {
                boolean stable = in[j] ? in[at[j]] : in[at[j]] == in[last[j]];
                if (!stable) {
                    return l + 1;
                }
            }
        }
        return 1;
    }
}
