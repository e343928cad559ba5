package io.vigil.model;

import io.vigil.ldg.SparseLdg;
import java.util.Arrays;
import java.util.Objects;

/**
 * How a sparse LDG basis (thesis §3.3.3) was found and how sparse it is: λ relative to ‖Z‖<sub>F</sub>, the deflation,
 * the non-zeros of each column (thesis Figure 3.6), the mean and largest |b<sub>i</sub>ᵀb<sub>j</sub>| between columns
 * (Figure 3.7), whether every column's solver met its tolerance, and how λ was chosen. Kept so {@code vigil inspect}
 * can show them.
 *
 * @param sparsity λ ≥ 0, relative to ‖Z‖<sub>F</sub>
 * @param deflation how columns after the first were found
 * @param nonZeros per column, each in 1..d
 * @param meanCoherence mean |b<sub>i</sub>ᵀb<sub>j</sub>|, i ≠ j, in [0, 1]
 * @param maxCoherence largest |b<sub>i</sub>ᵀb<sub>j</sub>|, i ≠ j, in [0, 1]
 * @param converged whether every column's solver met its tolerance
 * @param sparsityScores λ's cross-validation scores ({@code source = "cv"}) or the user's value ({@code "user"});
 *     null in files written before λ was searched
 */
public record SparseInfo(
        double sparsity,
        SparseLdg.Deflation deflation,
        int[] nonZeros,
        double meanCoherence,
        double maxCoherence,
        boolean converged,
        GridScores sparsityScores) {
    /** Validates (messages name the model-file field) and copies. */
    public SparseInfo {
        Objects.requireNonNull(deflation, "deflation");
        Objects.requireNonNull(nonZeros, "nonZeros");
        if (!(sparsity >= 0) || !Double.isFinite(sparsity)) {
            throw new IllegalArgumentException("ldg.sparse.sparsity must be finite and ≥ 0, got " + sparsity);
        }
        for (int c = 0; c < nonZeros.length; c++) {
            if (nonZeros[c] < 1) {
                throw new IllegalArgumentException("ldg.sparse.non_zeros[" + c + "] must be ≥ 1, got " + nonZeros[c]);
            }
        }
        // Unit columns: |bᵢᵀbⱼ| ≤ 1 up to rounding of the stored values.
        if (!(meanCoherence >= 0
                && meanCoherence <= 1 + 1e-9
                && maxCoherence >= meanCoherence - 1e-12
                && maxCoherence <= 1 + 1e-9)) {
            throw new IllegalArgumentException("ldg.sparse coherences must satisfy 0 ≤ mean ≤ max ≤ 1, got "
                    + meanCoherence + " and " + maxCoherence);
        }
        nonZeros = nonZeros.clone();
    }

    @Override
    public int[] nonZeros() {
        return nonZeros.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SparseInfo s
                && Double.compare(sparsity, s.sparsity) == 0
                && deflation == s.deflation
                && Arrays.equals(nonZeros, s.nonZeros)
                && Double.compare(meanCoherence, s.meanCoherence) == 0
                && Double.compare(maxCoherence, s.maxCoherence) == 0
                && converged == s.converged
                && Objects.equals(sparsityScores, s.sparsityScores);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                sparsity, deflation, Arrays.hashCode(nonZeros), meanCoherence, maxCoherence, converged, sparsityScores);
    }
}
