/**
 * The Flink adapters of Vigil's stream layer: the Kafka source and sinks, the keyed function that keeps one
 * {@link io.vigil.stream.SeriesSession} per series in managed state and calls {@link
 * io.vigil.stream.SeriesTracker} once per sample, the state serializer, and the job's topology ({@link
 * io.vigil.flink.VigilJob}). The command line that builds it (also the job jar's main class for {@code flink run})
 * lives in {@code io.vigil.flink.cli}, so this package depends on no command-line types.
 */
package io.vigil.flink;
