package io.vigil.watch;

import io.vigil.classify.LinearSvm;
import io.vigil.data.Dataset;
import java.util.List;

/**
 * The feature-classifier baseline a practitioner tries first (docs/watch.md, "Baselines"): each complete window is
 * summarised per channel by its mean, standard deviation, minimum, maximum and energy (mean of squares), the 5·C
 * features are standardised with the training windows' means and deviations, and a one-vs-rest linear SVM ({@link
 * LinearSvm}, LIBLINEAR) trained on the window model's own training windows labels it. Its event-class labels become
 * alarms through the same {@link AlarmMerger} as the other detectors'. Nothing of Vigil's method (LDG, local QDA, the
 * conditional Gaussian) is used, so it measures the gain against an outside detector. Immutable.
 */
public final class FeatureSvmWindows {
    /** Features per channel: mean, std, min, max, energy. */
    public static final int FEATURES_PER_CHANNEL = 5;

    private final LinearSvm svm;
    private final List<String> classes;
    private final int channels;
    private final double[] mean;
    private final double[] scale;

    private FeatureSvmWindows(LinearSvm svm, List<String> classes, int channels, double[] mean, double[] scale) {
        this.svm = svm;
        this.classes = List.copyOf(classes);
        this.channels = channels;
        this.mean = mean;
        this.scale = scale;
    }

    /**
     * Trains on labelled windows.
     *
     * @param windows C-channel windows in the time-major layout of {@link Dataset} ({@link WindowExamples#build})
     * @param classes the class order of the labels produced (the window model's), a superset of the windows' labels
     * @param params the SVM's parameters
     * @throws IllegalArgumentException when a window label is not in {@code classes} or a class has no window
     */
    public static FeatureSvmWindows train(Dataset windows, List<String> classes, LinearSvm.Params params) {
        int c = windows.channels();
        int n = windows.size();
        double[][] f = new double[n][];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            f[i] = features(windows.series(i), c);
            y[i] = classes.indexOf(windows.labelOf(i));
            if (y[i] < 0) {
                throw new IllegalArgumentException(
                        "training window label '" + windows.labelOf(i) + "' is not one of " + classes);
            }
        }
        int k = f[0].length;
        double[] mean = new double[k];
        double[] scale = new double[k];
        for (double[] row : f) {
            for (int j = 0; j < k; j++) {
                mean[j] += row[j] / n;
            }
        }
        for (double[] row : f) {
            for (int j = 0; j < k; j++) {
                scale[j] += (row[j] - mean[j]) * (row[j] - mean[j]) / n;
            }
        }
        for (int j = 0; j < k; j++) {
            scale[j] = scale[j] > 0 ? Math.sqrt(scale[j]) : 1.0;
        }
        for (double[] row : f) {
            standardise(row, mean, scale);
        }
        return new FeatureSvmWindows(LinearSvm.fit(f, y, classes.size(), params), classes, c, mean, scale);
    }

    /**
     * The 5·C features of one window, channel by channel: mean, population standard deviation, minimum, maximum and
     * energy (mean of squares).
     *
     * @param window C·D values in the time-major layout (value t·C + c)
     */
    public static double[] features(double[] window, int channels) {
        int d = window.length / channels;
        double[] out = new double[FEATURES_PER_CHANNEL * channels];
        for (int c = 0; c < channels; c++) {
            double sum = 0;
            double squares = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int t = 0; t < d; t++) {
                double v = window[t * channels + c];
                sum += v;
                squares += v * v;
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            double m = sum / d;
            double energy = squares / d;
            int o = FEATURES_PER_CHANNEL * c;
            out[o] = m;
            out[o + 1] = Math.sqrt(Math.max(0, energy - m * m));
            out[o + 2] = min;
            out[o + 3] = max;
            out[o + 4] = energy;
        }
        return out;
    }

    private static void standardise(double[] row, double[] mean, double[] scale) {
        for (int j = 0; j < row.length; j++) {
            row[j] = (row[j] - mean[j]) / scale[j];
        }
    }

    /** The class order of the labels. */
    public List<String> classes() {
        return classes;
    }

    /** The trained SVM (on standardised features). */
    public LinearSvm svm() {
        return svm;
    }

    /**
     * The label of one complete window: argmax_g f_g(z) over the standardised features z, with {@code
     * backgroundOffset} added to the background class's f (0 for the SVM as trained; a positive offset makes event
     * labels rarer, which traces the detector's trade-off between false alarms and recall).
     *
     * @param background the background class's index, or −1 for none
     */
    public int predict(double[] window, int background, double backgroundOffset) {
        double[] z = features(window, channels);
        standardise(z, mean, scale);
        int best = -1;
        double bestValue = Double.NEGATIVE_INFINITY;
        for (int g = 0; g < svm.numClasses(); g++) {
            double[] w = svm.weights(g);
            double v = svm.bias(g) + (g == background ? backgroundOffset : 0);
            for (int j = 0; j < z.length; j++) {
                v += w[j] * z[j];
            }
            if (v > bestValue) {
                best = g;
                bestValue = v;
            }
        }
        return best;
    }

    /**
     * The labels of one recording's complete windows on the stride grid (−1 for a window holding a missing value).
     *
     * @param values {@code values[channel][sample − 1]}
     * @param backgroundOffset added to the background's decision value (0 = the SVM as trained)
     */
    public CompleteWindows.Labels labels(WindowSpec spec, double[][] values, double backgroundOffset) {
        if (values.length != channels) {
            throw new IllegalArgumentException(
                    "the feature SVM has " + channels + " channels, the recording " + values.length);
        }
        int n = values[0].length;
        int d = spec.length();
        int background = classes.indexOf(spec.backgroundLabel());
        int count = n < d ? 0 : (n - d) / spec.stride() + 1;
        long[] starts = new long[count];
        int[] out = new int[count];
        for (int w = 0; w < count; w++) {
            int from = w * spec.stride();
            starts[w] = from + 1L;
            double[] x = WindowExamples.window(values, from, d);
            boolean missing = false;
            for (double v : x) {
                missing |= Double.isNaN(v);
            }
            out[w] = missing ? -1 : predict(x, background, backgroundOffset);
        }
        return new CompleteWindows.Labels(starts, out);
    }

    /** The alarms of one recording from its window {@code labels}, each triggering when its window completes. */
    public List<AlarmEvent> alarms(WindowSpec spec, String key, CompleteWindows.Labels labels) {
        return CompleteWindows.alarms(classes, spec, key, labels, spec.length());
    }
}
