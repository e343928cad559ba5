package io.vigil.model;

import io.vigil.classify.qda.LocalQda;
import java.util.Arrays;
import java.util.Objects;

/**
 * What local QDA (thesis §2.1.2) is fitted from: the n training series projected to LDG space with their class
 * indices, the class priors p_g = n_g / n, and local QDA's neighbour count in LDG space. Immutable; {@link
 * #fitLocalQda} builds the classifier, which {@link VigilModel#localQda()} keeps once built.
 */
public final class ClassifierParams {
    private final double[][] points;
    private final int[] classes;
    private final double[] priors;
    private final int qdaNeighbors;

    /**
     * Validates (messages name the model-file field) and copies.
     *
     * @param points n×ℓ projected training points, finite, rows of equal length
     * @param classes class index of each point
     * @param priors one prior per class, finite
     * @param qdaNeighbors local QDA's k, 1..2n (k is capped by the class size when used)
     */
    public ClassifierParams(double[][] points, int[] classes, double[] priors, int qdaNeighbors) {
        ModelChecks.require(points, "training_points.points");
        ModelChecks.require(classes, "training_points.classes");
        ModelChecks.require(priors, "local_qda.priors");
        this.points = new double[points.length][];
        for (int i = 0; i < points.length; i++) {
            ModelChecks.requireFinite(points[i], "training_points.points row " + i);
            this.points[i] = points[i].clone();
        }
        this.classes = classes.clone();
        ModelChecks.requireFinite(priors, "local_qda.priors");
        this.priors = priors.clone();
        if (qdaNeighbors < 1) {
            throw new IllegalArgumentException("local_qda.neighbors must be ≥ 1, got " + qdaNeighbors);
        }
        if (qdaNeighbors > ModelChecks.maxNeighbors(points.length)) {
            throw new IllegalArgumentException("local_qda.neighbors is " + qdaNeighbors + " but must be in 1.."
                    + ModelChecks.maxNeighbors(points.length) + " for " + points.length + " training points");
        }
        this.qdaNeighbors = qdaNeighbors;
    }

    /** The n training series in LDG space, n×ℓ (a copy). */
    public double[][] points() {
        double[][] out = new double[points.length][];
        for (int i = 0; i < points.length; i++) {
            out[i] = points[i].clone();
        }
        return out;
    }

    /** Number of training points n. */
    public int size() {
        return points.length;
    }

    /** Class index of each training point (a copy). */
    public int[] classes() {
        return classes.clone();
    }

    /** Class priors p_g = n_g / n (a copy). */
    public double[] priors() {
        return priors.clone();
    }

    /** Local-QDA neighbour count in LDG space. */
    public int qdaNeighbors() {
        return qdaNeighbors;
    }

    /** Local QDA on these points with {@link #qdaNeighbors()} (thesis §2.1.2). */
    LocalQda fitLocalQda(int numClasses) {
        return LocalQda.fit(points, classes, numClasses, qdaNeighbors);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClassifierParams c
                && Arrays.deepEquals(points, c.points)
                && Arrays.equals(classes, c.classes)
                && Arrays.equals(priors, c.priors)
                && qdaNeighbors == c.qdaNeighbors;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(classes), Arrays.hashCode(priors), qdaNeighbors);
    }

    @Override
    public String toString() {
        return "ClassifierParams[n=" + points.length + ", k=" + qdaNeighbors + "]";
    }
}
