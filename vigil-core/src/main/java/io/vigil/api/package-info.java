/**
 * The public API for programs that embed Vigil (docs/embedding.md): {@link io.vigil.api.VigilTrainer} and {@link
 * io.vigil.api.TrainOptions} train a model as {@code vigil train} does, {@link io.vigil.api.Vigil} loads one at its
 * stored operating point, {@link io.vigil.api.VigilSession} decides one series value by value and announces the class
 * once as an {@link io.vigil.api.EarlyDecision}, and {@link io.vigil.api.SessionGroup} lets many sessions of one
 * thread share a workspace. Everything else in vigil-core is what these types are built from.
 */
package io.vigil.api;
