package io.vigil.select;

import io.vigil.classify.Knn;
import io.vigil.classify.qda.LocalQda;
import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgBasis;
import io.vigil.ldg.Standardizer;
import io.vigil.ldg.TransferLdg;
import io.vigil.model.CvScheme;
import io.vigil.model.DataFingerprint;
import io.vigil.model.GridScores;
import io.vigil.model.SelectionReport;
import io.vigil.model.TransferSource;
import io.vigil.model.VigilModel;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * Trains a transfer LDG model (thesis chapter 4, eq. 4.3) from a few labelled target-domain series and a labelled
 * source domain, with the selection protocol of thesis §4.5.2: α from {@link #ALPHA_GRID} by 3-NN cross-validation
 * on the target series at G + 5 dimensions with γ = 0.9, then γ from {@link #GAMMA_GRID} at that α (ties → larger
 * γ, as the thesis breaks them), then ℓ as {@link Trainer} chooses it. Only target series are ever held out; every
 * fold's map and 3-NN reference set use the whole source domain and the fold's other target series, as the final
 * model does.
 *
 * <p>The model's training set is the target series followed by the source series: the classifiers in LDG space
 * (3-NN, local QDA, the complete-series Gaussian of early decisions) use both domains, which is what the map is
 * fitted for (each target class lands on its source class). With standardisation each domain is standardised with
 * its own statistics (thesis §4.5.3) and the source series are stored in the target's coordinates, so the model's
 * one standardiser (the target's) maps both onto the space the basis was fitted in. The map's objective (4.3) weighs
 * classes by the source domain's priors; the classifiers' priors are the class frequencies of the training set they
 * hold (both domains), as for every model. The LDG neighbour count k is chosen as {@link Trainer} does (local-QDA CV on the input
 * data, here both domains).
 */
public final class TransferTrainer {
    /** Thesis §4.5.2: "I cross-validate to choose α from [0, 0.1, 0.3, 0.5]". */
    static final double[] ALPHA_GRID = {0, 0.1, 0.3, 0.5};

    /** Thesis §4.5.2: γ from [0.2, 0.4, 0.6, 0.8, 0.9] once α is chosen. */
    static final double[] GAMMA_GRID = {0.2, 0.4, 0.6, 0.8, 0.9};

    /** Thesis §4.5.2: α is chosen "by simply setting γ = 0.9". */
    static final double ALPHA_GAMMA = 0.9;

    /** Thesis §4.5.2: α and γ are scored at "dimensionality equal to the number of classes plus five". */
    static final int EXTRA_DIMS = 5;

    private TransferTrainer() {}

    /**
     * The trained model and the training set it describes (target then source series, target coordinates), which
     * the complete-series sections of early decisions are fitted on.
     */
    public record Result(VigilModel model, Dataset pooled) {}

    /**
     * Selects α, γ, ℓ and the neighbour counts and fits.
     *
     * @param target the target-domain training split (its name and classes name the model)
     * @param source the source-domain series: same length, every target class present, no other class
     * @param params {@link Reducer#TRANSFER_LDG}; a fixed α, γ, ℓ, k or local-QDA k skips its search
     * @throws IllegalArgumentException on data or parameters that cannot be used, naming the reason
     */
    public static Result train(
            Dataset target, Dataset source, TrainParams params, Instant created, Progress progress, int threads) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(created, "created");
        if (params.reducer() != Reducer.TRANSFER_LDG) {
            throw new IllegalArgumentException("TransferTrainer fits --reducer transfer-ldg, got " + params.reducer());
        }
        Domains dom = Domains.of(target, source, params.standardize());
        return new Run(dom, params, progress, threads).fit(created);
    }

    /**
     * Target and source series: raw pooled rows in target coordinates for the model, and the standardised rows the
     * map is fitted on.
     */
    private record Domains(
            Dataset target,
            Dataset source,
            Dataset pooled,
            Standardizer standardizer,
            double[][] xt,
            int[] yt,
            double[][] xs,
            int[] ys) {
        static Domains of(Dataset target, Dataset source, boolean standardize) {
            if (source.length() != target.length()) {
                throw new IllegalArgumentException("the source " + source.name() + " has series of length "
                        + source.length() + " but the target " + target.name() + " has length " + target.length()
                        + "; transfer LDG needs both domains at the same length");
            }
            Dataset src;
            try {
                src = source.withClasses(target.classNames());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "the source holds a class the target does not: " + e.getMessage(), e);
            }
            int[] srcCounts = src.classCounts();
            for (int c = 0; c < srcCounts.length; c++) {
                if (srcCounts[c] == 0) {
                    throw new IllegalArgumentException("target class '"
                            + target.classNames().get(c) + "' has no series in the source " + source.name());
                }
            }
            double[][] tRaw = target.rows();
            double[][] sRaw = src.rows();
            Standardizer std = null;
            if (standardize) {
                // Each domain with its own statistics (thesis §4.5.3), the source stored in target coordinates.
                std = Standardizer.fit(tRaw);
                Standardizer s = Standardizer.fit(sRaw);
                double[][] sStd = s.apply(sRaw);
                double[] mean = std.means();
                double[] scale = std.scales();
                for (double[] row : sStd) {
                    for (int t = 0; t < row.length; t++) {
                        row[t] = row[t] * scale[t] + mean[t];
                    }
                }
                sRaw = sStd;
            }
            int nt = tRaw.length;
            double[][] rows = new double[nt + sRaw.length][];
            int[] y = new int[rows.length];
            System.arraycopy(tRaw, 0, rows, 0, nt);
            System.arraycopy(sRaw, 0, rows, nt, sRaw.length);
            System.arraycopy(target.classIndices(), 0, y, 0, nt);
            System.arraycopy(src.classIndices(), 0, y, nt, sRaw.length);
            Dataset pooled = Dataset.of(target.name(), rows, y, target.classNames());
            double[][] xt = std == null ? tRaw : std.apply(tRaw);
            double[][] xs = std == null ? sRaw : std.apply(sRaw);
            return new Domains(target, src, pooled, std, xt, target.classIndices(), xs, src.classIndices());
        }
    }

    /** One selection and fit. */
    private static final class Run {
        private final Domains dom;
        private final TrainParams params;
        private final Progress progress;
        private final int threads;
        private final int g;
        private final int[][] folds;
        private final int maxDims;

        Run(Domains dom, TrainParams params, Progress progress, int threads) {
            this.dom = dom;
            this.params = params;
            this.progress = progress;
            this.threads = threads;
            this.g = dom.target().numClasses();
            int nt = dom.xt().length;
            if (nt < 2) {
                throw new IllegalArgumentException(
                        dom.target().name() + " has " + nt + " target series; cross-validation needs at least 2");
            }
            CvScheme cv = params.cv().orElse(CvScheme.auto(nt));
            this.folds = Trainer.folds(cv, dom.yt(), g, params.seed());
            int largestTest = Arrays.stream(folds).mapToInt(f -> f.length).max().orElse(1);
            int d = dom.target().length();
            // Transfer LDG works in the span of the pooled centred rows: its rank (Ldg.spanRank, as the fit decides it)
            // caps ℓ, not d alone (z-normalised series have rank d − 1).
            double[][] pooled = new double[nt + dom.xs().length][];
            System.arraycopy(dom.xt(), 0, pooled, 0, nt);
            System.arraycopy(dom.xs(), 0, pooled, nt, dom.xs().length);
            int rank = Ldg.spanRank(pooled);
            this.maxDims = Math.max(1, Math.min(rank, nt - largestTest + dom.xs().length - 1));
        }

        Result fit(Instant created) {
            GridScores kScores = chooseNeighbors();
            int k = (int) kScores.chosen();
            int gammaDims = params.dims().isPresent() ? params.dims().getAsInt() : Math.min(g + EXTRA_DIMS, maxDims);
            int[] dimsCand =
                    params.dims().isPresent() ? new int[] {params.dims().getAsInt()} : Grids.dimsCandidates(g, maxDims);
            GridScores alphaScores;
            double alphaGamma = params.gamma().orElse(ALPHA_GAMMA);
            if (params.alpha().isPresent()) {
                alphaScores = GridScores.user(params.alpha().getAsDouble(), false);
            } else {
                double[] acc = new double[ALPHA_GRID.length];
                for (int a = 0; a < ALPHA_GRID.length; a++) {
                    acc[a] = score(k, ALPHA_GRID[a], alphaGamma, new int[] {gammaDims})[0];
                }
                int best = Grids.argmaxPreferFirst(acc);
                alphaScores = GridScores.searched(ALPHA_GRID, acc, ALPHA_GRID[best]);
            }
            double alpha = alphaScores.chosen();
            int[] scored = IntStream.concat(Arrays.stream(dimsCand), IntStream.of(gammaDims))
                    .distinct()
                    .sorted()
                    .toArray();
            double[] gammas =
                    params.gamma().isPresent() ? new double[] {params.gamma().getAsDouble()} : GAMMA_GRID;
            double[][] acc = new double[gammas.length][];
            for (int i = 0; i < gammas.length; i++) {
                acc[i] = score(k, alpha, gammas[i], scored);
            }
            int gammaCol = Grids.indexOf(scored, gammaDims);
            double[] gammaAcc = new double[gammas.length];
            for (int i = 0; i < gammas.length; i++) {
                gammaAcc[i] = acc[i][gammaCol];
            }
            int gi = params.gamma().isPresent() ? 0 : Grids.argmaxPreferLast(gammaAcc);
            double gamma = gammas[gi];
            GridScores gammaScores = params.gamma().isPresent()
                    ? GridScores.user(gamma, false, gammaAcc[0])
                    : GridScores.searched(gammas, gammaAcc, gamma);
            double[] dimsAcc = new double[dimsCand.length];
            for (int j = 0; j < dimsCand.length; j++) {
                dimsAcc[j] = acc[gi][Grids.indexOf(scored, dimsCand[j])];
            }
            int dims = params.dims().isPresent() ? dimsCand[0] : dimsCand[Grids.argmaxPreferFirst(dimsAcc)];
            GridScores dimsScores = params.dims().isPresent()
                    ? GridScores.user(dims, true, dimsAcc[0])
                    : GridScores.searched(dimsCand, dimsAcc, dims);
            TransferLdg.Params tp = new TransferLdg.Params(k, alpha, gamma);
            LdgBasis basis = TransferLdg.fit(dom.xt(), dom.yt(), dom.xs(), dom.ys(), g, tp);
            if (dims > basis.rank()) {
                throw new IllegalArgumentException("ℓ = " + dims + " exceeds the transfer LDG rank " + basis.rank()
                        + " of " + dom.xt().length + " target and " + dom.xs().length + " source series");
            }
            GridScores qdaScores = chooseQdaNeighbors(tp, dims);
            progress.step();
            return new Result(
                    assemble(
                            created,
                            basis,
                            k,
                            kScores,
                            alphaScores,
                            gammaScores,
                            dims,
                            dimsScores,
                            gammaDims,
                            qdaScores,
                            acc[gi][Grids.indexOf(scored, dims)]),
                    dom.pooled());
        }

        /** The LDG neighbour count: fixed, or by 5-fold local-QDA CV on both domains' input data (thesis §3.4). */
        private GridScores chooseNeighbors() {
            if (params.neighbors().isPresent()) {
                return GridScores.user(params.neighbors().getAsInt(), true);
            }
            double[][] x = concat(dom.xt(), dom.xs());
            int[] y = dom.pooled().classIndices();
            int maxClass = Arrays.stream(dom.source().classCounts()).max().orElse(1);
            int[] grid = Grids.capGrid(params.kGrid().toArray(), maxClass);
            int[][] f = Trainer.folds(params.neighborCv(), y, g, params.seed());
            progress.extendBy(f.length);
            double[] acc = LocalQdaCrossValidation.accuracy(x, y, g, grid, f, progress);
            int best = grid[Grids.argmaxPreferLast(acc)];
            return GridScores.searched(grid, acc, best);
        }

        /**
         * 3-NN accuracy on the held-out target series for each ℓ of {@code dims}: NaN for an ℓ above what every fold
         * can supply, or above some fold's rank (not scored, as in {@link LdgCrossValidation}).
         */
        private double[] score(int k, double alpha, double gamma, int[] dims) {
            TransferLdg.Params tp = new TransferLdg.Params(k, alpha, gamma);
            progress.extendBy(folds.length);
            List<int[]> perFold = Parallel.map(Arrays.asList(folds), threads, "transfer LDG folds", test -> {
                int[] correct = new int[dims.length];
                FoldFit f = foldFit(test, tp);
                for (int j = 0; j < dims.length; j++) {
                    if (dims[j] > f.basis.rank()) {
                        correct[j] = -1;
                        continue;
                    }
                    int l = dims[j];
                    Knn knn = Knn.fit(f.basis.project(f.reference, l), f.referenceY, g);
                    double[] q = new double[l];
                    for (int i : test) {
                        f.basis.project(dom.xt()[i], l, q);
                        if (knn.predict(q, Trainer.KNN_K) == dom.yt()[i]) {
                            correct[j]++;
                        }
                    }
                }
                progress.step();
                return correct;
            });
            double[] acc = new double[dims.length];
            for (int j = 0; j < dims.length; j++) {
                int c = 0;
                boolean scored = dims[j] <= maxDims;
                for (int[] r : perFold) {
                    scored &= r[j] >= 0;
                    c += r[j];
                }
                acc[j] = scored ? (double) c / dom.xt().length : Double.NaN;
            }
            return acc;
        }

        /** Local QDA's k in LDG space by the same target folds. */
        private GridScores chooseQdaNeighbors(TransferLdg.Params tp, int dims) {
            if (params.qdaNeighbors().isPresent()) {
                return GridScores.user(params.qdaNeighbors().getAsInt(), true);
            }
            int maxClass = Arrays.stream(dom.pooled().classCounts()).max().orElse(1);
            int[] ks = Grids.capGrid(params.kGrid().toArray(), maxClass);
            int maxK = ks[ks.length - 1];
            progress.extendBy(folds.length);
            List<int[]> perFold = Parallel.map(Arrays.asList(folds), threads, "transfer LDG folds", test -> {
                FoldFit f = foldFit(test, tp);
                int l = Math.min(dims, f.basis.rank());
                LocalQda qda = LocalQda.fit(f.basis.project(f.reference, l), f.referenceY, g, maxK);
                LocalQda.Workspace ws = qda.newWorkspace();
                int[] pred = new int[ks.length];
                int[] correct = new int[ks.length];
                double[] q = new double[l];
                for (int i : test) {
                    f.basis.project(dom.xt()[i], l, q);
                    qda.predictEachK(q, ks, pred, ws);
                    for (int c = 0; c < ks.length; c++) {
                        if (pred[c] == dom.yt()[i]) {
                            correct[c]++;
                        }
                    }
                }
                progress.step();
                return correct;
            });
            double[] acc = new double[ks.length];
            for (int[] r : perFold) {
                for (int c = 0; c < ks.length; c++) {
                    acc[c] += r[c];
                }
            }
            for (int c = 0; c < ks.length; c++) {
                acc[c] /= dom.xt().length;
            }
            int k = ks[Grids.argmaxPreferLast(acc)];
            return GridScores.searched(ks, acc, k);
        }

        /** A fold's map (its target training part and every source series) and its 3-NN reference set. */
        private record FoldFit(LdgBasis basis, double[][] reference, int[] referenceY) {}

        private FoldFit foldFit(int[] test, TransferLdg.Params tp) {
            int[] train = Folds.complement(test, dom.xt().length);
            double[][] xt = Folds.rows(dom.xt(), train);
            int[] yt = Folds.labels(dom.yt(), train);
            LdgBasis basis = TransferLdg.fit(xt, yt, dom.xs(), dom.ys(), g, tp);
            int[] y = new int[xt.length + dom.ys().length];
            System.arraycopy(yt, 0, y, 0, yt.length);
            System.arraycopy(dom.ys(), 0, y, yt.length, dom.ys().length);
            return new FoldFit(basis, concat(xt, dom.xs()), y);
        }

        private VigilModel assemble(
                Instant created,
                LdgBasis basis,
                int k,
                GridScores kScores,
                GridScores alphaScores,
                GridScores gammaScores,
                int dims,
                GridScores dimsScores,
                int gammaDims,
                GridScores qdaScores,
                double cvAccuracy) {
            Dataset pooled = dom.pooled();
            int[] counts = pooled.classCounts();
            double[] priors = new double[g];
            for (int c = 0; c < g; c++) {
                priors[c] = (double) counts[c] / pooled.size();
            }
            TransferSource ts = new TransferSource(
                    alphaScores.chosen(),
                    alphaScores,
                    dom.source().name(),
                    dom.xs().length,
                    DataFingerprint.of(dom.source()),
                    dom.xt().length);
            CvScheme cv = params.cv().orElse(CvScheme.auto(dom.xt().length));
            return VigilModel.builder()
                    .ldg(k, gammaScores.chosen(), dims, basis.eigenvalues(), basis.basis(dims))
                    .transfer(ts)
                    .vigilVersion(VigilModel.runtimeVersion())
                    .created(created)
                    .datasetName(pooled.name())
                    .classNames(pooled.classNames())
                    .length(pooled.length())
                    .trainSize(pooled.size())
                    .classCounts(pooled.classCounts())
                    .fingerprint(DataFingerprint.of(pooled))
                    .seed(params.seed())
                    .standardizer(dom.standardizer())
                    .trainingPoints(basis.project(concat(dom.xt(), dom.xs()), dims), pooled.classIndices())
                    .priors(priors)
                    .qdaNeighbors((int) qdaScores.chosen())
                    .selection(new SelectionReport(
                            cv,
                            NeighborSelection.LOCAL_QDA.cliName(),
                            params.neighborCv(),
                            gammaDims,
                            kScores,
                            gammaScores,
                            dimsScores,
                            qdaScores,
                            cvAccuracy))
                    .build();
        }
    }

    private static double[][] concat(double[][] a, double[][] b) {
        List<double[]> out = new ArrayList<>(a.length + b.length);
        out.addAll(Arrays.asList(a));
        out.addAll(Arrays.asList(b));
        return out.toArray(new double[0][]);
    }
}
