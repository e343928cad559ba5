/**
 * The live dashboard: a small read_committed Kafka consumer of the decisions topic (and, when given, the truth
 * topic) behind a loopback HTTP server with packaged assets, so the same page serves the embedded job and a cluster.
 */
package io.vigil.dashboard;
