package io.vigil.research;

import io.vigil.bench.HeapMeter;
import io.vigil.bench.ScaleBenchmark;
import io.vigil.flink.LocalState;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.StreamOptions;
import java.io.PrintWriter;
import java.time.Duration;
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
 * {@code vigil bench scale}: series in flight at once through the embedded job ({@link ScaleBenchmark}); one row
 * per series count, or one JSON object.
 */
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        description = {
            "Series in flight at once through the embedded job (one process: loopback Kafka broker, Flink",
            "MiniCluster). For each N in --series: N series x --samples samples, interleaved round-robin over the",
            "series, are produced to a fresh topic (timed apart), then the bounded Vigil job reads them, checkpointing",
            "with --state-backend. Prints samples/s, series in flight (sessions held), checkpoint duration and size,",
            "state bytes per in-flight series and peak heap. With several counts the first is the reference the",
            "throughput ratio compares with: it reads as many samples as the largest run, in waves of N new series",
            "x d samples (each series ends at t = d), so that N stay in flight throughout.",
            "Example: vigil bench scale --series 8000,1000000 --length 128 --samples 16 --state-backend rocksdb"
        })
final class BenchScaleCommand implements Callable<Integer> {
    private static final double MIB = 1024.0 * 1024.0;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--series",
            split = ",",
            defaultValue = "8000",
            description = "series in flight, one job per value, e.g. 8000,1000000 (default: ${DEFAULT-VALUE})")
    int[] series;

    @Option(names = "--length", defaultValue = "128", description = "series length d (default: ${DEFAULT-VALUE})")
    int length;

    @Option(
            names = "--samples",
            description = "samples produced per series, 1..d; fewer than d keep every series in flight to the end "
                    + "of the input (default: d)")
    Integer samples;

    @Option(
            names = "--tau",
            defaultValue = "0.999",
            description = "decision threshold; high, so that series stay undecided (default: ${DEFAULT-VALUE})")
    double tau;

    @Option(
            names = "--checkpoint-interval",
            defaultValue = "5s",
            description = "checkpoint interval, e.g. 5s or 500ms (default: ${DEFAULT-VALUE})")
    String checkpointInterval;

    @Option(
            names = "--producers",
            defaultValue = "2",
            description = "producer threads of the produce phase (default: ${DEFAULT-VALUE})")
    int producers;

    @Mixin
    GeneratedJobOptions job;

    @Mixin
    BenchStateOptions state;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        ScaleBenchmark.Settings settings;
        Duration interval = StreamOptions.duration(cl, "--checkpoint-interval", checkpointInterval);
        LocalState.Backend stateBackend = state.backend(cl);
        long memory = state.rocksDbMemory(cl);
        try {
            settings = new ScaleBenchmark.Settings(
                    series,
                    length,
                    samples == null ? length : samples,
                    stateBackend,
                    memory,
                    tau,
                    interval,
                    job.partitions,
                    job.parallelism,
                    producers,
                    job.train,
                    job.seed.value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        PrintWriter err = cl.getErr();
        ScaleBenchmark.Result r = ScaleBenchmark.run(settings, line -> {
            err.println("bench scale: " + line);
            err.flush();
        });
        PrintWriter out = cl.getOut();
        if (job.json.value) {
            out.println(Json.line(json(settings, r)));
        } else {
            table(out, settings, r);
        }
        out.flush();
        return 0;
    }

    private static Map<String, Object> json(ScaleBenchmark.Settings s, ScaleBenchmark.Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", "scale");
        m.put("length", r.length());
        m.put("samples_per_series", s.samplesPerSeries());
        m.put("dims", r.dims());
        m.put("state_backend", s.backend().cliName());
        m.put("rocksdb_memory_bytes", s.backend() == LocalState.Backend.ROCKSDB ? s.rocksDbMemory() : null);
        m.put("tau", s.tau());
        m.put("checkpoint_interval_ms", s.checkpointInterval().toMillis());
        m.put("partitions", s.partitions());
        m.put("parallelism", s.parallelism());
        m.put("producers", s.producers());
        m.put("max_heap_bytes", HeapMeter.maxBytes());
        m.put("state_bytes_model_max", r.stateBytesModelMax());
        List<Map<String, Object>> runs = new ArrayList<>();
        for (ScaleBenchmark.Run run : r.runs()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("series", run.series());
            j.put("waves", run.waves());
            j.put("samples_per_series", run.samplesPerSeries());
            j.put("samples", run.samples());
            j.put("produce_seconds", run.produceSeconds());
            j.put("produce_samples_per_s", run.produceRate());
            j.put("job_seconds", run.jobSeconds());
            j.put("samples_per_s", run.samplesPerSecond());
            j.put("series_in_flight", run.seriesInFlight());
            j.put("checkpoints", run.checkpoints());
            j.put("failed_checkpoints", run.failedCheckpoints());
            j.put("checkpoint_ms_max", run.checkpointMsMax());
            j.put("checkpoint_ms_max_while_reading", run.checkpointMsMaxReading());
            j.put("checkpoint_bytes_max", run.checkpointBytesMax());
            j.put("checkpoint_increment_bytes_max", run.checkpointIncrementBytesMax());
            j.put("state_bytes_per_series", run.stateBytesPerSeries());
            j.put("peak_heap_bytes", run.peakHeapBytes());
            j.put("decided_early", run.decidedEarly());
            j.put("decided_complete", run.decidedComplete());
            j.put("undecided", run.undecided());
            runs.add(j);
        }
        m.put("runs", runs);
        m.put("throughput_ratio", r.throughputRatio());
        return m;
    }

    private static void table(PrintWriter out, ScaleBenchmark.Settings s, ScaleBenchmark.Result r) {
        out.printf(
                Locale.ROOT,
                "scale: cbf d = %d, %d samples per series, l = %d, %s, tau = %s, checkpoint every %d ms, heap limit "
                        + "%.0f MiB; one session at t = d: %d bytes%n",
                r.length(),
                s.samplesPerSeries(),
                r.dims(),
                s.backendDescription(),
                s.tau(),
                s.checkpointInterval().toMillis(),
                HeapMeter.maxBytes() / MIB,
                r.stateBytesModelMax());
        String head = "%10s %12s %12s %12s %10s %6s %9s %13s %12s %11s %10s %26s%n";
        out.printf(
                Locale.ROOT,
                head,
                "series",
                "produce/s",
                "samples/s",
                "in_flight",
                "ckpts",
                "failed",
                "ckpt_ms",
                "ckpt_ms_read",
                "ckpt_MiB",
                "B/series",
                "heap_MiB",
                "early/complete/undecided");
        for (ScaleBenchmark.Run run : r.runs()) {
            out.printf(
                    Locale.ROOT,
                    "%10d %12.0f %12.0f %12d %10d %6d %9d %13d %12.1f %11.0f %10.0f %26s%n",
                    run.series(),
                    run.produceRate(),
                    run.samplesPerSecond(),
                    run.seriesInFlight(),
                    run.checkpoints(),
                    run.failedCheckpoints(),
                    run.checkpointMsMax(),
                    run.checkpointMsMaxReading(),
                    run.checkpointBytesMax() / MIB,
                    run.stateBytesPerSeries(),
                    run.peakHeapBytes() / MIB,
                    run.decidedEarly() + "/" + run.decidedComplete() + "/" + run.undecided());
        }
        if (r.runs().size() > 1) {
            ScaleBenchmark.Run reference = r.runs().get(0);
            out.printf(
                    Locale.ROOT,
                    "reference: %d series in flight, %d wave(s) of %d series x %d samples = %d samples%n",
                    reference.series(),
                    reference.waves(),
                    reference.series(),
                    reference.samplesPerSeries(),
                    reference.samples());
            out.printf(
                    Locale.ROOT,
                    "throughput at %d series = %.0f%% of %d series%n",
                    r.runs().get(r.runs().size() - 1).series(),
                    100 * r.throughputRatio(),
                    r.runs().get(0).series());
        }
    }
}
