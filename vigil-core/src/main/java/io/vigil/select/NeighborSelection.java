package io.vigil.select;

import io.vigil.util.EnumNames;

/**
 * How the LDG neighbour count k is chosen when the user does not fix it.
 *
 * <ul>
 *   <li>{@link #LOCAL_QDA} — the thesis's rule (§3.4): cross-validated local-QDA accuracy on the input data,
 *       before and independently of γ;
 *   <li>{@link #KNN} — k and γ together by the same 3-NN cross-validation of LDG projections that chooses γ
 *       (LDG refitted per fold), scoring each k at its best γ. It costs one γ search per candidate k, and on
 *       small UCR training sets it avoids the noisy small-k choices of the local-QDA rule (docs/method.md §1).
 * </ul>
 */
public enum NeighborSelection {
    /** Thesis §3.4: local QDA on the input data. */
    LOCAL_QDA("local-qda"),
    /** Jointly with γ by 3-NN CV in LDG space. */
    KNN("3nn");

    private final String cliName;

    NeighborSelection(String cliName) {
        this.cliName = cliName;
    }

    /** {@code local-qda} or {@code 3nn}, as on the command line and in model files. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static NeighborSelection parse(String s) {
        return EnumNames.parse(NeighborSelection.class, s, NeighborSelection::cliName, "neighbor selection");
    }
}
