package io.vigil.select;

import io.vigil.util.EnumNames;

/**
 * Whether the selection protocol itself — per-feature standardisation on or off, and the LDG neighbour rule ({@link
 * NeighborSelection}) — is taken as given or chosen on the training data.
 *
 * <ul>
 *   <li>{@link #AUTO} (default) — as {@link #ALL} for linear LDG when neither standardisation nor the neighbour rule
 *       is fixed and the training set is small enough ({@link #searchesFor}); otherwise as {@link #GIVEN}. The
 *       search chose better than the thesis's protocol on the Table 3.3 re-splits and on the standard splits
 *       (BENCHMARKS.md, the selection protocol tables), so it is what users get without asking;
 *   <li>{@link #ALL} — each of the four combinations runs the full selection; each one's chosen parameters are
 *       then checked on fresh training folds that no selection used, and the one with the best check is kept (ties
 *       → the earlier in the order off/local-qda, on/local-qda, off/3nn, on/3nn, the thesis's protocol first; the
 *       rule is {@code ProtocolSearch.trainAuto}). It costs the four selections (the 3nn ones are several times
 *       slower than local-qda) plus a few refits per candidate, and every score is kept in the model;
 *   <li>{@link #GIVEN} — the standardisation and neighbour rule of {@link TrainParams} (by default the thesis's:
 *       none, and local QDA on the input data).
 * </ul>
 */
public enum SelectionProtocol {
    /** The four-way search where it is affordable and nothing in it is fixed, else the given protocol. */
    AUTO("auto"),
    /** The best of the four combinations by training cross-validation, whatever the cost. */
    ALL("all"),
    /** The standardisation and neighbour rule given in {@link TrainParams}. */
    GIVEN("given");

    /**
     * n²·d above which {@link #AUTO} keeps the given protocol: 300 series of length 11,111. One selection costs
     * O(n²·d) per LDG refit, and the four-way search five to eight times one selection (WordSynonyms, n = 267,
     * d = 270: 65 s against 9 s under load, 12.6 s against 2.5 s idle); above this size one selection already takes
     * tens of seconds.
     */
    public static final double AUTO_MAX_WORK = 1e9;

    private final String cliName;

    SelectionProtocol(String cliName) {
        this.cliName = cliName;
    }

    /** {@code auto}, {@code all} or {@code given}, as on the command line. */
    public String cliName() {
        return cliName;
    }

    /**
     * Whether training under {@code params} runs the four-way search on n training series of length d: always for
     * {@link #ALL}, never for {@link #GIVEN}, and for {@link #AUTO} when the reducer is linear LDG, standardisation
     * is off and the neighbour rule is the default (setting either fixes the protocol, as a fixed value skips its
     * search everywhere in {@link TrainParams}), and n²·d ≤ {@link #AUTO_MAX_WORK}.
     */
    static boolean searchesFor(TrainParams params, int n, int d) {
        return switch (params.protocol()) {
            case ALL -> true;
            case GIVEN -> false;
            case AUTO -> params.reducer() == Reducer.LDG
                    && !params.standardize()
                    && params.neighborSelection() == NeighborSelection.LOCAL_QDA
                    && (double) n * n * d <= AUTO_MAX_WORK;
        };
    }

    /**
     * Whether {@link #AUTO} would search under {@code params} but for the size of the training set (n²·d above
     * {@link #AUTO_MAX_WORK}), which {@code vigil train} says once so that the user can ask for {@link #ALL}.
     */
    public static boolean skippedForSize(TrainParams params, int n, int d) {
        return params.protocol() == AUTO
                && params.reducer() == Reducer.LDG
                && !params.standardize()
                && params.neighborSelection() == NeighborSelection.LOCAL_QDA
                && (double) n * n * d > AUTO_MAX_WORK;
    }

    /** Parses {@link #cliName()}. */
    public static SelectionProtocol parse(String s) {
        return EnumNames.parse(SelectionProtocol.class, s, SelectionProtocol::cliName, "selection protocol");
    }
}
