package io.vigil.ldg;

import java.util.function.IntConsumer;
import java.util.stream.IntStream;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Low-level numerical kernels shared by {@link Ldg} and {@link LdgCrossValidation}: dot products and
 * distances with a fixed summation order (so the same pair of rows gives the same bits whichever
 * subset they are part of), and a sorted symmetric eigendecomposition.
 */
final class Kernels {
    private Kernels() {}

    /**
     * Below this many multiply-adds a loop runs on the calling thread; above it, {@link #forEach} splits
     * it over the common fork-join pool (thread start-up costs ~10–50 µs, i.e. ~1e5 flops).
     */
    static final long PARALLEL_THRESHOLD = 2_000_000L;

    /**
     * Runs body(i) for i in [0, n), in parallel when {@code work} (total multiply-adds) is large. Every
     * index is computed by the same code whatever thread runs it and writes only its own outputs, so
     * results are bit-identical with and without parallelism.
     */
    static void forEach(int n, long work, IntConsumer body) {
        if (work < PARALLEL_THRESHOLD || n < 2) {
            for (int i = 0; i < n; i++) {
                body.accept(i);
            }
        } else {
            IntStream.range(0, n).parallel().forEach(body);
        }
    }

    /** Rows per tile in {@link #pairwise}: two tiles of 32 rows × {@link #CHUNK} doubles stay in L2. */
    static final int TILE = 32;

    /** Features per chunk in {@link #pairwise}: 512 doubles = 4 KiB per row. */
    static final int CHUNK = 512;

    /**
     * All pairwise dot products ({@code distance = false}) or squared Euclidean distances ({@code true}) of
     * the rows, as a symmetric n×n array (diagonal 0 for distances). Cache-blocked: tiles of rows are
     * combined chunk by chunk, so each row is read from memory about n/{@link #TILE} times instead of n.
     * The value of a pair is Σ over chunks (in feature order) of a four-accumulator chunk sum — the same
     * bits whichever other rows are present, which {@link LdgCrossValidation} relies on.
     */
    static double[][] pairwise(double[][] rows, boolean distance) {
        int n = rows.length;
        int d = rows[0].length;
        double[][] out = new double[n][n];
        int tiles = (n + TILE - 1) / TILE;
        int pairs = tiles * (tiles + 1) / 2;
        forEach(pairs, (long) n * n * d / 2, p -> {
            int ti = (int) ((Math.sqrt(8.0 * p + 1) - 1) / 2);
            while (ti * (ti + 1) / 2 > p) {
                ti--;
            }
            while ((ti + 1) * (ti + 2) / 2 <= p) {
                ti++;
            }
            int tj = p - ti * (ti + 1) / 2;
            int i0 = ti * TILE;
            int i1 = Math.min(n, i0 + TILE);
            int j0 = tj * TILE;
            int j1 = Math.min(n, j0 + TILE);
            for (int c0 = 0; c0 < d; c0 += CHUNK) {
                int c1 = Math.min(d, c0 + CHUNK);
                for (int i = i0; i < i1; i++) {
                    double[] a = rows[i];
                    int jEnd = ti == tj ? Math.min(j1, distance ? i : i + 1) : j1;
                    for (int j = j0; j < jEnd; j++) {
                        out[i][j] += distance ? squaredDistance(a, rows[j], c0, c1) : dot(a, rows[j], c0, c1);
                    }
                }
            }
        });
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                out[j][i] = out[i][j];
            }
        }
        return out;
    }

    /** Σ a[t]·b[t] over [from, to) with four interleaved partial sums. */
    static double dot(double[] a, double[] b, int from, int to) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int t = from;
        for (; t + 3 < to; t += 4) {
            s0 += a[t] * b[t];
            s1 += a[t + 1] * b[t + 1];
            s2 += a[t + 2] * b[t + 2];
            s3 += a[t + 3] * b[t + 3];
        }
        for (; t < to; t++) {
            s0 += a[t] * b[t];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** Σ (a[t] − b[t])² over [from, to) with four interleaved partial sums. */
    static double squaredDistance(double[] a, double[] b, int from, int to) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int t = from;
        for (; t + 3 < to; t += 4) {
            double e0 = a[t] - b[t];
            double e1 = a[t + 1] - b[t + 1];
            double e2 = a[t + 2] - b[t + 2];
            double e3 = a[t + 3] - b[t + 3];
            s0 += e0 * e0;
            s1 += e1 * e1;
            s2 += e2 * e2;
            s3 += e3 * e3;
        }
        for (; t < to; t++) {
            double e = a[t] - b[t];
            s0 += e * e;
        }
        return (s0 + s1) + (s2 + s3);
    }

    /** Σ a[t]·b[t] with four interleaved partial sums (fixed order, hence deterministic). */
    static double dot(double[] a, double[] b) {
        return dot(a, b, 0, a.length);
    }

    /** y += a·x over the first {@code n} entries (the JIT vectorises this loop). */
    static void axpy(double a, double[] x, double[] y, int n) {
        for (int t = 0; t < n; t++) {
            y[t] += a * x[t];
        }
    }

    /** y[t] += a·x[off + t] for t &lt; n. */
    static void axpyOffset(double a, double[] x, int off, double[] y, int n) {
        for (int t = 0; t < n; t++) {
            y[t] += a * x[off + t];
        }
    }

    /** Replaces a square matrix by (M + Mᵀ)/2 in place, removing rounding asymmetry before an eigen solve. */
    static void symmetrize(DMatrixRMaj m) {
        int n = m.numRows;
        double[] a = m.data;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double v = 0.5 * (a[i * n + j] + a[j * n + i]);
                a[i * n + j] = v;
                a[j * n + i] = v;
            }
        }
    }

    /**
     * Eigenvalues (ascending) and, if asked, eigenvectors of a symmetric matrix with EJML's symmetric
     * QR algorithm ({@code DecompositionFactory_DDRM.eig(n, vectors, true)} returns
     * {@code SymmetricQRAlgorithmDecomposition_DDRM}). Ties in the sort keep EJML's order.
     *
     * @param m symmetric n×n matrix; not modified (a copy is decomposed)
     * @param what a short description for the failure message ("the 300×300 kernel matrix")
     * @throws IllegalStateException if the QR iteration does not converge (a numerical failure with
     *     its reason, never a silent wrong answer)
     */
    static SortedEigen symmetricEigen(DMatrixRMaj m, boolean vectors, String what) {
        int n = m.numRows;
        if (m.numCols != n) {
            throw new IllegalArgumentException(what + " is " + m.numRows + "×" + m.numCols + ", not square");
        }
        EigenDecomposition_F64<DMatrixRMaj> eig = DecompositionFactory_DDRM.eig(n, vectors, true);
        if (!eig.decompose(m.copy())) {
            throw new IllegalStateException(
                    "symmetric eigendecomposition of " + what + " did not converge (non-finite entries?)");
        }
        double[] raw = new double[n];
        for (int i = 0; i < n; i++) {
            raw[i] = eig.getEigenvalue(i).real;
            if (!Double.isFinite(raw[i])) {
                throw new IllegalStateException("eigenvalue " + i + " of " + what + " is " + raw[i]);
            }
        }
        int[] order = argsortAscending(raw);
        double[] values = new double[n];
        for (int c = 0; c < n; c++) {
            values[c] = raw[order[c]];
        }
        DMatrixRMaj vecs = null;
        if (vectors) {
            vecs = new DMatrixRMaj(n, n);
            for (int c = 0; c < n; c++) {
                DMatrixRMaj v = eig.getEigenVector(order[c]);
                for (int i = 0; i < n; i++) {
                    vecs.data[i * n + c] = v.data[i];
                }
            }
        }
        return new SortedEigen(values, vecs);
    }

    /** Indices that sort {@code keys} ascending; stable (equal keys keep index order). */
    static int[] argsortAscending(double[] keys) {
        int n = keys.length;
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        mergeSort(idx, new int[n], 0, n, keys);
        return idx;
    }

    /**
     * Stable merge sort of {@code idx[from..to)} by {@code keys[idx]}; with idx initially ascending this
     * orders by (key, index), the tie-break rule used for neighbour search.
     */
    static void mergeSort(int[] idx, int[] tmp, int from, int to, double[] keys) {
        if (to - from < 2) {
            return;
        }
        if (to - from <= 16) {
            for (int i = from + 1; i < to; i++) {
                int v = idx[i];
                double kv = keys[v];
                int j = i - 1;
                while (j >= from && keys[idx[j]] > kv) {
                    idx[j + 1] = idx[j];
                    j--;
                }
                idx[j + 1] = v;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(idx, tmp, from, mid, keys);
        mergeSort(idx, tmp, mid, to, keys);
        if (keys[idx[mid - 1]] <= keys[idx[mid]]) {
            return;
        }
        System.arraycopy(idx, from, tmp, from, to - from);
        int i = from;
        int j = mid;
        int o = from;
        while (i < mid && j < to) {
            idx[o++] = keys[tmp[j]] < keys[tmp[i]] ? tmp[j++] : tmp[i++];
        }
        while (i < mid) {
            idx[o++] = tmp[i++];
        }
        while (j < to) {
            idx[o++] = tmp[j++];
        }
    }

    /** Eigenvalues ascending and the matching unit eigenvectors as columns (null when not computed). */
    record SortedEigen(double[] values, DMatrixRMaj vectors) {}
}
