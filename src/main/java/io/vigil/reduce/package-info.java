/**
 * The dimensionality reductions Vigil is compared with (issue 15): PCA and regularised FDA, each a linear map fitted on
 * labelled (or, for PCA, unlabelled) training series and followed by the same 3-NN as LDG in the experiment harness.
 * Pure numerical code: no Flink, Kafka or CLI types.
 */
package io.vigil.reduce;
