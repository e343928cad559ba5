/**
 * Offline evaluation of early classifiers by the thesis's protocol (§5.6.1; docs/method.md §3.5): agreement with
 * the complete-series label, accuracy, mean t/d and the harmonic mean, per τ ({@link
 * io.vigil.evaluate.EarlyEvaluation}), with the fixed-time baselines here and further methods registered through
 * {@link io.vigil.evaluate.BaselineMethods}.
 */
package io.vigil.evaluate;
