/**
 * The versioned JSON model file (docs/data-and-training.md, "Model files"): {@link
 * io.vigil.model.json.ModelFile} reads and writes a {@link io.vigil.model.VigilModel} byte-identically, rejecting what
 * it cannot trust with a {@link io.vigil.model.json.ModelFormatException} that names the field; one codec per part and
 * per section.
 */
package io.vigil.model.json;
