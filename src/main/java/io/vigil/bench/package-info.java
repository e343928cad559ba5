/**
 * Benchmarks run from the CLI ({@code vigil bench ...}): synthetic data, timing and heap measurement. The
 * algorithms themselves live in their own packages; this package only drives and measures them.
 */
package io.vigil.bench;
