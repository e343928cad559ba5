package io.vigil.select;

import io.vigil.util.EnumNames;

/**
 * Which dimensionality reduction {@code vigil train} fits: the thesis's linear LDG (§3.1–3.2), kernel LDG
 * (§3.3.2), a non-linear map that serves classification only — early decisions need the linear B — or transfer LDG
 * (chapter 4), a linear map fitted on a few target-domain series with the help of a labelled source domain, or sparse
 * LDG (§3.3.3), a linear map whose columns read few samples.
 */
public enum Reducer {
    /** Linear LDG: y = Bᵀx. */
    LDG("ldg"),
    /** Kernel LDG: y = Fᵀk(x), RBF or polynomial kernel. */
    KERNEL_LDG("kernel-ldg"),
    /** Transfer LDG (eq. 4.3): y = Bᵀx with B fitted on target and source series. */
    TRANSFER_LDG("transfer-ldg"),
    /** Sparse LDG (§3.3.3, eqs 3.30–3.32): y = Bᵀx with few non-zeros per column of B. */
    SPARSE_LDG("sparse-ldg");

    private final String cliName;

    Reducer(String cliName) {
        this.cliName = cliName;
    }

    /** {@code ldg}, {@code kernel-ldg}, {@code transfer-ldg} or {@code sparse-ldg}, as on the command line and in model files. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static Reducer parse(String s) {
        return EnumNames.parse(Reducer.class, s, Reducer::cliName, "reducer");
    }
}
