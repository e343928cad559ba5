package io.vigil.model;

import java.util.Objects;

/**
 * How the model's parameters were chosen (docs/method.md §1, thesis §3.4–3.5): the cross-validation schemes,
 * the dimension at which γ was chosen, every score of every grid, and the final cross-validated 3-NN
 * accuracy. Stored in the model file so a selection is auditable and repeatable. Value equality is the
 * record's (doubles compared as by {@link Double#compare}, so a NaN accuracy equals itself).
 *
 * @param cv scheme used for γ, ℓ and the local-QDA neighbours
 * @param neighborMethod how the LDG neighbour count was scored: {@code local-qda} (thesis §3.4, local QDA on
 *     the input data with {@code neighborCv}) or {@code 3nn} (jointly with γ by 3-NN CV with {@code cv})
 * @param neighborCv scheme used for the LDG neighbour count (the thesis uses five-fold)
 * @param gammaDims ℓ at which γ was scored (G−1 for small-sample data, G+5 otherwise, capped)
 * @param ldgNeighbors local-QDA accuracy on the original data per LDG neighbour count
 * @param gamma 3-NN accuracy per γ at {@code gammaDims}
 * @param dims 3-NN accuracy per ℓ at the chosen γ
 * @param qdaNeighbors local-QDA accuracy in LDG space per neighbour count
 * @param cvAccuracy 3-NN cross-validation accuracy at the chosen (γ, ℓ); NaN if not scored
 * @param protocol how {@code --selection auto} chose the standardisation and neighbour rule; null when they were
 *     given (and in files written before that option)
 */
public record SelectionReport(
        CvScheme cv,
        String neighborMethod,
        CvScheme neighborCv,
        int gammaDims,
        GridScores ldgNeighbors,
        GridScores gamma,
        GridScores dims,
        GridScores qdaNeighbors,
        double cvAccuracy,
        ProtocolScores protocol) {
    /**
     * @throws NullPointerException on a missing part
     */
    public SelectionReport {
        Objects.requireNonNull(cv, "cv");
        Objects.requireNonNull(neighborMethod, "neighborMethod");
        Objects.requireNonNull(neighborCv, "neighborCv");
        Objects.requireNonNull(ldgNeighbors, "ldgNeighbors");
        Objects.requireNonNull(gamma, "gamma");
        Objects.requireNonNull(dims, "dims");
        Objects.requireNonNull(qdaNeighbors, "qdaNeighbors");
    }

    /** A report of a selection whose protocol was given (no {@link ProtocolScores}). */
    public SelectionReport(
            CvScheme cv,
            String neighborMethod,
            CvScheme neighborCv,
            int gammaDims,
            GridScores ldgNeighbors,
            GridScores gamma,
            GridScores dims,
            GridScores qdaNeighbors,
            double cvAccuracy) {
        this(cv, neighborMethod, neighborCv, gammaDims, ldgNeighbors, gamma, dims, qdaNeighbors, cvAccuracy, null);
    }

    /** This report with the scores of the protocol choice that led to it. */
    public SelectionReport withProtocol(ProtocolScores p) {
        return new SelectionReport(
                cv, neighborMethod, neighborCv, gammaDims, ldgNeighbors, gamma, dims, qdaNeighbors, cvAccuracy, p);
    }
}
