/**
 * {@code vigil demo}: the whole system on one machine with nothing external — Apache Kafka's broker on loopback,
 * a trained model, a replayed test split and the Flink job on an embedded MiniCluster — and the comparison of
 * every streamed decision with the offline evaluation.
 */
package io.vigil.demo;
