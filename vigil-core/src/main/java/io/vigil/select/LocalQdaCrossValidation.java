package io.vigil.select;

import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Folds;
import io.vigil.ldg.KernelFunction;
import io.vigil.ldg.LdgCrossValidation;
import io.vigil.ldg.LdgParams;
import io.vigil.util.Progress;
import java.util.Arrays;

/**
 * Cross-validated accuracy of local QDA (thesis §2.1.2) for every k of a grid from one neighbour search per
 * test point ({@link LocalQda#predictEachK}): on the input data (how the thesis picks the LDG neighbour
 * count, §3.4) or in LDG space with LDG refitted on each fold's training part (so the left-out points
 * never shape the projection — the pitfall of docs/method.md §1).
 */
final class LocalQdaCrossValidation {
    private LocalQdaCrossValidation() {}

    /**
     * Accuracy per k of local QDA on the given points.
     *
     * @param x n×dim points; not modified
     * @param y class indices
     * @param numClasses G
     * @param ks candidate neighbour counts
     * @param testFolds test indices per fold (a partition of 0..n−1)
     * @return accuracy per k in [0, 1]
     */
    public static double[] accuracy(
            double[][] x, int[] y, int numClasses, int[] ks, int[][] testFolds, Progress progress) {
        int[] correct = new int[ks.length];
        int total = 0;
        int[] pred = new int[ks.length];
        for (int[] test : testFolds) {
            int[] train = Folds.complement(test, x.length);
            LocalQda qda = LocalQda.fit(Folds.rows(x, train), Folds.labels(y, train), numClasses, maxOf(ks));
            LocalQda.Workspace ws = qda.newWorkspace();
            for (int i : test) {
                qda.predictEachK(x[i], ks, pred, ws);
                for (int c = 0; c < ks.length; c++) {
                    if (pred[c] == y[i]) {
                        correct[c]++;
                    }
                }
            }
            total += test.length;
            progress.step();
        }
        return toAccuracy(correct, total);
    }

    /**
     * Accuracy per k of local QDA in ℓ-dimensional LDG space, refitting LDG with {@code params} on each
     * fold's training part and projecting both parts with that fold's basis ({@link LdgCrossValidation}
     * does the refits; a fold whose rank is below ℓ uses all of its directions, {@link
     * LdgCrossValidation.AboveRank#ALL_DIRECTIONS}: k is scored at a fixed ℓ, and callers that select ℓ cap it by
     * what the folds can supply first). The fold scorer is asked
     * for ℓ once per candidate k, and position c of its output is the count for {@code ks[c]}.
     *
     * @param threads threads running the folds (results do not depend on it)
     */
    static double[] accuracyInLdgSpace(
            double[][] x,
            int[] y,
            int numClasses,
            LdgParams params,
            int dims,
            int[] ks,
            int[][] testFolds,
            int threads,
            Progress progress) {
        return accuracyInLdgSpace(x, y, numClasses, params, null, dims, ks, testFolds, threads, progress);
    }

    /** As above in the space of kernel LDG with {@code kernel} (linear LDG when it is null). */
    static double[] accuracyInLdgSpace(
            double[][] x,
            int[] y,
            int numClasses,
            LdgParams params,
            KernelFunction kernel,
            int dims,
            int[] ks,
            int[][] testFolds,
            int threads,
            Progress progress) {
        int[] sameDims = new int[ks.length];
        Arrays.fill(sameDims, dims);
        int maxK = maxOf(ks);
        LdgCrossValidation.FoldScorer scorer = (train, trainY, test, testY, capped, correct) -> {
            LocalQda qda = LocalQda.fit(train, trainY, numClasses, maxK);
            LocalQda.Workspace ws = qda.newWorkspace();
            int[] pred = new int[ks.length];
            Arrays.fill(correct, 0);
            for (int i = 0; i < test.length; i++) {
                qda.predictEachK(test[i], ks, pred, ws);
                for (int c = 0; c < ks.length; c++) {
                    if (pred[c] == testY[i]) {
                        correct[c]++;
                    }
                }
            }
        };
        double[][] acc = LdgCrossValidation.accuracy(
                x,
                y,
                numClasses,
                params.neighbors(),
                kernel,
                new double[] {params.gamma()},
                sameDims,
                testFolds,
                scorer,
                LdgCrossValidation.AboveRank.ALL_DIRECTIONS,
                threads,
                progress);
        return acc[0];
    }

    private static double[] toAccuracy(int[] correct, int total) {
        double[] acc = new double[correct.length];
        for (int c = 0; c < acc.length; c++) {
            acc[c] = (double) correct[c] / total;
        }
        return acc;
    }

    private static int maxOf(int[] ks) {
        int m = 1;
        for (int k : ks) {
            m = Math.max(m, k);
        }
        return m;
    }
}
