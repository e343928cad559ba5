/**
 * The experiments behind BENCHMARKS.md and docs/reproducing-thesis.md: the thesis's tables and figures on
 * re-splits of the UCR archive, the reliability benchmark against TEASER and the baselines, and the check of the
 * certificates over re-splits, with their reports and a resumable cache of finished splits.
 */
package io.vigil.experiment;
