package io.vigil.select;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LdgCrossValidation;
import io.vigil.ldg.LdgParams;
import io.vigil.ldg.SparseLdg;
import io.vigil.model.CvScheme;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Trains a {@link VigilModel} with the model selection of the thesis (§3.4–3.5; docs/method.md §1):
 *
 * <ol>
 *   <li>optional per-feature standardisation with training statistics ({@link TrainParams#standardize()});
 *   <li>LDG neighbour count k: local-QDA accuracy on the (standardised) input data by seeded stratified
 *       5-fold CV over {1, 2, 4, …, 128} up to the first value ≥ the largest class, i.e. "the whole class"
 *       (ties → larger k, which avoids the noisy k = 1 choices of tiny training sets noted in docs/method.md
 *       §1);
 *   <li>γ: 3-NN CV accuracy over the γ grid at ℓ<sub>γ</sub> = G − 1 for small-sample data (n &lt; d + G,
 *       thesis §3.5) or G + 5 otherwise (thesis §3.4), or at the user's ℓ when given; ties → larger γ
 *       (thesis §3.4). LDG is refitted on every fold ({@link LdgCrossValidation});
 *   <li>ℓ: 3-NN CV accuracy at the chosen γ over {G−1, G, G+1, G+2, G+4, G+8, G+16, G+32} (thesis §3.5.2)
 *       capped at what the final LDG fit (the numerical rank of the centred training data, {@link Ldg#spanRank})
 *       and every fold's LDG can supply; ties → smaller ℓ. The same CV run scores γ and ℓ: one
 *       eigendecomposition per fold per γ serves every ℓ;
 *   <li>local-QDA neighbour count in LDG space by the same CV, LDG refitted per fold (ties → larger k);
 *   <li>final LDG on all training data, projection of the training series, local QDA.
 * </ol>
 *
 * <p>By default ({@link SelectionProtocol#AUTO}) these steps run four times where it is affordable — standardisation
 * off and on, each with the neighbour rule below and step 2's — and the candidate whose chosen parameters score best
 * on fresh folds, which none of the four selections used, is kept ({@link SelectionProtocol#searchesFor}; the rule
 * is documented at {@link ProtocolScores}).
 *
 * <p>With {@link NeighborSelection#KNN} step 2 is replaced by scoring every k of the grid in step 3 (each at
 * its best γ; ties → larger k), which costs one γ search per candidate k.
 *
 * <p>With {@link Reducer#KERNEL_LDG} the same steps run on kernel LDG ({@link KernelLdgMap}), after one more: the
 * kernel parameter by 3-NN CV at ℓ<sub>γ</sub> (always G − 1: a kernel's feature space has at least n dimensions)
 * and its best γ; ℓ may then exceed d. {@code refine} applies to linear LDG only (gradient refinement of the final B,
 * thesis Algorithm 1).
 *
 * <p>With {@link Reducer#SPARSE_LDG} every step runs as for LDG, and the final basis is sparse LDG's ({@link SparseLdg},
 * thesis §3.3.3) at the selected k, γ and ℓ — the thesis's §3.4.1 also reuses LDG's γ — with λ from {@link
 * SparsitySearch} unless given; local QDA's k is scored in
 * LDG space, since refitting the sparse relaxation per fold would multiply its cost by the folds. {@link
 * Reducer#TRANSFER_LDG} needs a source domain and is trained by {@link TransferTrainer}.
 *
 * <p>The CV scheme for steps 3–5 is leave-one-out for n ≤ {@value CvScheme#AUTO_LOO_MAX_SIZE} (the thesis
 * uses leave-one-out) and seeded stratified 10-fold above, unless given. A value fixed in {@link
 * TrainParams} skips its search. All random choices come from the seed: same data + params ⇒ the same
 * model. Every score is kept in the model's {@link SelectionReport}.
 */
public final class Trainer {
    /** The thesis scores LDG projections with k = 3 nearest neighbours (§3.4, §3.5.2). */
    public static final int KNN_K = 3;

    private Trainer() {}

    /**
     * The time resolutions the automatic selection compares ({@link ProtocolSearch#segmentCandidates}).
     */
    static List<Integer> segmentCandidates(Dataset train, TrainParams params) {
        return ProtocolSearch.segmentCandidates(train, params);
    }

    /**
     * Selects parameters and trains.
     *
     * @param train training split; every class in its class list must have at least one series
     * @param params what to search and what is fixed
     * @param created creation time to record (see {@link io.vigil.model.CreationTime})
     * @param progress advanced as CV folds complete (its total is extended here by the planned folds) and
     *     once for the final fit, so a caller can start it at a total of 1
     * @throws IllegalArgumentException on unusable data or parameters (e.g. ℓ above the LDG rank)
     */
    public static VigilModel train(Dataset train, TrainParams params, Instant created, Progress progress) {
        return train(train, params, created, progress, Runtime.getRuntime().availableProcessors());
    }

    /**
     * As {@link #train(Dataset, TrainParams, Instant, Progress)} with the number of threads that run the
     * cross-validation folds (the result does not depend on it).
     */
    public static VigilModel train(Dataset train, TrainParams params, Instant created, Progress progress, int threads) {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(created, "created");
        if (params.reducer() == Reducer.TRANSFER_LDG) {
            throw new IllegalArgumentException(
                    "--reducer transfer-ldg needs a source domain (--source-data, --source-dataset)");
        }
        if (SelectionProtocol.searchesFor(params, train.size(), train.length())) {
            return ProtocolSearch.trainAuto(train, params, created, progress, threads);
        }
        TrainingRun run = new TrainingRun(train, params, progress, threads);
        TrainingRun.Choice neighbors = run.chooseLdgNeighbors();
        run.chooseKernel(neighbors);
        TrainingRun.GammaAndDims gd = run.chooseGammaAndDims(neighbors);
        LdgParams ldgParams = new LdgParams(gd.k(), gd.gamma());
        if (params.reducer() == Reducer.KERNEL_LDG) {
            KernelLdgMap map = run.fitKernel(ldgParams, gd.dims());
            TrainingRun.Choice qda = run.chooseQdaNeighbors(ldgParams, gd.dims());
            return run.assemble(created, null, map, gd, qda);
        }
        if (params.reducer() == Reducer.SPARSE_LDG) {
            GridScores lambda = run.chooseSparsity(ldgParams, gd.dims());
            SparseLdg.Result sparse = run.fitSparse(ldgParams, gd.dims(), lambda.chosen());
            return run.assembleSparse(created, sparse, gd, run.chooseQdaNeighbors(ldgParams, gd.dims()), lambda);
        }
        LdgBasis basis = run.fitFinal(ldgParams, gd.dims());
        TrainingRun.Choice qda = run.chooseQdaNeighbors(ldgParams, gd.dims());
        return run.assemble(created, basis, null, gd, qda);
    }

    /**
     * Fits a model whose every selected parameter is fixed (γ, ℓ, the LDG and local-QDA neighbour counts), without the
     * cross-validation that {@link #train} runs to score even fixed values: the refits of cross-fitted calibration
     * need the fit only. The selection report carries NaN accuracies.
     *
     * @throws IllegalArgumentException when a selected parameter is not fixed, or on unusable data or parameters
     */
    public static VigilModel fitFixed(Dataset train, TrainParams params, Instant created) {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(created, "created");
        if (params.gamma().isEmpty()
                || params.dims().isEmpty()
                || params.neighbors().isEmpty()
                || params.qdaNeighbors().isEmpty()) {
            throw new IllegalArgumentException("fitFixed needs gamma, dims, neighbors and qdaNeighbors fixed");
        }
        if (params.reducer() != Reducer.LDG && params.reducer() != Reducer.SPARSE_LDG) {
            throw new IllegalArgumentException(
                    "fitFixed refits linear and sparse LDG only (the early-decision calibration)");
        }
        TrainingRun run = new TrainingRun(train, params, Progress.none(), 1);
        TrainingRun.Choice neighbors = run.chooseLdgNeighbors();
        int dims = params.dims().getAsInt();
        double gamma = params.gamma().getAsDouble();
        int k = neighbors.candidates()[0];
        TrainingRun.GammaAndDims gd = new TrainingRun.GammaAndDims(
                k,
                neighbors.scores(),
                false,
                gamma,
                GridScores.user(gamma, false),
                dims,
                dims,
                GridScores.user(dims, true),
                Double.NaN);
        LdgParams ldgParams = new LdgParams(k, gamma);
        if (params.reducer() == Reducer.SPARSE_LDG) {
            GridScores lambda = run.chooseSparsity(ldgParams, dims);
            return run.assembleSparse(
                    created,
                    run.fitSparse(ldgParams, dims, lambda.chosen()),
                    gd,
                    run.chooseQdaNeighbors(ldgParams, dims),
                    lambda);
        }
        LdgBasis basis = run.fitFinal(ldgParams, dims);
        return run.assemble(created, basis, null, gd, run.chooseQdaNeighbors(ldgParams, dims));
    }

    /**
     * A model without dimensionality reduction: local QDA on the (standardised, when {@link TrainParams#standardize()}
     * asks) d-dimensional series themselves, the thesis's "time-series samples as features" classifier of §5.6.4
     * (the "Rel. Class." of Table 5.4 and Figures 5.8–5.11). It is recorded as the identity projection B = I<sub>d</sub>
     * (ℓ = d), so every early-decision path (complete-series Gaussians, τ-sets, the reliable rule) runs unchanged in
     * the raw space; its cost per sample then grows with d instead of ℓ, and the joint estimator's R_y table takes
     * 8·(d+1)·d(d+1)/2 bytes. Local QDA's k is the only selected parameter: the same CV over the k grid as step 5
     * (leave-one-out for small n, else stratified 10-fold, unless {@link TrainParams#cv()} says otherwise; ties → larger
     * k), unless {@link TrainParams#qdaNeighbors()} fixes it. The projection's LDG fields carry no fit: neighbours 1,
     * γ 0 and every eigenvalue 1 (those of I). For benchmarks that compare with and without LDG; not a {@link Reducer}.
     *
     * @throws IllegalArgumentException on unusable data, or parameters that ask for a reducer other than linear LDG
     */
    public static VigilModel trainWithoutReduction(
            Dataset train, TrainParams params, Instant created, Progress progress) {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(created, "created");
        if (params.reducer() != Reducer.LDG) {
            throw new IllegalArgumentException("a model without reduction takes no reducer, but --reducer "
                    + params.reducer().cliName() + " was given");
        }
        if (params.segments().isPresent()) {
            throw new IllegalArgumentException("a model without reduction has no LDG directions to segment");
        }
        TrainingRun run = new TrainingRun(train, params, progress, 1);
        return run.assembleIdentity(created, run.chooseInputQdaNeighbors());
    }

    /** Test folds of a scheme: leave-one-out or seeded stratified k-fold. */
    static int[][] folds(CvScheme scheme, int[] y, int numClasses, long seed) {
        return folds(scheme, y, numClasses, null, seed);
    }

    /**
     * Test folds of a scheme over grouped series (the windows of a window model, grouped by recording): leave one
     * group out or seeded grouped stratified k-fold ({@link Folds#groupedKFold}), so no group lies on both sides of a
     * fold; {@code groups} null (series mode) gives the folds of {@link #folds(CvScheme, int[], int, long)}.
     */
    static int[][] folds(CvScheme scheme, int[] y, int numClasses, int[] groups, long seed) {
        if (groups == null) {
            return scheme.isLeaveOneOut()
                    ? Folds.leaveOneOut(y.length)
                    : Folds.stratifiedKFold(y, numClasses, scheme.folds(), seed);
        }
        return scheme.isLeaveOneOut()
                ? Folds.leaveOneGroupOut(groups)
                : Folds.groupedKFold(y, numClasses, groups, scheme.folds(), seed);
    }

    /**
     * The largest ℓ every fold's LDG can supply: the centred training part of a fold with m series spans at most m − 1
     * directions, all inside the span of the whole centred training set, whose rank is {@code rank} (d, or the
     * numerical rank when known: {@link TrainingRun#linearRank}). Folds of rank-deficient data with repeated series can
     * still fall short of it; the cross-validation leaves such an ℓ unscored ({@link LdgCrossValidation.AboveRank}).
     */
    static int maxFoldDims(int[][] folds, int n, int rank) {
        int largestTest = 0;
        for (int[] f : folds) {
            largestTest = Math.max(largestTest, f.length);
        }
        return Math.max(1, Math.min(rank, n - largestTest - 1));
    }
}
