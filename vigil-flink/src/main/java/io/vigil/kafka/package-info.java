/**
 * Vigil's Kafka edge: the sample record format and its decoding, replaying a dataset into a topic at a given
 * rate, publishing and reading models on a model topic, client properties and preflight checks, and {@link
 * io.vigil.kafka.LoopbackKafka}, Apache Kafka's own KRaft broker in-process on 127.0.0.1 for tests and the demo.
 */
package io.vigil.kafka;
