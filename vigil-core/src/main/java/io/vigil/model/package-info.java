/**
 * The trained model as immutable parts: {@link io.vigil.model.VigilModel} (provenance, dataset, projection,
 * classifier) built by its builder, extended by typed optional sections such as the complete-series Gaussians and the
 * calibration ({@link io.vigil.model.CalibrationSection}). Files are read and written by {@code
 * io.vigil.model.json.ModelFile}.
 */
package io.vigil.model;
