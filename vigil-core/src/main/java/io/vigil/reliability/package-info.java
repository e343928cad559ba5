/**
 * The reliable decision rule's geometry (thesis §5.2–5.3; docs/method.md §3.2–3.3): the τ-sets ({@link
 * io.vigil.reliability.SetKind}, {@link io.vigil.reliability.TauSet}), the discriminants they bound, and the exact
 * minimum of a quadratic over an ellipsoid or a box (the trust-region subproblem, hard case included). Embedders name
 * the rule, set and classifier by {@link io.vigil.reliability.DecisionRule}, {@link io.vigil.reliability.SetKind} and
 * {@link io.vigil.reliability.ClassifierKind}; the rest serves {@link io.vigil.early.EarlyClassifier}.
 */
package io.vigil.reliability;
