package io.vigil.reliability.risk;

import io.vigil.util.EnumNames;

/**
 * The two kinds of certificate a calibrated model can carry (docs/method.md §6): that the disagreement rate is at most
 * 1 − τ with probability 1 − δ over the draw of the training series ({@link #PAC}, Learn-then-Test), or that its
 * expectation over that draw is ({@link #EXPECTED}, conformal risk control). A decision that is certified by neither
 * reports the guarantee {@code none}.
 */
public enum Guarantee {
    /** P(disagreement rate &gt; 1 − τ) ≤ δ: {@link LearnThenTest}. */
    PAC("pac"),
    /** E[disagreement rate] ≤ 1 − τ: {@link ConformalRiskControl}. */
    EXPECTED("expected");

    /** What records say for a decision no guarantee covers. */
    public static final String NONE = "none";

    private final String cliName;

    Guarantee(String cliName) {
        this.cliName = cliName;
    }

    /** {@code pac} or {@code expected}, as in flags, model files and JSON output. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static Guarantee fromCliName(String name) {
        return EnumNames.parse(Guarantee.class, name, Guarantee::cliName, "guarantee");
    }
}
