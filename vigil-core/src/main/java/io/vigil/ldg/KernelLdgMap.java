package io.vigil.ldg;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * Kernel LDG (thesis §3.3.2): the non-linear map x ↦ Fᵀ k<sub>c</sub>(x), k<sub>c</sub>(x) the kernel values between x
 * and the n training rows, centred as the training kernel matrix was (eqs. 3.26–3.29).
 *
 * <p>Solved in the symmetric form the linear kernel path of {@link Ldg} uses: the double-centred K = W Λ Wᵀ gives the
 * training points coordinates Y = W Λ<sup>½</sup> in an orthonormal basis of their span in the feature space, the LDG
 * matrix V − γA is built on those coordinates with the neighbour sets of {@link NeighborSets} (nearest neighbours in
 * the input space, as the thesis's derivation keeps N<sub>sc</sub> and N<sub>j</sub>), and its smallest eigenvectors
 * U give F = W Λ<sup>−½</sup> U — the α of (3.29) restricted to the span, which excludes the irrelevant solutions of
 * (3.28). Immutable and thread-safe; {@link #project} reuses a per-thread buffer.
 */
public final class KernelLdgMap {
    private final KernelFunction kernel;
    private final double[][] rows;
    private final int n;
    private final int dims;
    /** F, n×ℓ row-major. */
    private final double[] coefficients;

    private final double[] eigenvalues;
    /** Mean of each row of the training kernel matrix, and the mean of those (the centring of k(x)). */
    private final double[] rowMeans;

    private final double total;
    /** Per-thread kernel values k(x_a, x) of the series being projected. */
    private final ThreadLocal<double[]> scratch;

    private KernelLdgMap(
            KernelFunction kernel, double[][] rows, double[] coefficients, int dims, double[] eigenvalues) {
        this.kernel = kernel;
        this.rows = rows;
        this.n = rows.length;
        this.dims = dims;
        this.coefficients = coefficients;
        this.eigenvalues = eigenvalues;
        double[][] k = KernelFunction.matrix(rows, kernel);
        this.rowMeans = new double[n];
        double t = 0;
        for (int a = 0; a < n; a++) {
            double s = 0;
            for (int b = 0; b < n; b++) {
                s += k[a][b];
            }
            rowMeans[a] = s / n;
            t += rowMeans[a];
        }
        this.total = t / n;
        this.scratch = ThreadLocal.withInitial(() -> new double[n]);
    }

    /**
     * Fits kernel LDG.
     *
     * @param x n×d training rows (standardised if the model is); kept by the map (copied)
     * @param dims ℓ ≥ 1, at most the rank of the centred kernel matrix
     * @throws IllegalArgumentException on bad shapes or an ℓ above that rank
     */
    public static KernelLdgMap fit(
            double[][] x, int[] y, int numClasses, LdgParams params, KernelFunction kernel, int dims) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(kernel, "kernel");
        Ldg.checkTrainingSet(x, y, numClasses);
        int n = x.length;
        NeighborSets ns = NeighborSets.fromRows(x, y, numClasses, params.neighbors());
        DMatrixRMaj k = new DMatrixRMaj(KernelFunction.matrix(x, kernel));
        Spans.doubleCentre(k);
        Spans.KernelSpan span = Spans.kernel(k);
        if (dims < 1 || dims > span.rank()) {
            throw new IllegalArgumentException("ℓ = " + dims + " exceeds the kernel LDG rank " + span.rank()
                    + " of this " + "training set (" + n + " series, " + kernel.cliName() + " kernel)");
        }
        Kernels.SortedEigen e = SpanProblem.of(span.coordinates(), ns).solve(params.gamma());
        DMatrixRMaj u = new DMatrixRMaj(span.rank(), dims);
        for (int i = 0; i < span.rank(); i++) {
            System.arraycopy(e.vectors().data, i * span.rank(), u.data, i * dims, dims);
        }
        DMatrixRMaj f = span.coefficients(u);
        fixSigns(f);
        double[][] copy = new double[n][];
        for (int i = 0; i < n; i++) {
            copy[i] = x[i].clone();
        }
        return new KernelLdgMap(kernel, copy, f.data, dims, e.values());
    }

    /**
     * The number of directions {@link #fit} can supply on {@code x} with {@code kernel}: the rank of the double-centred
     * kernel matrix, decided as the fit decides it (same threshold), so a caller that caps ℓ by it never asks the fit for
     * more. Below n − 1 for kernels with a small feature space, e.g. poly of degree 1 on z-normalised series (d − 1).
     */
    public static int spanRank(double[][] x, KernelFunction kernel) {
        Objects.requireNonNull(kernel, "kernel");
        DMatrixRMaj k = new DMatrixRMaj(KernelFunction.matrix(x, kernel));
        Spans.doubleCentre(k);
        return Spans.rankOf(k, "the " + x.length + "×" + x.length + " centred kernel matrix");
    }

    /**
     * Rebuilds a map from a model file after checking it.
     *
     * @param rows the n training rows the map was fitted on, n ≥ 2, finite; copied
     * @param coefficients F, n×ℓ, finite; copied
     * @param eigenvalues the eigenvalues of V − γA on the kernel span, ascending, at least ℓ; copied
     * @throws IllegalArgumentException on any shape or value violation
     */
    public static KernelLdgMap of(
            KernelFunction kernel, double[][] rows, DMatrixRMaj coefficients, double[] eigenvalues) {
        Objects.requireNonNull(kernel, "kernel");
        int n = rows.length;
        if (n < 2) {
            throw new IllegalArgumentException("kernel LDG needs at least 2 training rows, got " + n);
        }
        int d = rows[0].length;
        double[][] copy = new double[n][];
        for (int i = 0; i < n; i++) {
            if (rows[i].length != d) {
                throw new IllegalArgumentException(
                        "training row " + i + " has " + rows[i].length + " values, row 0 " + d);
            }
            for (double v : rows[i]) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("training row " + i + " holds a non-finite value " + v);
                }
            }
            copy[i] = rows[i].clone();
        }
        if (coefficients.numRows != n) {
            throw new IllegalArgumentException(
                    "the coefficients have " + coefficients.numRows + " rows but there are " + n + " training rows");
        }
        int dims = coefficients.numCols;
        if (dims < 1 || eigenvalues.length < dims) {
            throw new IllegalArgumentException(
                    "ℓ = " + dims + " needs at least as many eigenvalues, got " + eigenvalues.length);
        }
        for (double v : coefficients.data) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("a coefficient is not finite: " + v);
            }
        }
        return new KernelLdgMap(kernel, copy, Arrays.copyOf(coefficients.data, n * dims), dims, eigenvalues.clone());
    }

    /** The kernel. */
    public KernelFunction kernel() {
        return kernel;
    }

    /** ℓ. */
    public int dims() {
        return dims;
    }

    /** d, the length of the rows. */
    public int inputDim() {
        return rows[0].length;
    }

    /** Every eigenvalue of V − γA on the kernel span, ascending (a copy). */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /** F, n×ℓ (a copy). */
    public DMatrixRMaj coefficients() {
        return new DMatrixRMaj(n, dims, true, coefficients);
    }

    /** The training rows (copies). */
    public double[][] rows() {
        double[][] out = new double[n][];
        for (int i = 0; i < n; i++) {
            out[i] = rows[i].clone();
        }
        return out;
    }

    /**
     * out = Fᵀ k<sub>c</sub>(x), with k<sub>c</sub>(x)<sub>a</sub> = k(x<sub>a</sub>, x) − mean<sub>b</sub> k(x<sub>b</sub>,
     * x) − rowMean<sub>a</sub> + total (for a training row: its column of the double-centred K). O(n·d + n·ℓ).
     *
     * @param x length d; not modified
     * @param out length ≥ ℓ; its first ℓ entries are overwritten
     */
    public void project(double[] x, double[] out) {
        if (x.length != inputDim()) {
            throw new IllegalArgumentException(
                    "series has " + x.length + " samples but the kernel LDG map expects length " + inputDim());
        }
        if (out.length < dims) {
            throw new IllegalArgumentException("output has length " + out.length + " but ℓ is " + dims);
        }
        double[] kx = scratch.get();
        double colMean = 0;
        for (int a = 0; a < n; a++) {
            kx[a] = kernel.value(rows[a], x);
            colMean += kx[a];
        }
        colMean /= n;
        Arrays.fill(out, 0, dims, 0.0);
        for (int a = 0; a < n; a++) {
            double v = kx[a] - colMean - rowMeans[a] + total;
            int off = a * dims;
            for (int c = 0; c < dims; c++) {
                out[c] += coefficients[off + c] * v;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KernelLdgMap m
                && kernel.equals(m.kernel)
                && dims == m.dims
                && Arrays.deepEquals(rows, m.rows)
                && Arrays.equals(coefficients, m.coefficients)
                && Arrays.equals(eigenvalues, m.eigenvalues);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kernel, dims, Arrays.hashCode(coefficients));
    }

    /** Makes the largest-magnitude coefficient of every column positive (first one on exact ties). */
    private static void fixSigns(DMatrixRMaj f) {
        int n = f.numRows;
        int l = f.numCols;
        for (int c = 0; c < l; c++) {
            int arg = 0;
            for (int i = 1; i < n; i++) {
                if (Math.abs(f.data[i * l + c]) > Math.abs(f.data[arg * l + c])) {
                    arg = i;
                }
            }
            if (f.data[arg * l + c] < 0) {
                for (int i = 0; i < n; i++) {
                    f.data[i * l + c] = -f.data[i * l + c];
                }
            }
        }
    }
}
