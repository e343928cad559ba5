package io.vigil.model;

import io.vigil.ldg.KernelLdgMap;
import io.vigil.ldg.LdgRefinement;
import io.vigil.ldg.Standardizer;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.ejml.data.DMatrixRMaj;

/**
 * The map from a complete series to LDG space, y = Bᵀ s(x) (thesis (3.12)), with the parameters it was fitted with:
 * the optional per-feature standardisation s (thesis §3.4), the LDG neighbour count k and trade-off γ of V − γA,
 * every eigenvalue of the fit (ascending; the first ℓ belong to B's columns), B ∈ R^{d×ℓ} and, when B was refined by
 * thesis Algorithm 1, what the refinement did. Or, for kernel LDG (thesis §3.3.2), the non-linear map y = Fᵀk<sub>c</sub>(s(x))
 * of a {@link KernelLdgMap}, which has no B: {@link #isLinear()} tells the two apart, and the early-decision path,
 * which needs B, accepts linear projections only. A transfer LDG projection (thesis chapter 4) is linear and records
 * its source domain ({@link #transfer()}). Immutable; {@link #project} is allocation-free for linear LDG.
 */
public final class Projection {
    private final Standardizer standardizer;
    private final int neighbors;
    private final double gamma;
    private final int dims;
    private final double[] eigenvalues;
    /** B, row-major d×ℓ; null for kernel LDG. */
    private final double[] basis;
    /** Null for linear LDG. */
    private final KernelLdgMap kernelMap;
    /** The kernel parameter's cross-validation scores (kernel LDG only; null when not recorded). */
    private final GridScores kernelScores;
    /** Null for the eigen solution. */
    private final LdgRefinement refinement;
    /** Null unless transfer LDG. */
    private final TransferSource transfer;
    /** Null unless sparse LDG. */
    private final SparseInfo sparse;
    /** Time segments per channel of a segment-constant basis ({@link io.vigil.ldg.TimeSegments}); 0: full resolution. */
    private final int segments;

    private final int length;

    /**
     * Validates (messages name the model-file field) and copies.
     *
     * @param standardizer the standardisation, or null for none
     * @param neighbors LDG k ≥ 1
     * @param gamma γ, finite and in [0, 1] (the trade-off of thesis (3.22); the selection grid lies in (0, 1])
     * @param eigenvalues every eigenvalue, ascending, at least ℓ of them, finite
     * @param basis B, d×ℓ, finite
     */
    public Projection(Standardizer standardizer, int neighbors, double gamma, double[] eigenvalues, DMatrixRMaj basis) {
        this(standardizer, neighbors, gamma, eigenvalues, basis, null);
    }

    /**
     * As {@link #Projection(Standardizer, int, double, double[], DMatrixRMaj)} for a basis refined by thesis Algorithm
     * 1 ({@code refinement} null for the eigen solution).
     */
    public Projection(
            Standardizer standardizer,
            int neighbors,
            double gamma,
            double[] eigenvalues,
            DMatrixRMaj basis,
            LdgRefinement refinement) {
        this(standardizer, neighbors, gamma, eigenvalues, basis, refinement, null, null);
    }

    /**
     * As {@link #Projection(Standardizer, int, double, double[], DMatrixRMaj, LdgRefinement)} for a basis fitted by
     * transfer LDG (thesis chapter 4; {@code transfer} null for LDG).
     */
    public Projection(
            Standardizer standardizer,
            int neighbors,
            double gamma,
            double[] eigenvalues,
            DMatrixRMaj basis,
            LdgRefinement refinement,
            TransferSource transfer) {
        this(standardizer, neighbors, gamma, eigenvalues, basis, refinement, transfer, null);
    }

    /**
     * As above for a basis found by sparse LDG (thesis §3.3.3; {@code sparse} null otherwise): {@code eigenvalues}
     * then hold each column's bᵀZb, and B's columns need not be orthogonal (sparse deflation).
     *
     * @throws IllegalArgumentException also when {@code sparse} lists another number of columns than B has
     */
    public Projection(
            Standardizer standardizer,
            int neighbors,
            double gamma,
            double[] eigenvalues,
            DMatrixRMaj basis,
            LdgRefinement refinement,
            TransferSource transfer,
            SparseInfo sparse) {
        ModelChecks.require(eigenvalues, "ldg.eigenvalues");
        ModelChecks.require(basis, "ldg.basis");
        this.length = basis.numRows;
        this.dims = basis.numCols;
        if (dims < 1 || dims > length) {
            throw new IllegalArgumentException(
                    "ldg.dims is " + dims + " but must be in 1..dataset.length (" + length + ")");
        }
        if (neighbors < 1) {
            throw new IllegalArgumentException("ldg.neighbors must be ≥ 1, got " + neighbors);
        }
        if (!Double.isFinite(gamma) || gamma < 0 || gamma > 1) {
            throw new IllegalArgumentException("ldg.gamma must be finite and in [0, 1], got " + gamma);
        }
        if (eigenvalues.length < dims) {
            throw new IllegalArgumentException(
                    "ldg.eigenvalues has " + eigenvalues.length + " values but ldg.dims is " + dims);
        }
        ModelChecks.requireFinite(eigenvalues, "ldg.eigenvalues");
        ModelChecks.requireFinite(basis.data, "ldg.basis");
        if (standardizer != null) {
            ModelChecks.sizeCheck("preprocessing.means", standardizer.dim(), "values", "dataset.length", length);
        }
        this.standardizer = standardizer;
        this.neighbors = neighbors;
        this.gamma = gamma;
        this.eigenvalues = eigenvalues.clone();
        this.basis = Arrays.copyOf(basis.data, length * dims);
        this.refinement = refinement;
        this.transfer = transfer;
        if (sparse != null && sparse.nonZeros().length != dims) {
            throw new IllegalArgumentException(
                    "ldg.sparse.non_zeros has " + sparse.nonZeros().length + " values but ldg.dims is " + dims);
        }
        this.sparse = sparse;
        this.segments = 0;
        this.kernelMap = null;
        this.kernelScores = null;
    }

    private Projection(
            Standardizer standardizer, int neighbors, double gamma, KernelLdgMap map, GridScores kernelScores) {
        this.length = map.inputDim();
        this.dims = map.dims();
        if (neighbors < 1) {
            throw new IllegalArgumentException("ldg.neighbors must be ≥ 1, got " + neighbors);
        }
        if (!Double.isFinite(gamma) || gamma < 0 || gamma > 1) {
            throw new IllegalArgumentException("ldg.gamma must be finite and in [0, 1], got " + gamma);
        }
        if (standardizer != null) {
            ModelChecks.sizeCheck("preprocessing.means", standardizer.dim(), "values", "dataset.length", length);
        }
        this.standardizer = standardizer;
        this.neighbors = neighbors;
        this.gamma = gamma;
        this.eigenvalues = map.eigenvalues();
        ModelChecks.requireFinite(eigenvalues, "ldg.eigenvalues");
        this.basis = null;
        this.refinement = null;
        this.transfer = null;
        this.sparse = null;
        this.segments = 0;
        this.kernelMap = map;
        this.kernelScores = kernelScores;
    }

    private Projection(Projection p, int segments) {
        this.standardizer = p.standardizer;
        this.neighbors = p.neighbors;
        this.gamma = p.gamma;
        this.dims = p.dims;
        this.eigenvalues = p.eigenvalues;
        this.basis = p.basis;
        this.kernelMap = p.kernelMap;
        this.kernelScores = p.kernelScores;
        this.refinement = p.refinement;
        this.transfer = p.transfer;
        this.sparse = p.sparse;
        this.length = p.length;
        this.segments = segments;
    }

    /**
     * The same linear LDG projection recorded as constant within S time segments per channel (the resolution it was
     * fitted at, {@link io.vigil.ldg.TimeSegments}), or at full resolution for 0. Cross-fitted calibration refits at S.
     *
     * @throws IllegalArgumentException when S is negative, or positive for a kernel, transfer or sparse LDG projection
     */
    public Projection withSegments(int s) {
        if (s < 0) {
            throw new IllegalArgumentException("ldg.segments must be ≥ 1, got " + s);
        }
        if (s > 0 && !reducer().equals("ldg")) {
            throw new IllegalArgumentException("ldg.segments applies to linear LDG only, not " + reducer());
        }
        return new Projection(this, s);
    }

    /** S, the time segments per channel of a segment-constant basis, or empty at full resolution. */
    public java.util.OptionalInt segments() {
        return segments == 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(segments);
    }

    /**
     * A kernel LDG projection (thesis §3.3.2).
     *
     * @param standardizer the standardisation applied before the map, or null
     * @param map the fitted map (its rows are the standardised training series when {@code standardizer} is set)
     * @param kernelScores how the kernel parameter was chosen, or null
     */
    public static Projection kernel(
            Standardizer standardizer, int neighbors, double gamma, KernelLdgMap map, GridScores kernelScores) {
        Objects.requireNonNull(map, "map");
        return new Projection(standardizer, neighbors, gamma, map, kernelScores);
    }

    /** False for kernel LDG: no B, so no early decisions (they condition a Gaussian through B). */
    public boolean isLinear() {
        return kernelMap == null;
    }

    /** The kernel LDG map, for a non-linear projection. */
    public Optional<KernelLdgMap> kernelMap() {
        return Optional.ofNullable(kernelMap);
    }

    /** How the kernel parameter was chosen (kernel LDG, when recorded). */
    public Optional<GridScores> kernelScores() {
        return Optional.ofNullable(kernelScores);
    }

    /** {@code ldg}, {@code kernel-ldg}, {@code transfer-ldg} or {@code sparse-ldg}. */
    public String reducer() {
        if (kernelMap != null) {
            return "kernel-ldg";
        }
        if (sparse != null) {
            return "sparse-ldg";
        }
        return transfer == null ? "ldg" : "transfer-ldg";
    }

    /** How a sparse LDG basis was found and how sparse it is. */
    public Optional<SparseInfo> sparse() {
        return Optional.ofNullable(sparse);
    }

    /** The source domain and α of a transfer LDG projection. */
    public Optional<TransferSource> transfer() {
        return Optional.ofNullable(transfer);
    }

    /** What thesis Algorithm 1 did to B, when B was refined. */
    public Optional<LdgRefinement> refinement() {
        return Optional.ofNullable(refinement);
    }

    /** The per-feature standardisation applied before LDG, if any. */
    public Optional<Standardizer> standardizer() {
        return Optional.ofNullable(standardizer);
    }

    /** LDG neighbour count k (docs/method.md §1). */
    public int neighbors() {
        return neighbors;
    }

    /** LDG trade-off γ of (V − γA). */
    public double gamma() {
        return gamma;
    }

    /** Reduced dimension ℓ. */
    public int dims() {
        return dims;
    }

    /** Series length d (rows of B). */
    public int length() {
        return length;
    }

    /** Every eigenvalue of the LDG fit, ascending (a copy). */
    public double[] eigenvalues() {
        return eigenvalues.clone();
    }

    /**
     * B ∈ R^{d×ℓ} (a copy).
     *
     * @throws IllegalStateException for kernel LDG, which has no B
     */
    public DMatrixRMaj basis() {
        if (kernelMap != null) {
            throw new IllegalStateException(NON_LINEAR);
        }
        return new DMatrixRMaj(length, dims, true, basis);
    }

    /** Why a kernel LDG model cannot make early decisions (CLI errors use it verbatim). */
    public static final String NON_LINEAR = "the model uses kernel LDG, a non-linear map with no basis B; early "
            + "decisions condition a Gaussian through B, so they need a model trained with --reducer ldg "
            + "(vigil classify works with this model)";

    /**
     * Maps a complete series to LDG space: y = Bᵀ s(x), s the stored standardisation (identity if none), or the kernel
     * LDG map of s(x). Allocation-free for linear LDG.
     *
     * @param series length d; not modified
     * @param out receives ℓ values; overwritten
     * @throws IllegalArgumentException on a length mismatch (both sizes named)
     */
    public void project(double[] series, double[] out) {
        if (series.length != length) {
            throw new IllegalArgumentException(
                    "series has " + series.length + " samples but the model expects length " + length);
        }
        if (out.length < dims) {
            throw new IllegalArgumentException("output has length " + out.length + " but ℓ is " + dims);
        }
        if (kernelMap != null) {
            double[] x = series;
            if (standardizer != null) {
                x = new double[length]; // kernel LDG is off the per-sample path; one copy per series
                for (int t = 0; t < length; t++) {
                    x[t] = standardizer.apply(t, series[t]);
                }
            }
            kernelMap.project(x, out);
            return;
        }
        Arrays.fill(out, 0, dims, 0);
        for (int t = 0; t < length; t++) {
            double v = standardizer == null ? series[t] : standardizer.apply(t, series[t]);
            int row = t * dims;
            for (int j = 0; j < dims; j++) {
                out[j] += basis[row + j] * v;
            }
        }
    }

    /** Projects every row of {@code series} (n×d) to a new n×ℓ array. */
    public double[][] projectAll(double[][] series) {
        double[][] out = new double[series.length][dims];
        for (int i = 0; i < series.length; i++) {
            project(series[i], out[i]);
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Projection p
                && sameStandardizer(standardizer, p.standardizer)
                && neighbors == p.neighbors
                && Double.compare(gamma, p.gamma) == 0
                && dims == p.dims
                && Arrays.equals(eigenvalues, p.eigenvalues)
                && Arrays.equals(basis, p.basis)
                && Objects.equals(refinement, p.refinement)
                && Objects.equals(transfer, p.transfer)
                && Objects.equals(sparse, p.sparse)
                && segments == p.segments
                && Objects.equals(kernelMap, p.kernelMap)
                && Objects.equals(kernelScores, p.kernelScores);
    }

    @Override
    public int hashCode() {
        return Objects.hash(neighbors, gamma, dims, Arrays.hashCode(basis));
    }

    @Override
    public String toString() {
        return "Projection[" + reducer() + ", d=" + length + ", ℓ=" + dims + ", γ=" + gamma + ", k=" + neighbors
                + (standardizer == null ? "" : ", standardised") + (refinement == null ? "" : ", refined") + "]";
    }

    private static boolean sameStandardizer(Standardizer a, Standardizer b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Arrays.equals(a.means(), b.means()) && Arrays.equals(a.scales(), b.scales());
    }
}
