package io.vigil.research;

import io.vigil.data.recording.RecordingSet;
import io.vigil.experiment.WatchTradeoff;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.TauOption;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.json.ModelFile;
import io.vigil.util.Progress;
import io.vigil.watch.RearmPolicy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil experiment watch-tradeoff}: a window model's event scores over a range of τ beside the baselines, as
 * one table and one plot ({@link WatchTradeoff}).
 */
@Command(
        name = "watch-tradeoff",
        mixinStandardHelpOptions = true,
        description = {
            "A window model watching recordings at each tau, beside the complete-window, fixed-delay and feature-svm",
            "baselines (learnt on the train split only): macro F1, false alarms per hour and detection delay in one",
            "table, and false alarms per hour against macro F1 in one plot. Writes watch-tradeoff.md/.csv/.png."
        })
public final class WatchTradeoffExperimentCommand implements Callable<Integer> {
    @Option(
            names = "--model",
            required = true,
            paramLabel = "MODEL",
            description = "A window model (train --recordings).")
    Path model;

    @Option(
            names = "--recordings",
            required = true,
            paramLabel = "DIR",
            description = "Recording directory (docs/recordings.md).")
    Path recordings;

    @Option(
            names = "--split",
            paramLabel = "SPLIT",
            description = "Evaluate only this split of the events table (default: test when the table has a split, "
                    + "else every recording).")
    String split;

    @Option(
            names = "--taus",
            split = ",",
            paramLabel = "T",
            defaultValue = "0.5,0.7,0.8,0.9,0.95,0.99",
            description = "Announced reliabilities of the early rule, each in (0, 1) (default: ${DEFAULT-VALUE}).")
    List<Double> taus;

    @Option(
            names = "--rearm",
            paramLabel = "POLICY",
            description = "Re-arm policy: windows-closed, immediate or refractory:N (default: the model's).")
    String rearm;

    @Option(
            names = "--sampling-rate",
            paramLabel = "HZ",
            description = "Sampling rate of recordings without a time column (default: the events table's).")
    Double samplingRate;

    @Mixin
    OutOption out;

    @Mixin
    JsonOption json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        TauOption.checkTaus(spec, taus);
        VigilModel m = ModelFile.standard().load(model);
        RecordingSet set;
        RearmPolicy policy;
        try {
            WindowModels.requireWindowModel(m, model.toString());
            set = RecordingSet.read(recordings, samplingRate == null ? Double.NaN : samplingRate);
            policy = rearm == null ? null : RearmPolicy.parse(rearm);
            if (split != null && !set.hasSplit()) {
                throw new IllegalArgumentException("--split " + split + ": the events table of " + recordings
                        + " has no split column; drop --split to evaluate every recording");
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        RecordingSet training = null;
        String trainingName = null;
        String evaluated = split != null ? split : set.hasSplit() ? "test" : null;
        if (set.hasSplit() && !set.split("train").recordings().isEmpty()) {
            training = set.split("train");
            trainingName = "the train split (" + training.recordings().size() + " recordings)";
        }
        RecordingSet scored = evaluated == null ? set : set.split(evaluated);
        WatchTradeoff.Result r;
        try (Progress progress =
                Progress.bar("watch-tradeoff", WatchTradeoff.steps(scored, training, taus.size()), !json.value)) {
            r = WatchTradeoff.run(m, scored, training, trainingName, taus, policy, progress);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(
                "command",
                String.format(
                        Locale.ROOT,
                        "vigil experiment watch-tradeoff --model %s --recordings %s%s --taus %s%s --out %s",
                        model,
                        recordings,
                        split == null ? "" : " --split " + split,
                        String.join(",", taus.stream().map(String::valueOf).toList()),
                        rearm == null ? "" : " --rearm " + rearm,
                        out.value));
        settings.put("evaluated", evaluated == null ? "every recording (no split)" : "the " + evaluated + " split");
        settings.put("baselines learnt on", trainingName == null ? "nothing (complete-window only)" : trainingName);
        WatchTradeoff.write(r, out.value, settings);
        PrintWriter o = spec.commandLine().getOut();
        if (json.value) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("hours", r.hours());
            j.put("operating_point_tau", r.operatingPointTau());
            j.put("points", r.points());
            j.put("report", out.value.resolve(WatchTradeoff.MARKDOWN).toString());
            j.put("plot", out.value.resolve(WatchTradeoff.PNG).toString());
            o.println(Json.line(j));
        } else {
            o.print(WatchTradeoff.markdown(r, settings));
            o.println("wrote " + out.value.resolve(WatchTradeoff.MARKDOWN) + ", " + WatchTradeoff.CSV + " and "
                    + WatchTradeoff.PNG);
        }
        o.flush();
        return 0;
    }
}
