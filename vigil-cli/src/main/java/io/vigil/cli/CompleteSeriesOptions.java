package io.vigil.cli;

import io.vigil.early.EarlyModelTrainer;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.gauss.ShrinkageMethod;
import io.vigil.gauss.ShrinkageParams;
import java.util.EnumSet;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}'s options for the parts of a model that early decisions need (thesis §5.4, §5.6.2): the
 * complete-series estimators to store, their covariance shrinkage and form, and the linear SVM's cost.
 */
public final class CompleteSeriesOptions {
    @Option(
            names = "--estimators",
            split = ",",
            paramLabel = "joint,gmm",
            defaultValue = "joint,gmm",
            description = "Complete-series Gaussians to store for early decisions (thesis 5.19 joint, 5.20 gmm; "
                    + "default: ${DEFAULT-VALUE}).")
    List<String> estimators;

    @Option(
            names = "--shrinkage",
            paramLabel = "ledoit-wolf|oas|none|X",
            defaultValue = "ledoit-wolf",
            description = "Covariance shrinkage of the complete-series Gaussians: ledoit-wolf, oas, none, or a "
                    + "fixed intensity X in [0, 1] (default: ${DEFAULT-VALUE}).")
    String shrinkage;

    @Option(
            names = "--covariance",
            paramLabel = "dense|low-rank|auto",
            defaultValue = "auto",
            description = "How the complete-series Gaussians hold their covariance: dense LDL^T factors (O(d^2)), "
                    + "low-rank (scaled identity + rank n-1 term, O(n d), for long series), or auto: low-rank when "
                    + "n-1 <= d/2 or d > 4096 (default: ${DEFAULT-VALUE}).")
    String covariance;

    @Option(
            names = "--svm-cost",
            paramLabel = "C",
            defaultValue = "1.0",
            description = "Cost C of the one-vs-rest linear SVM stored for --classifier linear-svm "
                    + "(default: ${DEFAULT-VALUE}).")
    double svmCost;

    /**
     * The trainer parameters.
     *
     * @throws IllegalArgumentException on a value that does not parse (callers turn it into a usage error)
     */
    EarlyModelTrainer.Params params(long seed) {
        EnumSet<EstimatorType> types = EnumSet.noneOf(EstimatorType.class);
        for (String e : estimators) {
            types.add(EstimatorType.fromId(e));
        }
        return new EarlyModelTrainer.Params(
                parseShrinkage(shrinkage), CovarianceForm.fromId(covariance), types, svmCost, seed);
    }

    static ShrinkageParams parseShrinkage(String s) {
        try {
            return ShrinkageParams.fixed(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            ShrinkageMethod m = ShrinkageMethod.fromId(s);
            if (m == ShrinkageMethod.FIXED) {
                throw new IllegalArgumentException(
                        "--shrinkage fixed needs the intensity itself, e.g. --shrinkage 0.3");
            }
            return new ShrinkageParams(m, Double.NaN);
        }
    }
}
