package io.vigil.cli;

import io.vigil.api.TrainOptions;
import io.vigil.api.TrainSummary;
import io.vigil.api.VigilTrainer;
import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.recording.RecordingSet;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.CalibrationNotes;
import io.vigil.evaluate.CalibrationSummary;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.model.CalibrationSection;
import io.vigil.model.DataFingerprint;
import io.vigil.model.ProtocolScores;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowSection;
import io.vigil.model.json.ModelFile;
import io.vigil.select.Reducer;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
import io.vigil.util.Progress;
import io.vigil.watch.WatchCrossFit;
import io.vigil.watch.WindowExamples;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil train}: model selection and training on a training split (thesis §3.4–3.5, {@link
 * VigilTrainer}), written as a versioned model file. {@code --gamma}, {@code --dims}, {@code --neighbors} and
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

    @Mixin
    RecordingOptions recordings;

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
        TrainOptions options = CommandLines.usage(spec, this::options);
        CommandLines.check(spec, () -> VigilTrainer.checkOptions(options));
        ObservationPattern pattern = CommandLines.usage(spec, observation::pattern);
        WindowSection windows = null;
        RecordingSet trainRecordings = null;
        Dataset named;
        if (recordings.enabled()) {
            if (data.given()) {
                throw CommandLines.usageError(
                        spec, "give either --recordings DIR or series data (--data/--train), not both");
            }
            if (calibration.holdout() > 0) {
                throw CommandLines.usageError(
                        spec,
                        "--calibration holdout splits series at random, and the windows "
                                + "of one recording overlap: use --calibration cross-fit with --recordings");
            }
            RecordingSet set = recordings.loadTrain();
            trainRecordings = set;
            Set<String> labels = CommandLines.usage(spec, () -> recordings.eventLabels(set));
            WindowExamples.Params p = CommandLines.usage(spec, () -> recordings.params(set, labels, seed));
            named = CommandLines.usage(
                    spec,
                    () -> recordings.windows(recordings.recordings.getFileName().toString(), set, labels, p));
            windows = recordings.section(set, p, named);
        } else {
            Dataset train = data.loadTrain();
            named = train.name().equals(data.datasetName()) ? train : rename(train, data.datasetName());
        }
        CommandLines.check(spec, () -> {
            VigilTrainer.check(options.toBuilder().noCalibration().build(), named);
            if (!pattern.isComplete() && !calibration.enabled()) {
                throw new IllegalArgumentException("--missing, --channel-lag, --drop-channel and --shuffle set the "
                        + "pattern of the calibration replays; they need calibration (drop --no-calibration)");
            }
            if (!pattern.isComplete()) {
                pattern.checkChannels(named.channels());
            }
        });
        warnDuplicates(named);
        TrainOptions drawn = options.calibration()
                .map(c -> options.toBuilder()
                        .calibration(calibration.withDerivedDraw(c, seed, DataFingerprint.of(named)))
                        .build())
                .orElse(options);
        PrintWriter err = spec.commandLine().getErr();
        TrainParams params = options.selection();
        if (SelectionProtocol.skippedForSize(params, named.size(), named.length())) {
            err.printf(
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
        Dataset source = params.reducer() == Reducer.TRANSFER_LDG ? transfer.load(data.readOptions()) : null;
        VigilModel model;
        try (Progress progress = Progress.bar("train " + named.name(), 1, !json)) {
            model = source == null
                    ? VigilTrainer.train(named, drawn, progress)
                    : CommandLines.usage(spec, () -> VigilTrainer.train(named, source, drawn, progress));
        } catch (VigilTrainer.InsufficientMemoryException e) {
            throw new IOException(e.getMessage());
        }
        if (!model.projection().isLinear()) {
            err.println("note: kernel LDG is non-linear, so the model holds no early-decision sections; "
                    + "use it with vigil classify (evaluate, run and demo need --reducer ldg)");
        }
        if (windows != null) {
            model = model.toBuilder().section(windows).build();
            if (drawn.calibration().isPresent()
                    && model.section(CalibrationSection.class).isPresent()) {
                long certStart = System.nanoTime();
                try (Progress progress = Progress.bar("watch certificate", 1, !json)) {
                    model = model.toBuilder()
                            .section(WatchCrossFit.certify(
                                    model,
                                    trainRecordings,
                                    named,
                                    drawn.sections(),
                                    drawn.calibration().get(),
                                    progress,
                                    Runtime.getRuntime().availableProcessors()))
                            .build();
                }
                err.printf(
                        Locale.ROOT,
                        "note: watch certificate: fold models refitted and training recordings replayed in %.1f s%n",
                        (System.nanoTime() - certStart) / 1e9);
            }
        }
        CalibrationNotes.afterTraining(model).forEach(note -> err.println("vigil train: " + note));
        double seconds = (System.nanoTime() - start) / 1e9;
        ModelFile.standard().save(model, out);
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            stdout.println(Json.line(TrainSummary.of(model, seconds, out.toString())));
        } else {
            printText(stdout, model, seconds);
        }
        stdout.flush();
        return 0;
    }

    private void printText(PrintWriter stdout, VigilModel model, double seconds) {
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
                        .mapToObj(
                                v -> " (constant within " + v + " time segment" + (v == 1 ? "" : "s") + " per channel)")
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
                        "operating point (%s, %s): tau = %s, rule %s, classifier %s, estimator %s, HM " + "%.3f%s%n",
                        p.objective(),
                        c.isHoldout()
                                ? String.format(
                                        Locale.ROOT,
                                        "calibrated on a %.0f %% holdout the model never saw",
                                        100 * c.holdout())
                                : "cross-fitted",
                        p.tau(),
                        p.rule().cliName(),
                        p.classifier().cliName(),
                        p.estimator().id(),
                        p.harmonicMean(),
                        p.certified()
                                ? " (certified, " + c.guarantee().cliName() + ", "
                                        + c.selection().cliName() + ")"
                                : " (not certified: decides at t = d)")));
        model.section(CalibrationSection.class)
                .flatMap(CalibrationSummary::saturation)
                .ifPresent(t -> stdout.println(t.message()));
        WatchCertificateReport.section(model)
                .ifPresent(w -> stdout.println("watch certificate: " + WatchCertificateReport.line(w)));
    }

    /** The options as {@link TrainOptions}, {@code --seed} seeding every part. */
    private TrainOptions options() {
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
        TrainOptions.Builder b = TrainOptions.builder()
                .seed(seed)
                .selection(p.build())
                .sections(completeSeries.params(seed))
                .reselectInFolds(calibration.reselectInFolds)
                .calibrationHoldout(calibration.holdout());
        CalibrationParams c = calibration.params(seed).withPattern(observation.pattern());
        return (calibration.enabled() ? b.calibration(c) : b.noCalibration()).build();
    }

    /**
     * Exact repeats of training series make leave-one-out scores optimistic (a left-out series keeps its twin), so
     * training says so on stderr.
     */
    private void warnDuplicates(Dataset train) {
        List<String> repeats = train.exactRepeats().stream()
                .map(p -> "series " + (p[0] + 1) + " = series " + (p[1] + 1))
                .toList();
        if (!repeats.isEmpty()) {
            spec.commandLine()
                    .getErr()
                    .println("vigil train: warning: " + repeats.size() + " training series repeat earlier ones exactly "
                            + "(" + String.join(", ", repeats.subList(0, Math.min(5, repeats.size())))
                            + (repeats.size() > 5 ? ", …" : "") + "); cross-validated scores are optimistic");
        }
    }

    private static Dataset rename(Dataset ds, String name) {
        return Dataset.of(name, ds.rows(), ds.classIndices(), ds.classNames()).withChannels(ds.channelNames());
    }
}
