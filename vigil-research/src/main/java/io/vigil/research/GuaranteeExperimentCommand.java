package io.vigil.research;

import io.vigil.cli.CalibrationOptions;
import io.vigil.cli.ObservationOptions;
import io.vigil.data.TrainTest;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.evaluate.PatternSummary;
import io.vigil.experiment.GuaranteeExperiment;
import io.vigil.experiment.GuaranteeReport;
import io.vigil.experiment.SplitCache;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.TauOption;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.VigilModel;
import io.vigil.reliability.risk.Guarantee;
import io.vigil.reliability.risk.Selection;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
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
 * {@code vigil experiment guarantee}: whether the certificates of the default model hold on new series, over seeded
 * stratified re-splits of every dataset under {@code --data} (or those named), per guarantee ({@link
 * GuaranteeExperiment}); writes {@code guarantee.md}/{@code .csv} and keeps finished splits under {@code --out
 * DIR/cache}.
 */
@Command(
        name = "guarantee",
        mixinStandardHelpOptions = true,
        description = {
            "Re-split every dataset (stratified, the standard training size, seeded), train with the defaults under",
            "each guarantee, and evaluate every certified tau on the test part: certified pairs, how many are",
            "significantly below tau, mean reliability - tau, t/d and accuracy, per guarantee and per dataset.",
            "Writes guarantee.md/.csv; splits already in --out DIR/cache are reused."
        })
public final class GuaranteeExperimentCommand implements Callable<Integer> {
    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--resplits",
            paramLabel = "R",
            defaultValue = "10",
            description = "Random re-splits per dataset (default: ${DEFAULT-VALUE}).")
    int resplits;

    @Option(
            names = "--taus",
            split = ",",
            paramLabel = "T",
            defaultValue = "0.8,0.9,0.95",
            description = "Announced reliabilities to check (default: ${DEFAULT-VALUE}).")
    List<Double> taus;

    @Option(
            names = "--guarantee",
            split = ",",
            paramLabel = "pac|expected",
            defaultValue = "pac,expected",
            description = "Guarantees to certify under, each a mode of the report (default: ${DEFAULT-VALUE}).")
    List<String> guarantees;

    @Option(
            names = "--selection-correction",
            split = ",",
            paramLabel = "bonferroni|split|nested|fixed|none",
            description = "Selection corrections to certify under, as vigil train --selection-correction; each "
                    + "guarantee's mode reports its default correction when it is among them, else the first; the "
                    + "others are compared beside it (default: each guarantee's default, fixed for both).")
    List<String> selections;

    @Option(
            names = "--reselect-in-folds",
            description = "Let every calibration fold select its own k, gamma and dimension, as the full model did, "
                    + "instead of reusing the full model's choice (measures the optimism of reusing it).")
    boolean reselectInFolds;

    @Option(
            names = "--estimator",
            paramLabel = "joint|gmm",
            defaultValue = "joint",
            description = "Complete-series estimator every split's model is calibrated for, as vigil train "
                    + "--estimator (default: ${DEFAULT-VALUE}).")
    String estimator;

    @Mixin
    ObservationOptions observation;

    @Option(
            names = "--crc-draw",
            paramLabel = "random|conservative",
            defaultValue = "random",
            description = "How the expected guarantee draws U, as vigil train --crc-draw: random (one draw per dataset "
                    + "and split, seeded by --seed, the dataset and the split, as train draws afresh per model) or conservative (U = 1) "
                    + "(default: ${DEFAULT-VALUE}).")
    String crcDraw;

    @Option(
            names = "--calibration",
            paramLabel = "cross-fit|holdout[:F]",
            defaultValue = "cross-fit",
            description = "How every split's model is calibrated, as vigil train --calibration: cross-fit (fold "
                    + "models' replays) or holdout:F (a share F of the training part, default 0.3, never fitted on, "
                    + "replayed through the deployed model) (default: ${DEFAULT-VALUE}).")
    String calibration;

    @Mixin
    NoResumeOption noResume;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * {@code --crc-draw} of the experiment commands: {@code random} → true (one seeded draw per split or dataset),
     * {@code conservative} → false (U = 1); anything else is refused with the accepted values.
     */
    static boolean randomisedCrc(String value) {
        return switch (value) {
            case "random" -> true;
            case "conservative" -> false;
            default -> throw new IllegalArgumentException(
                    "--crc-draw must be random or conservative, got '" + value + "'");
        };
    }

    @Override
    public Integer call() throws IOException {
        TauOption.checkTaus(spec, taus);
        GuaranteeExperiment.Config config;
        try {
            List<Guarantee> g = guarantees.stream().map(Guarantee::fromCliName).toList();
            List<Selection> s = selections == null
                    ? GuaranteeExperiment.Config.defaultSelections(g)
                    : selections.stream().map(Selection::fromCliName).toList();
            config = new GuaranteeExperiment.Config(
                    resplits,
                    archive.seed.value,
                    taus,
                    g,
                    s,
                    reselectInFolds,
                    EstimatorType.fromId(estimator),
                    observation.pattern(),
                    randomisedCrc(crcDraw),
                    CalibrationOptions.parseScheme(calibration));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        List<String> names = archive.requireNames();
        SplitCache cache = SplitCache.at(archive.out.value.resolve("cache"), !noResume.value);
        List<GuaranteeExperiment.DatasetResult> results = new ArrayList<>();
        long start = System.nanoTime();
        long total = (long) names.size() * resplits;
        try (Progress progress = Progress.bar("guarantee", total, !archive.json.value)) {
            for (String name : names) {
                TrainTest data = archive.load(name);
                CommandLines.check(spec, name, () -> config.pattern()
                        .checkChannels(data.train().channels()));
                results.add(GuaranteeExperiment.run(name, data, config, progress, cache));
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        Map<String, String> settings = settings(config, wall, cache, total);
        GuaranteeReport report = new GuaranteeReport(results, config);
        report.write(archive.out.value, settings);
        PrintWriter o = spec.commandLine().getOut();
        if (archive.json.value) {
            Map<String, Object> m = report.json();
            m.put("estimator", config.estimator().id());
            m.put("crc_draw", config.randomisedCrc() ? "random" : "conservative");
            m.put("calibration", config.holdout() > 0 ? "holdout:" + config.holdout() : "cross-fit");
            m.put("pattern", PatternSummary.of(config.pattern()));
            m.put("resumed_splits", cache.reused());
            m.put("wall_seconds", wall);
            m.put("report", archive.out.value.resolve(GuaranteeReport.MARKDOWN).toString());
            o.println(Json.line(m));
        } else {
            o.print(report.markdown(settings));
            o.println("wrote " + archive.out.value.resolve(GuaranteeReport.MARKDOWN) + " and " + GuaranteeReport.CSV);
        }
        o.flush();
        return 0;
    }

    /** The report's settings lines: the command that reproduces it, training, pattern, draw, version, time, cache. */
    private Map<String, String> settings(GuaranteeExperiment.Config config, double wall, SplitCache cache, long total) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(
                "command",
                String.format(
                        Locale.ROOT,
                        "vigil experiment guarantee --data %s%s --resplits %d --taus %s --guarantee %s "
                                + "--selection-correction %s%s%s%s%s%s --seed %d --out %s",
                        archive.dataDir,
                        archive.datasets == null ? "" : " --datasets " + String.join(",", archive.datasets),
                        resplits,
                        taus.stream()
                                .map(String::valueOf)
                                .reduce((a, b) -> a + "," + b)
                                .orElse(""),
                        String.join(",", guarantees),
                        config.selections().stream()
                                .map(Selection::cliName)
                                .reduce((a, b) -> a + "," + b)
                                .orElse(""),
                        reselectInFolds ? " --reselect-in-folds" : "",
                        config.estimator() == EstimatorType.JOINT ? "" : " --estimator " + estimator,
                        ObservationOptions.flags(config.pattern()),
                        config.randomisedCrc() ? "" : " --crc-draw conservative",
                        config.holdout() > 0 ? " --calibration holdout:" + config.holdout() : "",
                        archive.seed.value,
                        archive.out.value));
        settings.put(
                "training",
                "the defaults of vigil train, objective "
                        + CalibrationParams.defaults(archive.seed.value)
                                .objective()
                                .cliName()
                        + (config.holdout() > 0
                                ? ", calibrated on a holdout of " + config.holdout() + " of the training part"
                                : ", one cross-fit")
                        + " certified under each guarantee and selection correction");
        settings.put("observation pattern", config.pattern().toString());
        settings.put(
                "expected guarantee's conformal draw U",
                config.randomisedCrc()
                        ? "random, one per dataset and split (seeded by --seed, the dataset and the split), as vigil "
                                + "train draws one per model"
                        : "1 (--crc-draw conservative: the non-randomised form)");
        settings.put("Vigil version", VigilModel.runtimeVersion());
        settings.put("wall time", String.format(Locale.ROOT, "%.1f s", wall));
        settings.put(
                "splits taken from the cache",
                String.format(Locale.ROOT, "%d of %d (%s)", cache.reused(), total, archive.out.value.resolve("cache")));
        return settings;
    }
}
