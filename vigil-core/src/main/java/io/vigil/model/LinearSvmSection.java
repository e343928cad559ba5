package io.vigil.model;

import io.vigil.reliability.LinearDiscriminants;
import java.util.Arrays;
import java.util.Objects;

/**
 * A one-vs-rest linear SVM in LDG space (section {@code linear_svm}): f_g(y) = w_gᵀy + b_g, the
 * classifier whose reliable early decisions have the closed forms of thesis Prop. 2 and eqs 5.12–5.13.
 * Trained by {@code vigil train} with LIBLINEAR on the model's projected training series. Immutable.
 *
 * @param cost the SVM cost parameter C it was trained with
 * @param weights G rows of ℓ weights
 * @param biases G biases
 */
public record LinearSvmSection(double cost, double[][] weights, double[] biases) implements ModelSection {
    /** The section name in model files. */
    public static final String NAME = "linear_svm";

    /** Validates and copies. */
    public LinearSvmSection {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(biases, "biases");
        if (!(cost > 0) || Double.isInfinite(cost)) {
            throw new IllegalArgumentException("linear_svm.cost must be finite and > 0, got " + cost);
        }
        if (weights.length != biases.length) {
            throw new IllegalArgumentException(
                    "linear_svm has " + weights.length + " weight rows but " + biases.length + " biases");
        }
        weights = Arrays.stream(weights).map(double[]::clone).toArray(double[][]::new);
        biases = biases.clone();
        for (int g = 0; g < weights.length; g++) {
            ModelChecks.requireFinite(weights[g], "linear_svm.weights row " + g);
        }
        ModelChecks.requireFinite(biases, "linear_svm.biases");
    }

    /** The discriminants f_g for the reliable decision rule. */
    public LinearDiscriminants discriminants() {
        return new LinearDiscriminants(weights, biases);
    }

    @Override
    public double[][] weights() {
        return Arrays.stream(weights).map(double[]::clone).toArray(double[][]::new);
    }

    @Override
    public double[] biases() {
        return biases.clone();
    }

    @Override
    public String sectionName() {
        return NAME;
    }

    @Override
    public boolean required() {
        return false;
    }

    @Override
    public void checkShape(ModelShape shape) {
        if (weights.length != shape.numClasses()) {
            throw new IllegalArgumentException(
                    NAME + " has " + weights.length + " classes but the model has " + shape.numClasses());
        }
        for (int g = 0; g < weights.length; g++) {
            if (weights[g].length != shape.dims()) {
                throw new IllegalArgumentException(NAME + ".weights row " + g + " has " + weights[g].length
                        + " entries but the model's ℓ is " + shape.dims());
            }
        }
    }

    /** Equal when every number is bit-identical. */
    @Override
    public boolean equals(Object o) {
        return o instanceof LinearSvmSection s
                && Double.compare(cost, s.cost) == 0
                && Arrays.deepEquals(weights, s.weights)
                && Arrays.equals(biases, s.biases);
    }

    @Override
    public int hashCode() {
        return Objects.hash(cost, Arrays.deepHashCode(weights), Arrays.hashCode(biases));
    }

    @Override
    public String toString() {
        return "LinearSvmSection[C=" + cost + ", G=" + weights.length + "]";
    }
}
