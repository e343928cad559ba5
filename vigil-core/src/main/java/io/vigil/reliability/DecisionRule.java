package io.vigil.reliability;

import io.vigil.util.EnumNames;

/**
 * How an early decision is made at threshold λ: {@link #SET} announces c when f_c − f_h ≥ 0 on the whole τ-set
 * (thesis §5.2–5.3, the fast path); {@link #PROBABILITY} also announces c when P(ĝ(Y) = c | z) ≥ λ under the
 * conditional Gaussian (thesis eq. 5.1, the ideal rule; docs/method.md §5), which needs no set to be one-sided.
 */
public enum DecisionRule {
    /** Every set kept (today's rule). */
    SET("set"),
    /** The ideal rule, with a valid τ-set as its fast path. */
    PROBABILITY("probability");

    private final String cliName;

    DecisionRule(String cliName) {
        this.cliName = cliName;
    }

    /** The command-line and model-file name: {@code set} or {@code probability}. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()} (case-insensitive). */
    public static DecisionRule fromCliName(String name) {
        return EnumNames.parse(DecisionRule.class, name, DecisionRule::cliName, "rule");
    }
}
