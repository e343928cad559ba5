package io.vigil.bench;

import io.vigil.data.Folds;
import io.vigil.ldg.LdgCrossValidation;
import io.vigil.util.Progress;

/**
 * Times {@link LdgCrossValidation#knnAccuracy}-style model selection (refit per fold, thesis grid of γ and
 * ℓ, 3-NN) on {@link GaussianBlobs}, for leave-one-out or stratified k-fold.
 */
public final class LdgCvBenchmark {
    /** The thesis's γ grid for the small-sample experiments (§3.5.2). */
    public static final double[] THESIS_GAMMAS = {0.01, 0.1, 0.3, 0.5, 0.7, 0.9};

    private LdgCvBenchmark() {}

    /**
     * What was measured.
     *
     * @param folds number of folds (n for leave-one-out)
     * @param fits LDG fits the run stands for (folds × γ's), each serving all ℓ
     * @param seconds wall time
     * @param bestAccuracy the best pooled accuracy over the grid (a sanity value, not a result)
     */
    public record Result(
            int n,
            int d,
            int classes,
            int folds,
            int gammas,
            int dims,
            int threads,
            long fits,
            double seconds,
            double bestAccuracy) {}

    /**
     * Runs one cross-validation.
     *
     * @param k folds for stratified k-fold, or 0 for leave-one-out
     */
    public static Result run(int n, int d, int classes, int neighbors, int k, int threads, long seed) {
        GaussianBlobs data = GaussianBlobs.generate(n, d, classes, seed);
        int[][] folds = k == 0 ? Folds.leaveOneOut(n) : Folds.stratifiedKFold(data.y(), classes, k, seed);
        int g = classes;
        int[] dims = {Math.max(1, g - 1), g, g + 1, g + 2, g + 4, g + 8, g + 16, g + 32};
        long start = System.nanoTime();
        double[][] acc = LdgCrossValidation.accuracy(
                data.x(),
                data.y(),
                classes,
                neighbors,
                null,
                THESIS_GAMMAS,
                dims,
                folds,
                LdgCrossValidation.knnScorer(classes, 3),
                // every ℓ of the grid scored (above a fold's rank with all its directions), as the timings always were
                LdgCrossValidation.AboveRank.ALL_DIRECTIONS,
                threads,
                Progress.none());
        double seconds = (System.nanoTime() - start) / 1e9;
        double best = 0;
        for (double[] row : acc) {
            for (double a : row) {
                best = Math.max(best, a);
            }
        }
        return new Result(
                n,
                d,
                classes,
                folds.length,
                THESIS_GAMMAS.length,
                dims.length,
                threads,
                (long) folds.length * THESIS_GAMMAS.length,
                seconds,
                best);
    }
}
