package io.vigil.ldg;

import java.util.Locale;

/**
 * A positive semi-definite kernel for kernel LDG (thesis §3.3.2): the Gram matrix XᵀX of (3.27) is replaced by K with
 * K<sub>ij</sub> = k(x<sub>i</sub>, x<sub>j</sub>). Two families, each with one parameter:
 *
 * <ul>
 *   <li>{@code rbf}: k(a, b) = exp(−‖a − b‖² / (2w²)), width w &gt; 0;
 *   <li>{@code poly}: k(a, b) = (aᵀb / d + 1)<sup>p</sup>, integer degree p ≥ 1 (the 1/d keeps aᵀb of z-normalised
 *       series, which is up to d, in [−1, 1]).
 * </ul>
 */
public sealed interface KernelFunction {
    /** k(a, b) for two vectors of the same length. */
    double value(double[] a, double[] b);

    /** {@code rbf} or {@code poly}. */
    String cliName();

    /** The width w or the degree p. */
    double parameter();

    /** The Gaussian (RBF) kernel of width w. */
    record Rbf(double width) implements KernelFunction {
        /** Validates. */
        public Rbf {
            if (!(width > 0) || Double.isInfinite(width)) {
                throw new IllegalArgumentException("the rbf kernel width must be finite and > 0, got " + width);
            }
        }

        @Override
        public double value(double[] a, double[] b) {
            return fromSquaredDistance(Kernels.squaredDistance(a, b, 0, a.length));
        }

        double fromSquaredDistance(double sq) {
            return Math.exp(-sq / (2 * width * width));
        }

        @Override
        public String cliName() {
            return "rbf";
        }

        @Override
        public double parameter() {
            return width;
        }
    }

    /** The inhomogeneous polynomial kernel of degree p, with the inner product scaled by 1/d. */
    record Polynomial(int degree) implements KernelFunction {
        /** Validates. */
        public Polynomial {
            if (degree < 1 || degree > 10) {
                throw new IllegalArgumentException("the poly kernel degree must be an integer in 1..10, got " + degree);
            }
        }

        @Override
        public double value(double[] a, double[] b) {
            return fromDot(Kernels.dot(a, b, 0, a.length), a.length);
        }

        double fromDot(double dot, int d) {
            return Math.pow(dot / d + 1, degree);
        }

        @Override
        public String cliName() {
            return "poly";
        }

        @Override
        public double parameter() {
            return degree;
        }
    }

    /**
     * The kernel named {@code rbf} or {@code poly} with its parameter.
     *
     * @throws IllegalArgumentException on another name, or a parameter out of range (a poly degree must be integral)
     */
    static KernelFunction of(String name, double parameter) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "rbf" -> new Rbf(parameter);
            case "poly" -> {
                if (parameter != Math.rint(parameter)) {
                    throw new IllegalArgumentException("the poly kernel degree must be an integer, got " + parameter);
                }
                yield new Polynomial((int) parameter);
            }
            default -> throw new IllegalArgumentException("unknown kernel '" + name + "' (expected rbf or poly)");
        };
    }

    /**
     * K<sub>ij</sub> = k(x<sub>i</sub>, x<sub>j</sub>) for every pair of rows (symmetric n×n), from the cache-blocked
     * pairwise distances or dot products of {@link Kernels#pairwise}, so an entry depends only on its two rows.
     */
    static double[][] matrix(double[][] rows, KernelFunction k) {
        boolean rbf = k instanceof Rbf;
        double[][] m = Kernels.pairwise(rows, rbf);
        int d = rows[0].length;
        for (double[] row : m) {
            for (int j = 0; j < row.length; j++) {
                row[j] = rbf ? ((Rbf) k).fromSquaredDistance(row[j]) : ((Polynomial) k).fromDot(row[j], d);
            }
        }
        return m;
    }

    /**
     * The candidates cross-validation tries for a family: widths {0.5, 1, 2, 4} × the median distance between training
     * rows for {@code rbf} (scale-free), degrees {2, 3} for {@code poly}.
     */
    static double[] grid(String name, double[][] rows) {
        if (name.toLowerCase(Locale.ROOT).equals("poly")) {
            return new double[] {2, 3};
        }
        if (!name.toLowerCase(Locale.ROOT).equals("rbf")) {
            throw new IllegalArgumentException("unknown kernel '" + name + "' (expected rbf or poly)");
        }
        double[][] sq = Kernels.pairwise(rows, true);
        int n = rows.length;
        double[] upper = new double[n * (n - 1) / 2];
        int p = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                upper[p++] = sq[i][j];
            }
        }
        java.util.Arrays.sort(upper);
        double median = upper.length == 0 ? 1.0 : Math.sqrt(upper[upper.length / 2]);
        if (!(median > 0)) {
            median = 1.0; // every pair coincides: any width gives the same (constant) kernel
        }
        return new double[] {0.5 * median, median, 2 * median, 4 * median};
    }
}
