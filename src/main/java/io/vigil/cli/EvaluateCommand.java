package io.vigil.cli;

import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.experiment.EarlyEvaluation;
import io.vigil.experiment.EarlyReport;
import io.vigil.model.CalibrationSection;
import io.vigil.model.Projection;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * holds one object: {@code dataset, test_size, length, full_accuracy, taus: [{tau, reliability, accuracy, mean_t,
 * mean_fraction, decided_early, us_per_sample, harmonic_mean, announced, certified, threshold}]}, then extras
 * (among them {@code operating_point: {tau, objective, rule}} and {@code rule}).
 */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        description = {
            "Evaluate reliable early decisions on a test split (Parrish 2012, ch. 5).",
            "Per tau: reliability (early label = complete-series label), accuracy, mean decision time, "
                    + "series decided early, CPU time per sample; fixed-time baselines at 10%%..100%% of d."
        })
public final class EvaluateCommand implements Callable<Integer> {
    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file from vigil train.")
    Path modelFile;

    @Mixin
    DataOptions data;

    @Mixin
    DecisionOptions decision;

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        DecisionParams params;
        VigilModel model = ModelFile.standard().load(modelFile);
        if (!model.projection().isLinear()) {
            throw new IllegalArgumentException(modelFile + ": " + Projection.NON_LINEAR);
        }
        Optional<CalibrationSection.OperatingPoint> point = DecisionOptions.operatingPoint(model);
        try {
            if (taus == null || taus.isEmpty()) {
                taus = List.of(point.map(CalibrationSection.OperatingPoint::tau).orElse(DecisionParams.DEFAULT_TAU));
            }
            for (double t : taus) {
                if (!(t > 0 && t < 1)) {
                    throw new IllegalArgumentException("--tau values must lie strictly between 0 and 1, got " + t);
                }
            }
            params = decision.resolve(taus.get(0), point);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        Dataset test = data.loadTest(model.classNames());
        Dataset train = noBaselines ? null : trainFor(model);
        EarlyEvaluation.Result r;
        try (Progress progress = Progress.bar("evaluate " + data.datasetName(), taus.size() + 1L, !json)) {
            r = EarlyEvaluation.run(data.datasetName(), model, train, test, taus, params, progress);
        }
        if (report != null) {
            EarlyReport.write(r, model.classNames(), report);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.line(toJson(r, model)));
        } else {
            out.print(EarlyReport.markdown(r));
            if (report != null) {
                out.println("wrote " + report);
            }
        }
        out.flush();
        return 0;
    }

    /** The training split in the model's class order, or null when only a test file was given. */
    private Dataset trainFor(VigilModel model) throws IOException {
        if (!data.hasTrain()) {
            return null;
        }
        Dataset train = data.loadTrain();
        if (train.length() != model.length()) {
            throw new IllegalArgumentException(
                    "training series have length " + train.length() + " but the model expects " + model.length());
        }
        return train.classNames().equals(model.classNames()) ? train : train.withClasses(model.classNames());
    }

    private Map<String, Object> toJson(EarlyEvaluation.Result r, VigilModel model) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("dataset", r.dataset());
        o.put("test_size", r.testSize());
        o.put("length", r.length());
        o.put("full_accuracy", r.fullAccuracy());
        List<Map<String, Object>> ts = new ArrayList<>();
        for (EarlyEvaluation.TauResult t : r.taus()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("tau", t.tau());
            m.put("reliability", t.reliability());
            m.put("accuracy", t.accuracy());
            m.put("mean_t", t.meanT());
            m.put("mean_fraction", t.meanFraction());
            m.put("decided_early", t.decidedEarly());
            m.put("us_per_sample", t.usPerSample());
            m.put("harmonic_mean", t.harmonicMean());
            m.put("announced", t.tau());
            m.put("certified", t.certified());
            m.put("threshold", Double.isNaN(t.threshold()) ? null : t.threshold());
            ts.add(m);
        }
        o.put("taus", ts);
        o.put("set", r.params().set().cliName());
        o.put("estimator", r.params().estimator().id());
        o.put("classifier", r.params().classifier().cliName());
        o.put("class_of_interest", r.params().classOfInterest());
        o.put("rule", r.params().rule().cliName());
        o.put(
                "operating_point",
                DecisionOptions.operatingPoint(model)
                        .map(p -> {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("tau", p.tau());
                            m.put("objective", p.objective());
                            m.put("rule", p.rule().cliName());
                            return m;
                        })
                        .orElse(null));
        o.put("model", modelFile.toString());
        o.put("fingerprint", model.fingerprint());
        List<Map<String, Object>> bs = new ArrayList<>();
        for (var p : r.baselines()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", p.method());
            m.put("fraction", p.fraction());
            m.put("t", p.t());
            m.put("reliability", p.reliability());
            m.put("accuracy", p.accuracy());
            bs.add(m);
        }
        o.put("baselines", bs);
        if (report != null) {
            o.put("report", report.toString());
        }
        return o;
    }
}
