/**
 * LDG dimensionality reduction (thesis §3.1–3.3, docs/method.md §1): the linear fit in the data span ({@link
 * io.vigil.ldg.Ldg}, giving an {@link io.vigil.ldg.LdgBasis}), kernel, sparse and transfer LDG, gradient refinement,
 * the refitted-per-fold cross-validation of γ and ℓ, and the per-feature {@link io.vigil.ldg.Standardizer}. Most
 * embedders reach it through {@link io.vigil.select.Trainer}; the classes here are for fitting a basis alone.
 */
package io.vigil.ldg;
