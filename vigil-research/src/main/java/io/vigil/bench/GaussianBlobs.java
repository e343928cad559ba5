package io.vigil.bench;

import java.util.SplittableRandom;

/**
 * Seeded synthetic classification data for benchmarks: G balanced classes (row i has class i mod G), each
 * a Gaussian with its own random mean (entries N(0, 0.5²)) and unit-variance independent noise. Not meant
 * to be realistic, only to give LDG full-rank data of a chosen size with a known cost.
 *
 * @param x n×d rows
 * @param y class of each row, 0..G−1
 */
public record GaussianBlobs(double[][] x, int[] y, int numClasses) {
    /** Separation of the class means relative to the unit noise. */
    static final double MEAN_SCALE = 0.5;

    /** Generates n rows of length d in {@code classes} classes from {@code seed}. */
    public static GaussianBlobs generate(int n, int d, int classes, long seed) {
        if (n < 2 || d < 1 || classes < 1 || classes > n) {
            throw new IllegalArgumentException(
                    "need n >= 2, d >= 1 and 1 <= classes <= n; got n=" + n + ", d=" + d + ", classes=" + classes);
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[][] means = new double[classes][d];
        for (double[] mean : means) {
            for (int t = 0; t < d; t++) {
                mean[t] = MEAN_SCALE * gaussian(random);
            }
        }
        double[][] x = new double[n][d];
        int[] y = new int[n];
        for (int i = 0; i < n; i++) {
            y[i] = i % classes;
            for (int t = 0; t < d; t++) {
                x[i][t] = means[y[i]][t] + gaussian(random);
            }
        }
        return new GaussianBlobs(x, y, classes);
    }

    /** Box–Muller, one value per call (simple and deterministic). */
    static double gaussian(SplittableRandom random) {
        double u1 = random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }
}
