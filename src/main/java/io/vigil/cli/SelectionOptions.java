package io.vigil.cli;

import io.vigil.model.CvScheme;
import io.vigil.select.NeighborSelection;
import io.vigil.select.TrainParams;
import picocli.CommandLine.Option;

/**
 * The model-selection options shared by {@code vigil train} and {@code vigil experiment table33}, declared and
 * parsed in one place so both commands mean the same thing by them.
 */
public final class SelectionOptions {
    @Option(
            names = "--standardize",
            description = "Standardise each feature with training mean and standard "
                    + "deviation first (off by default: UCR series are z-normalised per series).")
    boolean standardize;

    @Option(
            names = "--refine",
            description = "Refine the final LDG basis by gradient descent on the thesis's objective (3.4) "
                    + "(Algorithm 1) after the eigen solution; off by default.")
    boolean refine;

    @Option(
            names = "--cv",
            paramLabel = "loo|N",
            description = "Cross-validation for gamma, dims and local-QDA "
                    + "neighbours: 'loo' or a fold count (default: loo for n <= 100, else 10).")
    String cv;

    @Option(
            names = "--neighbor-cv",
            paramLabel = "loo|N",
            defaultValue = "5",
            description = "Cross-validation for the LDG neighbour count (default: ${DEFAULT-VALUE}, as in the thesis).")
    String neighborCv;

    @Option(
            names = "--neighbor-selection",
            paramLabel = "local-qda|3nn",
            defaultValue = "local-qda",
            description = "How to choose the LDG neighbour count: local-qda (thesis: local-QDA CV on the input "
                    + "data) or 3nn (jointly with gamma by 3-NN CV in LDG space). Default: ${DEFAULT-VALUE}.")
    String neighborSelection;

    /**
     * Applies these options to {@code base}.
     *
     * @throws IllegalArgumentException when a value does not parse (callers turn it into a usage error)
     */
    TrainParams.Builder applyTo(TrainParams.Builder b) {
        b.standardize(standardize)
                .refine(refine)
                .neighborCv(CvScheme.parse(neighborCv))
                .neighborSelection(NeighborSelection.parse(neighborSelection));
        return cv == null ? b : b.cv(CvScheme.parse(cv));
    }
}
