/**
 * The research commands ({@code vigil experiment ...}, {@code vigil bench ...}), registered with the command line
 * through {@link io.vigil.cli.CommandProvider}; the work itself is in {@code io.vigil.experiment} and {@code
 * io.vigil.bench}.
 */
package io.vigil.research;
