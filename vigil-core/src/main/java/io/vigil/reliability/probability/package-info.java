/**
 * The ideal reliable-decision rule of thesis eq. 5.1 — announce c when P(ĝ(Y) = c | z) ≥ τ under the conditional
 * Gaussian of the complete series — computed exactly where it has a closed form and by randomized quasi-Monte-Carlo
 * otherwise (docs/method.md §5).
 */
package io.vigil.reliability.probability;
