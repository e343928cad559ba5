package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.evaluate.BaselineMethods;
import io.vigil.evaluate.EarlyEvaluation;
import io.vigil.evaluate.EarlyMethod;
import io.vigil.evaluate.EvaluationSummary;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.DecisionOptions;
import io.vigil.model.CalibrationSection;
import io.vigil.model.Projection;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import io.vigil.report.EarlyReport;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil evaluate}: replays every test series sample by sample through the per-series state the stream
 * job uses and reports, per τ, reliability, accuracy and earliness of the reliable early decisions (thesis
 * §5.5), with fixed-time local-QDA and 1-NN baselines when the training split is available. Without {@code --tau}
 * the model's stored operating point is evaluated (τ = 0.9 for models without one). With {@code --json} stdout
 * holds one {@link EvaluationSummary}. {@code --method ects|fixed-qda|fixed-1nn|teaser} trains that baseline on the training
 * split ({@link BaselineMethods}) and reports it in the same format: one {@code taus} entry whose {@code tau},
 * {@code announced}, {@code certified} and {@code threshold} are null, then its {@link EvaluationSummary.Baseline} fields.
 */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        description = {
            "Evaluate reliable early decisions on a test split (Parrish 2012, ch. 5).",
            "Per tau: reliability (early label = complete-series label), accuracy, mean decision time, "
                    + "series decided early, CPU time per sample; fixed-time baselines at 10%%..100%% of d.",
            "--method ects|fixed-qda|fixed-1nn|teaser evaluates an early-classification baseline trained on the "
                    + "training split in the same format."
        })
public final class EvaluateCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file from vigil train.")
    Path modelFile;

    @Mixin
    DataOptions data;

    @Mixin
    OutOfRangeOptions outOfRange;

    @Mixin
    DecisionOptions decision;

    @Mixin
    ObservationOptions observation;

    @Option(
            names = "--tau",
            split = ",",
            paramLabel = "T",
            description = "Reliability levels tau in (0, 1), comma separated (default: the model's operating point, "
                    + "chosen by vigil train on cross-fitted training replays; 0.9 for models without one; the "
                    + "thesis's figures use 0.001,0.1,0.25,0.9).")
    List<Double> taus;

    @Option(
            names = "--report",
            paramLabel = "DIR",
            description = "Write report.md, decisions.csv and PNG plots (time vs reliability / accuracy) into DIR.")
    Path report;

    @Option(names = "--no-baselines", description = "Skip the fixed-time baselines (they need the training split).")
    boolean noBaselines;

    @Option(names = "--json", description = "Print one JSON object on stdout; no progress bar.")
    boolean json;

    @Option(
            names = "--method",
            paramLabel = "M",
            defaultValue = "vigil",
            description = "Early classifier: vigil (default, the reliable rule), ects (Xing et al. 2012), fixed-qda, "
                    + "fixed-1nn (fixed-time at one fraction of d), teaser (Schaefer & Leser 2020, 1-NN slaves). "
                    + "Baselines are trained on the training split only.")
    String method;

    @Option(
            names = "--ects-support",
            paramLabel = "S",
            description = "ECTS minimum support in [0, 1] (default 0, as Xing et al.); only with --method ects.")
    Double ectsSupport;

    @Option(
            names = "--fixed-fraction",
            paramLabel = "F",
            description = "Fixed-time decision at t = ceil(F*d), F in (0, 1] (default: chosen by 5-fold "
                    + "cross-validation on the training split, maximising HM); only with --method fixed-qda or "
                    + "fixed-1nn.")
    Double fixedFraction;

    @Option(
            names = "--teaser-prefixes",
            paramLabel = "S",
            description = "TEASER's number of prefix lengths, every d/S (default 20); only with --method teaser.")
    Integer teaserPrefixes;

    @Option(
            names = "--teaser-v",
            paramLabel = "V",
            description = "TEASER's consecutive agreeing accepted predictions, 1..5 (default: chosen by 5-fold "
                    + "cross-validation on the training split, maximising HM); only with --method teaser.")
    Integer teaserV;

    @Option(
            names = "--teaser-master",
            paramLabel = "rbf|linear",
            description = "TEASER's master: one-class SVM with a Gaussian kernel as in the paper (rbf, default) or "
                    + "linear (LIBLINEAR); only with --method teaser.")
    String teaserMaster;

    @Option(
            names = "--recordings",
            paramLabel = "DIR",
            description = "Evaluate a window model (vigil train --recordings) on a recording directory: replay each "
                    + "recording value by value through the watch runtime and score alarms against the events.")
    Path recordings;

    @Option(
            names = "--split",
            paramLabel = "NAME",
            defaultValue = "test",
            description = "With --recordings: the split to evaluate when the events table has one "
                    + "(default: ${DEFAULT-VALUE}).")
    String split;

    @Option(
            names = "--rearm",
            paramLabel = "POLICY",
            description = "With --recordings: windows-closed, immediate or refractory:N (default: the model's).")
    String rearm;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The observation pattern of this evaluation (complete for baselines). */
    private ObservationPattern pattern = ObservationPattern.complete();

    @Override
    public Integer call() throws IOException {
        if (recordings != null) {
            if (data.given()) {
                throw usage("give either --recordings DIR or series data (--data/--test), not both");
            }
            if (taus != null && taus.size() > 1) {
                throw usage("--recordings evaluates one operating point: give at most one --tau");
            }
            return EvaluateRecordings.run(
                    modelFile,
                    recordings,
                    split,
                    rearm,
                    decision.overrides(taus == null ? null : taus.get(0)),
                    null,
                    json,
                    spec.commandLine().getOut());
        }
        EarlyMethod m = CommandLines.usage(spec, "--method", () -> EarlyMethod.parse(method));
        CommandLines.check(
                spec,
                () -> BaselineMethods.checkSettings(
                        m, ectsSupport, fixedFraction, teaserPrefixes, teaserV, teaserMaster));
        if (m != EarlyMethod.VIGIL) {
            return callBaseline(m);
        }
        VigilModel model = seriesModel();
        if (!model.projection().isLinear()) {
            throw new IllegalArgumentException(modelFile + ": " + Projection.NON_LINEAR);
        }
        Optional<CalibrationSection.OperatingPoint> point = DecisionOverrides.operatingPoint(model);
        DecisionParams params = CommandLines.usage(spec, () -> {
            if (taus == null || taus.isEmpty()) {
                taus = List.of(point.map(CalibrationSection.OperatingPoint::tau).orElse(DecisionParams.DEFAULT_TAU));
            }
            for (double t : taus) {
                if (!(t > 0 && t < 1)) {
                    throw new IllegalArgumentException("--tau values must lie strictly between 0 and 1, got " + t);
                }
            }
            DecisionParams p = decision.resolve(taus.get(0), point);
            pattern = observation.pattern();
            pattern.checkChannels(model.channels());
            return p;
        });
        warnOtherPattern(model);
        DecisionOverrides.otherEstimatorWarning(model, params, modelFile.toString())
                .ifPresent(spec.commandLine().getErr()::println);
        Dataset test = data.loadTest(model, modelFile, outOfRange);
        Dataset train = noBaselines ? null : trainFor(model);
        EarlyEvaluation.Result r;
        try (Progress progress = Progress.bar("evaluate " + data.datasetName(), taus.size() + 1L, !json)) {
            r = EarlyEvaluation.run(data.datasetName(), model, train, test, taus, params, pattern, progress);
        } catch (RuntimeException failure) {
            throw outOfRange.explain(failure);
        }
        return print(r, model);
    }

    private VigilModel seriesModel() throws IOException {
        VigilModel model = ModelFile.standard().load(modelFile);
        WindowModels.requireSeriesModel(model, modelFile.toString());
        return model;
    }

    /** One line on stderr when the model's certificate was calibrated for another observation pattern. */
    private void warnOtherPattern(VigilModel model) {
        model.section(CalibrationSection.class)
                .map(CalibrationSection::pattern)
                .filter(calibrated -> !calibrated.equals(pattern))
                .ifPresent(calibrated -> spec.commandLine()
                        .getErr()
                        .println("warning: " + modelFile + " was calibrated for observation pattern '" + calibrated
                                + "' but is evaluated under '" + pattern
                                + "'; its certificate speaks of the calibrated pattern"));
    }

    /** {@code --method} other than vigil: validates the options, trains the baseline and reports it. */
    private int callBaseline(EarlyMethod m) throws IOException {
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        List<CommandLine.Model.OptionSpec> vigilOnly =
                new ArrayList<>(spec.mixins().get("decision").options());
        vigilOnly.addAll(spec.mixins().get("observation").options());
        vigilOnly.add(spec.findOption("--tau"));
        for (CommandLine.Model.OptionSpec o : vigilOnly) {
            if (parsed.hasMatchedOption(o)) {
                throw usage(o.longestName() + " only applies to --method vigil, not --method " + m.cliName());
            }
        }
        BaselineMethods baselines = BaselineMethods.find()
                .orElseThrow(() -> usage("--method " + m.cliName()
                        + " needs the research module (vigil-research) on the class path; " + "vigil.jar has it"));
        BaselineMethods.Request request =
                new BaselineMethods.Request(m, ectsSupport, fixedFraction, teaserPrefixes, teaserV, teaserMaster);
        CommandLines.check(spec, () -> baselines.validate(request));
        if (!data.hasTrain()) {
            throw usage("--method " + m.cliName() + " is trained on the training split: give "
                    + "--data/--dataset or --train with --test");
        }
        VigilModel model = seriesModel();
        Dataset test = data.loadTest(model, modelFile, outOfRange);
        Dataset train = trainFor(model);
        EarlyEvaluation.Result r;
        try (Progress progress = Progress.bar("evaluate " + m.cliName() + " " + data.datasetName(), 2, !json)) {
            r = baselines.run(data.datasetName(), model, train, test, request, !noBaselines, progress);
        }
        return print(r, model);
    }

    private CommandLine.ParameterException usage(String message) {
        return CommandLines.usageError(spec, message);
    }

    private int print(EarlyEvaluation.Result r, VigilModel model) throws IOException {
        if (report != null) {
            EarlyReport.write(r, model.classNames(), report);
        }
        return CommandOutput.print(
                spec,
                json,
                EvaluationSummary.of(
                        r, model, pattern, modelFile.toString(), report == null ? null : report.toString()),
                out -> {
                    if (!pattern.isComplete()) {
                        out.println("observation pattern: " + pattern);
                    }
                    out.print(EarlyReport.markdown(r));
                    if (r.isVigil()) {
                        for (EarlyEvaluation.TauResult t : r.taus()) {
                            out.println(certificateLine(t, model));
                        }
                        EvaluationSummary.saturation(r, model).ifPresent(t -> out.println(t.message()));
                    }
                    if (report != null) {
                        out.println("wrote " + report);
                    }
                });
    }

    /**
     * One line per τ: "τ 0.90: certified at 0.90, pac δ=0.1 (the rate over all series, not per decision)" or "not
     * certified".
     */
    static String certificateLine(EarlyEvaluation.TauResult t, VigilModel model) {
        String head = String.format(java.util.Locale.ROOT, "τ %.2f: ", t.tau());
        if (!t.certified()) {
            return head + "not certified (decides at t = d)";
        }
        Double delta = EvaluationSummary.pacDelta(t.guarantee(), model);
        return head
                + String.format(java.util.Locale.ROOT, "certified at %.2f, %s", t.tau(), t.guarantee())
                + (delta == null ? "" : " δ=" + delta)
                + " — bounds the disagreement rate over all series, not any single decision";
    }

    /** The training split in the model's class order, or null when only a test file was given. */
    private Dataset trainFor(VigilModel model) throws IOException {
        if (!data.hasTrain()) {
            return null;
        }
        Dataset train = data.loadTrain();
        data.checkLength(train, false, model.length(), modelFile);
        return train.classNames().equals(model.classNames()) ? train : train.withClasses(model.classNames());
    }
}
