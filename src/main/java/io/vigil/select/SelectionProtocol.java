package io.vigil.select;

import io.vigil.util.EnumNames;

/**
 * Whether the selection protocol itself — per-feature standardisation on or off, and the LDG neighbour rule ({@link
 * NeighborSelection}) — is taken as given or chosen on the training data.
 *
 * <ul>
 *   <li>{@link #GIVEN} — the standardisation and neighbour rule of {@link TrainParams} (by default the thesis's:
 *       none, and local QDA on the input data);
 *   <li>{@link #AUTO} — each of the four combinations runs the full selection, and the one with the best 3-NN
 *       cross-validation accuracy on the training series is kept (ties → the earlier in the order off/local-qda,
 *       on/local-qda, off/3nn, on/3nn, the thesis's protocol first). It costs the four selections (the 3nn ones are
 *       several times slower than local-qda), and every score is kept in the model.
 * </ul>
 */
public enum SelectionProtocol {
    /** The standardisation and neighbour rule given in {@link TrainParams}. */
    GIVEN("given"),
    /** The best of the four combinations by training cross-validation. */
    AUTO("auto");

    private final String cliName;

    SelectionProtocol(String cliName) {
        this.cliName = cliName;
    }

    /** {@code given} or {@code auto}, as on the command line. */
    public String cliName() {
        return cliName;
    }

    /** Parses {@link #cliName()}. */
    public static SelectionProtocol parse(String s) {
        return EnumNames.parse(SelectionProtocol.class, s, SelectionProtocol::cliName, "selection protocol");
    }
}
