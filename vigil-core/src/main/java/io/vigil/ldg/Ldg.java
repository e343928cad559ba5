package io.vigil.ldg;

import java.util.Objects;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * Local discriminative Gaussian (LDG) dimensionality reduction (thesis ch. 3): finds B ∈ ℝ<sup>d×ℓ</sup>,
 * BᵀB = I, minimising tr(Bᵀ(V − γA)B) (eq. 3.12), whose solution is the eigenvectors of V − γA with the
 * smallest eigenvalues (Prop. 1). Here, for training point x<sub>i</sub> and class j,
 * μ<sub>i,j</sub> is the mean of the k nearest class-j training points (see {@link NeighborSets} for the
 * exact rules), Δ<sub>i,j</sub> = x<sub>i</sub> − μ<sub>i,j</sub>, V = Σ<sub>i</sub> Δ<sub>i,g_i</sub>Δ<sub>i,g_i</sub>ᵀ
 * (3.9) and A = Σ<sub>i</sub>Σ<sub>j</sub> p<sub>j</sub>Δ<sub>i,j</sub>Δ<sub>i,j</sub>ᵀ with p<sub>j</sub> = n<sub>j</sub>/n (3.10).
 *
 * <p>Both forms centre the data and work inside its span (docs/method.md §1). The <b>kernel form</b>
 * (§3.3.2, §3.5.1), used when n ≤ d, eigendecomposes the n×n centred Gram matrix K = X<sub>c</sub>X<sub>c</sub>ᵀ
 * = W S² Wᵀ, solves the symmetric r×r problem S Wᵀ(L<sub>V</sub> − γL<sub>A</sub>)W S (block forms 3.24–3.25)
 * and maps back B = X<sub>c</sub>ᵀ W S⁻¹ u; it never allocates a d×d matrix (memory O(nd + n²)). The
 * <b>primal form</b>, used when n &gt; d, eigendecomposes the d×d matrix V − γA directly (restricted to
 * the data span only if the data are rank deficient). Centring does not change V or A (the Δ's are
 * differences) but removes the spurious zero-eigenvalue direction an uncentred K would add.
 *
 * <p>One decomposition serves every ℓ: {@link LdgBasis#basis(int)} columns are nested. Output is
 * deterministic: each eigenvector's sign is fixed so its largest-magnitude component is positive, and
 * all sums run in a fixed order, so the same input gives the same bytes.
 */
public final class Ldg {
    /** Which side of the thin factorisation to decompose. */
    public enum Form {
        /** Kernel form when n ≤ d, primal otherwise ({@link #formFor}). */
        AUTO,
        /** n×n kernel form (3.29 via the symmetric factorisation); memory O(nd + n²). */
        KERNEL,
        /** d×d primal form (3.12); memory O(nd + d²). */
        PRIMAL
    }

    /** Columns per task in the parallel forward substitution of {@link #reorthonormalize} (fits in L1/L2). */
    private static final int SUBSTITUTION_BLOCK = 512;

    private Ldg() {}

    /**
     * The form {@link Form#AUTO} picks: kernel when n ≤ d (the centred data then have rank ≤ n − 1 &lt; d, so
     * the n×n problem is both smaller and free of null-space directions), primal otherwise.
     */
    public static Form formFor(int n, int d) {
        return n <= d ? Form.KERNEL : Form.PRIMAL;
    }

    /**
     * Fits LDG on rows {@code x} with the form chosen by {@link #formFor}.
     *
     * @param x n×d training rows (n ≥ 2, d ≥ 1, finite); not modified
     * @param y class index of each row, in 0..numClasses−1
     * @param numClasses G ≥ 1 (classes absent from y are allowed and get prior 0)
     * @return all r available directions (r = rank of the centred data), eigenvalues ascending
     * @throws IllegalArgumentException on shape/label errors or when the rows span no direction
     * @throws IllegalStateException if an eigendecomposition fails to converge
     */
    public static LdgBasis fit(double[][] x, int[] y, int numClasses, LdgParams params) {
        return fit(x, y, numClasses, params, Form.AUTO);
    }

    /** As {@link #fit(double[][], int[], int, LdgParams)} with an explicit form (for tests and benchmarks). */
    public static LdgBasis fit(double[][] x, int[] y, int numClasses, LdgParams params, Form form) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(form, "form");
        int d = checkTrainingSet(x, y, numClasses);
        NeighborSets ns = NeighborSets.fromRows(x, y, numClasses, params.neighbors());
        return fitOnSpan(x, d, form, coords -> SpanProblem.of(coords, ns).solve(params.gamma()));
    }

    /**
     * The d×d LDG matrix Z = V − γA of eq. (3.12) in the primal coordinates, from the same neighbour sets and the
     * same V/A assembly as {@link #fit} (for methods that need Z itself, e.g. {@link SparseLdg}). Memory O(nd + d²).
     * Centring the rows first, as the primal form of {@link #fit} does, changes neither V nor A (both are built from
     * differences of rows).
     *
     * @throws IllegalArgumentException on shape/label errors (as {@link #fit})
     */
    static DMatrixRMaj ldgMatrix(double[][] x, int[] y, int numClasses, LdgParams params) {
        Objects.requireNonNull(params, "params");
        checkTrainingSet(x, y, numClasses);
        NeighborSets ns = NeighborSets.fromRows(x, y, numClasses, params.neighbors());
        DMatrixRMaj coords = new DMatrixRMaj(centred(x, mean(x)));
        return SpanProblem.of(coords, ns).matrix(params.gamma());
    }

    /**
     * The eigen solution of a problem posed on the coordinates of the rows in their (centred) span, mapped back to
     * ℝ<sup>d</sup>: kernel form (n×n Gram matrix) or primal form (d×d scatter) as {@link #formFor} or {@code form}
     * says. {@code solver} gets the n×r coordinates and returns all eigen-pairs of the r×r problem, ascending.
     */
    static LdgBasis fitOnSpan(
            double[][] x, int d, Form form, java.util.function.Function<DMatrixRMaj, Kernels.SortedEigen> solver) {
        int n = x.length;
        double[][] xc = centred(x, mean(x));
        Form chosen = form == Form.AUTO ? formFor(n, d) : form;
        double[][] bt;
        double[] eigenvalues;
        if (chosen == Form.KERNEL) {
            DMatrixRMaj k = gram(xc);
            Spans.doubleCentre(k);
            Spans.KernelSpan span = Spans.kernel(k);
            Kernels.SortedEigen e = solver.apply(span.coordinates());
            eigenvalues = e.values();
            bt = combineRows(span.coefficients(e.vectors()), xc);
            reorthonormalize(bt);
        } else {
            DMatrixRMaj xm = new DMatrixRMaj(xc);
            DMatrixRMaj scatter = new DMatrixRMaj(d, d);
            CommonOps_DDRM.multTransA(xm, xm, scatter);
            Kernels.symmetrize(scatter);
            DMatrixRMaj u = Spans.primal(scatter);
            DMatrixRMaj coords = xm;
            if (u != null) {
                coords = new DMatrixRMaj(n, u.numCols);
                CommonOps_DDRM.mult(xm, u, coords);
            }
            Kernels.SortedEigen e = solver.apply(coords);
            eigenvalues = e.values();
            DMatrixRMaj b = e.vectors();
            if (u != null) {
                b = new DMatrixRMaj(d, e.vectors().numCols);
                CommonOps_DDRM.mult(u, e.vectors(), b);
            }
            bt = transposeToRows(b);
        }
        fixSigns(bt);
        return new LdgBasis(bt, eigenvalues);
    }

    /**
     * The number of directions {@link #fit} can supply on {@code x}: the dimension of the span of the centred rows,
     * decided as the fit decides it (same form, same matrix, same relative threshold {@link Spans#RANK_RTOL}), so a
     * caller that caps ℓ by it never asks the fit for more. It is at most min(d, n − 1), and lower for rank-deficient
     * data, e.g. d − 1 for z-normalised series (each sums to 0, so every centred row is orthogonal to 1). One
     * eigenvalue decomposition of the n×n Gram matrix (n ≤ d) or the d×d scatter, without eigenvectors. Not an SVD of
     * the centred rows with a tolerance of its own: that could disagree with the fit for a singular value near the
     * threshold, and the fit's threshold ({@link Spans#RANK_RTOL}, σ/σ<sub>max</sub> &gt; 1e-5) already separates
     * exact null directions (σ²/σ²<sub>max</sub> at rounding level, ≈ 1e-16 for z-normalised series) by six orders.
     *
     * @param x n×d rows (n ≥ 1, d ≥ 1); not modified
     * @return the rank r ≥ 0 (0 when all rows coincide)
     */
    public static int spanRank(double[][] x) {
        Objects.requireNonNull(x, "x");
        if (x.length == 0 || x[0].length == 0) {
            throw new IllegalArgumentException("need at least one row and one column, got " + x.length + " rows");
        }
        int n = x.length;
        int d = x[0].length;
        double[][] xc = centred(x, mean(x));
        if (formFor(n, d) == Form.KERNEL) {
            DMatrixRMaj k = gram(xc);
            Spans.doubleCentre(k);
            return Spans.rankOf(k, "the " + n + "×" + n + " centred kernel matrix");
        }
        DMatrixRMaj xm = new DMatrixRMaj(xc);
        DMatrixRMaj scatter = new DMatrixRMaj(d, d);
        CommonOps_DDRM.multTransA(xm, xm, scatter);
        Kernels.symmetrize(scatter);
        return Spans.rankOf(scatter, "the " + d + "×" + d + " scatter matrix");
    }

    /** Validates a training set and returns d. Messages name both sizes. */
    static int checkTrainingSet(double[][] x, int[] y, int numClasses) {
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(y, "y");
        if (x.length != y.length) {
            throw new IllegalArgumentException("x has " + x.length + " rows but y has " + y.length + " class indices");
        }
        if (x.length < 2) {
            throw new IllegalArgumentException("LDG needs at least 2 training rows, got " + x.length);
        }
        if (numClasses < 1) {
            throw new IllegalArgumentException("numClasses must be >= 1, got " + numClasses);
        }
        int d = x[0].length;
        if (d == 0) {
            throw new IllegalArgumentException("training rows have 0 features");
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != d) {
                throw new IllegalArgumentException("row " + i + " has " + x[i].length + " features but row 0 has " + d);
            }
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException("y[" + i + "] = " + y[i] + " is outside 0.." + (numClasses - 1)
                        + " (numClasses = " + numClasses + ")");
            }
            for (int t = 0; t < d; t++) {
                if (!Double.isFinite(x[i][t])) {
                    throw new IllegalArgumentException("x[" + i + "][" + t + "] = " + x[i][t] + " is not finite");
                }
            }
        }
        return d;
    }

    /** Column means with one correction pass (corrected two-pass algorithm). */
    static double[] mean(double[][] x) {
        int n = x.length;
        int d = x[0].length;
        double[] mean = new double[d];
        for (double[] row : x) {
            Kernels.axpy(1.0, row, mean, d);
        }
        for (int t = 0; t < d; t++) {
            mean[t] /= n;
        }
        double[] corr = new double[d];
        for (double[] row : x) {
            for (int t = 0; t < d; t++) {
                corr[t] += row[t] - mean[t];
            }
        }
        for (int t = 0; t < d; t++) {
            mean[t] += corr[t] / n;
        }
        return mean;
    }

    static double[][] centred(double[][] x, double[] mean) {
        int d = mean.length;
        double[][] xc = new double[x.length][d];
        for (int i = 0; i < x.length; i++) {
            for (int t = 0; t < d; t++) {
                xc[i][t] = x[i][t] - mean[t];
            }
        }
        return xc;
    }

    /** The n×n Gram matrix of the rows ({@link Kernels#pairwise}). */
    static DMatrixRMaj gram(double[][] rows) {
        return new DMatrixRMaj(Kernels.pairwise(rows, false));
    }

    /** Rows of Bᵀ = αᵀ X<sub>c</sub>: row c = Σ<sub>i</sub> α[i][c]·x<sub>c,i</sub> (axpy over d, no d×d). */
    static double[][] combineRows(DMatrixRMaj alpha, double[][] xc) {
        int m = alpha.numRows;
        int r = alpha.numCols;
        int d = xc[0].length;
        double[][] bt = new double[r][d];
        int chunks = (d + Kernels.CHUNK - 1) / Kernels.CHUNK;
        // Blocked over features so a chunk of all n rows stays in cache while every direction reads it.
        Kernels.forEach(chunks, (long) r * m * d, blk -> {
            int from = blk * Kernels.CHUNK;
            int to = Math.min(d, from + Kernels.CHUNK);
            for (int c = 0; c < r; c++) {
                double[] row = bt[c];
                for (int i = 0; i < m; i++) {
                    double a = alpha.data[i * r + c];
                    double[] src = xc[i];
                    for (int t = from; t < to; t++) {
                        row[t] += a * src[t];
                    }
                }
            }
        });
        return bt;
    }

    /**
     * One Cholesky QR pass on the rows of Bᵀ: G = BᵀB = L Lᵀ, Bᵀ ← L⁻¹Bᵀ. Row c then mixes only rows
     * ≤ c, so nesting in ℓ is kept. G is within ~2e-6 of I here (see {@link Spans#RANK_RTOL}), so one pass
     * restores orthonormality to rounding level.
     */
    static void reorthonormalize(double[][] bt) {
        int r = bt.length;
        int d = bt[0].length;
        double[][] l = Kernels.pairwise(bt, false);
        for (int c = 0; c < r; c++) {
            double diag = l[c][c];
            for (int j = 0; j < c; j++) {
                diag -= l[c][j] * l[c][j];
            }
            if (!(diag > 0)) {
                throw new IllegalStateException("re-orthonormalisation of the LDG basis failed at direction " + c
                        + " of " + r + " (Gram pivot " + diag + ")");
            }
            double lcc = Math.sqrt(diag);
            l[c][c] = lcc;
            for (int a = c + 1; a < r; a++) {
                double s = l[a][c];
                for (int j = 0; j < c; j++) {
                    s -= l[a][j] * l[c][j];
                }
                l[a][c] = s / lcc;
            }
        }
        // Forward substitution L·Bᵀ_new = Bᵀ_old, independently per block of columns (rows depend on
        // earlier rows, columns do not depend on each other).
        int blocks = (d + SUBSTITUTION_BLOCK - 1) / SUBSTITUTION_BLOCK;
        Kernels.forEach(blocks, (long) r * r * d / 2, blk -> {
            int from = blk * SUBSTITUTION_BLOCK;
            int to = Math.min(d, from + SUBSTITUTION_BLOCK);
            for (int c = 0; c < r; c++) {
                double[] row = bt[c];
                for (int j = 0; j < c; j++) {
                    double f = l[c][j];
                    double[] prev = bt[j];
                    for (int t = from; t < to; t++) {
                        row[t] -= f * prev[t];
                    }
                }
                double inv = 1.0 / l[c][c];
                for (int t = from; t < to; t++) {
                    row[t] *= inv;
                }
            }
        });
    }

    static double[][] transposeToRows(DMatrixRMaj b) {
        int d = b.numRows;
        int r = b.numCols;
        double[][] bt = new double[r][d];
        for (int i = 0; i < d; i++) {
            for (int c = 0; c < r; c++) {
                bt[c][i] = b.data[i * r + c];
            }
        }
        return bt;
    }

    /** Makes the largest-magnitude component of every direction positive (first one on exact ties). */
    static void fixSigns(double[][] bt) {
        for (double[] row : bt) {
            int arg = 0;
            for (int t = 1; t < row.length; t++) {
                if (Math.abs(row[t]) > Math.abs(row[arg])) {
                    arg = t;
                }
            }
            if (row[arg] < 0) {
                for (int t = 0; t < row.length; t++) {
                    row[t] = -row[t];
                }
            }
        }
    }
}
