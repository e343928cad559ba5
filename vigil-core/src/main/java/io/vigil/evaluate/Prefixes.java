package io.vigil.evaluate;

/** Prefix helpers shared by the baselines: the first t samples of every series. */
public final class Prefixes {
    private Prefixes() {}

    /**
     * The first t samples of every row.
     *
     * @param rows series, each of length ≥ t
     * @param t prefix length ≥ 1
     */
    public static double[][] of(double[][] rows, int t) {
        double[][] out = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            if (rows[i].length < t) {
                throw new IllegalArgumentException(
                        "series " + i + " has " + rows[i].length + " samples, fewer than " + t);
            }
            out[i] = java.util.Arrays.copyOf(rows[i], t);
        }
        return out;
    }

    /**
     * The prefix length for a fraction of d, ⌈f·d⌉ and at least 1 (the rounding thesis figures 5.6–5.11 use).
     *
     * @param fraction f in (0, 1]
     * @param d full length
     */
    public static int length(double fraction, int d) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("prefix fraction must lie in (0, 1], got " + fraction);
        }
        return Math.max(1, Math.min(d, (int) Math.ceil(fraction * d - 1e-9)));
    }

    /** Checks that there are rows, all of one length d ≥ 1, with one class index in 0..G−1 each; returns d. */
    public static int checkedLength(double[][] x, int[] y, int numClasses) {
        if (x.length == 0) {
            throw new IllegalArgumentException("the training split is empty");
        }
        if (x.length != y.length) {
            throw new IllegalArgumentException(x.length + " training series but " + y.length + " labels");
        }
        int d = x[0].length;
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != d) {
                throw new IllegalArgumentException("series " + i + " has length " + x[i].length + ", series 0 " + d);
            }
            if (y[i] < 0 || y[i] >= numClasses) {
                throw new IllegalArgumentException(
                        "label " + y[i] + " of series " + i + " is outside 0.." + (numClasses - 1));
            }
        }
        if (d == 0) {
            throw new IllegalArgumentException("training series have length 0");
        }
        return d;
    }
}
