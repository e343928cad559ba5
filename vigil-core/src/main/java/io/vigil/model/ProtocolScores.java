package io.vigil.model;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * How {@code --selection auto} chose the selection protocol: each candidate (standardisation / LDG neighbour rule, e.g.
 * {@code off/local-qda}) with the 3-NN cross-validation accuracy its own selection reached, and the accuracies of its
 * chosen parameters on fresh folds that no candidate's selection used (3-NN and local QDA), by whose mean the
 * candidates were compared ({@link #score}, {@link #best}). The fresh folds are 3 repeats of seeded stratified
 * 10-fold CV on the training series with LDG refitted per fold; a selection's own accuracy is the maximum over its
 * search and favours the larger search, which is why it only breaks the tie when nothing could be checked.
 *
 * @param candidates the protocols tried, in the order tried
 * @param accuracy each one's 3-NN cross-validation accuracy at the end of its own selection, in [0, 1] (optimistic:
 *     the selection maximised it)
 * @param fresh3nn each one's 3-NN accuracy on the fresh folds, in [0, 1] or NaN where its ℓ exceeds what the fresh
 *     folds can supply; null in files written before the fresh-fold check (2026-11-26), whose choice was by {@code
 *     accuracy}
 * @param freshLocalQda each one's local-QDA accuracy on the same fresh folds (null exactly when {@code fresh3nn} is)
 * @param chosen one of {@code candidates}
 */
public record ProtocolScores(
        List<String> candidates, double[] accuracy, double[] fresh3nn, double[] freshLocalQda, String chosen) {
    /**
     * @throws IllegalArgumentException on arrays of different lengths, one fresh array without the other, an
     *     accuracy outside [0, 1] or an unknown choice
     */
    public ProtocolScores {
        candidates = List.copyOf(candidates);
        Objects.requireNonNull(chosen, "chosen");
        check(candidates, accuracy, "accuracy", false);
        if ((fresh3nn == null) != (freshLocalQda == null)) {
            throw new IllegalArgumentException(
                    "selection.protocol_scores needs both fresh_3nn and fresh_local_qda, or neither");
        }
        if (fresh3nn != null) {
            check(candidates, fresh3nn, "fresh_3nn", true);
            check(candidates, freshLocalQda, "fresh_local_qda", true);
        }
        if (!candidates.contains(chosen)) {
            throw new IllegalArgumentException(
                    "selection.protocol_scores.chosen '" + chosen + "' is not one of " + candidates);
        }
        accuracy = accuracy.clone();
        fresh3nn = fresh3nn == null ? null : fresh3nn.clone();
        freshLocalQda = freshLocalQda == null ? null : freshLocalQda.clone();
    }

    private static void check(List<String> candidates, double[] a, String name, boolean nanAllowed) {
        Objects.requireNonNull(a, name);
        if (candidates.size() != a.length) {
            throw new IllegalArgumentException("selection.protocol_scores has " + candidates.size() + " candidates but "
                    + a.length + " values of " + name);
        }
        for (double v : a) {
            if (!(v >= 0 && v <= 1) && !(nanAllowed && Double.isNaN(v))) {
                throw new IllegalArgumentException(
                        "selection.protocol_scores." + name + " values must lie in [0, 1], got " + v);
            }
        }
    }

    /**
     * What candidate {@code i} was compared by: the mean of its fresh-fold 3-NN and local-QDA accuracies (NaN when its
     * ℓ could not be checked), or its selection accuracy in files without the fresh-fold check.
     */
    public double score(int i) {
        return fresh3nn == null ? accuracy[i] : (fresh3nn[i] + freshLocalQda[i]) / 2;
    }

    /**
     * Scores closer than this are a tie. They are means of fold counts over n series (multiples of 1/(6n) at least), so
     * distinct scores differ by far more, while the same counts summed in another order may differ in the last bits.
     */
    private static final double TIE = 1e-9;

    /**
     * The index of the candidate to keep: the best {@link #score} (NaN below any number), ties → the earlier. When
     * every score is NaN, the best selection accuracy instead.
     *
     * @param accuracy selection accuracies
     * @param fresh3nn fresh-fold 3-NN accuracies
     * @param freshLocalQda fresh-fold local-QDA accuracies
     */
    public static int best(double[] accuracy, double[] fresh3nn, double[] freshLocalQda) {
        double[] score = new double[accuracy.length];
        boolean any = false;
        for (int i = 0; i < score.length; i++) {
            score[i] = (fresh3nn[i] + freshLocalQda[i]) / 2;
            any |= !Double.isNaN(score[i]);
        }
        double[] by = any ? score : accuracy;
        int best = -1;
        for (int i = 0; i < by.length; i++) {
            if (!Double.isNaN(by[i]) && (best < 0 || by[i] > by[best] + TIE)) {
                best = i;
            }
        }
        return Math.max(best, 0);
    }

    @Override
    public double[] accuracy() {
        return accuracy.clone();
    }

    @Override
    public double[] fresh3nn() {
        return fresh3nn == null ? null : fresh3nn.clone();
    }

    @Override
    public double[] freshLocalQda() {
        return freshLocalQda == null ? null : freshLocalQda.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProtocolScores p
                && candidates.equals(p.candidates)
                && Arrays.equals(accuracy, p.accuracy)
                && Arrays.equals(fresh3nn, p.fresh3nn)
                && Arrays.equals(freshLocalQda, p.freshLocalQda)
                && chosen.equals(p.chosen);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                candidates,
                Arrays.hashCode(accuracy),
                Arrays.hashCode(fresh3nn),
                Arrays.hashCode(freshLocalQda),
                chosen);
    }

    @Override
    public String toString() {
        return "ProtocolScores[candidates=" + candidates + ", accuracy=" + Arrays.toString(accuracy) + ", fresh3nn="
                + Arrays.toString(fresh3nn) + ", freshLocalQda=" + Arrays.toString(freshLocalQda) + ", chosen="
                + chosen + "]";
    }
}
