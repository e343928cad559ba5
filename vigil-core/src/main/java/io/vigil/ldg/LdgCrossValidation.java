package io.vigil.ldg;

import io.vigil.classify.Knn;
import io.vigil.data.Folds;
import io.vigil.util.Parallel;
import io.vigil.util.Progress;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Cross-validated accuracy of a classifier on LDG projections over a grid of γ and ℓ, refitting LDG on
 * the training part of every fold (thesis §3.4–3.5: γ and ℓ by leave-one-out 3-NN). Refitting matters:
 * fitting B once on all points and then scoring left-out points is optimistic (docs/method.md §1,
 * pitfalls). The result equals, fold by fold, {@link Ldg#fit} on the fold's training rows followed by
 * projecting both parts — only cheaper:
 *
 * <ul>
 *   <li>the n×n distance matrix and every point's sorted neighbour order are computed once; a fold's
 *       neighbour sets are read off them by skipping the held-out points (same distances, same tie
 *       rule, hence the same sets as a fresh fit);
 *   <li>the n×n Gram matrix of the globally centred rows (kernel form) or the d×d scatter (primal form) is
 *       computed once; a fold double-centres its block of the Gram matrix (O(m²)) or downdates the
 *       scatter by its held-out rows (O(|T|d²)) instead of touching all n·d values again;
 *   <li>per fold, the span factorisation and V<sub>r</sub>, A<sub>r</sub> are computed once and shared by
 *       every γ; per (fold, γ) one r×r symmetric eigenproblem serves every ℓ (nested bases), and only its
 *       max ℓ smallest eigenvectors are computed ({@link PartialEigen}, checked, with a full-QR fallback);
 *   <li>folds run on a fixed-size thread pool; each fold writes its own counts and they are summed in
 *       fold order, so results do not depend on scheduling.
 * </ul>
 *
 * <p>Differences from a fresh fit are rounding only: the kernel path projects held-out points through
 * Gram entries (B is never formed in d dimensions) and skips the final re-orthonormalisation of
 * {@link Ldg#fit}. A requested ℓ larger than a fold's rank r (the dimension of its centred data span) is not
 * scored: its accuracy is NaN, since a fresh fit on that fold could not supply ℓ directions and scoring it with r
 * would report the r-dimensional accuracy under another ℓ ({@link AboveRank}).
 */
public final class LdgCrossValidation {
    private LdgCrossValidation() {}

    /** What a fold does with a requested ℓ above its rank r. */
    public enum AboveRank {
        /** Not scored: the accuracy of that ℓ (every γ) is NaN. The default, and what selecting ℓ needs. */
        UNSCORED,
        /**
         * Scored with the fold's r directions, for callers that score a classifier at one fixed ℓ whose folds may
         * fall short of it (e.g. local QDA's k in LDG space).
         */
        ALL_DIRECTIONS
    }

    /**
     * Scores one fold at one γ. Implementations must be thread-safe (folds run concurrently) and
     * deterministic.
     */
    @FunctionalInterface
    public interface FoldScorer {
        /**
         * Counts correctly classified held-out points for each requested dimensionality.
         *
         * @param train the fold's training points projected on its LDG basis, m×L (L = max ℓ, capped at the
         *     fold's rank); column c is the c-th direction in ascending eigenvalue order, so the first ℓ
         *     columns are the ℓ-dimensional projection
         * @param trainY their classes
         * @param test held-out points projected the same way, t×L
         * @param testY their true classes
         * @param dims the requested ℓ's, each at most L
         * @param correct output: correct[c] = number of held-out points classified correctly at dims[c]
         */
        void score(double[][] train, int[] trainY, double[][] test, int[] testY, int[] dims, int[] correct);
    }

    /**
     * Leave-out accuracy of k-NN (Euclidean, rules of {@link Knn}) on LDG projections for every γ and ℓ,
     * pooled over folds (correct / n held out in total). Uses up to
     * {@code Runtime.availableProcessors()} threads.
     *
     * @param x n×d rows (not modified)
     * @param neighbors LDG's k for the local Gaussians
     * @param gammas γ values, each in [0, 1]
     * @param dims ℓ values ≥ 1 (NaN accuracy for one above some fold's rank)
     * @param knnK k of the scoring k-NN (3 in the thesis)
     * @param testFolds held-out indices per fold, e.g. {@link Folds#leaveOneOut} or
     *     {@link Folds#stratifiedKFold}; must be disjoint
     * @return accuracy[γ index][ℓ index]
     */
    public static double[][] knnAccuracy(
            double[][] x,
            int[] y,
            int numClasses,
            int neighbors,
            double[] gammas,
            int[] dims,
            int knnK,
            int[][] testFolds,
            Progress progress) {
        return accuracy(
                x,
                y,
                numClasses,
                neighbors,
                gammas,
                dims,
                testFolds,
                knnScorer(numClasses, knnK),
                Runtime.getRuntime().availableProcessors(),
                progress);
    }

    /** A {@link FoldScorer} classifying by k-NN on the first ℓ coordinates. */
    public static FoldScorer knnScorer(int numClasses, int knnK) {
        if (knnK < 1) {
            throw new IllegalArgumentException("knnK must be >= 1, got " + knnK);
        }
        return (train, trainY, test, testY, dims, correct) -> {
            for (int c = 0; c < dims.length; c++) {
                int l = dims[c];
                Knn knn = Knn.fit(leading(train, l), trainY, numClasses);
                double[] q = new double[l];
                int ok = 0;
                for (int i = 0; i < test.length; i++) {
                    System.arraycopy(test[i], 0, q, 0, l);
                    if (knn.predict(q, knnK) == testY[i]) {
                        ok++;
                    }
                }
                correct[c] = ok;
            }
        };
    }

    private static double[][] leading(double[][] rows, int l) {
        double[][] out = new double[rows.length][l];
        for (int i = 0; i < rows.length; i++) {
            System.arraycopy(rows[i], 0, out[i], 0, l);
        }
        return out;
    }

    /**
     * Pooled accuracy of any fold scorer on LDG projections for every γ and ℓ.
     *
     * @param threads worker threads ≥ 1 (results do not depend on it)
     * @return accuracy[γ index][ℓ index] = Σ correct / Σ held-out sizes; NaN for an ℓ above some fold's rank
     * @throws IllegalArgumentException on shape errors, overlapping folds, or a fold whose training part
     *     has fewer than 2 points
     */
    public static double[][] accuracy(
            double[][] x,
            int[] y,
            int numClasses,
            int neighbors,
            double[] gammas,
            int[] dims,
            int[][] testFolds,
            FoldScorer scorer,
            int threads,
            Progress progress) {
        return accuracy(x, y, numClasses, neighbors, null, gammas, dims, testFolds, scorer, threads, progress);
    }

    /**
     * As {@link #accuracy(double[][], int[], int, int, double[], int[], int[][], FoldScorer, int, Progress)} for kernel
     * LDG ({@link KernelLdgMap}) when {@code kernel} is not null: the kernel matrix replaces the Gram matrix of the
     * kernel form, every fold double-centres its block of it and maps its held-out rows exactly as {@link
     * KernelLdgMap#project} would.
     */
    public static double[][] accuracy(
            double[][] x,
            int[] y,
            int numClasses,
            int neighbors,
            KernelFunction kernel,
            double[] gammas,
            int[] dims,
            int[][] testFolds,
            FoldScorer scorer,
            int threads,
            Progress progress) {
        return accuracy(
                x,
                y,
                numClasses,
                neighbors,
                kernel,
                gammas,
                dims,
                testFolds,
                scorer,
                AboveRank.UNSCORED,
                threads,
                progress);
    }

    /** As above, with what a fold does with an ℓ above its rank. */
    public static double[][] accuracy(
            double[][] x,
            int[] y,
            int numClasses,
            int neighbors,
            KernelFunction kernel,
            double[] gammas,
            int[] dims,
            int[][] testFolds,
            FoldScorer scorer,
            AboveRank aboveRank,
            int threads,
            Progress progress) {
        Objects.requireNonNull(scorer, "scorer");
        Objects.requireNonNull(aboveRank, "aboveRank");
        Objects.requireNonNull(progress, "progress");
        int d = Ldg.checkTrainingSet(x, y, numClasses);
        int n = x.length;
        new LdgParams(neighbors, 0.0);
        for (double g : gammas) {
            new LdgParams(neighbors, g);
        }
        if (gammas.length == 0 || dims.length == 0) {
            throw new IllegalArgumentException(
                    "need at least one γ and one ℓ, got " + gammas.length + " and " + dims.length);
        }
        for (int l : dims) {
            if (l < 1) {
                throw new IllegalArgumentException("every ℓ must be >= 1, got " + l);
            }
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        boolean[] held = new boolean[n];
        int heldOut = 0;
        for (int[] fold : testFolds) {
            for (int i : fold) {
                if (i < 0 || i >= n) {
                    throw new IllegalArgumentException("fold index " + i + " is outside 0.." + (n - 1));
                }
                if (held[i]) {
                    throw new IllegalArgumentException("point " + i + " is held out by two folds");
                }
                held[i] = true;
                heldOut++;
            }
            if (n - fold.length < 2) {
                throw new IllegalArgumentException(
                        "a fold holds out " + fold.length + " of " + n + " points, leaving fewer than 2 to train on");
            }
        }
        if (heldOut == 0) {
            throw new IllegalArgumentException("the folds hold out no point");
        }
        Shared shared = new Shared(x, y, numClasses, neighbors, d, testFolds, kernel);
        List<int[][]> perFold = Parallel.map(
                Arrays.asList(testFolds),
                threads,
                "cross-validation",
                fold -> shared.runFold(fold, gammas, dims, scorer, aboveRank, progress));
        double[][] accuracy = new double[gammas.length][dims.length];
        for (int g = 0; g < gammas.length; g++) {
            for (int c = 0; c < dims.length; c++) {
                long correct = 0;
                boolean scored = true;
                for (int[][] fold : perFold) {
                    scored &= fold[g][c] >= 0;
                    correct += fold[g][c];
                }
                accuracy[g][c] = scored ? (double) correct / heldOut : Double.NaN;
            }
        }
        return accuracy;
    }

    /** Work shared by all folds, computed once. */
    private static final class Shared {
        private final int[] y;
        private final int numClasses;
        private final int neighbors;
        private final int n;
        private final int d;
        private final double[][] xg;
        private final int[][] orders;
        private final DMatrixRMaj gram;
        private final DMatrixRMaj scatter;

        /** Whether folds use the kernel form: always for kernel LDG, by {@link Ldg#formFor} for linear LDG. */
        private final boolean kernelLdg;

        Shared(double[][] x, int[] y, int numClasses, int neighbors, int d, int[][] folds, KernelFunction kernel) {
            this.y = y;
            this.numClasses = numClasses;
            this.neighbors = neighbors;
            this.n = x.length;
            this.d = d;
            this.kernelLdg = kernel != null;
            this.orders = NeighborSets.sortedOrders(NeighborSets.distances(x));
            if (kernelLdg) {
                this.xg = null;
                this.gram = new DMatrixRMaj(KernelFunction.matrix(x, kernel));
                this.scatter = null;
                return;
            }
            this.xg = Ldg.centred(x, Ldg.mean(x));
            boolean anyKernel = false;
            boolean anyPrimal = false;
            for (int[] fold : folds) {
                if (Ldg.formFor(n - fold.length, d) == Ldg.Form.KERNEL) {
                    anyKernel = true;
                } else {
                    anyPrimal = true;
                }
            }
            this.gram = anyKernel ? Ldg.gram(xg) : null;
            if (anyPrimal) {
                DMatrixRMaj xm = new DMatrixRMaj(xg);
                this.scatter = new DMatrixRMaj(d, d);
                CommonOps_DDRM.multTransA(xm, xm, scatter);
            } else {
                this.scatter = null;
            }
        }

        /** Correct counts [γ][ℓ] of one fold; −1 for an ℓ above its rank under {@link AboveRank#UNSCORED}. */
        int[][] runFold(
                int[] test, double[] gammas, int[] dims, FoldScorer scorer, AboveRank aboveRank, Progress progress) {
            int[] train = Folds.complement(test, n);
            int m = train.length;
            int[] toLocal = new int[n];
            Arrays.fill(toLocal, -1);
            int[] trainY = new int[m];
            for (int i = 0; i < m; i++) {
                toLocal[train[i]] = i;
                trainY[i] = y[train[i]];
            }
            int[] testY = Folds.labels(y, test);
            NeighborSets ns = NeighborSets.build(trainY, numClasses, neighbors, i -> orders[train[i]], toLocal);
            DMatrixRMaj trainCoords;
            DMatrixRMaj testCoords;
            if (kernelLdg || Ldg.formFor(m, d) == Ldg.Form.KERNEL) {
                DMatrixRMaj k = new DMatrixRMaj(m, m);
                for (int a = 0; a < m; a++) {
                    for (int b = 0; b < m; b++) {
                        k.data[a * m + b] = gram.data[train[a] * n + train[b]];
                    }
                }
                Spans.doubleCentre(k);
                Spans.KernelSpan span = Spans.kernel(k);
                trainCoords = span.coordinates();
                testCoords = kernelTestCoordinates(span, train, test);
            } else {
                double[][] rows = primalFoldRows(train, test);
                DMatrixRMaj foldScatter = primalFoldScatter(train, test);
                DMatrixRMaj u = Spans.primal(foldScatter);
                DMatrixRMaj all = new DMatrixRMaj(rows);
                DMatrixRMaj coords = all;
                if (u != null) {
                    coords = new DMatrixRMaj(rows.length, u.numCols);
                    CommonOps_DDRM.mult(all, u, coords);
                }
                trainCoords = CommonOps_DDRM.extract(coords, 0, m, 0, coords.numCols);
                testCoords = CommonOps_DDRM.extract(coords, m, rows.length, 0, coords.numCols);
            }
            int r = trainCoords.numCols;
            SpanProblem problem = SpanProblem.of(trainCoords, ns);
            boolean all = aboveRank == AboveRank.ALL_DIRECTIONS;
            int[] scored = Arrays.stream(dims)
                    .filter(l -> all || l <= r)
                    .map(l -> Math.min(l, r))
                    .toArray();
            int maxDims = Math.max(1, Arrays.stream(scored).max().orElse(1));
            int[][] correct = new int[gammas.length][dims.length];
            for (int g = 0; g < gammas.length; g++) {
                Arrays.fill(correct[g], -1);
                if (scored.length > 0) {
                    DMatrixRMaj lead = problem.solveSmallest(gammas[g], maxDims).vectors();
                    double[][] trainProj = toRows(multiply(trainCoords, lead));
                    double[][] testProj = toRows(multiply(testCoords, lead));
                    int[] counts = new int[scored.length];
                    scorer.score(trainProj, trainY, testProj, testY, scored, counts);
                    for (int c = 0, j = 0; c < dims.length; c++) {
                        if (all || dims[c] <= r) {
                            correct[g][c] = counts[j++];
                        }
                    }
                }
                progress.step();
            }
            return correct;
        }

        /**
         * Held-out coordinates in the fold's kernel basis U = X<sub>c,S</sub>ᵀWS⁻¹: S⁻¹Wᵀv(q) with
         * v(q)<sub>a</sub> = (x<sub>a</sub> − m<sub>S</sub>)ᵀ(x<sub>q</sub> − m<sub>S</sub>) — the Gram column of q
         * double-centred over the training block exactly as K was, so that for a training point it is its
         * column of K and the coordinates agree with Y = WS.
         */
        private DMatrixRMaj kernelTestCoordinates(Spans.KernelSpan span, int[] train, int[] test) {
            int m = train.length;
            int r = span.rank();
            double[] rowMean = new double[m];
            double total = 0;
            for (int a = 0; a < m; a++) {
                double s = 0;
                int off = train[a] * n;
                for (int b = 0; b < m; b++) {
                    s += gram.data[off + train[b]];
                }
                rowMean[a] = s / m;
                total += rowMean[a];
            }
            total /= m;
            DMatrixRMaj v = new DMatrixRMaj(test.length, m);
            for (int t = 0; t < test.length; t++) {
                int q = test[t];
                double colMean = 0;
                for (int a = 0; a < m; a++) {
                    colMean += gram.data[train[a] * n + q];
                }
                colMean /= m;
                for (int a = 0; a < m; a++) {
                    v.data[t * m + a] = gram.data[train[a] * n + q] - colMean - rowMean[a] + total;
                }
            }
            DMatrixRMaj coords = new DMatrixRMaj(test.length, r);
            CommonOps_DDRM.mult(v, span.w(), coords);
            for (int t = 0; t < test.length; t++) {
                for (int c = 0; c < r; c++) {
                    coords.data[t * r + c] /= span.sigma()[c];
                }
            }
            return coords;
        }

        /** Training rows then held-out rows, all shifted by the training mean (rows x − m<sub>S</sub>). */
        private double[][] primalFoldRows(int[] train, int[] test) {
            double[] shift = new double[d];
            for (int i : train) {
                Kernels.axpy(1.0, xg[i], shift, d);
            }
            for (int t = 0; t < d; t++) {
                shift[t] /= train.length;
            }
            double[][] rows = new double[train.length + test.length][d];
            for (int a = 0; a < rows.length; a++) {
                double[] src = xg[a < train.length ? train[a] : test[a - train.length]];
                for (int t = 0; t < d; t++) {
                    rows[a][t] = src[t] - shift[t];
                }
            }
            return rows;
        }

        /**
         * Σ<sub>i∈S</sub>(x̃<sub>i</sub> − δ)(x̃<sub>i</sub> − δ)ᵀ = C − Σ<sub>i∈T</sub>x̃<sub>i</sub>x̃<sub>i</sub>ᵀ − mδδᵀ, from the
         * full scatter C of the globally centred rows x̃ (δ = training mean of x̃).
         */
        private DMatrixRMaj primalFoldScatter(int[] train, int[] test) {
            DMatrixRMaj c = scatter.copy();
            double[] a = c.data;
            double[] delta = new double[d];
            for (int i : train) {
                Kernels.axpy(1.0, xg[i], delta, d);
            }
            for (int t = 0; t < d; t++) {
                delta[t] /= train.length;
            }
            for (int q : test) {
                double[] row = xg[q];
                for (int s = 0; s < d; s++) {
                    double rs = row[s];
                    int off = s * d;
                    for (int t = 0; t < d; t++) {
                        a[off + t] -= rs * row[t];
                    }
                }
            }
            int m = train.length;
            for (int s = 0; s < d; s++) {
                double ms = m * delta[s];
                int off = s * d;
                for (int t = 0; t < d; t++) {
                    a[off + t] -= ms * delta[t];
                }
            }
            Kernels.symmetrize(c);
            return c;
        }
    }

    private static DMatrixRMaj multiply(DMatrixRMaj a, DMatrixRMaj b) {
        DMatrixRMaj out = new DMatrixRMaj(a.numRows, b.numCols);
        CommonOps_DDRM.mult(a, b, out);
        return out;
    }

    private static double[][] toRows(DMatrixRMaj m) {
        double[][] rows = new double[m.numRows][m.numCols];
        for (int i = 0; i < m.numRows; i++) {
            System.arraycopy(m.data, i * m.numCols, rows[i], 0, m.numCols);
        }
        return rows;
    }
}
