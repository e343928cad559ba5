/**
 * The {@code vigil run} command, the job jar's main class ({@link io.vigil.flink.cli.VigilJobMain}) and the option
 * mixins it shares with the other commands (τ, decision, stream, state and metrics options); the only place in
 * vigil-flink that knows picocli.
 */
package io.vigil.flink.cli;
