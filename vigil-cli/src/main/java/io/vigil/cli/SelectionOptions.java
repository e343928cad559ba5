package io.vigil.cli;

import io.vigil.ldg.SparseLdg;
import io.vigil.model.CvScheme;
import io.vigil.select.NeighborSelection;
import io.vigil.select.Reducer;
import io.vigil.select.SelectionProtocol;
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
    public boolean standardize;

    @Option(
            names = "--reducer",
            paramLabel = "ldg|kernel-ldg|transfer-ldg|sparse-ldg",
            defaultValue = "ldg",
            description = "Dimensionality reduction: linear LDG (thesis 3.1-3.2), kernel LDG (3.3.2, non-linear: "
                    + "for vigil classify only; early decisions need a linear map), transfer LDG (ch. 4, vigil "
                    + "train with --source-data) or sparse LDG (3.3.3) (default: ${DEFAULT-VALUE}).")
    public String reducer;

    @Option(
            names = "--kernel",
            paramLabel = "rbf|poly",
            description = "Kernel LDG's kernel: rbf exp(-|a-b|^2/(2w^2)) or poly (a.b/d + 1)^p (default: rbf).")
    public String kernel;

    @Option(
            names = "--kernel-param",
            paramLabel = "X",
            description = "Kernel LDG's rbf width w or poly degree p (default: chosen by 3-NN CV from w in "
                    + "{0.5, 1, 2, 4} x the median distance between training series, or p in {2, 3}).")
    public Double kernelParam;

    @Option(
            names = "--sparsity",
            paramLabel = "L",
            description = "Sparse LDG's l1 penalty lambda relative to the Frobenius norm of V - gamma A (default: "
                    + "chosen from {0.001, 0.002, 0.005, 0.01} by 3-fold 3-NN cross-validation on the training "
                    + "series; 0 gives LDG's dense columns, larger values sparser ones).")
    Double sparsity;

    @Option(
            names = "--deflation",
            paramLabel = "orthonormal|sparse",
            description = "Sparse LDG's deflation: orthonormal (B'B = I, default) or sparse (sparser, columns not "
                    + "orthogonal), thesis 3.3.3.")
    String deflation;

    @Option(
            names = "--refine",
            description = "Refine the final LDG basis by gradient descent on the thesis's objective (3.4) "
                    + "(Algorithm 1) after the eigen solution; off by default.")
    public boolean refine;

    @Option(
            names = "--cv",
            paramLabel = "loo|N",
            description = "Cross-validation for gamma, dims and local-QDA "
                    + "neighbours: 'loo' or a fold count (default: loo for n <= 100, else 10).")
    public String cv;

    @Option(
            names = "--neighbor-cv",
            paramLabel = "loo|N",
            defaultValue = "5",
            description = "Cross-validation for the LDG neighbour count (default: ${DEFAULT-VALUE}, as in the thesis).")
    public String neighborCv;

    @Option(
            names = "--neighbor-selection",
            paramLabel = "local-qda|3nn",
            description = "How to choose the LDG neighbour count: local-qda (thesis: local-QDA CV on the input "
                    + "data) or 3nn (jointly with gamma by 3-NN CV in LDG space). Given, it fixes the selection "
                    + "protocol (--selection given); default: chosen by --selection auto, else local-qda.")
    public String neighborSelection;

    @Option(
            names = "--selection",
            paramLabel = "auto|all|given",
            description = "How standardisation and the LDG neighbour rule are chosen. all: run the full selection "
                    + "under each of off/local-qda, on/local-qda, off/3nn, on/3nn, check each one's choice on "
                    + "fresh training folds (3-NN and local QDA, 3 x 10-fold) and keep the best (four selections; "
                    + "scores kept in the model); auto: "
                    + "as all for --reducer ldg when n^2*d <= 1e9 (n series of length d), else as given; given: as "
                    + "--standardize and --neighbor-selection say. Default: auto, or given when either of those "
                    + "two is on the command line.")
    public String selection;

    /**
     * Applies these options to {@code base}.
     *
     * @throws IllegalArgumentException when a value does not parse (callers turn it into a usage error)
     */
    public TrainParams.Builder applyTo(TrainParams.Builder b) {
        return apply(b, Reducer.parse(reducer), true);
    }

    /**
     * Applies these options with reducer {@code r} instead of {@code --reducer}, as a comparison of reducers runs
     * them: the kernel flags reach kernel LDG only and {@code --refine} linear LDG only.
     */
    public TrainParams.Builder applyTo(TrainParams.Builder b, Reducer r) {
        return apply(b, r, false);
    }

    private TrainParams.Builder apply(TrainParams.Builder b, Reducer r, boolean every) {
        b.standardize(standardize)
                .refine(refine && (every || r == Reducer.LDG))
                .reducer(r)
                .neighborCv(CvScheme.parse(neighborCv))
                .neighborSelection(
                        neighborSelection == null
                                ? NeighborSelection.LOCAL_QDA
                                : NeighborSelection.parse(neighborSelection))
                .protocol(protocol());
        if (every || r == Reducer.SPARSE_LDG) {
            if (sparsity != null) {
                b.sparsity(sparsity);
            }
            if (deflation != null) {
                b.deflation(parseDeflation(deflation));
            }
        }
        if (every || r == Reducer.KERNEL_LDG) {
            if (kernel != null) {
                b.kernel(kernel);
            }
            if (kernelParam != null) {
                b.kernelParam(kernelParam);
            }
        }
        return cv == null ? b : b.cv(CvScheme.parse(cv));
    }

    /**
     * {@code --selection} as given; without it, {@code given} when {@code --standardize} or {@code
     * --neighbor-selection} fixes part of the protocol, else {@code auto}. An explicit {@code auto} or {@code all}
     * beside either of them is a contradiction.
     */
    private SelectionProtocol protocol() {
        boolean fixed = standardize || neighborSelection != null;
        if (selection == null) {
            return fixed ? SelectionProtocol.GIVEN : SelectionProtocol.AUTO;
        }
        SelectionProtocol p = SelectionProtocol.parse(selection);
        if (fixed && p != SelectionProtocol.GIVEN) {
            throw new IllegalArgumentException("--selection " + p.cliName()
                    + " chooses --standardize and --neighbor-selection itself; leave them out");
        }
        return p;
    }

    private static SparseLdg.Deflation parseDeflation(String s) {
        return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "orthonormal" -> SparseLdg.Deflation.ORTHONORMAL;
            case "sparse" -> SparseLdg.Deflation.SPARSE;
            default -> throw new IllegalArgumentException("--deflation must be orthonormal or sparse, got '" + s + "'");
        };
    }
}
