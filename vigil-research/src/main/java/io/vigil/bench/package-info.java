/**
 * Benchmarks: commands run from the CLI ({@code vigil bench ...}) and JMH micro-benchmarks of the hot paths
 * (run from the shaded jar with {@code org.openjdk.jmh.Main}). The algorithms live in their own packages;
 * this package only drives and measures them.
 */
package io.vigil.bench;
