package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.early.calibrate.CrossFitCalibrator;
import io.vigil.flink.cli.Json;
import io.vigil.gauss.CovarianceForm;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CalibrationSection;
import io.vigil.model.CreationTime;
import io.vigil.model.ProtocolScores;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.select.Reducer;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.select.TransferTrainer;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}: model selection and training on a training split (thesis §3.4–3.5, see {@link
 * Trainer}), written as a versioned model file. {@code --gamma}, {@code --dims}, {@code --neighbors} and
 * {@code --qda-neighbors} fix a value and skip its search. With {@code --json} stdout holds exactly one
 * JSON object: {@code dataset, classes, train_size, length, gamma, neighbors, dims, cv_accuracy,
 * fit_seconds}, then extras.
 */
@Command(
        name = "train",
        mixinStandardHelpOptions = true,
        description = {
            "Select LDG and local-QDA parameters by cross-validation and train a model (Parrish 2012, ch. 3).",
            "Same data, options and --seed give the same model; set SOURCE_DATE_EPOCH for a byte-identical file."
        })
public final class TrainCommand implements Callable<Integer> {
    @Mixin
    DataOptions data;

    @Mixin
    SelectionOptions selection;

    @Mixin
    CompleteSeriesOptions completeSeries;

    @Mixin
    CalibrationOptions calibration;

    @Mixin
    TransferOptions transfer;

    @Mixin
    ObservationOptions observation;

    @Option(names = "--out", required = true, paramLabel = "MODEL", description = "Model file to write (JSON).")
    Path out;

    @Option(
            names = "--gamma",
            paramLabel = "G",
            description = "Fix LDG gamma in [0, 1] (default: 3-NN CV over 0.01, 0.1, 0.3, 0.5, 0.7, 0.9).")
    Double gamma;

    @Option(
            names = "--dims",
            paramLabel = "L",
            description = "Fix the LDG dimension (default: 3-NN CV over G-1, G, G+1, G+2, G+4, G+8, G+16, G+32).")
    Integer dims;

    @Option(
            names = "--segments",
            paramLabel = "S",
            description = "Fix the time segments per channel within which LDG directions are constant "
                    + "(default: the series length, i.e. full resolution; several channels under --selection auto "
                    + "also try 32, 16, 8, 4, 2, 1 and keep what scores best on fresh training folds).")
    Integer segments;

    @Option(
            names = "--neighbors",
            paramLabel = "K",
            description = "Fix the LDG neighbour count (default: 5-fold "
                    + "CV of local QDA on the input data over 1, 2, 4, ..., 128).")
    Integer neighbors;

    @Option(
            names = "--qda-neighbors",
            paramLabel = "K",
            description = "Fix local QDA's neighbour count in LDG space (default: CV over 1, 2, 4, ..., 128).")
    Integer qdaNeighbors;

    @Option(
            names = "--seed",
            paramLabel = "S",
            defaultValue = "1",
            description = "Seed of the fold assignment (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout; no progress bar.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TrainParams params = params();
        EarlyModelTrainer.Params earlyParams;
        CalibrationParams calibrationParams;
        try {
            earlyParams = completeSeries.params(seed);
            calibrationParams = calibration.params(seed).withPattern(observation.pattern());
            if (calibration.enabled() && !earlyParams.estimators().contains(calibrationParams.estimator())) {
                throw new IllegalArgumentException(
                        "--estimator " + calibrationParams.estimator().id()
                                + " calibrates an estimator the model would not store; add it to --estimators");
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (calibration.reselectInFolds && params.reducer() == Reducer.TRANSFER_LDG) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--reselect-in-folds applies to single-domain training, not transfer-ldg");
        }
        Dataset train = data.loadTrain();
        Dataset named = train.name().equals(data.datasetName()) ? train : rename(train, data.datasetName());
        checkAgainstData(params, named);
        if (!calibrationParams.pattern().isComplete()) {
            if (!calibration.enabled()) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(),
                        "--missing, --channel-lag, --drop-channel and --shuffle set the pattern of the calibration "
                                + "replays; they need calibration (drop --no-calibration)");
            }
            try {
                ObservationOptions.checkChannels(calibrationParams.pattern(), named.channels());
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
            }
        }
        warnDuplicates(named);
        if (SelectionProtocol.skippedForSize(params, named.size(), named.length())) {
            spec.commandLine()
                    .getErr()
                    .printf(
                            Locale.ROOT,
                            "note: %d series of length %d (n^2*d = %.2g > %.0g): the selection protocol is the "
                                    + "thesis's, not searched (--selection all searches it anyway, at about 8x the "
                                    + "selection time)%n",
                            named.size(),
                            named.length(),
                            (double) named.size() * named.size() * named.length(),
                            SelectionProtocol.AUTO_MAX_WORK);
        }
        long start = System.nanoTime();
        VigilModel model;
        String stage = "select and fit LDG";
        Dataset source = params.reducer() == Reducer.TRANSFER_LDG ? transfer.load(data.readOptions()) : null;
        try (Progress progress = Progress.bar("train " + named.name(), 1, !json)) {
            Dataset fitted = named;
            if (source != null) {
                TransferTrainer.Result r;
                try {
                    r = TransferTrainer.train(
                            named,
                            source,
                            params,
                            CreationTime.now(),
                            progress,
                            Runtime.getRuntime().availableProcessors());
                } catch (IllegalArgumentException e) {
                    throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
                }
                model = r.model();
                fitted = r.pooled();
            } else {
                model = Trainer.train(named, params, CreationTime.now(), progress);
            }
            if (!model.projection().isLinear()) {
                // Kernel LDG has no B: nothing the early rule needs can be fitted (say so once, on stderr).
                spec.commandLine()
                        .getErr()
                        .println("note: kernel LDG is non-linear, so the model holds no early-decision sections; "
                                + "use it with vigil classify (evaluate, run and demo need --reducer ldg)");
            } else {
                stage = "fit the complete-series Gaussians";
                model = EarlyModelTrainer.addSections(model, fitted, earlyParams);
            }
            if (model.projection().isLinear()
                    && calibration.enabled()
                    && earlyParams.estimators().contains(calibrationParams.estimator())) {
                stage = "cross-fit the calibration";
                model = source == null
                        ? CrossFitCalibrator.calibrateEach(
                                        model,
                                        named,
                                        earlyParams,
                                        List.of(calibrationParams),
                                        calibration.reselectInFolds ? Optional.of(params) : Optional.empty(),
                                        progress)
                                .get(0)
                        : CrossFitCalibrator.calibrateTransfer(
                                model, named, source, earlyParams, calibrationParams, progress);
            }
        } catch (OutOfMemoryError e) {
            throw new IOException(memoryMessage(stage, named, earlyParams));
        }
        warnUncertified(model);
        warnExpectedUnderPattern(model);
        noteCrcDraw(model);
        double seconds = (System.nanoTime() - start) / 1e9;
        ModelFile.standard().save(model, out);
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            stdout.println(Json.line(summary(model, seconds)));
        } else {
            stdout.printf(
                    Locale.ROOT,
                    "trained %s: %d series of %slength %d, %d classes; gamma = %s, dims = %d%s, neighbours = %d, "
                            + "local-QDA k = %d; 3-NN CV accuracy %.4f (%s) in %.1f s%nwrote %s%n",
                    model.datasetName(),
                    model.trainSize(),
                    model.channels() > 1 ? model.channels() + " channels × " : "",
                    model.seriesLength(),
                    model.numClasses(),
                    model.gamma(),
                    model.dims(),
                    model.projection().segments().stream()
                            .mapToObj(v ->
                                    " (constant within " + v + " time segment" + (v == 1 ? "" : "s") + " per channel)")
                            .findFirst()
                            .orElse(""),
                    model.ldgNeighbors(),
                    model.qdaNeighbors(),
                    model.selection().cvAccuracy(),
                    model.selection().cv(),
                    seconds,
                    out);
            if (model.selection().protocol() != null) {
                ProtocolScores ps = model.selection().protocol();
                stdout.printf(
                        Locale.ROOT,
                        "selection protocol: %s (standardisation/neighbour rule, best of %d on fresh folds; see "
                                + "vigil inspect)%n",
                        ps.chosen(),
                        ps.candidates().size());
            }
            model.projection()
                    .transfer()
                    .ifPresent(t -> stdout.printf(
                            Locale.ROOT,
                            "transfer LDG: alpha = %s; %d target series + %d series of source %s%n",
                            t.alpha(),
                            t.targetSize(),
                            t.size(),
                            t.dataset()));
            model.section(CalibrationSection.class).ifPresent(c -> c.operatingPoint()
                    .ifPresent(p -> stdout.printf(
                            Locale.ROOT,
                            "operating point (%s, cross-fitted): tau = %s, rule %s, classifier %s, estimator %s, HM "
                                    + "%.3f%s%n",
                            p.objective(),
                            p.tau(),
                            p.rule().cliName(),
                            p.classifier().cliName(),
                            p.estimator().id(),
                            p.harmonicMean(),
                            p.certified()
                                    ? " (certified, " + c.guarantee().cliName() + ", "
                                            + c.selection().cliName() + ")"
                                    : " (not certified: decides at t = d)")));
        }
        stdout.flush();
        return 0;
    }

    private Map<String, Object> summary(VigilModel model, double seconds) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("dataset", model.datasetName());
        o.put("classes", model.classNames());
        o.put("train_size", model.trainSize());
        o.put("length", model.length());
        if (model.channels() > 1) {
            o.put("channels", model.channels());
        }
        o.put("gamma", model.gamma());
        o.put("neighbors", model.ldgNeighbors());
        o.put("dims", model.dims());
        model.projection().segments().ifPresent(v -> o.put("segments", v));
        o.put(
                "cv_accuracy",
                Double.isNaN(model.selection().cvAccuracy())
                        ? null
                        : model.selection().cvAccuracy());
        o.put("fit_seconds", seconds);
        o.put("qda_neighbors", model.qdaNeighbors());
        o.put("standardize", model.standardizer().isPresent());
        o.put("reducer", model.projection().reducer());
        model.projection().kernelMap().ifPresent(m -> {
            o.put("kernel", m.kernel().cliName());
            o.put("kernel_param", m.kernel().parameter());
        });
        model.projection().sparse().ifPresent(s -> {
            o.put("sparsity", s.sparsity());
            o.put("deflation", s.deflation().name().toLowerCase(Locale.ROOT));
            o.put("non_zeros", s.nonZeros());
            if (s.sparsityScores() != null) {
                o.put("sparsity_source", s.sparsityScores().source());
            }
        });
        model.projection().transfer().ifPresent(t -> {
            o.put("alpha", t.alpha());
            o.put("source_dataset", t.dataset());
            o.put("source_size", t.size());
        });
        o.put("refined", model.projection().refinement().isPresent());
        o.put("cv", model.selection().cv().toString());
        o.put("neighbor_selection", model.selection().neighborMethod());
        if (model.selection().protocol() != null) {
            o.put("selection_protocol", model.selection().protocol().chosen());
        }
        o.put("seed", model.seed());
        o.put("num_classes", model.numClasses());
        o.put("fingerprint", model.fingerprint());
        o.put("sections", model.sections().keySet());
        model.section(CalibrationSection.class).ifPresent(c -> o.put("calibration", CalibrationReport.json(model, c)));
        o.put("model", out.toString());
        return o;
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

    /** Options that cannot fit this training set are usage errors (exit 2), named with both sizes. */
    private void checkAgainstData(TrainParams p, Dataset train) {
        int n = train.size();
        String name = train.name();
        if (p.neighbors().isPresent() && p.neighbors().getAsInt() > n) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--neighbors " + p.neighbors().getAsInt() + " exceeds the " + n + " training series of " + name);
        }
        if (p.qdaNeighbors().isPresent() && p.qdaNeighbors().getAsInt() > n) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--qda-neighbors " + p.qdaNeighbors().getAsInt() + " exceeds the " + n + " training series of "
                            + name);
        }
        if (p.dims().isPresent() && p.dims().getAsInt() > train.length()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--dims " + p.dims().getAsInt() + " exceeds the series length " + train.length() + " of " + name);
        }
        if (p.segments().isPresent() && p.segments().getAsInt() > train.seriesLength()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--segments " + p.segments().getAsInt() + " exceeds the " + train.seriesLength()
                            + " samples per channel of " + name);
        }
        p.cv().filter(c -> !c.isLeaveOneOut() && c.folds() > n).ifPresent(c -> {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--cv " + c.folds() + " needs at least " + c.folds() + " training series; " + name + " has " + n);
        });
        if (!p.neighborCv().isLeaveOneOut() && p.neighborCv().folds() > n) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--neighbor-cv " + p.neighborCv().folds() + " needs at least "
                            + p.neighborCv().folds() + " training series; " + name + " has " + n);
        }
    }

    /**
     * Exact repeats of training series make leave-one-out scores optimistic (a left-out series keeps its twin), so
     * training says so on stderr.
     */
    private void warnDuplicates(Dataset train) {
        Map<List<Double>, Integer> first = new HashMap<>();
        List<String> repeats = new ArrayList<>();
        for (int i = 0; i < train.size(); i++) {
            double[] x = train.series(i);
            List<Double> key = new ArrayList<>(x.length + 1);
            for (double v : x) {
                key.add(v);
            }
            key.add((double) train.classOf(i));
            Integer j = first.putIfAbsent(key, i);
            if (j != null) {
                repeats.add("series " + (i + 1) + " = series " + (j + 1));
            }
        }
        if (!repeats.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("vigil train: warning: " + repeats.size() + " training series repeat earlier ones exactly "
                            + "(" + String.join(", ", repeats.subList(0, Math.min(5, repeats.size())))
                            + (repeats.size() > 5 ? ", …" : "") + "); cross-validated scores are optimistic");
        }
    }

    /**
     * One line on stderr when the operating point's τ cannot be certified (what would certify it, {@link
     * CalibrationReport#uncertifiedTarget}); otherwise one line naming the standard τ the training set is too small to
     * certify (docs/method.md §5).
     */
    private void warnUncertified(VigilModel model) {
        model.section(CalibrationSection.class).ifPresent(c -> {
            Optional<String> target = CalibrationReport.uncertifiedTarget(model, c);
            if (target.isPresent()) {
                spec.commandLine().getErr().println(target.get());
                return;
            }
            List<Double> taus = CalibrationReport.uncertified(model, c);
            if (!taus.isEmpty()) {
                spec.commandLine()
                        .getErr()
                        .println("vigil train: warning: with " + model.trainSize() + " training series the default "
                                + "rule cannot certify tau = " + taus + " ("
                                + c.guarantee().cliName() + ", delta = "
                                + c.delta() + ", selection " + c.selection().cliName() + " of " + c.candidates()
                                + " candidates); those "
                                + "are decided at t = d and reported \"certified\": "
                                + "false");
            }
        });
    }

    /**
     * One line on stderr when the {@code expected} guarantee was certified for an incomplete observation pattern:
     * conformal risk control (Angelopoulos et al. 2022, Theorem 1) assumes the most conservative rule's loss is at most
     * 1 − τ, which holds for complete series (waiting for the last value gives the complete-series label) but not when
     * values go missing — a series that ends undecided is labelled at E[x | observed] and may disagree. The line gives
     * the disagreement rate of the operating point's curve at its strictest threshold on the cross-fitted replays, so
     * the user sees which τ the premise rules out; {@code pac} needs no such premise (BENCHMARKS.md, "The mixture in
     * any order", re-splits under 20 % missing).
     */
    private void warnExpectedUnderPattern(VigilModel model) {
        model.section(CalibrationSection.class).ifPresent(c -> {
            if (c.guarantee() != Guarantee.EXPECTED || c.pattern().isComplete()) {
                return;
            }
            c.operatingPoint()
                    .flatMap(op -> c.curve(op.rule(), op.classifier(), op.set(), op.estimator()))
                    .ifPresent(curve -> {
                        int[] dis = curve.disagreements();
                        int end = dis[dis.length - 1];
                        spec.commandLine()
                                .getErr()
                                .println(String.format(
                                        Locale.ROOT,
                                        "vigil train: warning: --guarantee expected assumes the most conservative rule "
                                                + "disagrees with the complete-series label on at most 1 - tau of the "
                                                + "series; under pattern '%s' series that end undecided are labelled "
                                                + "at E[x | observed], and at the strictest threshold %d of %d "
                                                + "replayed series (%.3f) still disagree, so the expected guarantee "
                                                + "is not assured for tau above %.3f; --guarantee pac needs no such "
                                                + "assumption",
                                        c.pattern(),
                                        end,
                                        curve.series(),
                                        end / (double) curve.series(),
                                        1 - end / (double) curve.series()));
                    });
        });
    }

    /**
     * One line on stderr naming the conformal draw U an {@code expected} certificate was made with (the model stores
     * it; {@code --crc-draw U} reproduces the model), since the default draws it afresh on every run.
     */
    private void noteCrcDraw(VigilModel model) {
        model.section(CalibrationSection.class)
                .filter(c -> c.guarantee() == Guarantee.EXPECTED && !c.curves().isEmpty())
                .ifPresent(c -> spec.commandLine()
                        .getErr()
                        .println("vigil train: expected guarantee certified with conformal draw U = " + c.crcDraw()
                                + (c.crcDraw() == 1.0 ? " (not randomised)" : "")
                                + "; --crc-draw " + c.crcDraw() + " reproduces this model"));
    }

    private TrainParams params() {
        try {
            TrainParams.Builder p = selection.applyTo(TrainParams.builder().seed(seed));
            transfer.applyTo(p, Reducer.parse(selection.reducer));
            if (gamma != null) {
                p.gamma(gamma);
            }
            if (dims != null) {
                p.dims(dims);
            }
            if (neighbors != null) {
                p.neighbors(neighbors);
            }
            if (segments != null) {
                p.segments(segments);
            }
            if (qdaNeighbors != null) {
                p.qdaNeighbors(qdaNeighbors);
            }
            return p.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }

    private static Dataset rename(Dataset ds, String name) {
        return Dataset.of(name, ds.rows(), ds.classIndices(), ds.classNames()).withChannels(ds.channelNames());
    }
}
