package io.vigil.research;

import io.vigil.data.DatasetFiles;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.experiment.SplitCache;
import io.vigil.experiment.Table54Experiment;
import io.vigil.experiment.Table54Report;
import io.vigil.experiment.ThesisTable54;
import io.vigil.flink.cli.Json;
import io.vigil.model.VigilModel;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
 * {@code vigil experiment table54}: thesis Table 5.4 (§5.6.4) on the standard splits of the datasets under {@code
 * --data} — the time per test series of the reliable local-QDA decision at t = 1 without and with LDG, our ℓ and the
 * thesis's, beside the thesis's milliseconds ({@link Table54Experiment}, {@link Table54Report}). Each dataset's two
 * timings are kept under {@code --out DIR/cache}, so an interrupted run resumes.
 */
@Command(
        name = "table54",
        mixinStandardHelpOptions = true,
        description = {
            "Thesis Table 5.4 (section 5.6.4) on the standard splits: time per test",
            "series of the reliable local-QDA decision at t = 1 (naive-Bayes quadratic",
            "set, joint Gaussian estimator) without LDG (the sample space) and with LDG",
            "(l by CV), beside the thesis's ms. Writes table54.md/.csv; timings already",
            "in --out DIR/cache are reused."
        })
public final class Table54ExperimentCommand implements Callable<Integer> {
    /** UCR sizes of TwoPatterns, used for the generated one. */
    static final int TWO_PATTERNS_TRAIN = 1000;

    /** UCR sizes of TwoPatterns, used for the generated one. */
    static final int TWO_PATTERNS_TEST = 4000;

    @Mixin
    ArchiveOptions archive;

    @Option(
            names = "--max-series",
            defaultValue = "50",
            paramLabel = "N",
            description = "Time the decision on at most the first N test series of each dataset (default:"
                    + " ${DEFAULT-VALUE}); without LDG the thesis took seconds per decision at d = 750.")
    int maxSeries;

    @Option(
            names = "--tau",
            defaultValue = "0.9",
            paramLabel = "T",
            description = "Reliability tau of the set rule, in (0, 1) (default: ${DEFAULT-VALUE}).")
    double tau;

    @Option(
            names = "--repeats",
            defaultValue = "5",
            paramLabel = "R",
            description = "Timed decisions per series, each on a fresh series state; the series' time is their median"
                    + " (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(
            names = "--warmup",
            defaultValue = "2",
            paramLabel = "SECONDS",
            description = "Untimed passes over the timed series, repeated for at least this long before timing"
                    + " (default: ${DEFAULT-VALUE}; at least one pass).")
    double warmup;

    @Option(
            names = "--generated-two-patterns",
            description = "Add a TwoPatterns written by Vigil's generator (UCR sizes: 1000 train, 4000 test, d = 128,"
                    + " seed --seed), labelled as generated, beside the thesis's TwoPatterns row.")
    boolean generatedTwoPatterns;

    @Mixin
    NoResumeOption noResume;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Table54Experiment.Config config;
        try {
            config = new Table54Experiment.Config(tau, maxSeries, repeats, warmup, archive.seed.value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), optionOf(e.getMessage()), e);
        }
        List<String> present = DatasetFiles.datasetsUnder(archive.dataDir);
        List<String> names;
        if (archive.datasets != null) {
            for (String name : archive.datasets) {
                if (!Files.isDirectory(archive.dataDir.resolve(name))) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(),
                            "--datasets: no dataset '" + name + "' under " + archive.dataDir + " (found: "
                                    + (present.isEmpty() ? "none" : String.join(", ", present)) + ")");
                }
            }
            names = archive.datasets;
        } else {
            names = present;
        }
        if (names.isEmpty() && !generatedTwoPatterns) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "no datasets under " + archive.dataDir + " (and no --generated-two-patterns)");
        }
        SplitCache cache = SplitCache.at(archive.out.value.resolve("cache"), !noResume.value);
        List<Table54Experiment.Row> rows = new ArrayList<>();
        int total = names.size() + (generatedTwoPatterns ? 1 : 0);
        long start = System.nanoTime();
        try (Progress progress = Progress.bar("table54", 2L * total, !archive.json.value)) {
            for (String name : names) {
                TrainTest tt = archive.load(name);
                rows.add(Table54Experiment.run(name, false, tt, config, progress, cache));
            }
            if (generatedTwoPatterns) {
                TrainTest tt = SyntheticData.generate(
                        SyntheticKind.TWO_PATTERNS, TWO_PATTERNS_TRAIN, TWO_PATTERNS_TEST, archive.seed.value);
                rows.add(Table54Experiment.run(
                        SyntheticKind.TWO_PATTERNS.datasetName(), true, tt, config, progress, cache));
            }
        }
        double wall = (System.nanoTime() - start) / 1e9;
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(
                "command",
                "vigil experiment table54 --data " + archive.dataDir
                        + (archive.datasets != null ? " --datasets " + String.join(",", archive.datasets) : "")
                        + " --max-series " + maxSeries + " --repeats " + repeats + " --tau " + tau + " --warmup "
                        + warmup + " --seed " + archive.seed.value
                        + (generatedTwoPatterns ? " --generated-two-patterns" : ""));
        settings.put(
                "timed",
                "the EarlyClassifier.observe call that feeds sample t = 1 to a fresh series state (the first sample the"
                        + " rule is evaluated at when d > 1,000), " + repeats + " times per series (median kept), on"
                        + " the first " + maxSeries + " test series of each dataset (System.nanoTime), after untimed"
                        + " passes over the same series for at least " + warmup + " s");
        settings.put(
                "decision",
                "set rule at tau = " + tau + ", naive-Bayes quadratic set, joint Gaussian estimator (Ledoit-Wolf"
                        + " shrinkage), local QDA; no calibration");
        settings.put("without LDG", "local QDA on the raw samples (B = I, l = d), k by CV on the training split");
        settings.put("with LDG", "vigil train defaults (k, gamma, l and local QDA's k by CV on the training split)");
        settings.put(
                "machine",
                Runtime.getRuntime().availableProcessors() + " processors, Java " + Runtime.version() + ", heap "
                        + String.format(
                                Locale.ROOT, "%.1f GB", Runtime.getRuntime().maxMemory() / 1e9));
        settings.put("Vigil version", VigilModel.runtimeVersion());
        settings.put("wall time", String.format(Locale.ROOT, "%.1f s", wall));
        settings.put(
                "timings taken from the cache",
                cache.reused() + " of " + 2 * total + " (" + archive.out.value.resolve("cache") + ")");
        Table54Report report = new Table54Report(rows, settings);
        report.write(archive.out.value);
        PrintWriter o = spec.commandLine().getOut();
        if (archive.json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("datasets", rows.stream().map(Table54Experiment.Row::label).toList());
            m.put(
                    "thesis_datasets",
                    rows.stream()
                            .filter(r -> ThesisTable54.row(r.dataset()).isPresent())
                            .map(Table54Experiment.Row::label)
                            .toList());
            Map<String, Double> speedUps = new LinkedHashMap<>();
            for (Table54Experiment.Row r : rows) {
                speedUps.put(r.label(), Double.isNaN(r.speedUp()) ? null : r.speedUp());
            }
            m.put("speed_up", speedUps);
            m.put("timed_series", maxSeries);
            m.put("resumed_timings", cache.reused());
            m.put("wall_seconds", wall);
            m.put("report", archive.out.value.resolve(Table54Report.MARKDOWN).toString());
            o.println(Json.line(m));
        } else {
            for (Table54Experiment.Row r : rows) {
                o.printf(
                        Locale.ROOT,
                        "%s: d = %d, l = %d, decision at t = %d: %s without LDG, %.3g ms with LDG (median of %d)%n",
                        r.label(),
                        r.length(),
                        r.ldg().dims(),
                        r.timedAt(),
                        r.raw().skipped().isPresent()
                                ? "not timed"
                                : String.format(Locale.ROOT, "%.3g ms", r.raw().medianMillis()),
                        r.ldg().medianMillis(),
                        r.ldg().timedSeries());
            }
            o.println("wrote " + archive.out.value.resolve(Table54Report.MARKDOWN) + " and " + Table54Report.CSV
                    + (cache.reused() > 0
                            ? " (" + cache.reused() + " timings resumed from " + archive.out.value.resolve("cache")
                                    + ")"
                            : ""));
        }
        o.flush();
        return 0;
    }

    /** Names the option a {@link Table54Experiment.Config} message is about. */
    private static String optionOf(String message) {
        if (message.startsWith("τ")) {
            return "--tau: " + message;
        }
        if (message.contains("timed series")) {
            return "--max-series: " + message;
        }
        if (message.contains("timed repeats")) {
            return "--repeats: " + message;
        }
        return "--warmup: " + message;
    }
}
