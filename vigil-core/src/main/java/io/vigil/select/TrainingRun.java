package io.vigil.select;

import io.vigil.data.Dataset;
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
import io.vigil.model.SelectionReport;
import io.vigil.model.SparseInfo;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * One training run of {@link Trainer}: the prepared data, folds and grids (step 1 of the selection), and one method per
 * later step; the steps' outcomes are {@link Choice} and {@link GammaAndDims} values, from which the {@code assemble}
 * methods build the model. Used by one thread (each step may run its CV folds on several).
 */
final class TrainingRun {
    /** k of the 3-NN that scores LDG projections ({@link Trainer#KNN_K}). */
    private static final int KNN_K = Trainer.KNN_K;

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
    record Choice(int[] candidates, GridScores scores) {}

    /** The outcome of steps 3–4 (and of step 2 under {@link NeighborSelection#KNN}). */
    record GammaAndDims(
            int k,
            GridScores kScores,
            boolean jointK,
            double gamma,
            GridScores gammaScores,
            int gammaDims,
            int dims,
            GridScores dimsScores,
            double cvAccuracy) {}

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
    TrainingRun(Dataset train, TrainParams params, Progress progress, int threads) {
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
        int[] groups = train.groups();
        this.folds = Trainer.folds(cv, y, g, groups, params.seed());
        this.neighborFolds = Trainer.folds(params.neighborCv(), y, g, groups, params.seed());
        int maxClass = Arrays.stream(counts).max().orElse(1);
        this.kGrid = Grids.capGrid(params.kGrid().toArray(), maxClass);
    }

    /**
     * The number of directions linear LDG can supply on all training data, computed once: the cap of the ℓ grid
     * (with the folds' sizes, {@link Trainer#maxFoldDims}) and of sparse LDG's ℓ. It is the rank the final fit decides
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
        int maxDims = Trainer.maxFoldDims(folds, n, Integer.MAX_VALUE);
        int gammaDims = params.dims().isPresent() ? params.dims().getAsInt() : Grids.gammaDims(n, KERNEL_D, g, maxDims);
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
                ? GridScores.searched(Arrays.stream(grid).mapToInt(v -> (int) v).toArray(), acc, (int) grid[best])
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
        int maxDims = Trainer.maxFoldDims(folds, n, rank);
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
        GridScores gammaScores =
                searchGamma ? GridScores.searched(gammas, gammaAcc, gamma) : GridScores.user(gamma, false, gammaAcc[0]);
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
                x, y, g, k, kernel, gammas, scorable, folds, LdgCrossValidation.knnScorer(g, KNN_K), threads, progress);
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
        if (dims <= Trainer.maxFoldDims(folds, n, kernel == null ? d : Integer.MAX_VALUE)) {
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
        return new IllegalArgumentException("ℓ = " + dims + " exceeds the LDG rank " + rank + " of this training set ("
                + n + " series of length " + d + ")");
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
                train.groups(),
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

    /** The model of {@link Trainer#trainWithoutReduction}: B = I_d, the training points are the input rows. */
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
    VigilModel assembleSparse(Instant created, SparseLdg.Result r, GammaAndDims gd, Choice qda, GridScores sparsity) {
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

    private VigilModel finish(VigilModel.Builder b, Instant created, double[][] points, GammaAndDims gd, Choice qda) {
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
