package io.vigil.reliability.risk;

import io.vigil.util.EnumNames;

/**
 * How a certificate accounts for the operating point having been chosen among K candidates (rule × classifier × τ) on
 * the same replays that certify it (docs/method.md §6, "Selection after certification is not free"). Without a
 * correction the chosen candidate's certificate holds at 1 − K·δ at worst.
 */
public enum Selection {
    /** No correction: the certificate is valid for a candidate fixed before looking (models written before selection corrections existed). */
    NONE("none"),
    /**
     * Bonferroni over the K candidates: Learn-then-Test at δ/K, so every candidate's certificate holds simultaneously
     * with probability 1 − δ; for the expected guarantee, risk level α/K, since E[risk of the chosen] ≤ Σ_k E[risk_k].
     */
    BONFERRONI("bonferroni"),
    /** Choose on one half of the replayed series, certify the choice on the other half only. */
    SPLIT("split"),
    /**
     * One nested family indexed by the threshold alone: a series counts as disagreeing at λ_j when it disagrees on
     * any candidate curve at λ_j (for the expected guarantee, at λ_j or any more conservative threshold). The family
     * is fixed before the replays are seen, so it is certified at δ (or α) itself; the threshold it certifies bounds
     * the disagreement of every curve at once, so choosing the curve afterwards costs nothing. An objective that also
     * chooses τ (hm, cost) is corrected for the τ candidates alone.
     */
    NESTED("nested"),
    /**
     * No choice among curves: only the rule and classifier fixed before training (the default decision rule, the
     * set rule with local QDA) is kept and certified, at δ (or α) itself, or corrected for the τ candidates when the
     * objective chooses τ (hm, cost). The default of both guarantees.
     */
    FIXED("fixed");

    private final String cliName;

    Selection(String cliName) {
        this.cliName = cliName;
    }

    /** {@code none}, {@code bonferroni}, {@code split}, {@code nested} or {@code fixed}. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static Selection fromCliName(String name) {
        return EnumNames.parse(Selection.class, name, Selection::cliName, "selection correction");
    }
}
