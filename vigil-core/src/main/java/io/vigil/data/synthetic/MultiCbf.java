package io.vigil.data.synthetic;

import java.util.SplittableRandom;

/**
 * A three-channel Cylinder-Bell-Funnel for multichannel tests and demos: one event [a, b] per series (drawn as in
 * {@link Cbf}) appears in every channel, with a channel-specific shape and lag. For class g (0 cylinder, 1 bell, 2
 * funnel as in CBF), channel k shows the CBF shape of class (g + k) mod 3 on [a + λ_k, b + λ_k] (clipped to the
 * series), with λ_0 = 0 and λ_k = k·round(L/16) + U{0..round(L/32)} for k ≥ 1, height 6 + η_k (η_k ~ N(0,1) per
 * channel) and white N(0,1) noise per sample. Every channel carries the class, each in its own way and at its own
 * time, so a joint model should decide earlier than any one channel.
 */
final class MultiCbf {
    static final int CHANNELS = 3;

    private MultiCbf() {}

    /**
     * Draws one raw series of class {@code cls} into {@code out} in the time-major layout ({@code out[t·3 + k]} is
     * channel k at time t); its length is 3·L with L ≥ {@link Cbf#MIN_LENGTH}.
     */
    static void draw(int cls, SplittableRandom rnd, double[] out) {
        int length = out.length / CHANNELS;
        if (length < Cbf.MIN_LENGTH || out.length % CHANNELS != 0) {
            throw new IllegalArgumentException("multichannel CBF needs 3 channels of length ≥ " + Cbf.MIN_LENGTH
                    + ", got " + out.length + " values");
        }
        if (cls < 0 || cls > 2) {
            throw new IllegalArgumentException("CBF class index " + cls + " outside 0..2");
        }
        double[] event = new double[length];
        Cbf.Shape shape = Cbf.draw(Cbf.CYLINDER, rnd, 0.0, event);
        int step = Math.max(1, (int) Math.round(length / 16.0));
        int jitter = Math.max(1, (int) Math.round(length / 32.0));
        for (int k = 0; k < CHANNELS; k++) {
            int lag = k == 0 ? 0 : k * step + rnd.nextInt(jitter + 1);
            int a = shape.a() + lag;
            int b = shape.b() + lag;
            int type = (cls + k) % 3;
            double height = 6.0 + rnd.nextGaussian();
            for (int t = 1; t <= length; t++) {
                double v = 0;
                if (t >= a && t <= b) {
                    v = switch (type) {
                        case Cbf.CYLINDER -> height;
                        case Cbf.BELL -> height * (t - a) / (b - a);
                        default -> height * (b - t) / (b - a);
                    };
                }
                out[(t - 1) * CHANNELS + k] = v + rnd.nextGaussian();
            }
        }
    }
}
