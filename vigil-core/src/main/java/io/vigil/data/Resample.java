package io.vigil.data;

import java.util.Objects;

/**
 * Linear-interpolation resampling of series to another length, so that two related data sets recorded at different
 * lengths (e.g. SonyAIBORobotSurface1, d = 70, and SonyAIBORobotSurface2, d = 65) share one time axis: sample j of
 * the result is the series at relative time j/(m − 1) of its own [0, 1] axis.
 */
public final class Resample {
    private Resample() {}

    /**
     * One series at {@code length} samples; the first and last samples are kept exactly.
     *
     * @throws IllegalArgumentException when the series or the length is shorter than 2 (a single sample has no axis)
     */
    public static double[] linear(double[] x, int length) {
        Objects.requireNonNull(x, "x");
        if (x.length < 2 || length < 2) {
            throw new IllegalArgumentException(
                    "resampling needs series of at least 2 samples, got " + x.length + " -> " + length);
        }
        double[] out = new double[length];
        double step = (double) (x.length - 1) / (length - 1);
        for (int j = 0; j < length; j++) {
            double pos = j * step;
            int i = Math.min((int) pos, x.length - 2);
            double w = pos - i;
            out[j] = (1 - w) * x[i] + w * x[i + 1];
        }
        out[length - 1] = x[x.length - 1];
        return out;
    }

    /** Every series of {@code ds} at {@code length} samples (the same data set when it already has that length). */
    public static Dataset linear(Dataset ds, int length) {
        if (ds.length() == length) {
            return ds;
        }
        if (ds.channels() > 1) {
            throw new IllegalArgumentException(ds.name() + " has " + ds.channels()
                    + " channels; resampling handles one channel (its series would mix the channels)");
        }
        double[][] rows = ds.rows();
        for (int i = 0; i < rows.length; i++) {
            rows[i] = linear(rows[i], length);
        }
        return Dataset.of(ds.name(), rows, ds.classIndices(), ds.classNames());
    }
}
