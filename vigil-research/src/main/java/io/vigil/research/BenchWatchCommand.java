package io.vigil.research;

import io.vigil.bench.WatchBenchmark;
import io.vigil.bench.WatchWorkload;
import io.vigil.flink.cli.Json;
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
 * {@code vigil bench watch}: throughput, open windows, alarms and alarm latency of the watch job ({@code vigil run
 * --watch}) on N keys × C channels with a window model of D samples and stride S ({@link WatchBenchmark}).
 */
@Command(
        name = "watch",
        mixinStandardHelpOptions = true,
        description = {
            "Throughput of vigil run --watch: values/s, open windows, alarms and alarm latency.",
            "N keys x C channels in one process: loopback Kafka broker, embedded Flink MiniCluster, a window model",
            "of C channels, window D and stride S trained here by vigil train --recordings on vigil generate --kind",
            "event-stream recordings widened to C channels (cached under --cache and reused). The keys send their",
            "values sample by sample; (1) the job reads a pre-filled topic as fast as it can (values/s between 40%%",
            "and 95%% of the values, open windows from the watchOpenWindows gauge, alarms), then (2) runs fed at half",
            "that rate: p50/p99 latency from sending the trigger sample's first value to receiving the alarm record.",
            "Example: vigil bench watch --keys 1000 --channels 6 --window 200 --stride 10 --json"
        })
final class BenchWatchCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--keys", defaultValue = "1000", description = "keys N (default: ${DEFAULT-VALUE})")
    int keys;

    @Option(names = "--channels", defaultValue = "6", description = "channels C (default: ${DEFAULT-VALUE})")
    int channels;

    @Option(names = "--window", defaultValue = "200", description = "window length D (default: ${DEFAULT-VALUE})")
    int window;

    @Option(names = "--stride", defaultValue = "10", description = "window stride S (default: ${DEFAULT-VALUE})")
    int stride;

    @Option(
            names = "--samples",
            defaultValue = "600",
            description = "samples each key sends in (1), C values each (default: ${DEFAULT-VALUE})")
    int samples;

    @Option(
            names = "--recording-length",
            defaultValue = "10000",
            description = "samples per generated recording (default: ${DEFAULT-VALUE})")
    int recordingLength;

    @Option(
            names = "--no-calibration",
            description = "train the model with vigil train --no-calibration (faster; default: calibrated, as vigil "
                    + "train is)")
    boolean noCalibration;

    @Option(names = "--partitions", defaultValue = "2", description = "topic partitions (default: ${DEFAULT-VALUE})")
    int partitions;

    @Option(names = "--parallelism", defaultValue = "2", description = "Flink parallelism (default: ${DEFAULT-VALUE})")
    int parallelism;

    @Option(
            names = "--latency-seconds",
            defaultValue = "60",
            description = "shortest length of the paced phase (2), which then runs until 100 alarms arrived or the "
                    + "streams end (default: ${DEFAULT-VALUE})")
    double latencySeconds;

    @Option(
            names = "--cache",
            paramLabel = "DIR",
            description =
                    "where trained window models are kept and reused (default: <java.io.tmpdir>/vigil-bench-watch)")
    Path cache;

    @Mixin
    SeedOption seed;

    @Mixin
    JsonOption json;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        WatchBenchmark.Settings settings;
        try {
            WatchWorkload.Shape shape =
                    new WatchWorkload.Shape(channels, window, stride, recordingLength, !noCalibration, seed.value);
            settings = new WatchBenchmark.Settings(
                    shape,
                    keys,
                    samples,
                    partitions,
                    parallelism,
                    latencySeconds,
                    cache == null ? WatchWorkload.defaultCache() : cache);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        PrintWriter err = cl.getErr();
        WatchBenchmark.Result r = WatchBenchmark.run(settings, line -> {
            err.println("bench watch: " + line);
            err.flush();
        });
        PrintWriter out = cl.getOut();
        if (json.value) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("benchmark", "watch");
            m.put("values_per_s", number(r.valuesPerSecond()));
            m.put("open_windows", number(r.openWindows()));
            m.put("alarms", r.alarms());
            m.put("latency_ms_p50", number(r.latencyP50Ms()));
            m.put("latency_ms_p99", number(r.latencyP99Ms()));
            m.put("values_per_cpu_s", number(r.valuesPerCpuSecond()));
            m.put("keys", keys);
            m.put("channels", channels);
            m.put("window", window);
            m.put("stride", stride);
            m.put("max_open_windows_per_key", (window + stride - 1) / stride);
            m.put("samples_per_key", samples);
            m.put("values", r.values());
            m.put("open_windows_max", r.openWindowsMax());
            m.put("windows_decided", r.windowsDecided());
            m.put("dead_letters", r.deadLetters());
            m.put("latency_rate_values_per_s", r.latencyRate());
            m.put("latency_alarms", r.latencyAlarms());
            m.put("partitions", partitions);
            m.put("parallelism", parallelism);
            m.put("calibrated", !noCalibration);
            m.put("model_cached", r.model().cached());
            m.put("train_seconds", r.model().trainSeconds());
            m.put("dims", r.model().vigil().model().dims());
            out.println(Json.line(m));
        } else {
            out.printf(
                    Locale.ROOT,
                    "watch: %d keys x %d channels, D = %d, S = %d (at most %d windows per key), %d values, model %s%n",
                    keys,
                    channels,
                    window,
                    stride,
                    (window + stride - 1) / stride,
                    r.values(),
                    r.model().cached()
                            ? "from the cache"
                            : String.format(
                                    Locale.ROOT, "trained in %.1f s", r.model().trainSeconds()));
            out.printf(Locale.ROOT, "%-28s %14.0f%n", "values/s", r.valuesPerSecond());
            out.printf(Locale.ROOT, "%-28s %14.0f%n", "values per CPU second", r.valuesPerCpuSecond());
            out.printf(Locale.ROOT, "%-28s %14.0f  (max %d)%n", "open windows", r.openWindows(), r.openWindowsMax());
            out.printf(Locale.ROOT, "%-28s %14d  (%d windows decided)%n", "alarms", r.alarms(), r.windowsDecided());
            out.printf(
                    Locale.ROOT,
                    "latency at %.0f values/s: p50 %.1f ms, p99 %.1f ms over %d alarms%n",
                    r.latencyRate(),
                    r.latencyP50Ms(),
                    r.latencyP99Ms(),
                    r.latencyAlarms());
        }
        out.flush();
        return 0;
    }

    /** A measurement for the JSON object: null when there was none (NaN). */
    private static Double number(double v) {
        return Double.isNaN(v) ? null : v;
    }
}
