/** Finite-sample control of the rate of early labels that differ from the complete-series label (Learn-then-Test). */
package io.vigil.reliability.risk;
