package io.vigil.data.synthetic;

import java.util.SplittableRandom;

/**
 * Synthetic control charts (Alcock and Manolopoulos 1999, "Time-series similarity queries employing a
 * feature-based approach", 7th Hellenic Conference on Informatics, after Pham and Chan 1998, Proc. IMechE
 * 212(1):115–127; the UCI KDD "Synthetic Control Chart Time Series" set and the UCR {@code SyntheticControl}
 * set, whose class order normal, cyclic, increasing trend, decreasing trend, upward shift, downward shift
 * is given on the UCI page http://archive.ics.uci.edu/ml/databases/synthetic_control/synthetic_control.data.html).
 * For t = 1..60 with m = 30, s = 2 and r(t) ~ U(−3, 3) per sample:
 *
 * <pre>
 *   normal      y(t) = m + r(t) s
 *   cyclic      y(t) = m + r(t) s + a sin(2πt/T),   a, T ~ U(10, 15)
 *   increasing  y(t) = m + r(t) s + g t,            g ~ U(0.2, 0.5)
 *   decreasing  y(t) = m + r(t) s − g t
 *   up shift    y(t) = m + r(t) s + k x,            x ~ U(7.5, 20), k = [t ≥ t3], t3 ~ U(n/3, 2n/3)
 *   down shift  y(t) = m + r(t) s − k x
 * </pre>
 *
 * Class indices 0..5 in that order (archive labels "1".."6").
 */
final class SyntheticControl {
    static final int LENGTH = 60;
    static final int NORMAL = 0;
    static final int CYCLIC = 1;
    static final int INCREASING = 2;
    static final int DECREASING = 3;
    static final int UP_SHIFT = 4;
    static final int DOWN_SHIFT = 5;

    static final double MEAN = 30;
    /** The published noise scale s. */
    static final double NOISE_SCALE = 2;

    private static final double R_MAX = 3;
    private static final double CYCLE_MIN = 10;
    private static final double CYCLE_MAX = 15;
    private static final double SLOPE_MIN = 0.2;
    private static final double SLOPE_MAX = 0.5;
    private static final double SHIFT_MIN = 7.5;
    private static final double SHIFT_MAX = 20;

    private SyntheticControl() {}

    /**
     * The latent parameters of one series: amplitude and period (cyclic), slope (trends), shift size and
     * 1-based shift time (shifts); unused ones are 0.
     */
    record Params(double amplitude, double period, double slope, double shift, double shiftTime) {}

    /**
     * Draws one raw series of class {@code cls} into {@code out} (length 60, overwritten).
     *
     * @param s noise scale ({@link #NOISE_SCALE} as published; 0 gives the noiseless pattern, for tests)
     */
    static Params draw(int cls, SplittableRandom rnd, double s, double[] out) {
        double a = 0;
        double period = 0;
        double g = 0;
        double x = 0;
        double t3 = 0;
        switch (cls) {
            case NORMAL -> {
                // noise only
            }
            case CYCLIC -> {
                a = rnd.nextDouble(CYCLE_MIN, CYCLE_MAX);
                period = rnd.nextDouble(CYCLE_MIN, CYCLE_MAX);
            }
            case INCREASING, DECREASING -> g = rnd.nextDouble(SLOPE_MIN, SLOPE_MAX);
            case UP_SHIFT, DOWN_SHIFT -> {
                x = rnd.nextDouble(SHIFT_MIN, SHIFT_MAX);
                t3 = rnd.nextDouble(LENGTH / 3.0, 2.0 * LENGTH / 3.0);
            }
            default -> throw new IllegalArgumentException("SyntheticControl class index " + cls + " outside 0..5");
        }
        for (int t = 1; t <= LENGTH; t++) {
            double y = MEAN + s * rnd.nextDouble(-R_MAX, R_MAX);
            switch (cls) {
                case CYCLIC -> y += a * Math.sin(2 * Math.PI * t / period);
                case INCREASING -> y += g * t;
                case DECREASING -> y -= g * t;
                case UP_SHIFT -> y += t >= t3 ? x : 0;
                case DOWN_SHIFT -> y -= t >= t3 ? x : 0;
                default -> {
                    // normal: m + r s
                }
            }
            out[t - 1] = y;
        }
        return new Params(a, period, g, x, t3);
    }
}
