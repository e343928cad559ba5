package io.vigil.data.synthetic;

import java.util.SplittableRandom;

/**
 * Two Patterns (Geurts 2001, "Pattern extraction for time series classification", PKDD, LNAI 2168;
 * Geurts 2002, PhD thesis, Université de Liège; the UCR {@code TwoPatterns} set): each class is the
 * presence of two patterns in a definite order, up-up, up-down, down-up, down-down (class indices 0..3,
 * archive labels "1".."4"), on a background of Gaussian noise. A pattern of length l is a step that
 * replaces the background: <em>up</em> is −5 for l/2 samples then +5 for l/2 samples, <em>down</em> is +5
 * then −5. The series has 128 samples; outside the patterns x(t) ~ N(0, 1).
 *
 * <p>Lengths and positions, as implemented here: each pattern has an even length l = 2h with
 * h ~ U{8..16} (16 to 32 samples); the first pattern starts at t1 ~ U{0..64 − l1} (it lies in the first
 * half, 0-based), the second at t2 ~ U{64..128 − l2} (second half), so the order is definite and the
 * patterns never overlap. The step levels ±5, the noise-free flat pattern and N(0,1) background follow
 * the published description (and agree with the archive copy, whose patterns are runs of one value);
 * the exact ranges Geurts drew lengths and positions from could not be retrieved while writing this,
 * so these ranges are this implementation's choice, not a quotation.
 */
final class TwoPatterns {
    static final int LENGTH = 128;
    static final double LEVEL = 5;
    static final int UP_UP = 0;
    static final int UP_DOWN = 1;
    static final int DOWN_UP = 2;
    static final int DOWN_DOWN = 3;

    private static final int HALF_MIN = 8;
    private static final int HALF_MAX = 16;
    private static final int MIDDLE = LENGTH / 2;

    private TwoPatterns() {}

    /** The latent parameters: 0-based starts and lengths of both patterns and whether each is "up". */
    record Placement(int start1, int length1, boolean up1, int start2, int length2, boolean up2) {}

    /**
     * Draws one raw series of class {@code cls} into {@code out} (length 128, overwritten).
     *
     * @param noise scale of the background noise (1 as published; 0 for tests)
     */
    static Placement draw(int cls, SplittableRandom rnd, double noise, double[] out) {
        if (cls < 0 || cls > DOWN_DOWN) {
            throw new IllegalArgumentException("TwoPatterns class index " + cls + " outside 0..3");
        }
        boolean up1 = cls == UP_UP || cls == UP_DOWN;
        boolean up2 = cls == UP_UP || cls == DOWN_UP;
        int l1 = 2 * rnd.nextInt(HALF_MIN, HALF_MAX + 1);
        int l2 = 2 * rnd.nextInt(HALF_MIN, HALF_MAX + 1);
        int t1 = rnd.nextInt(0, MIDDLE - l1 + 1);
        int t2 = rnd.nextInt(MIDDLE, LENGTH - l2 + 1);
        for (int t = 0; t < LENGTH; t++) {
            out[t] = noise * rnd.nextGaussian();
        }
        step(out, t1, l1, up1);
        step(out, t2, l2, up2);
        return new Placement(t1, l1, up1, t2, l2, up2);
    }

    private static void step(double[] out, int start, int length, boolean up) {
        int half = length / 2;
        double first = up ? -LEVEL : LEVEL;
        for (int k = 0; k < length; k++) {
            out[start + k] = k < half ? first : -first;
        }
    }
}
