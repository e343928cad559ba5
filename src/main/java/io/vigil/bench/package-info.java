/** JMH micro-benchmarks of Vigil's hot paths (run from the shaded jar with {@code org.openjdk.jmh.Main}). */
package io.vigil.bench;
