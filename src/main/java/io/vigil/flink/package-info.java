/**
 * The Flink adapters of Vigil's stream layer: the Kafka source and sinks, the keyed function that keeps one
 * {@link io.vigil.stream.SeriesSession} per series in managed state and calls {@link
 * io.vigil.stream.SeriesTracker} once per sample, the state serializer, and the job's entry point
 * ({@link io.vigil.flink.VigilJob}, also the main class of {@code flink run}).
 */
package io.vigil.flink;
