package io.vigil.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How {@code --selection auto} chose the selection protocol: each candidate (standardisation / LDG neighbour rule, e.g.
 * {@code off/local-qda}) with the 3-NN cross-validation accuracy its full selection reached on the training series,
 * and the one kept.
 *
 * @param candidates the protocols tried, in the order tried
 * @param accuracy each one's cross-validation accuracy in [0, 1]
 * @param chosen one of {@code candidates}
 */
public record ProtocolScores(List<String> candidates, double[] accuracy, String chosen) {
    /**
     * @throws IllegalArgumentException on lists of different lengths, an accuracy outside [0, 1] or an unknown choice
     */
    public ProtocolScores {
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(chosen, "chosen");
        if (candidates.size() != accuracy.length) {
            throw new IllegalArgumentException("selection.protocol_scores has " + candidates.size() + " candidates but "
                    + accuracy.length + " accuracies");
        }
        for (double a : accuracy) {
            if (!(a >= 0 && a <= 1)) {
                throw new IllegalArgumentException("selection.protocol_scores accuracies must lie in [0, 1], got " + a);
            }
        }
        if (!candidates.contains(chosen)) {
            throw new IllegalArgumentException(
                    "selection.protocol_scores.chosen '" + chosen + "' is not one of " + candidates);
        }
        accuracy = accuracy.clone();
    }

    @Override
    public double[] accuracy() {
        return accuracy.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolScores p
                && candidates.equals(p.candidates)
                && Arrays.equals(accuracy, p.accuracy)
                && chosen.equals(p.chosen);
    }

    @Override
    public int hashCode() {
        return Objects.hash(candidates, Arrays.hashCode(accuracy), chosen);
    }
}
