package io.vigil.model;

import java.time.Instant;

/**
 * Where a model came from (Tribuo's provenance; docs/data-and-training.md, "Model files"): the Vigil version that wrote it, when, the seed of
 * every random choice in training, and how its parameters were chosen with every cross-validation score. The data
 * it was fitted on is identified by {@link DatasetInfo#fingerprint()}.
 *
 * @param vigilVersion version of the Vigil that trained the model
 * @param created creation time (UTC, whole seconds)
 * @param seed seed of every random choice made in training (fold assignment)
 * @param selection how the parameters were chosen
 */
public record Provenance(String vigilVersion, Instant created, long seed, SelectionReport selection) {
    /** Checks that every part is present, naming the model-file field. */
    public Provenance {
        ModelChecks.require(vigilVersion, "vigil_version");
        ModelChecks.require(created, "created");
        ModelChecks.require(selection, "selection");
        if (selection.gammaDims() < 1) {
            throw new IllegalArgumentException("selection.gamma_dims must be ≥ 1, got " + selection.gammaDims());
        }
    }
}
