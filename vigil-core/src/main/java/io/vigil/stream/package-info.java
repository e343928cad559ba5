/**
 * The per-series streaming logic of Vigil, free of Flink and Kafka: what a series' state holds between samples
 * ({@link io.vigil.stream.SeriesSession}), how samples are ordered, checked and fed to the early classifier
 * ({@link io.vigil.stream.SeriesTracker}), and the records a stream job emits (decisions, dead letters). The
 * Flink job in {@code io.vigil.flink} keeps one session per key in managed state and calls the tracker once per
 * sample; tests drive the tracker directly.
 */
package io.vigil.stream;
