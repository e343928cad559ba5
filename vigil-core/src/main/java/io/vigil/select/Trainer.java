package io.vigil.select;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.ldg.GradientRefinement;
import io.vigil.ldg.KernelFunction;
import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.LdgCrossValidation;
import io.vigil.ldg.LdgParams;
import io.vigil.ldg.SparseLdg;
import io.vigil.ldg.Standardizer;
import io.vigil.ldg.TimeSegments;
import io.vigil.model.CvScheme;
import io.vigil.model.DataFingerprint;
import io.vigil.model.GridScores;
import io.vigil.model.ProtocolScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.SparseInfo;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Trains a {@link VigilModel} with the model selection of the thesis (§3.4–3.5; docs/method.md §1):
 *
 * <ol>
 *   <li>optional per-feature standardisation with training statistics ({@link TrainParams#standardize()});
 *   <li>LDG neighbour count k: local-QDA accuracy on the (standardised) input data by seeded stratified
 *       5-fold CV over {1, 2, 4, …, 128} up to the first value ≥ the largest class, i.e. "the whole class"
 *       (ties → larger k, which avoids the noisy k = 1 choices of tiny training sets noted in method notes
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

    /** Repeats of the fresh-fold check by which {@link #trainAuto} compares the protocol candidates. */
    static final int PROTOCOL_CHECK_REPEATS = 3;

    /**
     * Folds of each repeat of the fresh-fold check; fewer when the smallest class is smaller (at least 2), so that every
     * held-out fold holds every class and every training part keeps the same share of each (WordSynonyms, whose
     * smallest class has 2 series, is checked by 2-fold CV: lower accuracies than the selection's own, alike for all
     * four candidates).
     */
    static final int PROTOCOL_CHECK_FOLDS = 10;

    /**
     * Step between the seeds of the check's repeats and the selection's seed: repeat r draws its folds from seed + r ×
     * this, never from the selection's own seed.
     */
    static final long PROTOCOL_CHECK_SEED_STEP = 7919;

    /**
     * The four-way protocol search ({@link SelectionProtocol#searchesFor}): the full selection under each
     * standardisation × neighbour rule, in the order off/local-qda, on/local-qda, off/3nn, on/3nn, then a check of each
     * candidate's chosen k, γ and ℓ on folds that no selection used: {@value #PROTOCOL_CHECK_REPEATS} repeats of
     * stratified {@value #PROTOCOL_CHECK_FOLDS}-fold CV with seeds of their own, LDG refitted per fold, scoring 3-NN
     * (the thesis's measure) and local QDA (the classifier Vigil decides with, its k chosen per repeat as in step 5).
     * The candidate with the best mean of the two is kept ({@link ProtocolScores#best}; ties → the earlier, the
     * thesis's protocol first), with every score in its {@link SelectionReport#protocol()}.
     *
     * <p>Why not the selections' own CV accuracies: each is the maximum over its own search, and the 3nn rule searches
     * k, γ and ℓ jointly on the 3-NN accuracy it would then be compared by (36 combinations against 6), so comparing
     * those maxima favours the larger search. On the Table 3.3 re-splits that choice left Trace at cv 2.8 SE below
     * the thesis; the fresh-fold check raised both means and left no dataset 2 SE below (BENCHMARKS.md, issue 14).
     */
    private static VigilModel trainAuto(
            Dataset train, TrainParams params, Instant created, Progress progress, int threads) {
        List<Integer> segmentGrid = segmentCandidates(train, params);
        int seriesLength = train.seriesLength();
        List<String> names = new ArrayList<>();
        int candidates = 4 * segmentGrid.size();
        double[] accuracy = new double[candidates];
        double[] fresh3nn = new double[candidates];
        double[] freshQda = new double[candidates];
        VigilModel[] models = new VigilModel[candidates];
        int i = 0;
        for (int segments : segmentGrid) {
            for (NeighborSelection rule : List.of(NeighborSelection.LOCAL_QDA, NeighborSelection.KNN)) {
                for (boolean standardize : new boolean[] {false, true}) {
                    TrainParams.Builder b = params.toBuilder()
                            .protocol(SelectionProtocol.GIVEN)
                            .standardize(standardize)
                            .neighborSelection(rule);
                    if (segments < seriesLength) {
                        b.segments(segments);
                    }
                    TrainParams p = b.build();
                    models[i] = train(train, p, created, progress, threads);
                    names.add((standardize ? "on" : "off") + "/" + rule.cliName()
                            + (segments < seriesLength ? "/segments=" + segments : ""));
                    accuracy[i] = models[i].selection().cvAccuracy();
                    double[] check = freshCheck(train, p, models[i], progress, threads);
                    fresh3nn[i] = check[0];
                    freshQda[i] = check[1];
                    i++;
                }
            }
        }
        int best = ProtocolScores.best(accuracy, fresh3nn, freshQda);
        ProtocolScores scores = new ProtocolScores(names, accuracy, fresh3nn, freshQda, names.get(best));
        return models[best].toBuilder()
                .selection(models[best].selection().withProtocol(scores))
                .build();
    }

    /**
     * The time resolutions the automatic selection compares ({@link TimeSegments}): full resolution only for one
     * channel, a fixed {@link TrainParams#segments()}, another reducer than linear LDG or a fixed ℓ (S and ℓ are
     * chosen together: ℓ is capped by the S·C values LDG sees); for several channels full resolution first (so ties
     * keep it), then {@link TimeSegments#grid}'s coarser ones.
     */
    static List<Integer> segmentCandidates(Dataset train, TrainParams params) {
        int seriesLength = train.seriesLength();
        if (params.segments().isPresent()) {
            return List.of(Math.min(params.segments().getAsInt(), seriesLength));
        }
        if (train.channels() == 1
                || params.reducer() != Reducer.LDG
                || params.dims().isPresent()) {
            return List.of(seriesLength);
        }
        return TimeSegments.grid(seriesLength);
    }

    /**
     * One candidate's fresh-fold check ({@link #trainAuto}): {3-NN, local-QDA} accuracy averaged over the repeats;
     * the 3-NN part is NaN when the model's ℓ exceeds what every fresh fold's LDG can supply.
     */
    private static double[] freshCheck(
            Dataset train, TrainParams candidate, VigilModel model, Progress progress, int threads) {
        int smallest = Arrays.stream(train.classCounts()).min().orElse(2);
        CvScheme cv = CvScheme.kFold(Math.max(2, Math.min(PROTOCOL_CHECK_FOLDS, smallest)));
        TrainParams.Builder b = candidate.toBuilder()
                .gamma(model.gamma())
                .dims(model.dims())
                .neighbors(model.ldgNeighbors())
                .cv(cv);
        model.projection()
                .kernelMap()
                .ifPresent(map -> b.kernelParam(map.kernel().parameter()));
        TrainParams fixed = b.build();
        double knn = 0;
        double qda = 0;
        for (int r = 1; r <= PROTOCOL_CHECK_REPEATS; r++) {
            TrainParams p = fixed.toBuilder()
                    .seed(candidate.seed() + PROTOCOL_CHECK_SEED_STEP * r)
                    .build();
            double[] s = new Run(train, p, progress, threads).scoreFixed();
            knn += s[0];
            qda += s[1];
        }
        return new double[] {knn / PROTOCOL_CHECK_REPEATS, qda / PROTOCOL_CHECK_REPEATS};
    }

    private Trainer() {}

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
            return trainAuto(train, params, created, progress, threads);
        }
        Run run = new Run(train, params, progress, threads);
        Choice neighbors = run.chooseLdgNeighbors();
        run.chooseKernel(neighbors);
        GammaAndDims gd = run.chooseGammaAndDims(neighbors);
        LdgParams ldgParams = new LdgParams(gd.k(), gd.gamma());
        if (params.reducer() == Reducer.KERNEL_LDG) {
            KernelLdgMap map = run.fitKernel(ldgParams, gd.dims());
            Choice qda = run.chooseQdaNeighbors(ldgParams, gd.dims());
            return run.assemble(created, null, map, gd, qda);
        }
        if (params.reducer() == Reducer.SPARSE_LDG) {
            GridScores lambda = run.chooseSparsity(ldgParams, gd.dims());
            SparseLdg.Result sparse = run.fitSparse(ldgParams, gd.dims(), lambda.chosen());
            return run.assembleSparse(created, sparse, gd, run.chooseQdaNeighbors(ldgParams, gd.dims()), lambda);
        }
        LdgBasis basis = run.fitFinal(ldgParams, gd.dims());
        Choice qda = run.chooseQdaNeighbors(ldgParams, gd.dims());
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
        Run run = new Run(train, params, Progress.none(), 1);
        Choice neighbors = run.chooseLdgNeighbors();
        int dims = params.dims().getAsInt();
        double gamma = params.gamma().getAsDouble();
        int k = neighbors.candidates()[0];
        GammaAndDims gd = new GammaAndDims(
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
        Run run = new Run(train, params, progress, 1);
        return run.assembleIdentity(created, run.chooseInputQdaNeighbors());
    }

    /**
     * The "d" of the small-sample rule for kernel LDG: the feature space of a kernel has at least n dimensions, so its
     * data are always small-sample (ℓ<sub>γ</sub> = G − 1).
     */
    private static final int KERNEL_D = Integer.MAX_VALUE / 4;

    private static double[][] projectAll(KernelLdgMap map) {
        double[][] rows = map.rows();
        double[][] out = new double[rows.length][map.dims()];
        for (int i = 0; i < rows.length; i++) {
            map.project(rows[i], out[i]);
        }
        return out;
    }

    /** A chosen value and the scores it was chosen by. */
    private record Choice(int[] candidates, GridScores scores) {}

    /** The outcome of steps 3–4 (and of step 2 under {@link NeighborSelection#KNN}). */
    private record GammaAndDims(
            int k,
            GridScores kScores,
            boolean jointK,
            double gamma,
            GridScores gammaScores,
            int gammaDims,
            int dims,
            GridScores dimsScores,
            double cvAccuracy) {}

    /** One training run: the prepared data, folds and grids (step 1), and one method per later step. */
    private static final class Run {
        private final Dataset train;
        private final TrainParams params;
        private final Progress progress;
        private final int threads;
        private final int n;
        private final int d;
        private final int g;
        private final int[] counts;
        private final int[] y;
        private final double[][] x;
        private final Standardizer standardizer;
        /** The coarser time resolution LDG works at, or null for full resolution ({@link TimeSegments}). */
        private final TimeSegments segments;

        private final CvScheme cv;
        private final int[][] folds;
        private final int[][] neighborFolds;
        private final int[] kGrid;
        /** {@link Ldg#spanRank} of {@link #x} once computed (−1 before). */
        private int linearRank = -1;

        /** Kernel LDG's kernel once chosen (step 2b); null for linear LDG. */
        private KernelFunction kernel;

        private GridScores kernelScores;

        /** Step 1: checks the data, standardises it when asked, draws the folds and caps the k grid. */
        Run(Dataset train, TrainParams params, Progress progress, int threads) {
            this.train = train;
            this.params = params;
            this.progress = progress;
            this.threads = threads;
            this.n = train.size();
            this.g = train.numClasses();
            this.counts = train.classCounts();
            for (int c = 0; c < g; c++) {
                if (counts[c] == 0) {
                    throw new IllegalArgumentException(
                            "class '" + train.classNames().get(c) + "' has no training series in " + train.name());
                }
            }
            if (g < 2) {
                throw new IllegalArgumentException(train.name() + " has a single class; at least two are needed");
            }
            if (n < 3) {
                throw new IllegalArgumentException(
                        train.name() + " has " + n + " training series; cross-validated training needs at least 3");
            }
            this.y = train.classIndices();
            double[][] rows = train.rows();
            if (params.standardize()) {
                this.standardizer = Standardizer.fit(rows);
                rows = standardizer.apply(rows);
            } else if (train.channels() > 1) {
                this.standardizer = Standardizer.fitPerChannel(rows, train.channels());
                rows = standardizer.apply(rows);
            } else {
                this.standardizer = null;
            }
            int seriesLength = train.seriesLength();
            if (params.segments().isPresent() && params.segments().getAsInt() < seriesLength) {
                this.segments = TimeSegments.of(
                        train.channels(), seriesLength, params.segments().getAsInt());
            } else {
                this.segments = null;
            }
            this.x = segments == null ? rows : segments.apply(rows);
            this.d = x[0].length;
            this.cv = params.cv().orElse(CvScheme.auto(n));
            this.folds = folds(cv, y, g, params.seed());
            this.neighborFolds = folds(params.neighborCv(), y, g, params.seed());
            int maxClass = Arrays.stream(counts).max().orElse(1);
            this.kGrid = Grids.capGrid(params.kGrid().toArray(), maxClass);
        }

        /**
         * The number of directions linear LDG can supply on all training data, computed once: the cap of the ℓ grid
         * (with the folds' sizes, {@link #maxFoldDims}) and of sparse LDG's ℓ. It is the rank the final fit decides
         * ({@link Ldg#spanRank}: same matrix, same threshold), so a selected ℓ never exceeds what that fit supplies;
         * a count bound min(d, n − 1) would not do, since e.g. z-normalised series have centred rank ≤ d − 1.
         */
        int linearRank() {
            if (linearRank < 0) {
                linearRank = Ldg.spanRank(x);
            }
            return linearRank;
        }

        /**
         * Step 2 (thesis rule): the LDG neighbour count by local-QDA CV on the input data; the candidates left for
         * step 3 (the whole grid under the 3-NN rule, which scores them there).
         */
        Choice chooseLdgNeighbors() {
            if (params.neighbors().isPresent()) {
                int k = params.neighbors().getAsInt();
                return new Choice(new int[] {k}, GridScores.user(k, true));
            }
            if (params.neighborSelection() == NeighborSelection.KNN) {
                return new Choice(kGrid, null);
            }
            progress.extendBy(neighborFolds.length);
            double[] acc = LocalQdaCrossValidation.accuracy(x, y, g, kGrid, neighborFolds, progress);
            int best = kGrid[Grids.argmaxPreferLast(acc)];
            return new Choice(new int[] {best}, GridScores.searched(kGrid, acc, best));
        }

        /**
         * Step 2b, kernel LDG only: the kernel parameter, fixed or by the 3-NN CV accuracy at ℓ<sub>γ</sub> and its
         * best γ (ties → the first candidate). Under the 3-NN neighbour rule, k is still open here; the kernel is
         * then chosen at LDG's default k (capped by the grid) and k afterwards as for linear LDG.
         */
        void chooseKernel(Choice neighbors) {
            if (params.reducer() != Reducer.KERNEL_LDG) {
                return;
            }
            String family = params.kernel();
            if (params.kernelParam().isPresent()) {
                double p = params.kernelParam().getAsDouble();
                kernel = KernelFunction.of(family, p);
                kernelScores = GridScores.user(p, family.equals("poly"));
                return;
            }
            double[] grid = KernelFunction.grid(family, x);
            int k = neighbors.candidates().length == 1
                    ? neighbors.candidates()[0]
                    : Math.min(LdgParams.DEFAULT_NEIGHBORS, kGrid[kGrid.length - 1]);
            int maxDims = maxFoldDims(folds, n, Integer.MAX_VALUE);
            int gammaDims =
                    params.dims().isPresent() ? params.dims().getAsInt() : Grids.gammaDims(n, KERNEL_D, g, maxDims);
            double[] gammas = params.gamma().isPresent()
                    ? new double[] {params.gamma().getAsDouble()}
                    : params.gammaGrid().toArray();
            double[] acc = new double[grid.length];
            progress.extendBy((long) grid.length * folds.length * gammas.length);
            for (int p = 0; p < grid.length; p++) {
                double[][] raw = LdgCrossValidation.accuracy(
                        x,
                        y,
                        g,
                        k,
                        KernelFunction.of(family, grid[p]),
                        gammas,
                        new int[] {Math.min(gammaDims, maxDims)},
                        folds,
                        LdgCrossValidation.knnScorer(g, KNN_K),
                        threads,
                        progress);
                acc[p] = Arrays.stream(raw).mapToDouble(r -> r[0]).max().orElse(Double.NaN);
            }
            int best = Grids.argmaxPreferFirst(acc);
            kernel = KernelFunction.of(family, grid[best]);
            kernelScores = family.equals("poly")
                    ? GridScores.searched(
                            Arrays.stream(grid).mapToInt(v -> (int) v).toArray(), acc, (int) grid[best])
                    : GridScores.searched(grid, acc, grid[best]);
        }

        /** Steps 3–4: γ and ℓ (and k under the 3-NN rule) by 3-NN CV with LDG refitted per fold. */
        GammaAndDims chooseGammaAndDims(Choice neighbors) {
            int[] kCands = neighbors.candidates();
            boolean jointK = neighbors.scores() == null;
            int rank = kernel == null ? linearRank() : KernelLdgMap.spanRank(x, kernel);
            if (kernel == null && params.dims().isPresent() && params.dims().getAsInt() > rank) {
                throw aboveRank(params.dims().getAsInt(), rank);
            }
            int maxDims = maxFoldDims(folds, n, rank);
            int[] dimsCand =
                    params.dims().isPresent() ? new int[] {params.dims().getAsInt()} : Grids.dimsCandidates(g, maxDims);
            int gammaDims = params.dims().isPresent()
                    ? params.dims().getAsInt()
                    : Grids.gammaDims(n, kernel == null ? d : KERNEL_D, g, maxDims);
            double[] gammas = params.gamma().isPresent()
                    ? new double[] {params.gamma().getAsDouble()}
                    : params.gammaGrid().toArray();
            int[] scored = union(dimsCand, gammaDims);
            int[] scorable = Arrays.stream(scored).filter(l -> l <= maxDims).toArray();
            boolean searchGamma = params.gamma().isEmpty();
            boolean searchDims = params.dims().isEmpty();
            if (scorable.length == 0 && (searchGamma || jointK)) {
                throw new IllegalArgumentException(
                        "--dims " + gammaDims + " exceeds the " + maxDims + " dimensions LDG can supply on every "
                                + "cross-validation fold; give --gamma and --neighbors as well or lower --dims");
            }
            int gammaCol = Grids.indexOf(scored, gammaDims);
            double[][][] acc3 = new double[kCands.length][][];
            int[] bestGamma = new int[kCands.length];
            double[] kAcc = new double[kCands.length];
            for (int ki = 0; ki < kCands.length; ki++) {
                acc3[ki] = scoreGammaDims(kCands[ki], gammas, scored, scorable);
                bestGamma[ki] = searchGamma ? Grids.argmaxPreferLast(column(acc3[ki], gammaCol)) : 0;
                kAcc[ki] = acc3[ki][bestGamma[ki]][gammaCol];
            }
            int kIdx = jointK ? Grids.argmaxPreferLast(kAcc) : 0;
            int k = kCands[kIdx];
            GridScores kScores = jointK ? GridScores.searched(kCands, kAcc, k) : neighbors.scores();
            double[][] accK = acc3[kIdx];
            double[] gammaAcc = column(accK, gammaCol);
            int gammaIdx = bestGamma[kIdx];
            double gamma = gammas[gammaIdx];
            GridScores gammaScores = searchGamma
                    ? GridScores.searched(gammas, gammaAcc, gamma)
                    : GridScores.user(gamma, false, gammaAcc[0]);
            double[] dimsAcc = new double[dimsCand.length];
            for (int j = 0; j < dimsCand.length; j++) {
                dimsAcc[j] = accK[gammaIdx][Grids.indexOf(scored, dimsCand[j])];
            }
            int dims = searchDims ? dimsCand[Grids.argmaxPreferFirst(dimsAcc)] : dimsCand[0];
            GridScores dimsScores =
                    searchDims ? GridScores.searched(dimsCand, dimsAcc, dims) : GridScores.user(dims, true, dimsAcc[0]);
            double cvAccuracy = accK[gammaIdx][Grids.indexOf(scored, dims)];
            if (searchDims && Double.isNaN(cvAccuracy)) {
                throw new IllegalArgumentException("no candidate ℓ can be supplied by every cross-validation fold of "
                        + train.name() + " (" + n + " series, LDG rank " + rank + "); give --dims");
            }
            return new GammaAndDims(k, kScores, jointK, gamma, gammaScores, gammaDims, dims, dimsScores, cvAccuracy);
        }

        /** 3-NN CV accuracy [γ][ℓ] for one LDG neighbour count (NaN for an ℓ no fold can supply). */
        private double[][] scoreGammaDims(int k, double[] gammas, int[] scored, int[] scorable) {
            double[][] acc = new double[gammas.length][scored.length];
            for (double[] row : acc) {
                Arrays.fill(row, Double.NaN);
            }
            if (scorable.length == 0) {
                return acc;
            }
            progress.extendBy((long) folds.length * gammas.length);
            double[][] raw = LdgCrossValidation.accuracy(
                    x,
                    y,
                    g,
                    k,
                    kernel,
                    gammas,
                    scorable,
                    folds,
                    LdgCrossValidation.knnScorer(g, KNN_K),
                    threads,
                    progress);
            for (int gi = 0; gi < gammas.length; gi++) {
                for (int j = 0; j < scorable.length; j++) {
                    acc[gi][Grids.indexOf(scored, scorable[j])] = raw[gi][j];
                }
            }
            return acc;
        }

        /**
         * {3-NN, local-QDA} CV accuracy of the fixed k, γ and ℓ (and kernel parameter, for kernel LDG) of {@link
         * #params} on this run's folds, LDG refitted per fold (sparse LDG is scored as the LDG whose k, γ and ℓ it
         * reuses, as in its selection); local QDA at its fixed k, else the best of the k grid, as step 5 chooses it.
         * The 3-NN part is NaN when ℓ exceeds what every fold's LDG can supply; local QDA then uses each fold's
         * directions, as in step 5.
         */
        double[] scoreFixed() {
            int k = params.neighbors().orElseThrow();
            double gamma = params.gamma().orElseThrow();
            int dims = params.dims().orElseThrow();
            if (params.reducer() == Reducer.KERNEL_LDG) {
                kernel = KernelFunction.of(params.kernel(), params.kernelParam().orElseThrow());
            }
            double knn = Double.NaN;
            if (dims <= maxFoldDims(folds, n, kernel == null ? d : Integer.MAX_VALUE)) {
                progress.extendBy(folds.length);
                knn = LdgCrossValidation.accuracy(
                        x,
                        y,
                        g,
                        k,
                        kernel,
                        new double[] {gamma},
                        new int[] {dims},
                        folds,
                        LdgCrossValidation.knnScorer(g, KNN_K),
                        threads,
                        progress)[0][0];
            }
            int[] ks = params.qdaNeighbors().isPresent()
                    ? new int[] {params.qdaNeighbors().getAsInt()}
                    : kGrid;
            progress.extendBy(folds.length);
            double[] acc = LocalQdaCrossValidation.accuracyInLdgSpace(
                    x, y, g, new LdgParams(k, gamma), kernel, dims, ks, folds, threads, progress);
            return new double[] {knn, Arrays.stream(acc).max().orElse(Double.NaN)};
        }

        private IllegalArgumentException aboveRank(int dims, int rank) {
            return new IllegalArgumentException("ℓ = " + dims + " exceeds the LDG rank " + rank
                    + " of this training set (" + n + " series of length " + d + ")");
        }

        /** Step 6 (before 5, which needs ℓ only): the final LDG fit on all training data. */
        LdgBasis fitFinal(LdgParams ldgParams, int dims) {
            LdgBasis basis = Ldg.fit(x, y, g, ldgParams);
            if (dims > basis.rank()) {
                throw aboveRank(dims, basis.rank());
            }
            if (params.refine()) {
                basis = GradientRefinement.refine(
                        x, y, g, ldgParams.neighbors(), basis, dims, GradientRefinement.Params.DEFAULTS);
            }
            progress.step(); // the final fit: callers start their progress total at 1 for it
            return basis;
        }

        /**
         * Sparse LDG's final fit (thesis §3.3.3) at the k, γ and ℓ selected for LDG, as the thesis's §3.4.1 sets
         * them; refuses ℓ above the LDG rank like {@link #fitFinal}, since beyond it Z only has its null space.
         */
        SparseLdg.Result fitSparse(LdgParams ldgParams, int dims, double sparsity) {
            int rank = linearRank();
            if (dims > rank) {
                throw aboveRank(dims, rank);
            }
            SparseLdg.Result r = SparseLdg.fitRelative(x, y, g, ldgParams, sparseParams(sparsity, dims));
            progress.step();
            return r;
        }

        private SparseLdg.Params sparseParams(double sparsity, int dims) {
            return SparseLdg.Params.of(sparsity, params.deflation().orElse(SparseLdg.Deflation.ORTHONORMAL), dims);
        }

        /** Sparse LDG's λ: the user's, or chosen by {@link SparsitySearch} on the training series. */
        GridScores chooseSparsity(LdgParams ldgParams, int dims) {
            if (params.sparsity().isPresent()) {
                return GridScores.user(params.sparsity().getAsDouble(), false);
            }
            return SparsitySearch.choose(
                    x,
                    y,
                    g,
                    ldgParams,
                    dims,
                    params.deflation().orElse(SparseLdg.Deflation.ORTHONORMAL),
                    params.seed(),
                    progress);
        }

        /** The final kernel LDG map on all training data (kernel LDG's step 4b). */
        KernelLdgMap fitKernel(LdgParams ldgParams, int dims) {
            KernelLdgMap map = KernelLdgMap.fit(x, y, g, ldgParams, kernel, dims);
            progress.step();
            return map;
        }

        /** Step 5: local QDA's neighbour count in LDG space, LDG refitted per fold. */
        Choice chooseQdaNeighbors(LdgParams ldgParams, int dims) {
            if (params.qdaNeighbors().isPresent()) {
                int k = params.qdaNeighbors().getAsInt();
                return new Choice(new int[] {k}, GridScores.user(k, true));
            }
            progress.extendBy(folds.length);
            double[] acc = LocalQdaCrossValidation.accuracyInLdgSpace(
                    x, y, g, ldgParams, kernel, dims, kGrid, folds, threads, progress);
            int k = kGrid[Grids.argmaxPreferLast(acc)];
            return new Choice(new int[] {k}, GridScores.searched(kGrid, acc, k));
        }

        /** Local QDA's neighbour count on the input data (no reduction), by the CV scheme of step 5. */
        Choice chooseInputQdaNeighbors() {
            if (params.qdaNeighbors().isPresent()) {
                int k = params.qdaNeighbors().getAsInt();
                return new Choice(new int[] {k}, GridScores.user(k, true));
            }
            progress.extendBy(folds.length);
            double[] acc = LocalQdaCrossValidation.accuracy(x, y, g, kGrid, folds, progress);
            int k = kGrid[Grids.argmaxPreferLast(acc)];
            return new Choice(new int[] {k}, GridScores.searched(kGrid, acc, k));
        }

        /** The model of {@link #trainWithoutReduction}: B = I_d, the training points are the input rows. */
        VigilModel assembleIdentity(Instant created, Choice qda) {
            double[] ones = new double[d];
            Arrays.fill(ones, 1.0);
            GammaAndDims gd = new GammaAndDims(
                    1,
                    GridScores.user(1, true),
                    false,
                    0.0,
                    GridScores.user(0.0, false),
                    d,
                    d,
                    GridScores.user(d, true),
                    qda.scores().chosenAccuracy());
            VigilModel.Builder b = VigilModel.builder().ldg(1, 0.0, d, ones, CommonOps_DDRM.identity(d));
            progress.step();
            return finish(b, created, x, gd, qda);
        }

        /** The model of a sparse LDG basis: its columns' bᵀZb stand where LDG keeps eigenvalues. */
        VigilModel assembleSparse(
                Instant created, SparseLdg.Result r, GammaAndDims gd, Choice qda, GridScores sparsity) {
            DMatrixRMaj b = r.basis();
            double[][] points = new double[n][gd.dims()];
            for (int i = 0; i < n; i++) {
                for (int c = 0; c < gd.dims(); c++) {
                    double sum = 0;
                    for (int t = 0; t < d; t++) {
                        sum += x[i][t] * b.data[t * gd.dims() + c];
                    }
                    points[i][c] = sum;
                }
            }
            VigilModel.Builder mb = VigilModel.builder()
                    .ldg(gd.k(), gd.gamma(), gd.dims(), r.objectives(), b)
                    .sparse(new SparseInfo(
                            sparsity.chosen(),
                            params.deflation().orElse(SparseLdg.Deflation.ORTHONORMAL),
                            r.nonZeros(),
                            r.meanCoherence(),
                            r.maxCoherence(),
                            r.allConverged(),
                            sparsity));
            return finish(mb, created, points, gd, qda);
        }

        /** The model: the final projection, the projected training points, priors and every score. */
        VigilModel assemble(Instant created, LdgBasis basis, KernelLdgMap map, GammaAndDims gd, Choice qda) {
            DMatrixRMaj directions = map == null ? basis.basis(gd.dims()) : null;
            VigilModel.Builder b = map == null
                    ? VigilModel.builder()
                            .ldg(
                                    gd.k(),
                                    gd.gamma(),
                                    gd.dims(),
                                    basis.eigenvalues(),
                                    segments == null ? directions : segments.lift(directions))
                            .segments(segments == null ? 0 : segments.segments())
                            .refinement(basis.refinement().orElse(null))
                    : VigilModel.builder().kernelLdg(gd.k(), gd.gamma(), map, kernelScores);
            return finish(b, created, map == null ? basis.project(x, gd.dims()) : projectAll(map), gd, qda);
        }

        private VigilModel finish(
                VigilModel.Builder b, Instant created, double[][] points, GammaAndDims gd, Choice qda) {
            double[] priors = new double[g];
            for (int c = 0; c < g; c++) {
                priors[c] = (double) counts[c] / n;
            }
            return b.vigilVersion(VigilModel.runtimeVersion())
                    .created(created)
                    .datasetName(train.name())
                    .classNames(train.classNames())
                    .length(train.length())
                    .channelNames(train.channelNames())
                    .trainSize(n)
                    .classCounts(counts)
                    .fingerprint(DataFingerprint.of(train))
                    .seed(params.seed())
                    .standardizer(standardizer)
                    .trainingPoints(points, y)
                    .priors(priors)
                    .qdaNeighbors(qda.candidates()[0])
                    .selection(new SelectionReport(
                            cv,
                            gd.jointK() ? NeighborSelection.KNN.cliName() : NeighborSelection.LOCAL_QDA.cliName(),
                            gd.jointK() ? cv : params.neighborCv(),
                            gd.gammaDims(),
                            gd.kScores(),
                            gd.gammaScores(),
                            gd.dimsScores(),
                            qda.scores(),
                            gd.cvAccuracy()))
                    .build();
        }
    }

    /** Test folds of a scheme: leave-one-out or seeded stratified k-fold. */
    static int[][] folds(CvScheme scheme, int[] y, int numClasses, long seed) {
        return scheme.isLeaveOneOut()
                ? Folds.leaveOneOut(y.length)
                : Folds.stratifiedKFold(y, numClasses, scheme.folds(), seed);
    }

    /**
     * The largest ℓ every fold's LDG can supply: the centred training part of a fold with m series spans at most m − 1
     * directions, all inside the span of the whole centred training set, whose rank is {@code rank} (d, or the
     * numerical rank when known: {@link Run#linearRank}). Folds of rank-deficient data with repeated series can
     * still fall short of it; the cross-validation leaves such an ℓ unscored ({@link LdgCrossValidation.AboveRank}).
     */
    static int maxFoldDims(int[][] folds, int n, int rank) {
        int largestTest = 0;
        for (int[] f : folds) {
            largestTest = Math.max(largestTest, f.length);
        }
        return Math.max(1, Math.min(rank, n - largestTest - 1));
    }

    private static int[] union(int[] values, int extra) {
        return IntStream.concat(Arrays.stream(values), IntStream.of(extra))
                .distinct()
                .sorted()
                .toArray();
    }

    private static double[] column(double[][] a, int col) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i][col];
        }
        return out;
    }
}
