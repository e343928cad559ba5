package io.vigil.reduce;

/**
 * A reduction whose defining problem has no well-determined solution on the given training data — for plain FDA, a
 * generalised eigenproblem S<sub>b</sub>w = λS<sub>w</sub>w with a singular within-class scatter S<sub>w</sub> (always
 * when n − G &lt; d). The thesis reports such a method/dataset pair as "nc", not computable (Parrish 2012, Table 3.1 and
 * §3.5); the experiment harness does the same instead of printing the accuracy of a meaningless map.
 */
public final class IllPosedReductionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int n;
    private final int d;

    /**
     * @param what the method's own statement of the condition (e.g. "within-class scatter is singular")
     * @param n training series
     * @param d series length
     */
    public IllPosedReductionException(String what, int n, int d) {
        super("ill-posed: " + what + " (n = " + n + ", d = " + d + ")");
        this.n = n;
        this.d = d;
    }

    /** Training series of the failed fit. */
    public int n() {
        return n;
    }

    /** Series length of the failed fit. */
    public int d() {
        return d;
    }
}
