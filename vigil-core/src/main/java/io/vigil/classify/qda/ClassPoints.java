package io.vigil.classify.qda;

import java.util.Arrays;

/**
 * Local QDA's training points grouped by class, in the two layouts its searches read: row-major n_g × ℓ for
 * the distances of a few chosen points and the neighbour moments, and transposed ℓ × n_g so that the distances
 * from a query to all of a class's points run coordinate by coordinate with an inner loop over points
 * (element-wise, which the JIT vectorises). Every squared distance is summed in coordinate order from 0 in both
 * layouts, so the two give bit-identical distances. Immutable.
 */
final class ClassPoints {
    final int dim;
    final int numClasses;
    /** Per class: its points, row-major n_g × dim. */
    final double[][] rows;
    /** Per class: the same points transposed, dim × n_g. */
    final double[][] byDim;

    final int[] sizes;
    /** Start of each class when the classes are concatenated in class order. */
    final int[] offsets;

    final int maxClassSize;

    /** Per class: the mean of its points (the centre {@link AnchorCache}'s bounds are taken about). */
    final double[][] centroids;

    /**
     * Per class: each point's distance from the class centroid, rounded up by {@link #RADIUS_SLACK}, so that it
     * bounds the exact distance from the computed centroid.
     */
    final double[][] radii;

    /** Relative rounding-up of {@link #radii}, far above the (ℓ + 2)·2⁻⁵³ relative error of a computed norm. */
    static final double RADIUS_SLACK = 1e-9;

    ClassPoints(int dim, double[][] rows, int[] sizes) {
        this.dim = dim;
        this.numClasses = sizes.length;
        this.rows = rows;
        this.sizes = sizes;
        this.byDim = new double[numClasses][];
        this.offsets = new int[numClasses];
        int max = 0;
        for (int g = 0; g < numClasses; g++) {
            int n = sizes[g];
            double[] tr = new double[n * dim];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < dim; t++) {
                    tr[t * n + i] = rows[g][i * dim + t];
                }
            }
            byDim[g] = tr;
            if (g > 0) {
                offsets[g] = offsets[g - 1] + sizes[g - 1];
            }
            max = Math.max(max, n);
        }
        this.maxClassSize = max;
        this.centroids = new double[numClasses][dim];
        this.radii = new double[numClasses][];
        for (int g = 0; g < numClasses; g++) {
            int n = sizes[g];
            double[] c = centroids[g];
            for (int i = 0; i < n; i++) {
                for (int t = 0; t < dim; t++) {
                    c[t] += rows[g][i * dim + t];
                }
            }
            for (int t = 0; t < dim; t++) {
                c[t] /= Math.max(1, n);
            }
            radii[g] = new double[n];
            for (int i = 0; i < n; i++) {
                double s = 0;
                for (int t = 0; t < dim; t++) {
                    double e = rows[g][i * dim + t] - c[t];
                    s += e * e;
                }
                radii[g][i] = Math.sqrt(s) * (1 + RADIUS_SLACK) + Double.MIN_NORMAL;
            }
        }
    }

    /** Longs of a bit mask over the points of the largest class (at least 1). */
    int maskWords() {
        return Math.max(1, (maxClassSize + 63) >>> 6);
    }

    /** Squared distances from q to every class-g point into {@code dist[0..n_g)}. */
    void distances(double[] q, int g, double[] dist) {
        double[] tr = byDim[g];
        int n = sizes[g];
        Arrays.fill(dist, 0, n, 0.0);
        for (int t = 0; t < dim; t++) {
            double qt = q[t];
            int base = t * n;
            for (int i = 0; i < n; i++) {
                double diff = qt - tr[base + i];
                dist[i] += diff * diff;
            }
        }
    }

    /**
     * Squared distances from q to the class-g points {@code idx[0..b)} into {@code dist[idx[j]]}, each summed in
     * coordinate order from 0 exactly as {@link #distances} does (bit-identical), four points at a time so the
     * four sums' dependency chains overlap.
     */
    void exactDistances(double[] q, int g, int[] idx, int b, double[] dist) {
        double[] pts = rows[g];
        int j = 0;
        for (; j + 4 <= b; j += 4) {
            int b0 = idx[j] * dim;
            int b1 = idx[j + 1] * dim;
            int b2 = idx[j + 2] * dim;
            int b3 = idx[j + 3] * dim;
            double s0 = 0;
            double s1 = 0;
            double s2 = 0;
            double s3 = 0;
            for (int t = 0; t < dim; t++) {
                double qt = q[t];
                double e0 = qt - pts[b0 + t];
                double e1 = qt - pts[b1 + t];
                double e2 = qt - pts[b2 + t];
                double e3 = qt - pts[b3 + t];
                s0 += e0 * e0;
                s1 += e1 * e1;
                s2 += e2 * e2;
                s3 += e3 * e3;
            }
            dist[idx[j]] = s0;
            dist[idx[j + 1]] = s1;
            dist[idx[j + 2]] = s2;
            dist[idx[j + 3]] = s3;
        }
        for (; j < b; j++) {
            int base = idx[j] * dim;
            double s = 0;
            for (int t = 0; t < dim; t++) {
                double e = q[t] - pts[base + t];
                s += e * e;
            }
            dist[idx[j]] = s;
        }
    }

    /**
     * Mean and sum of squared deviations of the class-g points in {@code mask} (m of them), two-pass, summed in
     * increasing index order: a function of the neighbour set alone, however the set was found.
     */
    void momentsOfMask(int g, long[] mask, int m, double[] mean, double[] m2) {
        double[] pts = rows[g];
        Arrays.fill(mean, 0.0);
        Arrays.fill(m2, 0.0);
        for (int w = 0; w < mask.length; w++) {
            long bits = mask[w];
            while (bits != 0) {
                int base = ((w << 6) + Long.numberOfTrailingZeros(bits)) * dim;
                bits &= bits - 1;
                for (int t = 0; t < dim; t++) {
                    mean[t] += pts[base + t];
                }
            }
        }
        double inv = 1.0 / m;
        for (int t = 0; t < dim; t++) {
            mean[t] *= inv;
        }
        for (int w = 0; w < mask.length; w++) {
            long bits = mask[w];
            while (bits != 0) {
                int base = ((w << 6) + Long.numberOfTrailingZeros(bits)) * dim;
                bits &= bits - 1;
                for (int t = 0; t < dim; t++) {
                    double diff = pts[base + t] - mean[t];
                    m2[t] += diff * diff;
                }
            }
        }
    }
}
