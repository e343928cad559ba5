package io.vigil.select;

import io.vigil.classify.qda.LocalQda;
import io.vigil.ldg.SparseLdg;
import io.vigil.model.CvScheme;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Everything that controls training (docs/method.md §1, thesis §3.4–3.5), one place, validated. An empty
 * optional means "choose by cross-validation"; a present one fixes the value and skips its search. Built with
 * {@link #builder()} (every default) or {@link #toBuilder()}.
 *
 * @param gamma LDG γ ∈ [0, 1]; empty = choose from {@code gammaGrid} by 3-NN CV (ties → larger γ)
 * @param dims LDG dimension ℓ ≥ 1; empty = choose from {G−1, G, G+1, G+2, G+4, G+8, G+16, G+32} by 3-NN CV
 * @param neighbors LDG neighbour count k ≥ 1; empty = choose from {@code kGrid} by local-QDA CV on the input
 *     data (ties → larger k)
 * @param qdaNeighbors local-QDA neighbour count in LDG space; empty = choose from {@code kGrid} by CV
 * @param standardize per-feature standardisation with training statistics before everything. Default
 *     off: UCR series are already z-normalised per series, and the per-feature transform changes results
 *     by several points either way (docs/method.md §1). The thesis standardises in §3.4 and does not say
 *     otherwise for the time-series experiments of §3.5, so the Table 3.3 reproduction reports both.
 * @param refine refine the final LDG basis by gradient descent on objective (3.4) (thesis §3.1.1, Algorithm 1) after
 *     the eigen solution; the selection of γ, ℓ and k scores the eigen solution. Default off, as the thesis's
 *     experiments use the eigen solution
 * @param reducer linear LDG (default) or kernel LDG (thesis §3.3.2)
 * @param kernel kernel LDG's family, {@code rbf} (default) or {@code poly}
 * @param kernelParam kernel LDG's width (rbf) or degree (poly); empty = choose from {@link
 *     io.vigil.ldg.KernelFunction#grid} by 3-NN CV at ℓ<sub>γ</sub> together with γ
 * @param sparsity sparse LDG's λ relative to ‖Z‖<sub>F</sub> ({@link io.vigil.ldg.SparseLdg#fitRelative}); empty =
 *     choose from {@link #SPARSITY_GRID} by 3-NN CV on the training series
 * @param deflation sparse LDG's deflation; empty = orthonormal (BᵀB = I, the thesis's more accurate one)
 * @param alpha transfer LDG's source weight α ∈ [0, 1] of (4.3); empty = choose from {@link
 *     TransferTrainer#ALPHA_GRID} by 3-NN CV on the target series (thesis §4.5.2)
 * @param cv scheme for γ, ℓ and the local-QDA k; empty = {@link CvScheme#auto} (leave-one-out for n ≤ 100
 *     as in the thesis's §3.4, else stratified 10-fold, to bound the LDG refits)
 * @param neighborCv scheme for the LDG neighbour count under {@link NeighborSelection#LOCAL_QDA}; default
 *     stratified 5-fold as in thesis §3.4
 * @param neighborSelection how the LDG neighbour count is chosen; default the thesis's local-QDA rule
 * @param protocol {@link SelectionProtocol#AUTO} (default): {@code standardize} and {@code neighborSelection}
 *     chosen by training cross-validation where {@link SelectionProtocol#searchesFor} says so, else as given;
 *     {@link SelectionProtocol#ALL}: chosen whatever the cost (they must then be left at their defaults); {@link
 *     SelectionProtocol#GIVEN}: as given
 * @param gammaGrid ascending γ candidates in (0, 1]; default thesis §3.5.2's {0.01, 0.1, 0.3, 0.5, 0.7, 0.9}
 * @param kGrid ascending neighbour-count candidates; default {1, 2, 4, …, 128} (docs/method.md §2), used up to
 *     the first value ≥ the largest class size (which already means "the whole class")
 * @param segments time segments per channel of the LDG directions ({@link io.vigil.ldg.TimeSegments}): fixed
 *     when present (the series length = full resolution); when empty, full resolution, except that the automatic
 *     selection of multichannel data also searches {@link io.vigil.ldg.TimeSegments#grid}. Linear LDG only
 * @param seed seed of every fold assignment: same data + params ⇒ the same model
 */
public record TrainParams(
        OptionalDouble gamma,
        OptionalInt dims,
        OptionalInt neighbors,
        OptionalInt qdaNeighbors,
        boolean standardize,
        boolean refine,
        Reducer reducer,
        String kernel,
        OptionalDouble kernelParam,
        OptionalDouble alpha,
        OptionalDouble sparsity,
        Optional<SparseLdg.Deflation> deflation,
        Optional<CvScheme> cv,
        CvScheme neighborCv,
        NeighborSelection neighborSelection,
        SelectionProtocol protocol,
        DoubleGrid gammaGrid,
        IntGrid kGrid,
        OptionalInt segments,
        long seed) {
    /** Thesis §3.5.2: "For LDG I cross-validate the γ parameter over [0.01, 0.1, 0.3, 0.5, 0.7, 0.9]". */
    public static final DoubleGrid DEFAULT_GAMMA_GRID = DoubleGrid.of(0.01, 0.1, 0.3, 0.5, 0.7, 0.9);

    /** docs/method.md §2: k ∈ {1, 2, 4, …, 128}, the grid local QDA defines. */
    public static final IntGrid DEFAULT_K_GRID = IntGrid.of(LocalQda.defaultGrid());

    /** Thesis §3.4: the LDG neighbour count is chosen by five-fold CV of local QDA. */
    public static final int DEFAULT_NEIGHBOR_FOLDS = 5;

    /**
     * Sparse LDG's λ candidates relative to ‖Z‖<sub>F</sub>, searched by 3-NN CV when {@code --sparsity} is not given:
     * from columns that read most samples (0.001) to a few samples per column (0.01) on the UCR sets we measured.
     */
    public static final DoubleGrid SPARSITY_GRID = DoubleGrid.of(0.001, 0.002, 0.005, 0.01);

    /** Default seed. */
    public static final long DEFAULT_SEED = 1;

    /**
     * @throws IllegalArgumentException on a value out of range
     */
    public TrainParams {
        Objects.requireNonNull(gamma, "gamma");
        Objects.requireNonNull(dims, "dims");
        Objects.requireNonNull(neighbors, "neighbors");
        Objects.requireNonNull(qdaNeighbors, "qdaNeighbors");
        Objects.requireNonNull(reducer, "reducer");
        Objects.requireNonNull(kernel, "kernel");
        Objects.requireNonNull(kernelParam, "kernelParam");
        Objects.requireNonNull(alpha, "alpha");
        Objects.requireNonNull(sparsity, "sparsity");
        Objects.requireNonNull(deflation, "deflation");
        Objects.requireNonNull(cv, "cv");
        Objects.requireNonNull(neighborCv, "neighborCv");
        Objects.requireNonNull(neighborSelection, "neighborSelection");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(gammaGrid, "gammaGrid");
        Objects.requireNonNull(kGrid, "kGrid");
        Objects.requireNonNull(segments, "segments");
        if (segments.isPresent() && segments.getAsInt() < 1) {
            throw new IllegalArgumentException("--segments must be ≥ 1, got " + segments.getAsInt());
        }
        if (segments.isPresent() && reducer != Reducer.LDG) {
            throw new IllegalArgumentException("--segments applies to --reducer ldg only");
        }
        if (gamma.isPresent() && !(gamma.getAsDouble() >= 0 && gamma.getAsDouble() <= 1)) {
            throw new IllegalArgumentException("gamma must be in [0, 1], got " + gamma.getAsDouble());
        }
        if (dims.isPresent() && dims.getAsInt() < 1) {
            throw new IllegalArgumentException("dims must be ≥ 1, got " + dims.getAsInt());
        }
        if (neighbors.isPresent() && neighbors.getAsInt() < 1) {
            throw new IllegalArgumentException("neighbors must be ≥ 1, got " + neighbors.getAsInt());
        }
        if (qdaNeighbors.isPresent() && qdaNeighbors.getAsInt() < 1) {
            throw new IllegalArgumentException("local-QDA neighbors must be ≥ 1, got " + qdaNeighbors.getAsInt());
        }
        if (!kernel.equals("rbf") && !kernel.equals("poly")) {
            throw new IllegalArgumentException("--kernel must be rbf or poly, got '" + kernel + "'");
        }
        if (kernelParam.isPresent()) {
            io.vigil.ldg.KernelFunction.of(kernel, kernelParam.getAsDouble());
        }
        if (reducer != Reducer.KERNEL_LDG && (kernelParam.isPresent() || !kernel.equals("rbf"))) {
            throw new IllegalArgumentException("--kernel and --kernel-param apply to --reducer kernel-ldg only");
        }
        if (alpha.isPresent() && !(alpha.getAsDouble() >= 0 && alpha.getAsDouble() <= 1)) {
            throw new IllegalArgumentException("--alpha must be in [0, 1], got " + alpha.getAsDouble());
        }
        if (sparsity.isPresent() && !(sparsity.getAsDouble() >= 0 && Double.isFinite(sparsity.getAsDouble()))) {
            throw new IllegalArgumentException("--sparsity must be finite and ≥ 0, got " + sparsity.getAsDouble());
        }
        if (reducer != Reducer.SPARSE_LDG && (sparsity.isPresent() || deflation.isPresent())) {
            throw new IllegalArgumentException("--sparsity and --deflation apply to --reducer sparse-ldg only");
        }
        if (protocol == SelectionProtocol.ALL && (standardize || neighborSelection != NeighborSelection.LOCAL_QDA)) {
            throw new IllegalArgumentException(
                    "--selection all chooses --standardize and --neighbor-selection itself; leave them out");
        }
        if (protocol == SelectionProtocol.ALL && reducer == Reducer.TRANSFER_LDG) {
            throw new IllegalArgumentException("--selection all applies to --reducer ldg, kernel-ldg and sparse-ldg");
        }
        if (reducer != Reducer.TRANSFER_LDG && alpha.isPresent()) {
            throw new IllegalArgumentException("--alpha applies to --reducer transfer-ldg only");
        }
        if (reducer != Reducer.LDG && refine) {
            throw new IllegalArgumentException("--refine applies to --reducer ldg only");
        }
    }

    /**
     * Every value searched, the selection protocol included where it is affordable ({@link SelectionProtocol#AUTO}),
     * automatic CV scheme, seed {@value #DEFAULT_SEED}.
     */
    public static TrainParams defaults() {
        return builder().build();
    }

    /** A builder preset with {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with these parameters. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.gamma = gamma;
        b.dims = dims;
        b.neighbors = neighbors;
        b.qdaNeighbors = qdaNeighbors;
        b.standardize = standardize;
        b.refine = refine;
        b.reducer = reducer;
        b.kernel = kernel;
        b.kernelParam = kernelParam;
        b.alpha = alpha;
        b.sparsity = sparsity;
        b.deflation = deflation;
        b.cv = cv;
        b.neighborCv = neighborCv;
        b.neighborSelection = neighborSelection;
        b.protocol = protocol;
        b.gammaGrid = gammaGrid;
        b.kGrid = kGrid;
        b.segments = segments;
        b.seed = seed;
        return b;
    }

    /** Sets parameters one at a time; {@link #build()} validates them together. */
    public static final class Builder {
        private OptionalDouble gamma = OptionalDouble.empty();
        private OptionalInt dims = OptionalInt.empty();
        private OptionalInt neighbors = OptionalInt.empty();
        private OptionalInt qdaNeighbors = OptionalInt.empty();
        private boolean standardize;
        private boolean refine;
        private Reducer reducer = Reducer.LDG;
        private String kernel = "rbf";
        private OptionalDouble kernelParam = OptionalDouble.empty();
        private OptionalDouble alpha = OptionalDouble.empty();
        private OptionalDouble sparsity = OptionalDouble.empty();
        private Optional<SparseLdg.Deflation> deflation = Optional.empty();
        private Optional<CvScheme> cv = Optional.empty();
        private CvScheme neighborCv = CvScheme.kFold(DEFAULT_NEIGHBOR_FOLDS);
        private NeighborSelection neighborSelection = NeighborSelection.LOCAL_QDA;
        private SelectionProtocol protocol = SelectionProtocol.AUTO;
        private DoubleGrid gammaGrid = DEFAULT_GAMMA_GRID;
        private IntGrid kGrid = DEFAULT_K_GRID;
        private OptionalInt segments = OptionalInt.empty();
        private long seed = DEFAULT_SEED;

        private Builder() {}

        /** Fixes γ (skips its search). */
        public Builder gamma(double g) {
            this.gamma = OptionalDouble.of(g);
            return this;
        }

        /** Fixes ℓ (skips its search). */
        public Builder dims(int l) {
            this.dims = OptionalInt.of(l);
            return this;
        }

        /** Fixes the LDG neighbour count k (skips its search). */
        public Builder neighbors(int k) {
            this.neighbors = OptionalInt.of(k);
            return this;
        }

        /** Fixes local QDA's k in LDG space (skips its search). */
        public Builder qdaNeighbors(int k) {
            this.qdaNeighbors = OptionalInt.of(k);
            return this;
        }

        /** Per-feature standardisation on or off. */
        public Builder standardize(boolean on) {
            this.standardize = on;
            return this;
        }

        /** Gradient refinement of the final basis (thesis Algorithm 1) on or off. */
        public Builder refine(boolean on) {
            this.refine = on;
            return this;
        }

        /** The reducer (default linear LDG). */
        public Builder reducer(Reducer r) {
            this.reducer = r;
            return this;
        }

        /** Kernel LDG's family, {@code rbf} or {@code poly}. */
        public Builder kernel(String name) {
            this.kernel = name;
            return this;
        }

        /** Fixes kernel LDG's width or degree (skips its search). */
        public Builder kernelParam(double p) {
            this.kernelParam = OptionalDouble.of(p);
            return this;
        }

        /** Fixes transfer LDG's source weight α (skips its search). */
        public Builder alpha(double a) {
            this.alpha = OptionalDouble.of(a);
            return this;
        }

        /** Sparse LDG's λ relative to ‖Z‖<sub>F</sub>. */
        public Builder sparsity(double lambda) {
            this.sparsity = OptionalDouble.of(lambda);
            return this;
        }

        /** Sparse LDG's deflation. */
        public Builder deflation(SparseLdg.Deflation d) {
            this.deflation = Optional.of(Objects.requireNonNull(d, "deflation"));
            return this;
        }

        /** The CV scheme for γ, ℓ and local QDA's k. */
        public Builder cv(CvScheme scheme) {
            this.cv = Optional.of(Objects.requireNonNull(scheme, "cv"));
            return this;
        }

        /** The CV scheme for the LDG neighbour count. */
        public Builder neighborCv(CvScheme scheme) {
            this.neighborCv = scheme;
            return this;
        }

        /** How the LDG neighbour count is chosen. */
        public Builder neighborSelection(NeighborSelection rule) {
            this.neighborSelection = rule;
            return this;
        }

        /** Whether standardisation and the neighbour rule are given or chosen by training cross-validation. */
        public Builder protocol(SelectionProtocol p) {
            this.protocol = p;
            return this;
        }

        /** The γ candidates. */
        public Builder gammaGrid(DoubleGrid grid) {
            this.gammaGrid = grid;
            return this;
        }

        /** The neighbour-count candidates. */
        public Builder kGrid(IntGrid grid) {
            this.kGrid = grid;
            return this;
        }

        /** Time segments per channel of the LDG directions ({@link io.vigil.ldg.TimeSegments}). */
        public Builder segments(int s) {
            this.segments = OptionalInt.of(s);
            return this;
        }

        /** The seed of every fold assignment. */
        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /**
         * The parameters.
         *
         * @throws IllegalArgumentException on a value out of range
         */
        public TrainParams build() {
            return new TrainParams(
                    gamma,
                    dims,
                    neighbors,
                    qdaNeighbors,
                    standardize,
                    refine,
                    reducer,
                    kernel,
                    kernelParam,
                    alpha,
                    sparsity,
                    deflation,
                    cv,
                    neighborCv,
                    neighborSelection,
                    protocol,
                    gammaGrid,
                    kGrid,
                    segments,
                    seed);
        }
    }
}
