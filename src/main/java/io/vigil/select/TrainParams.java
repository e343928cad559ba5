package io.vigil.select;

import io.vigil.model.CvScheme;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Everything that controls training (method notes §1, thesis §3.4–3.5), one place, validated. An empty
 * optional means "choose by cross-validation"; a present one fixes the value and skips its search.
 *
 * @param gamma LDG γ ∈ [0, 1]; empty = choose from {@code gammaGrid} by 3-NN CV (ties → larger γ)
 * @param dims LDG dimension ℓ ≥ 1; empty = choose from {G−1, G, G+1, G+2, G+4, G+8, G+16, G+32} by 3-NN CV
 * @param neighbors LDG neighbour count k ≥ 1; empty = choose from {@code kGrid} by local-QDA CV on the input
 *     data (ties → larger k)
 * @param qdaNeighbors local-QDA neighbour count in LDG space; empty = choose from {@code kGrid} by CV
 * @param standardize per-feature standardisation with training statistics before everything. Default
 *     off: UCR series are already z-normalised per series, and the per-feature transform changes results
 *     by several points either way (method notes §1). The thesis standardises in §3.4 and does not say
 *     otherwise for the time-series experiments of §3.5, so the Table 3.3 reproduction reports both.
 * @param cv scheme for γ, ℓ and the local-QDA k; empty = {@link CvScheme#auto} (leave-one-out for n ≤ 100
 *     as in the thesis's §3.4, else stratified 10-fold, to bound the LDG refits)
 * @param neighborCv scheme for the LDG neighbour count under {@link NeighborSelection#LOCAL_QDA}; default
 *     stratified 5-fold as in thesis §3.4
 * @param neighborSelection how the LDG neighbour count is chosen; default the thesis's local-QDA rule
 * @param gammaGrid ascending γ candidates in (0, 1]; default thesis §3.5.2's {0.01, 0.1, 0.3, 0.5, 0.7, 0.9}
 * @param kGrid ascending neighbour-count candidates; default {1, 2, 4, …, 128} (method notes §2), used up to
 *     the first value ≥ the largest class size (which already means "the whole class")
 * @param seed seed of every fold assignment: same data + params ⇒ the same model
 */
public record TrainParams(
        OptionalDouble gamma,
        OptionalInt dims,
        OptionalInt neighbors,
        OptionalInt qdaNeighbors,
        boolean standardize,
        Optional<CvScheme> cv,
        CvScheme neighborCv,
        NeighborSelection neighborSelection,
        double[] gammaGrid,
        int[] kGrid,
        long seed) {
    /** Thesis §3.5.2: "For LDG I cross-validate the γ parameter over [0.01, 0.1, 0.3, 0.5, 0.7, 0.9]". */
    public static final double[] DEFAULT_GAMMA_GRID = {0.01, 0.1, 0.3, 0.5, 0.7, 0.9};

    /** Method notes §2: k ∈ {1, 2, 4, …, 128}. */
    public static final int[] DEFAULT_K_GRID = {1, 2, 4, 8, 16, 32, 64, 128};

    /** Thesis §3.4: the LDG neighbour count is chosen by five-fold CV of local QDA. */
    public static final int DEFAULT_NEIGHBOR_FOLDS = 5;

    /** Default seed. */
    public static final long DEFAULT_SEED = 1;

    /**
     * @throws IllegalArgumentException on a value out of range or a grid that is empty or not ascending
     */
    public TrainParams {
        Objects.requireNonNull(gamma, "gamma");
        Objects.requireNonNull(dims, "dims");
        Objects.requireNonNull(neighbors, "neighbors");
        Objects.requireNonNull(qdaNeighbors, "qdaNeighbors");
        Objects.requireNonNull(cv, "cv");
        Objects.requireNonNull(neighborCv, "neighborCv");
        Objects.requireNonNull(neighborSelection, "neighborSelection");
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
        if (gammaGrid.length == 0) {
            throw new IllegalArgumentException("the gamma grid is empty");
        }
        for (int i = 0; i < gammaGrid.length; i++) {
            if (!(gammaGrid[i] > 0 && gammaGrid[i] <= 1) || (i > 0 && gammaGrid[i] <= gammaGrid[i - 1])) {
                throw new IllegalArgumentException(
                        "the gamma grid must be ascending within (0, 1], got " + Arrays.toString(gammaGrid));
            }
        }
        if (kGrid.length == 0) {
            throw new IllegalArgumentException("the neighbour grid is empty");
        }
        for (int i = 0; i < kGrid.length; i++) {
            if (kGrid[i] < 1 || (i > 0 && kGrid[i] <= kGrid[i - 1])) {
                throw new IllegalArgumentException(
                        "the neighbour grid must be ascending and ≥ 1, got " + Arrays.toString(kGrid));
            }
        }
        gammaGrid = gammaGrid.clone();
        kGrid = kGrid.clone();
    }

    /** Every value searched, no standardisation, automatic CV scheme, seed {@value #DEFAULT_SEED}. */
    public static TrainParams defaults() {
        return new TrainParams(
                OptionalDouble.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                false,
                Optional.empty(),
                CvScheme.kFold(DEFAULT_NEIGHBOR_FOLDS),
                NeighborSelection.LOCAL_QDA,
                DEFAULT_GAMMA_GRID,
                DEFAULT_K_GRID,
                DEFAULT_SEED);
    }

    @Override
    public double[] gammaGrid() {
        return gammaGrid.clone();
    }

    @Override
    public int[] kGrid() {
        return kGrid.clone();
    }

    /** With γ fixed. */
    public TrainParams withGamma(double g) {
        return new TrainParams(
                OptionalDouble.of(g),
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With ℓ fixed. */
    public TrainParams withDims(int l) {
        return new TrainParams(
                gamma,
                OptionalInt.of(l),
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With the LDG neighbour count fixed. */
    public TrainParams withNeighbors(int k) {
        return new TrainParams(
                gamma,
                dims,
                OptionalInt.of(k),
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With the local-QDA neighbour count fixed. */
    public TrainParams withQdaNeighbors(int k) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                OptionalInt.of(k),
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With standardisation on or off. */
    public TrainParams withStandardize(boolean on) {
        return new TrainParams(
                gamma, dims, neighbors, qdaNeighbors, on, cv, neighborCv, neighborSelection, gammaGrid, kGrid, seed);
    }

    /** With an explicit scheme for γ, ℓ and the local-QDA k. */
    public TrainParams withCv(CvScheme scheme) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                Optional.of(scheme),
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With an explicit scheme for the LDG neighbour count (local-QDA rule). */
    public TrainParams withNeighborCv(CvScheme scheme) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                scheme,
                neighborSelection,
                gammaGrid,
                kGrid,
                seed);
    }

    /** With another rule for the LDG neighbour count. */
    public TrainParams withNeighborSelection(NeighborSelection rule) {
        return new TrainParams(
                gamma, dims, neighbors, qdaNeighbors, standardize, cv, neighborCv, rule, gammaGrid, kGrid, seed);
    }

    /** With another γ grid. */
    public TrainParams withGammaGrid(double[] grid) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                grid,
                kGrid,
                seed);
    }

    /** With another neighbour grid. */
    public TrainParams withKGrid(int[] grid) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                grid,
                seed);
    }

    /** With another seed. */
    public TrainParams withSeed(long s) {
        return new TrainParams(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                gammaGrid,
                kGrid,
                s);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TrainParams p
                && gamma.equals(p.gamma)
                && dims.equals(p.dims)
                && neighbors.equals(p.neighbors)
                && qdaNeighbors.equals(p.qdaNeighbors)
                && standardize == p.standardize
                && cv.equals(p.cv)
                && neighborCv.equals(p.neighborCv)
                && neighborSelection == p.neighborSelection
                && Arrays.equals(gammaGrid, p.gammaGrid)
                && Arrays.equals(kGrid, p.kGrid)
                && seed == p.seed;
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                gamma,
                dims,
                neighbors,
                qdaNeighbors,
                standardize,
                cv,
                neighborCv,
                neighborSelection,
                Arrays.hashCode(gammaGrid),
                Arrays.hashCode(kGrid),
                seed);
    }

    @Override
    public String toString() {
        return "TrainParams[gamma=" + gamma + ", dims=" + dims + ", neighbors=" + neighbors + ", qdaNeighbors="
                + qdaNeighbors + ", standardize=" + standardize + ", cv=" + cv + ", neighborCv=" + neighborCv
                + ", neighborSelection=" + neighborSelection
                + ", gammaGrid=" + Arrays.toString(gammaGrid) + ", kGrid=" + Arrays.toString(kGrid) + ", seed="
                + seed + "]";
    }
}
