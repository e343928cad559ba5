/**
 * The dimensionality reductions Vigil is compared with (Parrish 2012, chapters 2–3): PCA, plain FDA (ill-posed
 * for n − G &lt; d: {@link io.vigil.reduce.IllPosedReductionException}, the thesis's "nc"), PCA+FDA (Fisherfaces),
 * regularised FDA, local FDA, the maximum margin criterion, direct LDA and neighbourhood components analysis — each a
 * linear map fitted on labelled (or, for PCA, unlabelled) training series and followed by the same 3-NN as LDG in the
 * experiment harness. Pure numerical code: no Flink, Kafka or CLI types.
 */
package io.vigil.reduce;
