package io.vigil.select;

import io.vigil.classify.Knn;
import io.vigil.data.Folds;
import io.vigil.ldg.LdgParams;
import io.vigil.ldg.LinearMaps;
import io.vigil.ldg.SparseLdg;
import io.vigil.model.GridScores;
import io.vigil.util.Progress;
import org.ejml.data.DMatrixRMaj;

/**
 * Sparse LDG's λ chosen on the training series when the user does not give it: the candidate of {@link
 * TrainParams#SPARSITY_GRID} with the best 3-NN accuracy over {@value #FOLDS} seeded stratified folds, sparse LDG
 * refitted on each fold's training part at the selected k, γ and ℓ. Ties → the smaller λ: k, γ and ℓ were chosen for
 * the dense LDG solution, and the smaller λ departs least from it (with 20–50 training series, 3-fold scores tie
 * often). The thesis leaves λ to the user (§3.4.1 sweeps it); a default must come from the training data, not from a
 * test split.
 */
final class SparsitySearch {
    /** Folds of the search: each candidate refits the relaxation per fold, so fewer than for γ and ℓ. */
    static final int FOLDS = 3;

    /**
     * ADMM tolerance (relative to ‖Z‖<sub>F</sub>) of the fold fits. They only rank the candidates by 3-NN accuracy,
     * which does not move when columns change by 10⁻³ of Z's scale, and on d &gt; n data most of a fit's iterations
     * are spent going from 10⁻³ to the final fit's 10⁻⁵.
     */
    static final double TOLERANCE = 1e-3;

    private SparsitySearch() {}

    /**
     * Scores every candidate and returns the scores with the choice.
     *
     * @param x training rows (standardised already when the model standardises)
     * @param y class indices
     * @param groups the group (recording) of each row, or null: folds then never split a group
     * @param progress extended by candidates × folds and stepped per fold fit
     */
    static GridScores choose(
            double[][] x,
            int[] y,
            int numClasses,
            LdgParams ldg,
            int dims,
            SparseLdg.Deflation deflation,
            int[] groups,
            long seed,
            Progress progress) {
        double[] grid = TrainParams.SPARSITY_GRID.toArray();
        int[][] folds = groups == null
                ? Folds.stratifiedKFold(y, numClasses, FOLDS, seed)
                : Folds.groupedKFold(y, numClasses, groups, FOLDS, seed);
        progress.extendBy((long) grid.length * folds.length);
        double[] acc = new double[grid.length];
        for (int li = 0; li < grid.length; li++) {
            int correct = 0;
            for (int[] test : folds) {
                correct += foldHits(x, y, numClasses, ldg, dims, deflation, grid[li], test);
                progress.step();
            }
            acc[li] = (double) correct / x.length;
        }
        int best = Grids.argmaxPreferFirst(acc);
        return GridScores.searched(grid, acc, grid[best]);
    }

    /** 3-NN hits on one fold's test series in the sparse LDG space fitted on the fold's training series. */
    private static int foldHits(
            double[][] x,
            int[] y,
            int numClasses,
            LdgParams ldg,
            int dims,
            SparseLdg.Deflation deflation,
            double sparsity,
            int[] test) {
        int[] train = Folds.complement(test, x.length);
        double[][] fx = Folds.rows(x, train);
        int[] fy = Folds.labels(y, train);
        int foldDims = Math.min(dims, Math.min(x[0].length, train.length - 1));
        SparseLdg.Params search =
                new SparseLdg.Params(sparsity, deflation, foldDims, TOLERANCE, SparseLdg.Params.DEFAULT_MAX_ITERATIONS);
        DMatrixRMaj b = SparseLdg.fitRelative(fx, fy, numClasses, ldg, search).basis();
        Knn knn = Knn.fit(LinearMaps.project(fx, b, foldDims), fy, numClasses);
        double[][] tp = LinearMaps.project(Folds.rows(x, test), b, foldDims);
        int ok = 0;
        for (int i = 0; i < test.length; i++) {
            if (knn.predict(tp[i], Trainer.KNN_K) == y[test[i]]) {
                ok++;
            }
        }
        return ok;
    }
}
