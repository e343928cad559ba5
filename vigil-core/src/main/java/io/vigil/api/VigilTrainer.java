package io.vigil.api;

import io.vigil.data.Dataset;
import io.vigil.data.Folds;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.VigilModel;
import io.vigil.select.Reducer;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.select.TransferTrainer;
import io.vigil.util.Progress;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The one training pipeline: LDG and local-QDA selection and fit ({@link Trainer}, thesis §3.4–3.5; {@link
 * TransferTrainer} for transfer LDG, ch. 4), then the complete-series Gaussians and the linear SVM early decisions need
 * ({@link EarlyModelTrainer}, §5.4, §5.6.2), then the cross-fitted calibration that certifies the decision thresholds
 * ({@link CrossFitCalibrator}, docs/method.md §5–§6). {@code vigil train}, {@code vigil demo} and the experiments all
 * train through it, so a model trained here with {@link TrainOptions#defaults()} is the one {@code vigil train}
 * writes. A kernel-LDG model is non-linear: it gets no early-decision sections (use it to classify complete series).
 */
public final class VigilTrainer {
    private VigilTrainer() {}

    /** Training ran out of memory; the message says in which stage, roughly how much was needed, and what helps. */
    public static final class InsufficientMemoryException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InsufficientMemoryException(String message, OutOfMemoryError cause) {
            super(message, cause);
        }
    }

    /**
     * Trains a model on {@code train}.
     *
     * @param train the training split (its name becomes the model's data set name)
     * @param options what to select, fit and calibrate ({@link TrainOptions#defaults()}: {@code vigil train}'s)
     * @param progress receives the steps of long stages ({@link Progress#none()} for none)
     * @throws IllegalArgumentException when the options do not fit the data ({@link #check})
     * @throws InsufficientMemoryException when the JVM runs out of memory, naming the stage
     */
    public static VigilModel train(Dataset train, TrainOptions options, Progress progress) {
        return train(train, null, options, progress);
    }

    /**
     * As {@link #train(Dataset, TrainOptions, Progress)} with transfer LDG ({@link Reducer#TRANSFER_LDG}, thesis ch.
     * 4): {@code source} is the related data set whose series are pooled with the target's; null for other reducers.
     */
    public static VigilModel train(Dataset train, Dataset source, TrainOptions options, Progress progress) {
        return trainEach(train, source, options, List.of(), progress).get(0);
    }

    /**
     * As {@link #train(Dataset, TrainOptions, Progress)}, certified under each of {@code variants} — calibration
     * parameters that differ only in what is certified (guarantee, selection correction, δ, objective): the model is
     * fitted and cross-fitted once, so the variants are compared on the same replays. An empty list means the options'
     * own calibration.
     *
     * @return one model per variant, in order (one model for an empty list)
     */
    public static List<VigilModel> trainEach(
            Dataset train, TrainOptions options, List<CalibrationParams> variants, Progress progress) {
        return trainEach(train, null, options, variants, progress);
    }

    private static List<VigilModel> trainEach(
            Dataset train, Dataset source, TrainOptions options, List<CalibrationParams> variants, Progress progress) {
        Objects.requireNonNull(train, "train");
        Objects.requireNonNull(options, "options");
        TrainParams params = options.selection();
        boolean transfer = params.reducer() == Reducer.TRANSFER_LDG;
        if (transfer != (source != null)) {
            throw new IllegalArgumentException(
                    transfer
                            ? "transfer-ldg needs a source data set"
                            : "a source data set applies to transfer-ldg only, not " + params.reducer());
        }
        checkOptions(options);
        check(options, train);
        List<CalibrationParams> certify =
                variants.isEmpty() ? options.calibration().map(List::of).orElse(List.of()) : variants;
        String stage = "select and fit LDG";
        try {
            if (options.calibrationHoldout() > 0 && !certify.isEmpty()) {
                return trainHoldout(train, options, certify, progress);
            }
            VigilModel model;
            Dataset fitted = train;
            if (transfer) {
                TransferTrainer.Result r = TransferTrainer.train(
                        train,
                        source,
                        params,
                        options.created(),
                        progress,
                        Runtime.getRuntime().availableProcessors());
                model = r.model();
                fitted = r.pooled();
            } else {
                model = Trainer.train(train, params, options.created(), progress);
            }
            if (!model.projection().isLinear()) {
                return List.of(model); // kernel LDG has no B: nothing the early rule needs can be fitted
            }
            stage = "fit the complete-series Gaussians";
            model = EarlyModelTrainer.addSections(model, fitted, options.sections());
            if (certify.isEmpty()) {
                return List.of(model);
            }
            stage = "cross-fit the calibration";
            if (transfer) {
                return List.of(CrossFitCalibrator.calibrateTransfer(
                        model, train, source, options.sections(), certify.get(0), progress));
            }
            return CrossFitCalibrator.calibrateEach(
                    model,
                    train,
                    options.sections(),
                    certify,
                    options.reselectInFolds() ? Optional.of(params) : Optional.empty(),
                    progress);
        } catch (OutOfMemoryError e) {
            throw new InsufficientMemoryException(memoryMessage(stage, train, options.sections()), e);
        }
    }

    /**
     * Holdout calibration (docs/guarantee.md, "Holdout calibration"): a stratified share of the series, drawn with the
     * calibration seed, is set aside before anything is selected or fitted; the model is trained on the rest exactly
     * as {@link #train} trains on all series, and certified on the held-out part through {@link
     * CrossFitCalibrator#calibrateHoldout}, so the certificate is for this model.
     */
    private static List<VigilModel> trainHoldout(
            Dataset train, TrainOptions options, List<CalibrationParams> certify, Progress progress) {
        double share = options.calibrationHoldout();
        int n = train.size();
        int[] held = Folds.stratifiedHoldout(
                train.classIndices(), train.numClasses(), share, certify.get(0).seed());
        if (held.length < 2) {
            throw new IllegalArgumentException(String.format(
                    Locale.ROOT,
                    "--calibration holdout:%s holds out %d of the %d training series of %s; at least 2 are needed "
                            + "(a larger share, more series, or --calibration cross-fit)",
                    share,
                    held.length,
                    n,
                    train.name()));
        }
        Dataset fit = train.subset(Folds.complement(held, n));
        VigilModel model = Trainer.train(fit, options.selection(), options.created(), progress);
        if (!model.projection().isLinear()) {
            return List.of(model);
        }
        model = EarlyModelTrainer.addSections(model, fit, options.sections());
        return CrossFitCalibrator.calibrateHoldout(
                model, fit, train.subset(held), options.sections(), certify, share, progress);
    }

    /**
     * Checks that the options can be applied to this training set: fixed neighbour counts, dimension, segments and
     * fold counts within its size, the calibration's estimator among those stored, no fold reselection for transfer
     * LDG, an observation pattern's channels within the data's.
     *
     * @throws IllegalArgumentException naming the option ({@code vigil train}'s flag) and both sizes
     */
    public static void check(TrainOptions options, Dataset train) {
        TrainParams p = options.selection();
        int n = train.size();
        String name = train.name();
        if (p.neighbors().isPresent() && p.neighbors().getAsInt() > n) {
            throw new IllegalArgumentException(
                    "--neighbors " + p.neighbors().getAsInt() + " exceeds the " + n + " training series of " + name);
        }
        if (p.qdaNeighbors().isPresent() && p.qdaNeighbors().getAsInt() > n) {
            throw new IllegalArgumentException("--qda-neighbors "
                    + p.qdaNeighbors().getAsInt() + " exceeds the " + n + " training series of " + name);
        }
        if (p.dims().isPresent() && p.dims().getAsInt() > train.length()) {
            throw new IllegalArgumentException(
                    "--dims " + p.dims().getAsInt() + " exceeds the series length " + train.length() + " of " + name);
        }
        if (p.segments().isPresent() && p.segments().getAsInt() > train.seriesLength()) {
            throw new IllegalArgumentException("--segments " + p.segments().getAsInt() + " exceeds the "
                    + train.seriesLength() + " samples per channel of " + name);
        }
        p.cv().filter(c -> !c.isLeaveOneOut() && c.folds() > n).ifPresent(c -> {
            throw new IllegalArgumentException(
                    "--cv " + c.folds() + " needs at least " + c.folds() + " training series; " + name + " has " + n);
        });
        if (!p.neighborCv().isLeaveOneOut() && p.neighborCv().folds() > n) {
            throw new IllegalArgumentException("--neighbor-cv " + p.neighborCv().folds() + " needs at least "
                    + p.neighborCv().folds() + " training series; " + name + " has " + n);
        }
        options.calibration().ifPresent(c -> {
            if (!c.pattern().isComplete()) {
                c.pattern().checkChannels(train.channels());
            }
        });
    }

    /**
     * Checks the options alone, before any data is read: the calibration's estimator must be stored, and fold
     * reselection applies to single-domain training.
     *
     * @throws IllegalArgumentException naming {@code vigil train}'s flag
     */
    public static void checkOptions(TrainOptions options) {
        options.calibration().ifPresent(c -> {
            if (!options.sections().estimators().contains(c.estimator())) {
                throw new IllegalArgumentException(
                        "--estimator " + c.estimator().id()
                                + " calibrates an estimator the model would not store; add it to --estimators");
            }
        });
        if (options.calibrationHoldout() > 0 && options.selection().reducer() == Reducer.TRANSFER_LDG) {
            throw new IllegalArgumentException(
                    "--calibration holdout applies to single-domain training, not transfer-ldg");
        }
        if (options.calibrationHoldout() > 0 && options.reselectInFolds()) {
            throw new IllegalArgumentException("--reselect-in-folds applies to --calibration cross-fit only: a holdout "
                    + "model's selection never sees the calibration series");
        }
        if (options.calibrationHoldout() > 0 && options.calibration().isEmpty()) {
            throw new IllegalArgumentException("--calibration holdout and --no-calibration exclude each other");
        }
        if (options.reselectInFolds() && options.selection().reducer() == Reducer.TRANSFER_LDG) {
            throw new IllegalArgumentException(
                    "--reselect-in-folds applies to single-domain training, not transfer-ldg");
        }
    }

    /**
     * One line for a memory shortfall: what needed the memory, roughly how much, and what helps. The dense
     * complete-series Gaussians hold a few d×d matrices per estimator (covariance, factor, conditional tables).
     */
    static String memoryMessage(String stage, Dataset train, EarlyModelTrainer.Params p) {
        long d = train.length();
        long n = train.size();
        boolean dense = p.covariance().resolve(train.size(), train.length()) == CovarianceForm.DENSE;
        long gaussians = (p.estimators().contains(EstimatorType.JOINT) ? 1 : 0)
                + (p.estimators().contains(EstimatorType.GMM) ? train.numClasses() : 0);
        // Dense: about four d×d matrices while fitting one Gaussian (CovarianceForm), plus the stored factor of each;
        // low-rank: d×n factors and generators per Gaussian.
        long need = dense ? 8L * d * d * (4 + Math.max(1, gaussians)) : 8L * d * n * 4 * Math.max(1, gaussians);
        long max = Runtime.getRuntime().maxMemory();
        return String.format(
                Locale.ROOT,
                "not enough memory to %s of %s (%d series of length %d): the %s complete-series Gaussians need "
                        + "about %d MB (%s) and the JVM may use %d MB; run java -Xmx%dm -jar vigil.jar train …%s",
                stage,
                train.name(),
                n,
                d,
                dense ? "dense" : "low-rank",
                need >> 20,
                dense ? (8L * d * d >> 20) + " MB per " + d + "×" + d + " matrix" : d + "×" + n + " factors",
                max >> 20,
                Math.max(512, (2 * need) >> 20),
                dense
                        ? ", or use --covariance low-rank (O(n·d) memory) or --estimators joint"
                        : ", or --estimators joint");
    }
}
