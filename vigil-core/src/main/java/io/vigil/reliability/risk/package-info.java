/**
 * Finite-sample control of the rate of early labels that differ from the complete-series label: with high probability
 * (Learn-then-Test) or in expectation (conformal risk control), and the correction for choosing among candidates.
 */
package io.vigil.reliability.risk;
