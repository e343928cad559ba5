package io.vigil.experiment;

import io.vigil.data.Dataset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random re-splits of a merged train+test set with the original training size (thesis §3.5.2: "I instead
 * combine these two sets and randomly sample a training vs. test split (with the same number of samples
 * for training and test as exist in the standard split) ten times"). The thesis samples without
 * stratification; Vigil stratifies so that every class keeps at least one training series (LDG and local
 * QDA need one per class): class g gets round(n_train·N_g/N) training series by the largest-remainder
 * method, raised to ≥ 1 (taken back from the largest allocations) and never above N_g; which series is drawn by
 * a seeded Fisher–Yates shuffle per class. Deterministic for a seed.
 */
public final class Resplit {
    private Resplit() {}

    /** Concatenates two datasets with the same class list (train first). */
    public static Dataset merge(Dataset train, Dataset test) {
        if (!train.classNames().equals(test.classNames())) {
            throw new IllegalArgumentException(
                    "cannot merge: classes " + train.classNames() + " and " + test.classNames() + " differ");
        }
        if (train.length() != test.length()) {
            throw new IllegalArgumentException(
                    "cannot merge: lengths " + train.length() + " and " + test.length() + " differ");
        }
        double[][] rows = new double[train.size() + test.size()][];
        int[] y = new int[rows.length];
        double[][] a = train.rows();
        double[][] b = test.rows();
        for (int i = 0; i < a.length; i++) {
            rows[i] = a[i];
            y[i] = train.classOf(i);
        }
        for (int i = 0; i < b.length; i++) {
            rows[a.length + i] = b[i];
            y[a.length + i] = test.classOf(i);
        }
        return Dataset.of(train.name(), rows, y, train.classNames()).withChannels(train.channelNames());
    }

    /**
     * Training-set size per class for a stratified split of {@code counts} with {@code trainSize} training
     * series in total.
     *
     * @throws IllegalArgumentException when trainSize is below the number of non-empty classes or not
     *     below the total
     */
    public static int[] allocation(int[] counts, int trainSize) {
        int total = Arrays.stream(counts).sum();
        int present = (int) Arrays.stream(counts).filter(c -> c > 0).count();
        if (trainSize < present || trainSize >= total) {
            throw new IllegalArgumentException("cannot draw " + trainSize + " training series with every one of "
                    + present + " classes represented from " + total + " series, leaving a test set");
        }
        int g = counts.length;
        int[] alloc = new int[g];
        double[] remainder = new double[g];
        int assigned = 0;
        for (int c = 0; c < g; c++) {
            double exact = (double) trainSize * counts[c] / total;
            alloc[c] = (int) Math.floor(exact);
            remainder[c] = exact - alloc[c];
            assigned += alloc[c];
        }
        while (assigned < trainSize) {
            int best = -1;
            for (int c = 0; c < g; c++) {
                if (alloc[c] < counts[c] && (best < 0 || remainder[c] > remainder[best])) {
                    best = c;
                }
            }
            alloc[best]++;
            remainder[best] = -1;
            assigned++;
        }
        for (int c = 0; c < g; c++) {
            while (counts[c] > 0 && alloc[c] < 1) {
                int largest = -1;
                for (int o = 0; o < g; o++) {
                    if (alloc[o] > 1 && (largest < 0 || alloc[o] > alloc[largest])) {
                        largest = o;
                    }
                }
                alloc[largest]--;
                alloc[c]++;
            }
        }
        return alloc;
    }

    /**
     * One stratified split of {@code merged}.
     *
     * @return {train indices, test indices}, each ascending
     */
    public static int[][] split(Dataset merged, int trainSize, long seed) {
        int[] counts = merged.classCounts();
        int[] alloc = allocation(counts, trainSize);
        SplittableRandom rnd = new SplittableRandom(seed);
        boolean[] inTrain = new boolean[merged.size()];
        for (int c = 0; c < counts.length; c++) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < merged.size(); i++) {
                if (merged.classOf(i) == c) {
                    members.add(i);
                }
            }
            int[] m = members.stream().mapToInt(Integer::intValue).toArray();
            for (int i = m.length - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = m[i];
                m[i] = m[j];
                m[j] = t;
            }
            for (int i = 0; i < alloc[c]; i++) {
                inTrain[m[i]] = true;
            }
        }
        int[] train = new int[trainSize];
        int[] test = new int[merged.size() - trainSize];
        int a = 0;
        int b = 0;
        for (int i = 0; i < inTrain.length; i++) {
            if (inTrain[i]) {
                train[a++] = i;
            } else {
                test[b++] = i;
            }
        }
        return new int[][] {train, test};
    }
}
