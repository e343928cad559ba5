package io.vigil.research;

import io.vigil.bench.HeapMeter;
import io.vigil.bench.LongSeriesBenchmark;
import io.vigil.early.DecisionParams;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.gauss.EstimatorType;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil bench long-series}: the end-to-end run on long generated series ({@link LongSeriesBenchmark}):
 * train with defaults, save, load, decide early; time, peak heap and file size per phase.
 */
@Command(
        name = "long-series",
        mixinStandardHelpOptions = true,
        description = {
            "Long series end to end on generated CBF (vigil generate --kind cbf --length D): vigil train's defaults",
            "(LDG selection, local QDA, complete-series Gaussians in the auto covariance form, SVM), save, load, and",
            "an early-decision replay. Reports seconds and peak heap per phase and the model file's size by part.",
            "Example: java -Xmx4g -jar vigil.jar bench long-series --n 300 --d 20000 --classes 2"
        })
final class BenchLongSeriesCommand implements Callable<Integer> {
    private static final double MIB = 1024.0 * 1024.0;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--n", defaultValue = "300", description = "training series (default: ${DEFAULT-VALUE})")
    int n;

    @Option(names = "--d", defaultValue = "20000", description = "series length (default: ${DEFAULT-VALUE})")
    int d;

    @Option(names = "--classes", defaultValue = "2", description = "2 or 3 CBF classes (default: ${DEFAULT-VALUE})")
    int classes;

    @Option(names = "--test", defaultValue = "20", description = "test series replayed (default: ${DEFAULT-VALUE})")
    int test;

    @Option(
            names = "--estimator",
            defaultValue = "joint",
            description = "complete-series estimator of the replay: joint or gmm (default: ${DEFAULT-VALUE})")
    String estimator;

    @Mixin
    SeedOption seed;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws IOException {
        DecisionParams params = CommandLines.usage(
                spec, () -> DecisionParams.defaults().withEstimator(EstimatorType.fromId(estimator)));
        LongSeriesBenchmark.Result r;
        try {
            r = LongSeriesBenchmark.run(
                    n, d, classes, test, params, seed.value, Path.of(System.getProperty("java.io.tmpdir")));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "long-series");
            m.put("n", r.n());
            m.put("d", r.d());
            m.put("classes", r.classes());
            m.put("dims", r.dims());
            m.put("train_seconds", r.trainSeconds());
            m.put("complete_series_seconds", r.completeSeriesSeconds());
            m.put("train_peak_heap_bytes", r.trainPeakHeapBytes());
            m.put("save_seconds", r.saveSeconds());
            m.put("file_bytes", r.fileBytes());
            m.put("part_bytes", r.partBytes());
            m.put("load_seconds", r.loadSeconds());
            m.put("build_seconds", r.buildSeconds());
            m.put("load_peak_heap_bytes", r.loadPeakHeapBytes());
            m.put("joint_form", r.jointForm().id());
            m.put("joint_rank", r.jointRank());
            m.put("estimator", estimator);
            m.put("us_per_sample", r.microsPerSample());
            m.put("mean_t", r.meanT());
            m.put("reliability", r.reliability());
            m.put("complete_accuracy", r.completeAccuracy());
            m.put("max_heap_bytes", HeapMeter.maxBytes());
            out.println(Json.line(m));
        } else {
            out.printf(
                    Locale.ROOT,
                    "long series: n = %d, d = %d, %d classes, ℓ = %d; joint Gaussian %s (r = %d); heap limit %.0f MiB%n",
                    r.n(),
                    r.d(),
                    r.classes(),
                    r.dims(),
                    r.jointForm().id(),
                    r.jointRank(),
                    HeapMeter.maxBytes() / MIB);
            String row = "  %-46s %9.2f s  %10.1f MiB peak%n";
            out.printf(Locale.ROOT, "  %-46s %9.2f s%n", "train: selection + LDG + local QDA", r.trainSeconds());
            out.printf(
                    Locale.ROOT,
                    row,
                    "train: complete-series Gaussians + SVM (peak: all train)",
                    r.completeSeriesSeconds(),
                    r.trainPeakHeapBytes() / MIB);
            out.printf(Locale.ROOT, "  %-46s %9.2f s%n", "save", r.saveSeconds());
            out.printf(Locale.ROOT, "  %-46s %9.2f s%n", "load (parse + validate)", r.loadSeconds());
            out.printf(
                    Locale.ROOT,
                    row,
                    "build early classifier (LDLᵀ, P, R_y table)",
                    r.buildSeconds(),
                    r.loadPeakHeapBytes() / MIB);
            out.printf(
                    Locale.ROOT,
                    "  replay (%s, τ = %.2f): %.2f µs/sample, mean t %.1f, agreement with the complete-series label %.3f, complete accuracy %.3f%n",
                    estimator,
                    DecisionParams.DEFAULT_TAU,
                    r.microsPerSample(),
                    r.meanT(),
                    r.reliability(),
                    r.completeAccuracy());
            out.printf(Locale.ROOT, "model file %d bytes (%.1f MiB):%n", r.fileBytes(), r.fileBytes() / MIB);
            for (Map.Entry<String, Long> e : r.partBytes().entrySet()) {
                out.printf(Locale.ROOT, "  %-40s %12d bytes%n", e.getKey(), e.getValue());
            }
        }
        out.flush();
        return 0;
    }
}
