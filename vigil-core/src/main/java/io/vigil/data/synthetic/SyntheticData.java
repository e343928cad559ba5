package io.vigil.data.synthetic;

import io.vigil.data.Dataset;
import io.vigil.data.TrainTest;
import java.util.SplittableRandom;

/**
 * Seeded train/test splits of the synthetic families ({@link SyntheticKind}). Deterministic: the same kind,
 * sizes and seed give bit-identical data on every run and platform ({@link SplittableRandom} is specified
 * exactly). Classes are assigned round-robin (series i has class i mod G), so every class appears in any
 * training split of at least G series and class counts differ by at most one. Train and test draw from
 * independent streams split off the seed, and series i of a split does not depend on the split's size.
 * By default each series is z-normalised (mean 0, sample standard deviation 1) like the UCR archive copies;
 * (channel by channel for several channels); {@code raw} keeps the generator's values (needed to see the published shapes, e.g. CBF's level 6 + η).
 */
public final class SyntheticData {
    private SyntheticData() {}

    /** Z-normalised train/test splits (see {@link #generate(SyntheticKind, int, int, long, boolean)}). */
    public static TrainTest generate(SyntheticKind kind, int nTrain, int nTest, long seed) {
        return generate(kind, nTrain, nTest, seed, false);
    }

    /**
     * A training and a test split of {@code kind}.
     *
     * @param nTrain training series, at least the number of classes (so every class is trained)
     * @param nTest test series, at least 1
     * @param raw true to keep the generator's raw values instead of z-normalising each series
     * @throws IllegalArgumentException on sizes out of range
     */
    public static TrainTest generate(SyntheticKind kind, int nTrain, int nTest, long seed, boolean raw) {
        return generate(kind, nTrain, nTest, seed, raw, kind.length());
    }

    /**
     * As {@link #generate(SyntheticKind, int, int, long, boolean)} with series of another length (CBF only: its
     * shapes stretch with the time axis, see {@link Cbf}; the long-series experiments). A length other than the kind's
     * own names the data set {@code NameL}, e.g. {@code CBF20000}, so it cannot be mistaken for the archive's.
     *
     * @throws IllegalArgumentException on sizes out of range, or another length for a kind that has only its own
     */
    public static TrainTest generate(SyntheticKind kind, int nTrain, int nTest, long seed, boolean raw, int length) {
        if (length != kind.length() && !kind.stretches()) {
            throw new IllegalArgumentException("only cbf and multi-cbf can be generated with another length; "
                    + kind.cliName()
                    + " series have length " + kind.length());
        }
        if (length < Cbf.MIN_LENGTH) {
            throw new IllegalArgumentException("series length must be ≥ " + Cbf.MIN_LENGTH + ", got " + length);
        }
        int classes = kind.classes().size();
        if (nTrain < classes) {
            throw new IllegalArgumentException("the training split needs at least " + classes + " series (one per"
                    + " class of " + kind.cliName() + "), got " + nTrain);
        }
        if (nTest < 1) {
            throw new IllegalArgumentException("the test split needs at least 1 series, got " + nTest);
        }
        SplittableRandom root = new SplittableRandom(seed);
        SplittableRandom trainStream = root.split();
        SplittableRandom testStream = root.split();
        Dataset train = split(kind, nTrain, trainStream, raw, length);
        Dataset test = split(kind, nTest, testStream, raw, length);
        return new TrainTest(train, test);
    }

    /** The data set name of {@code kind} at {@code length}: its own name at its own length, else name + length. */
    public static String datasetName(SyntheticKind kind, int length) {
        return length == kind.length() ? kind.datasetName() : kind.datasetName() + length;
    }

    private static Dataset split(SyntheticKind kind, int n, SplittableRandom stream, boolean raw, int length) {
        int classes = kind.classes().size();
        int channels = kind.channels();
        double[][] rows = new double[n][channels * length];
        int[] y = new int[n];
        double[] channel = new double[length];
        for (int i = 0; i < n; i++) {
            y[i] = i % classes;
            kind.drawRaw(y[i], stream.split(), rows[i]);
            if (!raw) {
                for (int c = 0; c < channels; c++) {
                    for (int t = 0; t < length; t++) {
                        channel[t] = rows[i][t * channels + c];
                    }
                    zNormalise(channel);
                    for (int t = 0; t < length; t++) {
                        rows[i][t * channels + c] = channel[t];
                    }
                }
            }
        }
        Dataset ds = Dataset.of(datasetName(kind, length), rows, y, kind.classes());
        return channels == 1 ? ds : ds.withChannels(Dataset.defaultChannelNames(channels));
    }

    /**
     * Z-normalises {@code x} in place: subtracts the mean and divides by the sample standard deviation
     * (n − 1 denominator, matching the UCR archive copies: every CBF series there has sample standard
     * deviation 1 and population standard deviation 0.996), computed in two passes for accuracy. A constant
     * series is only centred.
     */
    public static void zNormalise(double[] x) {
        double mean = 0;
        for (double v : x) {
            mean += v;
        }
        mean /= x.length;
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        double sd = x.length > 1 ? Math.sqrt(ss / (x.length - 1)) : 0;
        for (int t = 0; t < x.length; t++) {
            x[t] = sd > 0 ? (x[t] - mean) / sd : x[t] - mean;
        }
    }
}
