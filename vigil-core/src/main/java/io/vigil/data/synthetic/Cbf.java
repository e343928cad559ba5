package io.vigil.data.synthetic;

import java.util.SplittableRandom;

/**
 * Cylinder-Bell-Funnel (Saito 1994, "Local feature extraction and its applications using a library of
 * bases", PhD thesis, Yale, Example 4.7; the definition used by Keogh et al. for the UCR {@code CBF}
 * set). For t = 1..128, with a ~ U{16..32}, b − a ~ U{32..96}, η ~ N(0,1) per series, ε(t) ~ N(0,1)
 * per sample and χ the indicator of [a, b]:
 *
 * <pre>
 *   cylinder c(t) = (6 + η) χ(t)                 + ε(t)
 *   bell     b(t) = (6 + η) χ(t) (t − a)/(b − a) + ε(t)
 *   funnel   f(t) = (6 + η) χ(t) (b − t)/(b − a) + ε(t)
 * </pre>
 *
 * Class indices 0, 1, 2 are cylinder, bell, funnel (archive labels "1", "2", "3").
 *
 * <p>Longer (or shorter) series for long-series experiments (up to d = 20,000): with length L the time axis is stretched,
 * a ~ U{round(16L/128)..round(32L/128)} and b − a ~ U{round(32L/128)..round(96L/128)}, so the shapes keep their
 * relative positions and widths; ε stays white N(0,1) per sample. L = 128 is the published definition, draw for
 * draw.
 */
final class Cbf {
    static final int LENGTH = 128;
    static final int CYLINDER = 0;
    static final int BELL = 1;
    static final int FUNNEL = 2;

    private static final int A_MIN = 16;
    private static final int A_MAX = 32;
    private static final int WIDTH_MIN = 32;
    private static final int WIDTH_MAX = 96;
    private static final double AMPLITUDE = 6.0;

    private Cbf() {}

    /** The latent parameters of one drawn series (1-based a ≤ b, amplitude offset η). */
    record Shape(int a, int b, double eta) {}

    /** Shortest stretched length: every scaled bound stays ≥ 1 and the shape fits (a + width ≤ L). */
    static final int MIN_LENGTH = 8;

    /**
     * Draws one raw series of class {@code cls} into {@code out} (its length L ≥ {@link #MIN_LENGTH}, 128 as
     * published; overwritten).
     *
     * @param noise scale of ε (1 as published; 0 gives the noiseless shape, for tests)
     */
    static Shape draw(int cls, SplittableRandom rnd, double noise, double[] out) {
        int length = out.length;
        if (length < MIN_LENGTH) {
            throw new IllegalArgumentException("CBF series need length ≥ " + MIN_LENGTH + ", got " + length);
        }
        int a = rnd.nextInt(scaled(A_MIN, length), scaled(A_MAX, length) + 1);
        int b = a + rnd.nextInt(scaled(WIDTH_MIN, length), scaled(WIDTH_MAX, length) + 1);
        double eta = rnd.nextGaussian();
        double height = AMPLITUDE + eta;
        for (int t = 1; t <= length; t++) {
            double shape = 0;
            if (t >= a && t <= b) {
                shape = switch (cls) {
                    case CYLINDER -> height;
                    case BELL -> height * (t - a) / (b - a);
                    case FUNNEL -> height * (b - t) / (b - a);
                    default -> throw new IllegalArgumentException("CBF class index " + cls + " outside 0..2");
                };
            }
            out[t - 1] = shape + noise * rnd.nextGaussian();
        }
        return new Shape(a, b, eta);
    }

    /** A published bound for length 128 stretched to {@code length} (exact at 128). */
    private static int scaled(int bound, int length) {
        return (int) Math.round((double) bound * length / LENGTH);
    }
}
