package io.vigil.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * The cross-validation accuracy of every candidate of one selection step (docs/method.md §1: LDG neighbours,
 * γ, ℓ, local-QDA neighbours), kept in the model so a reader can see how clear the choice was. A value the
 * user fixed has {@code source = "user"} and a single candidate with accuracy NaN when it was not scored.
 *
 * @param source {@code "cv"} when searched, {@code "user"} when given on the command line
 * @param integral whether candidates are integers (neighbour counts, dimensions)
 * @param candidates the grid, in the order searched
 * @param accuracy cross-validation accuracy per candidate in [0, 1] (NaN = not scored)
 * @param chosen the value used by the model
 */
public record GridScores(String source, boolean integral, double[] candidates, double[] accuracy, double chosen) {
    /** Source of a searched value. */
    public static final String CV = "cv";

    /** Source of a value given by the user. */
    public static final String USER = "user";

    /**
     * @throws IllegalArgumentException on an unknown source or grids of different lengths
     */
    public GridScores {
        Objects.requireNonNull(source, "source");
        if (!source.equals(CV) && !source.equals(USER)) {
            throw new IllegalArgumentException("grid source must be 'cv' or 'user', got '" + source + "'");
        }
        if (candidates.length != accuracy.length) {
            throw new IllegalArgumentException(
                    "grid has " + candidates.length + " candidates but " + accuracy.length + " accuracies");
        }
        candidates = candidates.clone();
        accuracy = accuracy.clone();
    }

    /** A user-fixed value that was not scored. */
    public static GridScores user(double value, boolean integral) {
        return new GridScores(USER, integral, new double[] {value}, new double[] {Double.NaN}, value);
    }

    /** A user-fixed value with its cross-validation accuracy. */
    public static GridScores user(double value, boolean integral, double accuracy) {
        return new GridScores(USER, integral, new double[] {value}, new double[] {accuracy}, value);
    }

    /** Integer candidates, converted. */
    public static GridScores searched(int[] candidates, double[] accuracy, int chosen) {
        return new GridScores(
                CV, true, Arrays.stream(candidates).asDoubleStream().toArray(), accuracy, chosen);
    }

    /** Real candidates. */
    public static GridScores searched(double[] candidates, double[] accuracy, double chosen) {
        return new GridScores(CV, false, candidates, accuracy, chosen);
    }

    @Override
    public double[] candidates() {
        return candidates.clone();
    }

    @Override
    public double[] accuracy() {
        return accuracy.clone();
    }

    /** The accuracy recorded for the chosen value, NaN if none. */
    public double chosenAccuracy() {
        for (int i = 0; i < candidates.length; i++) {
            if (candidates[i] == chosen) {
                return accuracy[i];
            }
        }
        return Double.NaN;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GridScores other
                && source.equals(other.source)
                && integral == other.integral
                && Arrays.equals(candidates, other.candidates)
                && Arrays.equals(accuracy, other.accuracy)
                && Double.compare(chosen, other.chosen) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(source, integral, Arrays.hashCode(candidates), Arrays.hashCode(accuracy), chosen);
    }

    @Override
    public String toString() {
        return "GridScores[" + source + ", candidates=" + Arrays.toString(candidates) + ", accuracy="
                + Arrays.toString(accuracy) + ", chosen=" + chosen + "]";
    }
}
