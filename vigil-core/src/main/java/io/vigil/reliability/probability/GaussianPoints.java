package io.vigil.reliability.probability;

import org.hipparchus.distribution.continuous.NormalDistribution;
import org.hipparchus.random.SobolSequenceGenerator;

/**
 * A fixed randomized quasi-Monte-Carlo point set for N(0, I_ℓ): the first N points of the Sobol sequence (Hipparchus'
 * {@link SobolSequenceGenerator}, Joe–Kuo direction numbers) moved by one Cranley–Patterson shift (modulo 1) and mapped
 * coordinate-wise through the standard normal quantile Φ⁻¹. The shift comes from a fixed seed, so the points — and
 * every estimate made from them — are the same in every JVM; each series then flips the coordinates' signs with its
 * own seed ({@link ClassProbability}), which keeps every point N(0, I) distributed. Immutable, shared.
 */
final class GaussianPoints {
    /** Seed of the Cranley–Patterson shift (fixed: estimates must replay identically everywhere). */
    static final long SHIFT_SEED = 0x5EED_2012L;

    private final int dim;
    private final int count;
    /** Point j, coordinate i at j·dim + i. */
    private final double[] z;

    private GaussianPoints(int dim, int count, double[] z) {
        this.dim = dim;
        this.count = count;
        this.z = z;
    }

    /**
     * The first {@code count} shifted Sobol points in {@code dim} dimensions, mapped to N(0, I).
     *
     * @throws IllegalArgumentException unless 1 ≤ dim ≤ 1,000 (Sobol's limit here) and count ≥ 1
     */
    public static GaussianPoints of(int dim, int count) {
        if (dim < 1 || dim > 1000) {
            throw new IllegalArgumentException("Gaussian QMC points need a dimension in 1..1000, got " + dim);
        }
        if (count < 1) {
            throw new IllegalArgumentException("Gaussian QMC points need count ≥ 1, got " + count);
        }
        SobolSequenceGenerator sobol = new SobolSequenceGenerator(dim);
        NormalDistribution normal = new NormalDistribution();
        double[] shift = new double[dim];
        long s = SHIFT_SEED;
        for (int i = 0; i < dim; i++) {
            s = SplitMix.next(s);
            shift[i] = SplitMix.unit(s);
        }
        double[] z = new double[dim * count];
        for (int j = 0; j < count; j++) {
            double[] u = sobol.nextVector();
            for (int i = 0; i < dim; i++) {
                double v = u[i] + shift[i];
                v -= Math.floor(v);
                // v lies in [0, 1); 0 only when the shifted coordinate hits an integer, which Φ⁻¹ maps to −∞.
                z[j * dim + i] = normal.inverseCumulativeProbability(Math.max(v, 0x1p-60));
            }
        }
        return new GaussianPoints(dim, count, z);
    }

    /** Dimension ℓ. */
    public int dim() {
        return dim;
    }

    /** Number of points N. */
    public int count() {
        return count;
    }

    /** Coordinate i of point j. */
    double get(int j, int i) {
        return z[j * dim + i];
    }

    /** The backing array, point j at offset j·dim (package-internal, read-only use). */
    double[] data() {
        return z;
    }

    /** SplitMix64: the seed mixer for shifts and per-series signs. */
    static final class SplitMix {
        private SplitMix() {}

        /** The next state's output. */
        static long next(long x) {
            long z = x + 0x9E3779B97F4A7C15L;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            return z ^ (z >>> 31);
        }

        /** A uniform double in [0, 1) from 53 bits. */
        static double unit(long x) {
            return (x >>> 11) * 0x1.0p-53;
        }
    }
}
