/**
 * Reliable early classification of one series at a time (thesis ch. 5; docs/method.md §3): {@link
 * io.vigil.early.EarlyClassifier} turns a model and {@link io.vigil.early.DecisionParams} into per-sample (or
 * any-order) decisions written into a caller's {@link io.vigil.early.Decision}, with per-series state and per-thread
 * workspaces; {@link io.vigil.early.EarlyModelTrainer} adds the complete-series sections to a trained model; {@link
 * io.vigil.early.EarlyReplay} and {@link io.vigil.early.PatternReplay} replay whole series offline as the stream would.
 */
package io.vigil.early;
