package io.vigil.select;

import io.vigil.util.EnumNames;

/**
 * Which dimensionality reduction {@code vigil train} fits (issue 14): the thesis's linear LDG (§3.1–3.2), or kernel
 * LDG (§3.3.2), a non-linear map that serves classification only — early decisions need the linear B.
 */
public enum Reducer {
    /** Linear LDG: y = Bᵀx. */
    LDG("ldg"),
    /** Kernel LDG: y = Fᵀk(x), RBF or polynomial kernel. */
    KERNEL_LDG("kernel-ldg");

    private final String cliName;

    Reducer(String cliName) {
        this.cliName = cliName;
    }

    /** {@code ldg} or {@code kernel-ldg}, as on the command line and in model files. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static Reducer parse(String s) {
        return EnumNames.parse(Reducer.class, s, Reducer::cliName, "reducer");
    }
}
