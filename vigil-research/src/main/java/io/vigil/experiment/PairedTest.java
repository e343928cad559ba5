package io.vigil.experiment;

import org.hipparchus.stat.inference.TTest;

/**
 * The two-sided paired t-test at 5 % that marks a method as different from another on the same splits (the thesis
 * marks "statistically the best or not different from the best with 95 % confidence" the same way).
 */
final class PairedTest {
    /** Two-sided significance level. */
    static final double ALPHA = 0.05;

    private PairedTest() {}

    /**
     * Whether {@code a} and {@code b}, paired by index, differ: false when every difference is zero; true when every
     * difference is the same non-zero value (no spread, so the t statistic is unbounded); else the t-test.
     */
    static boolean differs(double[] a, double[] b) {
        if (a.length != b.length || a.length < 2) {
            throw new IllegalArgumentException(
                    "a paired test needs two equal-length samples of at least 2, got " + a.length + " and " + b.length);
        }
        double first = a[0] - b[0];
        boolean constant = true;
        for (int i = 1; i < a.length; i++) {
            constant &= a[i] - b[i] == first;
        }
        if (constant) {
            return first != 0;
        }
        return new TTest().pairedTTest(a, b, ALPHA);
    }
}
