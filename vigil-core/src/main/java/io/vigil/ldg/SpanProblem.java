package io.vigil.ldg;

import java.util.Arrays;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;

/**
 * The LDG eigenproblem restricted to the span of the (centred) training data. With an orthonormal basis
 * U (d×r) of that span and coordinates Y = X<sub>c</sub>U (m×r), the d×d matrices of eq. (3.9)–(3.10)
 * restricted to the span are V<sub>r</sub> = Uᵀ V U = Yᵀ L<sub>V</sub> Y and A<sub>r</sub> = Yᵀ L<sub>A</sub> Y
 * (block forms 3.24–3.25; the L's annihilate the constant vector, so centring changes nothing). One
 * instance serves every γ: each {@link #solve} is one r×r symmetric eigendecomposition whose ascending
 * eigenvectors u give B = U·u for every ℓ at once (Prop. 1).
 */
final class SpanProblem {
    private final DMatrixRMaj within;
    private final DMatrixRMaj between;

    private SpanProblem(DMatrixRMaj within, DMatrixRMaj between) {
        this.within = within;
        this.between = between;
    }

    /**
     * Builds V<sub>r</sub> from the difference rows δ<sub>i</sub> = y<sub>i</sub> − mean(ℋ<sub>i,g_i</sub>)
     * (cost m·r²) and A<sub>r</sub> by the cheaper of the dense L<sub>A</sub> of eq. (3.25) and the sum of
     * difference rows of eq. (3.10) ({@link #useDenseLaplacian}).
     *
     * @param y coordinates of the m training points, m×r; not modified
     */
    static SpanProblem of(DMatrixRMaj y, NeighborSets ns) {
        int m = y.numRows;
        int r = y.numCols;
        if (ns.numPoints() != m) {
            throw new IllegalArgumentException(
                    "coordinates have " + m + " rows but the neighbour sets cover " + ns.numPoints() + " points");
        }
        DMatrixRMaj diff = new DMatrixRMaj(m, r);
        double[] yd = y.data;
        double[] dd = diff.data;
        for (int i = 0; i < m; i++) {
            int[] h = ns.neighbours(i, ns.classOf(i));
            if (h.length == 0) {
                continue;
            }
            double w = 1.0 / h.length;
            int row = i * r;
            for (int q : h) {
                int qr = q * r;
                for (int c = 0; c < r; c++) {
                    dd[row + c] -= w * yd[qr + c];
                }
            }
            for (int c = 0; c < r; c++) {
                dd[row + c] += yd[row + c];
            }
        }
        DMatrixRMaj within = new DMatrixRMaj(r, r);
        CommonOps_DDRM.multTransA(diff, diff, within);
        Kernels.symmetrize(within);

        DMatrixRMaj between = useDenseLaplacian(ns, r) ? betweenDense(y, ns) : betweenSparse(y, ns);
        Kernels.symmetrize(between);
        return new SpanProblem(within, between);
    }

    /**
     * Whether the dense m×m L<sub>A</sub> route is cheaper than summing difference rows: the sparse route
     * costs Σ<sub>i,j</sub>(|ℋ<sub>i,j</sub>|·r + r²), the dense one Σ<sub>i,j</sub>|ℋ<sub>i,j</sub>|² + m²r + mr². The
     * choice depends only on sizes, so it is deterministic.
     */
    static boolean useDenseLaplacian(NeighborSets ns, int r) {
        int m = ns.numPoints();
        double sparse = 0;
        double dense = (double) m * m * r + (double) m * r * r;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < ns.numClasses(); j++) {
                int h = ns.neighbours(i, j).length;
                if (h > 0) {
                    sparse += (double) h * r + (double) r * r;
                    dense += (double) h * h;
                }
            }
        }
        return dense < sparse;
    }

    /**
     * A<sub>r</sub> = Yᵀ L<sub>A</sub> Y with L<sub>A</sub> = Σ<sub>j</sub> p<sub>j</sub>(I − N<sub>j</sub>)ᵀ(I − N<sub>j</sub>)
     * assembled densely (eq. 3.25).
     */
    static DMatrixRMaj betweenDense(DMatrixRMaj y, NeighborSets ns) {
        int m = y.numRows;
        int r = y.numCols;
        DMatrixRMaj la = new DMatrixRMaj(m, m);
        double[] l = la.data;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < ns.numClasses(); j++) {
                int[] h = ns.neighbours(i, j);
                if (h.length == 0) {
                    continue;
                }
                double p = ns.prior(j);
                double w = 1.0 / h.length;
                l[i * m + i] += p;
                for (int q : h) {
                    l[i * m + q] -= p * w;
                    l[q * m + i] -= p * w;
                }
                double pw2 = p * w * w;
                for (int q : h) {
                    int qm = q * m;
                    for (int c : h) {
                        l[qm + c] += pw2;
                    }
                }
            }
        }
        DMatrixRMaj ly = new DMatrixRMaj(m, r);
        CommonOps_DDRM.mult(la, y, ly);
        DMatrixRMaj between = new DMatrixRMaj(r, r);
        CommonOps_DDRM.multTransA(y, ly, between);
        return between;
    }

    /** A<sub>r</sub> = Σ<sub>i,j</sub> p<sub>j</sub> δ<sub>i,j</sub>δ<sub>i,j</sub>ᵀ summed from the difference rows (eq. 3.10). */
    static DMatrixRMaj betweenSparse(DMatrixRMaj y, NeighborSets ns) {
        int m = y.numRows;
        int r = y.numCols;
        double[] yd = y.data;
        DMatrixRMaj between = new DMatrixRMaj(r, r);
        double[] a = between.data;
        double[] delta = new double[r];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < ns.numClasses(); j++) {
                int[] h = ns.neighbours(i, j);
                if (h.length == 0) {
                    continue;
                }
                double w = 1.0 / h.length;
                Arrays.fill(delta, 0.0);
                for (int q : h) {
                    Kernels.axpyOffset(-w, yd, q * r, delta, r);
                }
                Kernels.axpyOffset(1.0, yd, i * r, delta, r);
                double p = ns.prior(j);
                for (int u = 0; u < r; u++) {
                    double pu = p * delta[u];
                    int row = u * r;
                    for (int v = 0; v <= u; v++) {
                        a[row + v] += pu * delta[v];
                    }
                }
            }
        }
        for (int u = 0; u < r; u++) {
            for (int v = 0; v < u; v++) {
                a[v * r + u] = a[u * r + v];
            }
        }
        return between;
    }

    int dim() {
        return within.numRows;
    }

    /** V<sub>r</sub>, the within-class term (3.9) in span coordinates (a copy). */
    DMatrixRMaj within() {
        return within.copy();
    }

    /** A<sub>r</sub>, the between-class term (3.10) in span coordinates (a copy). */
    DMatrixRMaj between() {
        return between.copy();
    }

    /** All eigen-pairs of V<sub>r</sub> − γA<sub>r</sub>, eigenvalues ascending (eq. 3.12, Prop. 1). */
    Kernels.SortedEigen solve(double gamma) {
        return Kernels.symmetricEigen(matrix(gamma), true, describe(gamma));
    }

    /** The {@code count} smallest eigen-pairs only ({@link PartialEigen}), for cross-validation. */
    Kernels.SortedEigen solveSmallest(double gamma, int count) {
        return PartialEigen.smallest(matrix(gamma), count, describe(gamma));
    }

    /** V<sub>r</sub> − γA<sub>r</sub> as a new symmetric r×r matrix. */
    DMatrixRMaj matrix(double gamma) {
        int r = dim();
        DMatrixRMaj p = new DMatrixRMaj(r, r);
        CommonOps_DDRM.add(within, -gamma, between, p);
        Kernels.symmetrize(p);
        return p;
    }

    private String describe(double gamma) {
        return "the " + dim() + "×" + dim() + " LDG matrix V − γA (γ = " + gamma + ")";
    }
}
