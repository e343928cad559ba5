package io.vigil.model;

import java.util.Objects;

/**
 * What a transfer LDG model (thesis chapter 4, eq. 4.3) was fitted with besides its target-domain series: the source
 * domain (name, number of series, fingerprint) and the weight α of the source's own term, with the cross-validation
 * scores it was chosen by. Kept in the model so {@code vigil inspect} can say where the extra training series came
 * from; the model's training points are the target series followed by the source series.
 *
 * @param alpha α ∈ [0, 1] of (4.3)
 * @param alphaScores how α was chosen (3-NN CV on the target series, thesis §4.5.2, or fixed by the user), or null
 * @param dataset the source data set's name
 * @param size number of source series, ≥ 1
 * @param fingerprint the source series' {@link DataFingerprint}
 * @param targetSize number of target-domain training series, ≥ 1
 */
public record TransferSource(
        double alpha, GridScores alphaScores, String dataset, int size, String fingerprint, int targetSize) {
    /** Validates (messages name the model-file field). */
    public TransferSource {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("ldg.transfer.alpha must be finite and in [0, 1], got " + alpha);
        }
        if (size < 1) {
            throw new IllegalArgumentException("ldg.transfer.source.series must be ≥ 1, got " + size);
        }
        if (targetSize < 1) {
            throw new IllegalArgumentException("ldg.transfer.target_series must be ≥ 1, got " + targetSize);
        }
    }
}
