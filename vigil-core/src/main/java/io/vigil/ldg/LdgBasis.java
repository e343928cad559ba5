package io.vigil.ldg;

import java.util.Arrays;
import java.util.Objects;
import org.ejml.data.DMatrixRMaj;

/**
 * The result of an LDG fit: r orthonormal directions in ℝ<sup>d</sup> ordered by ascending eigenvalue of
 * V − γA (thesis eq. 3.12, Prop. 1), so the first ℓ of them are B<sub>γ</sub> for every ℓ ≤ r (nested) — or, after
 * {@link GradientRefinement}, ℓ directions refined by thesis Algorithm 1 with the eigenvalues they started from.
 * Immutable; projection is y = Bᵀx on the raw (uncentred) vector x — a common shift of all projected
 * points, which neither k-NN nor local QDA can see.
 */
public final class LdgBasis {
    /**
     * Tolerance on max |BᵀB − I| when rebuilding a basis from a model file. Fitted bases are orthonormal to
     * ~1e-13; JSON doubles round-trip exactly, so 1e-8 only rejects corrupted or hand-edited matrices
     * while still accepting a basis printed with ~10 significant digits.
     */
    static final double ORTHONORMAL_TOL = 1e-8;

    private final int inputDim;
    private final int rank;
    /** Bᵀ row-major: direction c occupies [c·d, (c+1)·d), so each projection is one contiguous dot product. */
    private final double[] directions;

    private final double[] eigenvalues;
    /** Null for the eigen solution itself. */
    private final LdgRefinement refinement;

    LdgBasis(double[][] rows, double[] eigenvalues) {
        this(rows, eigenvalues, null);
    }

    LdgBasis(double[][] rows, double[] eigenvalues, LdgRefinement refinement) {
        this.refinement = refinement;
        this.rank = rows.length;
        this.inputDim = rows[0].length;
        this.directions = new double[rank * inputDim];
        for (int c = 0; c < rank; c++) {
            System.arraycopy(rows[c], 0, directions, c * inputDim, inputDim);
        }
        this.eigenvalues = eigenvalues.clone();
    }

    /**
     * Rebuilds a basis, e.g. from a model file, after checking it.
     *
     * @param basis d×r matrix whose columns are the directions; copied
     * @param eigenvalues the r eigenvalues of V − γA, ascending; copied
     * @throws IllegalArgumentException if r is 0 or exceeds d, the sizes disagree, entries are not finite,
     *     eigenvalues are not ascending, or the columns are not orthonormal within {@link #ORTHONORMAL_TOL}
     */
    public static LdgBasis of(DMatrixRMaj basis, double[] eigenvalues) {
        Objects.requireNonNull(basis, "basis");
        Objects.requireNonNull(eigenvalues, "eigenvalues");
        int d = basis.numRows;
        int r = basis.numCols;
        if (r != eigenvalues.length) {
            throw new IllegalArgumentException(
                    "basis has " + r + " columns but " + eigenvalues.length + " eigenvalues are given");
        }
        if (r < 1 || d < r) {
            throw new IllegalArgumentException("basis is " + d + "×" + r + "; need 1 <= columns <= rows");
        }
        for (int c = 0; c < r; c++) {
            if (!Double.isFinite(eigenvalues[c])) {
                throw new IllegalArgumentException("eigenvalue " + c + " is " + eigenvalues[c]);
            }
            if (c > 0 && eigenvalues[c] < eigenvalues[c - 1]) {
                throw new IllegalArgumentException("eigenvalues must be ascending, but eigenvalue " + c + " ("
                        + eigenvalues[c] + ") < eigenvalue " + (c - 1) + " (" + eigenvalues[c - 1] + ")");
            }
        }
        double[][] rows = new double[r][d];
        for (int i = 0; i < d; i++) {
            for (int c = 0; c < r; c++) {
                double v = basis.get(i, c);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("basis[" + i + "][" + c + "] = " + v + " is not finite");
                }
                rows[c][i] = v;
            }
        }
        for (int a = 0; a < r; a++) {
            for (int b = 0; b <= a; b++) {
                double dev = Kernels.dot(rows[a], rows[b]) - (a == b ? 1.0 : 0.0);
                if (Math.abs(dev) > ORTHONORMAL_TOL) {
                    throw new IllegalArgumentException("basis columns are not orthonormal: column " + a
                            + " · column " + b + " deviates from " + (a == b ? 1 : 0) + " by " + dev
                            + " (tolerance " + ORTHONORMAL_TOL + ")");
                }
            }
        }
        return new LdgBasis(rows, eigenvalues);
    }

    /** d, the length of the vectors this basis projects. */
    public int inputDim() {
        return inputDim;
    }

    /** r, the number of available directions (rank of the centred training data, at most n − 1 and d). */
    public int rank() {
        return rank;
    }

    /** The r eigenvalues of V − γA on the data span, ascending (smallest first); a copy. */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /** How {@link GradientRefinement} moved these directions from the eigen solution, if it did. */
    public java.util.Optional<LdgRefinement> refinement() {
        return java.util.Optional.ofNullable(refinement);
    }

    /** The first {@code dims} directions as a d×dims matrix with orthonormal columns; a copy. */
    public DMatrixRMaj basis(int dims) {
        checkDims(dims);
        DMatrixRMaj b = new DMatrixRMaj(inputDim, dims);
        for (int c = 0; c < dims; c++) {
            int off = c * inputDim;
            for (int i = 0; i < inputDim; i++) {
                b.data[i * dims + c] = directions[off + i];
            }
        }
        return b;
    }

    /** A basis holding only the first {@code dims} directions and eigenvalues (e.g. to store in a model). */
    public LdgBasis truncate(int dims) {
        checkDims(dims);
        double[][] rows = new double[dims][];
        for (int c = 0; c < dims; c++) {
            rows[c] = Arrays.copyOfRange(directions, c * inputDim, (c + 1) * inputDim);
        }
        return new LdgBasis(rows, Arrays.copyOf(eigenvalues, dims), refinement);
    }

    /** Projects every row: result[i] = Bᵀx<sub>i</sub> with the first {@code dims} directions. */
    public double[][] project(double[][] x, int dims) {
        checkDims(dims);
        double[][] out = new double[x.length][dims];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != inputDim) {
                throw new IllegalArgumentException(
                        "row " + i + " has " + x[i].length + " values but the basis has " + inputDim + " rows");
            }
            project(x[i], dims, out[i]);
        }
        return out;
    }

    /**
     * Allocation-free projection: out[c] = b<sub>c</sub>ᵀx for c &lt; dims; entries of {@code out} beyond
     * dims are untouched.
     */
    public void project(double[] x, int dims, double[] out) {
        checkDims(dims);
        if (x.length != inputDim) {
            throw new IllegalArgumentException(
                    "the vector has " + x.length + " values but the basis has " + inputDim + " rows");
        }
        if (out.length < dims) {
            throw new IllegalArgumentException("out has length " + out.length + " but " + dims + " dims are asked");
        }
        for (int c = 0; c < dims; c++) {
            int off = c * inputDim;
            double s0 = 0;
            double s1 = 0;
            int t = 0;
            for (; t + 1 < inputDim; t += 2) {
                s0 += directions[off + t] * x[t];
                s1 += directions[off + t + 1] * x[t + 1];
            }
            if (t < inputDim) {
                s0 += directions[off + t] * x[t];
            }
            out[c] = s0 + s1;
        }
    }

    /** Component {@code i} of direction {@code c} (O(1), no copy). */
    public double component(int i, int c) {
        if (c < 0 || c >= rank || i < 0 || i >= inputDim) {
            throw new IllegalArgumentException(
                    "component (" + i + ", " + c + ") is outside the " + inputDim + "×" + rank + " basis");
        }
        return directions[c * inputDim + i];
    }

    private void checkDims(int dims) {
        if (dims < 1 || dims > rank) {
            throw new IllegalArgumentException("dims = " + dims + " but the basis has " + rank + " directions");
        }
    }
}
