package io.vigil.research;

import io.vigil.bench.GaussianBlobs;
import io.vigil.bench.HeapMeter;
import io.vigil.bench.LdgCvBenchmark;
import io.vigil.bench.LdgFitBenchmark;
import io.vigil.bench.StreamBenchmark;
import io.vigil.cli.ObservedValueOptions;
import io.vigil.data.ObservationPattern;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.evaluate.PatternSummary;
import io.vigil.flink.LocalState;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgParams;
import io.vigil.ldg.SparseLdg;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil bench}: performance measurements on synthetic data, one subcommand per benchmark. Prints a
 * human-readable table, or exactly one JSON object with {@code --json}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description =
                "Benchmarks on synthetic data (LDG fit, LDG cross-validation, the stream job, long series, series in flight, the watch job).",
        subcommands = {
            BenchCommand.LdgFit.class,
            BenchCommand.LdgCv.class,
            BenchCommand.SparseLdgBench.class,
            BenchCommand.Stream.class,
            BenchLongSeriesCommand.class,
            BenchWatchCommand.class,
            BenchScaleCommand.class
        })
public final class BenchCommand implements Runnable {
    private static final double MIB = 1024.0 * 1024.0;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a benchmark is required (see vigil bench --help)");
    }

    /** {@code vigil bench ldg-fit}: times {@link Ldg#fit} and reports the form used and the peak heap. */
    @Command(
            name = "ldg-fit",
            mixinStandardHelpOptions = true,
            description = {
                "Times Ldg.fit on synthetic Gaussian classes and reports min/median seconds and peak heap.",
                "Example: java -Xmx2g -jar vigil.jar bench ldg-fit --n 300 --d 20000"
            })
    static final class LdgFit implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        BenchRowsOptions rows;

        @Option(names = "--d", defaultValue = "20000", description = "features per row (default: ${DEFAULT-VALUE})")
        int d;

        @Option(names = "--classes", defaultValue = "2", description = "classes (default: ${DEFAULT-VALUE})")
        int classes;

        @Option(names = "--gamma", defaultValue = "0.5", description = "LDG γ (default: ${DEFAULT-VALUE})")
        double gamma;

        @Option(
                names = "--form",
                defaultValue = "AUTO",
                description = "auto, kernel or primal (default: ${DEFAULT-VALUE}: kernel when n <= d)")
        Ldg.Form form;

        @Option(names = "--repeat", defaultValue = "3", description = "timed fits (default: ${DEFAULT-VALUE})")
        int repeat;

        @Mixin
        SeedOption seed;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            LdgParams params = params(spec, rows.neighbors, gamma);
            if (repeat < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be >= 1");
            }
            LdgFitBenchmark.Result r = LdgFitBenchmark.run(rows.n, d, classes, params, form, repeat, seed.value);
            PrintWriter out = spec.commandLine().getOut();
            if (json.value) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("benchmark", "ldg-fit");
                m.put("n", r.n());
                m.put("d", r.d());
                m.put("classes", r.classes());
                m.put("neighbors", rows.neighbors);
                m.put("gamma", gamma);
                m.put("form", r.form().name().toLowerCase(Locale.ROOT));
                m.put("rank", r.rank());
                m.put("seconds", r.seconds());
                m.put("min_seconds", r.minSeconds());
                m.put("median_seconds", r.medianSeconds());
                m.put("peak_heap_bytes", r.peakHeapBytes());
                m.put("baseline_heap_bytes", r.baselineHeapBytes());
                m.put("max_heap_bytes", HeapMeter.maxBytes());
                out.println(Json.line(m));
            } else {
                out.printf(
                        Locale.ROOT,
                        "%-7s %-7s %-7s %-7s %-5s %-10s %-10s %-14s %-14s %-12s%n",
                        "n",
                        "d",
                        "classes",
                        "form",
                        "rank",
                        "fit_s_min",
                        "fit_s_med",
                        "peak_heap_MiB",
                        "baseline_MiB",
                        "max_heap_MiB");
                out.printf(
                        Locale.ROOT,
                        "%-7d %-7d %-7d %-7s %-5d %-10.3f %-10.3f %-14.1f %-14.1f %-12.1f%n",
                        r.n(),
                        r.d(),
                        r.classes(),
                        r.form().name().toLowerCase(Locale.ROOT),
                        r.rank(),
                        r.minSeconds(),
                        r.medianSeconds(),
                        r.peakHeapBytes() / MIB,
                        r.baselineHeapBytes() / MIB,
                        HeapMeter.maxBytes() / MIB);
            }
            out.flush();
            return 0;
        }
    }

    /**
     * {@code vigil bench sparse-ldg}: times {@link SparseLdg#fit} (thesis §3.3.3) on synthetic Gaussian classes or on a
     * label-first TSV file and reports, per repeat, seconds, and for the last fit the non-zeros per column, the mutual
     * coherence and whether every column's ADMM converged.
     */
    @Command(
            name = "sparse-ldg",
            mixinStandardHelpOptions = true,
            description = {
                "Times sparse LDG (DSPCA relaxation by ADMM, sparse or orthonormal deflation).",
                "Example: vigil bench sparse-ldg --n 300 --d 500 --dims 10 --sparsity 100 --deflation sparse"
            })
    static final class SparseLdgBench implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        BenchRowsOptions rows;

        @Option(names = "--d", defaultValue = "500", description = "features per row (default: ${DEFAULT-VALUE})")
        int d;

        @Option(names = "--classes", defaultValue = "3", description = "classes (default: ${DEFAULT-VALUE})")
        int classes;

        @Option(names = "--gamma", defaultValue = "0.5", description = "LDG γ (default: ${DEFAULT-VALUE})")
        double gamma;

        @Option(names = "--dims", defaultValue = "10", description = "columns ℓ (default: ${DEFAULT-VALUE})")
        int dims;

        @Option(names = "--sparsity", defaultValue = "100", description = "λ ≥ 0 (default: ${DEFAULT-VALUE})")
        double sparsity;

        @Option(
                names = "--deflation",
                defaultValue = "SPARSE",
                description = "sparse or orthonormal (default: ${DEFAULT-VALUE})")
        SparseLdg.Deflation deflation;

        @Option(
                names = "--tolerance",
                defaultValue = "1e-5",
                description = "ADMM tolerance relative to ‖Z‖ (default: ${DEFAULT-VALUE})")
        double tolerance;

        @Option(
                names = "--max-iterations",
                defaultValue = "3000",
                description = "ADMM iterations per column (default: ${DEFAULT-VALUE})")
        int maxIterations;

        @Option(names = "--repeat", defaultValue = "1", description = "timed fits (default: ${DEFAULT-VALUE})")
        int repeat;

        @Mixin
        SeedOption seed;

        @Option(
                names = "--tsv",
                description =
                        "use this label-first, tab-separated file (e.g. a UCR _TRAIN.tsv) instead of synthetic data")
        Path tsv;

        @Override
        public Integer call() throws IOException {
            LdgParams ldg = params(spec, rows.neighbors, gamma);
            SparseLdg.Params sp = CommandLines.usage(
                    spec, () -> new SparseLdg.Params(sparsity, deflation, dims, tolerance, maxIterations));
            if (repeat < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be >= 1");
            }
            double[][] x;
            int[] y;
            int g;
            if (tsv != null) {
                List<double[]> rows = new ArrayList<>();
                List<String> labels = new ArrayList<>();
                for (String line : Files.readAllLines(tsv)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    String[] f = line.strip().split("[\\t,]");
                    labels.add(f[0].strip());
                    double[] r = new double[f.length - 1];
                    for (int t = 1; t < f.length; t++) {
                        r[t - 1] = Double.parseDouble(f[t].strip());
                    }
                    rows.add(r);
                }
                List<String> distinct = labels.stream().distinct().sorted().toList();
                x = rows.toArray(new double[0][]);
                y = labels.stream().mapToInt(distinct::indexOf).toArray();
                g = distinct.size();
            } else {
                GaussianBlobs data = GaussianBlobs.generate(rows.n, d, classes, seed.value);
                x = data.x();
                y = data.y();
                g = classes;
            }
            double[] seconds = new double[repeat];
            SparseLdg.Result r = null;
            for (int i = 0; i < repeat; i++) {
                long start = System.nanoTime();
                r = SparseLdg.fit(x, y, g, ldg, sp);
                seconds[i] = (System.nanoTime() - start) / 1e9;
            }
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    Locale.ROOT,
                    "%-7s %-6s %-7s %-5s %-9s %-11s %-9s %-9s %-9s %-9s%n",
                    "n",
                    "d",
                    "classes",
                    "dims",
                    "lambda",
                    "deflation",
                    "fit_s_min",
                    "coh_mean",
                    "coh_max",
                    "converged");
            out.printf(
                    Locale.ROOT,
                    "%-7d %-6d %-7d %-5d %-9.4g %-11s %-9.2f %-9.4f %-9.4f %-9s%n",
                    x.length,
                    x[0].length,
                    g,
                    dims,
                    sparsity,
                    deflation.name().toLowerCase(Locale.ROOT),
                    Arrays.stream(seconds).min().orElseThrow(),
                    r.meanCoherence(),
                    r.maxCoherence(),
                    r.allConverged());
            out.printf(
                    Locale.ROOT,
                    "%-8s %-9s %-12s %-11s %-9s%n",
                    "column",
                    "nonzeros",
                    "objective",
                    "iterations",
                    "converged");
            for (int c = 0; c < r.dims(); c++) {
                out.printf(
                        Locale.ROOT,
                        "%-8d %-9d %-12.5g %-11d %-9s%n",
                        c,
                        r.nonZeros()[c],
                        r.objectives()[c],
                        r.iterations()[c],
                        r.converged()[c]);
            }
            out.flush();
            return 0;
        }
    }

    /** {@code vigil bench ldg-cv}: times refit-per-fold LDG + 3-NN cross-validation over the thesis grid. */
    @Command(
            name = "ldg-cv",
            mixinStandardHelpOptions = true,
            description = {
                "Times LDG model-selection cross-validation (refit per fold, γ ∈ {0.01,0.1,0.3,0.5,0.7,0.9},",
                "ℓ ∈ {G-1,G,G+1,G+2,G+4,G+8,G+16,G+32}, 3-NN) on synthetic data.",
                "Example: vigil bench ldg-cv --n 300 --d 270 --classes 25 --folds 0"
            })
    static final class LdgCv implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Mixin
        BenchRowsOptions rows;

        @Option(names = "--d", defaultValue = "270", description = "features per row (default: ${DEFAULT-VALUE})")
        int d;

        @Option(names = "--classes", defaultValue = "25", description = "classes (default: ${DEFAULT-VALUE})")
        int classes;

        @Option(
                names = "--folds",
                defaultValue = "10",
                description = "stratified folds, or 0 for leave-one-out (default: ${DEFAULT-VALUE})")
        int folds;

        @Option(names = "--threads", description = "worker threads (default: available processors)")
        Integer threads;

        @Mixin
        SeedOption seed;

        @Mixin
        JsonOption json;

        @Override
        public Integer call() {
            params(spec, rows.neighbors, 0.5);
            if (folds != 0 && folds < 2) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--folds must be 0 (LOO) or >= 2");
            }
            int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
            if (t < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 1");
            }
            LdgCvBenchmark.Result r = LdgCvBenchmark.run(rows.n, d, classes, rows.neighbors, folds, t, seed.value);
            PrintWriter out = spec.commandLine().getOut();
            String scheme = folds == 0 ? "loo" : folds + "-fold";
            if (json.value) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("benchmark", "ldg-cv");
                m.put("n", r.n());
                m.put("d", r.d());
                m.put("classes", r.classes());
                m.put("scheme", scheme);
                m.put("folds", r.folds());
                m.put("gammas", r.gammas());
                m.put("dims", r.dims());
                m.put("threads", r.threads());
                m.put("fits", r.fits());
                m.put("seconds", r.seconds());
                m.put("ms_per_fit", 1000 * r.seconds() / r.fits());
                m.put("best_accuracy", r.bestAccuracy());
                out.println(Json.line(m));
            } else {
                out.printf(
                        Locale.ROOT,
                        "%-6s %-6s %-7s %-8s %-6s %-7s %-6s %-9s %-10s %-8s%n",
                        "n",
                        "d",
                        "classes",
                        "scheme",
                        "folds",
                        "threads",
                        "fits",
                        "seconds",
                        "ms_per_fit",
                        "best_acc");
                out.printf(
                        Locale.ROOT,
                        "%-6d %-6d %-7d %-8s %-6d %-7d %-6d %-9.2f %-10.1f %-8.3f%n",
                        r.n(),
                        r.d(),
                        r.classes(),
                        scheme,
                        r.folds(),
                        r.threads(),
                        r.fits(),
                        r.seconds(),
                        1000 * r.seconds() / r.fits(),
                        r.bestAccuracy());
            }
            out.flush();
            return 0;
        }
    }

    private static LdgParams params(CommandLine.Model.CommandSpec spec, int neighbors, double gamma) {
        try {
            return new LdgParams(neighbors, gamma);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * The first line of {@code bench stream}'s table: the data, the observation pattern, the state backend, and that
     * every run of (c) decided every series once.
     */
    static String settingsLine(StreamBenchmark.Settings s, StreamBenchmark.Result r) {
        return String.format(
                Locale.ROOT,
                "%s: %d series of %s%d samples (%s)%s; state backend %s; %d dead letters, each series decided once "
                        + "in every run of (c)",
                s.kind().cliName(),
                s.series(),
                r.channels() > 1 ? r.channels() + " channels x " : "",
                r.length(),
                observed(s, r),
                s.anyOrder() ? ", observed in any order (cache " + (s.anyOrderCache() >> 20) + " MiB)" : "",
                s.backend() == LocalState.Backend.ROCKSDB
                        ? "rocksdb (" + (s.rocksDbMemory() >> 20) + " MiB managed memory)"
                        : s.backend().cliName(),
                r.deadLetters());
    }

    /**
     * How the values were observed: "in time order", or e.g. "shuffled per series, each value missing with P = 0.2,
     * channel 1 5 steps late, channel 2 dropped, seed 1; 2,921 of 4,608 values sent, 12 end records".
     */
    static String observed(StreamBenchmark.Settings s, StreamBenchmark.Result r) {
        ObservationPattern p = s.pattern();
        if (p.isComplete()) {
            return "in time order";
        }
        List<String> parts = new ArrayList<>();
        if (p.shuffled()) {
            parts.add("shuffled per series");
        }
        if (p.missing() > 0) {
            parts.add("each value missing with P = " + p.missing());
        }
        p.lags().forEach((c, k) -> parts.add("channel " + c + " " + k + " steps late"));
        p.dropped().forEach(c -> parts.add("channel " + c + " dropped"));
        return String.join(", ", parts) + ", seed " + p.seed()
                + String.format(
                        Locale.ROOT,
                        "; %,d of %,d values sent, %,d end records",
                        r.valuesSent(),
                        valuesComplete(s, r),
                        r.endRecords());
    }

    /** Values of every series published: series × C·d. */
    static long valuesComplete(StreamBenchmark.Settings s, StreamBenchmark.Result r) {
        return (long) s.series() * r.channels() * r.length();
    }

    /** Rates as "112,607 / 300,961 / ...". */
    static String rates(List<Double> samplesPerSecond) {
        return samplesPerSecond.stream()
                .map(v -> String.format(Locale.ROOT, "%,.0f", v))
                .collect(Collectors.joining(" / "));
    }

    /**
     * {@code vigil bench stream}: Kafka alone, a pass-through Flink job and the Vigil job on the same records, then
     * the Vigil job's latency at half its maximum rate ({@link StreamBenchmark}).
     */
    @Command(
            name = "stream",
            mixinStandardHelpOptions = true,
            description = {
                "In one process and one run: (a) raw Kafka produce/consume, (b) a pass-through Flink job Kafka->Kafka,",
                "(c) the Vigil job, on the same pre-filled topic; then p50/p99 sample->decision latency of (c) fed at",
                "50%% of its maximum rate. Everything runs here: loopback Kafka broker, embedded Flink MiniCluster.",
                "Each run of (c) must decide every series exactly once. A multichannel --kind publishes one record per",
                "value with its channel, interleaved by time (as vigil replay); a sample is then one value.",
                "--missing, --channel-lag, --drop-channel and --shuffle publish the values vigil replay would, drawn",
                "per series from --seed; a series that lost values ends with its end record and is still decided once.",
                "Example: vigil bench stream --kind multi-cbf --shuffle --state-backend rocksdb --series 500",
                "Example: vigil bench stream --kind multi-cbf --shuffle --missing 0.2 --series 500"
            })
    static final class Stream implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(
                names = "--kind",
                defaultValue = "cbf",
                description = "generated data: cbf, synthetic-control, two-patterns or multi-cbf (three channels); the "
                        + "model is trained on its training split (default: ${DEFAULT-VALUE})")
        String kind;

        @Option(
                names = "--shuffle",
                description =
                        "Each series' values arrive in a random order drawn per series from --seed (as vigil "
                                + "replay --shuffle sends them); the job observes them in any order, as vigil run --any-order "
                                + "(default: in time order, as a prefix; multichannel series are always observed in any order).")
        boolean shuffle;

        @Mixin
        ObservedValueOptions values;

        @Option(
                names = "--any-order-cache",
                paramLabel = "SIZE",
                defaultValue = StreamOptions.ANY_ORDER_CACHE_DEFAULT,
                description = "As for vigil run, with --kind multi-cbf, --shuffle or --missing: "
                        + StreamOptions.ANY_ORDER_CACHE_HELP)
        String anyOrderCache;

        @Option(
                names = "--series",
                defaultValue = "8000",
                description = "test series published (samples = series x d; default: ${DEFAULT-VALUE})")
        int series;

        @Option(
                names = "--latency-seconds",
                defaultValue = "20",
                description = "length of the latency phase (default: ${DEFAULT-VALUE})")
        double latencySeconds;

        @Option(
                names = "--z-normalize",
                description = "z-normalise each generated series over its whole length, as the UCR archive does "
                        + "(a stream cannot: prefix values then carry the future; default: raw values)")
        boolean zNormalize;

        @Option(
                names = "--dashboard",
                description =
                        "The runs of (c) with the metrics endpoint also have the live dashboard on and one client "
                                + "following it: what both cost the job, and how late the client learns of each decision.")
        boolean dashboard;

        @Option(
                names = "--repeat",
                paramLabel = "R",
                description = "Pairs of runs of (c) without and with observability, alternating after a warm-up run "
                        + "(default: 3 with --dashboard, else 1).")
        Integer repeat;

        @Mixin
        GeneratedJobOptions job;

        @Mixin
        BenchStateOptions state;

        @Override
        public Integer call() throws Exception {
            CommandLine cl = spec.commandLine();
            int pairs = repeat == null ? StreamBenchmark.Settings.defaultRepeat(dashboard) : repeat;
            if (series < 1
                    || job.train < 2
                    || job.partitions < 1
                    || job.parallelism < 1
                    || !(latencySeconds > 0)
                    || pairs < 1) {
                throw new CommandLine.ParameterException(
                        cl,
                        "--series, --partitions, --parallelism, --latency-seconds, --repeat must be positive, "
                                + "--train >= 2");
            }
            SyntheticKind k = CommandLines.usage(spec, "--kind", () -> SyntheticKind.fromName(kind));
            if (job.train < k.classes().size()) {
                throw new CommandLine.ParameterException(
                        cl,
                        "--train must be at least " + k.classes().size() + " (one series per class of " + k.cliName()
                                + "), got " + job.train);
            }
            ObservationPattern pattern = pattern(cl, k);
            StreamBenchmark.Settings settings = StreamBenchmark.Settings.builder(k)
                    .trainSize(job.train)
                    .series(series)
                    .partitions(job.partitions)
                    .parallelism(job.parallelism)
                    .latencySeconds(latencySeconds)
                    .seed(job.seed.value)
                    .raw(!zNormalize)
                    .dashboard(dashboard)
                    .repeat(pairs)
                    .pattern(pattern)
                    .backend(state.backend(cl))
                    .rocksDbMemory(state.rocksDbMemory(cl))
                    .anyOrderCache(StreamOptions.size(cl, "--any-order-cache", anyOrderCache))
                    .build();
            if (!settings.anyOrder() && cl.getParseResult().hasMatchedOption("--any-order-cache")) {
                throw new CommandLine.ParameterException(
                        cl,
                        "--any-order-cache is for series observed in any order: --kind multi-cbf or --shuffle or "
                                + "--missing");
            }
            PrintWriter err = cl.getErr();
            StreamBenchmark.Result r = StreamBenchmark.run(settings, line -> {
                err.println("bench stream: " + line);
                err.flush();
            });
            PrintWriter out = cl.getOut();
            if (job.json.value) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("benchmark", "stream");
                m.put("samples", r.samples());
                m.put("values_sent", r.valuesSent());
                m.put("values_complete", valuesComplete(settings, r));
                m.put("end_records", r.endRecords());
                m.put("length", r.length());
                m.put("dims", r.dims());
                m.put("kind", k.cliName());
                m.put("channels", r.channels());
                m.put("series", series);
                m.put("shuffle", shuffle);
                m.put("pattern", PatternSummary.of(settings.pattern()));
                m.put("any_order", settings.anyOrder());
                m.put("state_backend", settings.backend().cliName());
                m.put(
                        "rocksdb_memory_bytes",
                        settings.backend() == LocalState.Backend.ROCKSDB ? settings.rocksDbMemory() : null);
                m.put("any_order_cache_bytes", settings.anyOrder() ? settings.anyOrderCache() : null);
                m.put("decided_series_per_run", r.decidedSeries());
                m.put("dead_letters", r.deadLetters());
                m.put("partitions", job.partitions);
                m.put("parallelism", job.parallelism);
                m.put("kafka_produce_samples_per_s", r.produceRate());
                m.put("kafka_consume_samples_per_s", r.consumeRate());
                m.put("passthrough_samples_per_s", r.passThroughRate());
                m.put("vigil_samples_per_s", r.vigilRate());
                m.put("vigil_share_of_passthrough", r.vigilShareOfPassThrough());
                m.put("vigil_with_metrics_samples_per_s", r.vigilRateWithMetrics());
                m.put("vigil_with_metrics_share", r.metricsShare());
                m.put("repeat", pairs);
                m.put("observed", dashboard ? "metrics+dashboard" : "metrics");
                m.put("warm_up_samples_per_s", r.warmUpRate());
                m.put("vigil_runs_samples_per_s", r.runsWithout());
                m.put("observed_runs_samples_per_s", r.runsWith());
                if (dashboard) {
                    m.put("dashboard_samples_per_s", r.dashboardRate());
                    m.put("dashboard_share_of_vigil", r.dashboardShareOfVigil());
                    StreamBenchmark.DashboardLag lag = r.dashboardLag();
                    m.put("dashboard_lag_rate_samples_per_s", lag.rate());
                    m.put("dashboard_lag_p50_ms", lag.p50Ms());
                    m.put("dashboard_lag_p99_ms", lag.p99Ms());
                    m.put("dashboard_lag_max_ms", lag.maxMs());
                    m.put("dashboard_lag_decisions", lag.decisions());
                    m.put("dashboard_update_lag_p99_ms", lag.worstP99Ms());
                    m.put("dashboard_update_lag_max_ms", lag.worstMaxMs());
                }
                m.put("latency_rate_samples_per_s", r.latencyRate());
                m.put("p50_ms", r.p50Ms());
                m.put("p99_ms", r.p99Ms());
                m.put("latency_decisions", r.latencyDecisions());
                m.put("state_bytes_max", r.stateBytesMax());
                m.put("state_bytes_decided", r.stateBytesDecided());
                m.put("state_bytes_d1024_l30", StreamBenchmark.stateBytes(1024, 30, false));
                out.println(Json.line(m));
            } else {
                out.println(settingsLine(settings, r));
                out.printf(Locale.ROOT, "%-36s %14s%n", "stage", "samples/s");
                out.printf(Locale.ROOT, "%-36s %14.0f%n", "(a) Kafka produce", r.produceRate());
                out.printf(Locale.ROOT, "%-36s %14.0f%n", "(a) Kafka consume + decode", r.consumeRate());
                out.printf(Locale.ROOT, "%-36s %14.0f%n", "(b) Flink pass-through Kafka->Kafka", r.passThroughRate());
                out.printf(Locale.ROOT, "%-36s %14.0f  (not counted)%n", "(c) warm-up run", r.warmUpRate());
                out.printf(
                        Locale.ROOT,
                        "%-36s %14.0f  (%.0f%% of b; median of %s)%n",
                        "(c) Vigil job",
                        r.vigilRate(),
                        100 * r.vigilShareOfPassThrough(),
                        rates(r.runsWithout()));
                out.printf(
                        Locale.ROOT,
                        "%-36s %14.0f  (%.0f%% of c; median of %s)%n",
                        dashboard ? "(c) with metrics + dashboard" : "(c) with metrics endpoint scraped",
                        r.vigilRateWithMetrics(),
                        100 * r.metricsShare(),
                        rates(r.runsWith()));
                if (dashboard) {
                    StreamBenchmark.DashboardLag lag = r.dashboardLag();
                    out.printf(
                            Locale.ROOT,
                            "dashboard lag (job emits -> client receives) at %.0f samples/s: p50 %.0f ms, p99 %.0f ms, "
                                    + "max %.0f ms over %d decisions; latest decision of an update: p99 %.0f ms, "
                                    + "max %.0f ms%n",
                            lag.rate(),
                            lag.p50Ms(),
                            lag.p99Ms(),
                            lag.maxMs(),
                            lag.decisions(),
                            lag.worstP99Ms(),
                            lag.worstMaxMs());
                }
                out.printf(
                        Locale.ROOT,
                        "latency of (c) at %.0f samples/s (50%%): p50 %.1f ms, p99 %.1f ms over %d decisions%n",
                        r.latencyRate(),
                        r.p50Ms(),
                        r.p99Ms(),
                        r.latencyDecisions());
                if (settings.anyOrder()) {
                    out.printf(
                            Locale.ROOT,
                            "per-series state (values observed in any order): %d bytes max at C x d = %d x %d; %d bytes "
                                    + "after the decision%n",
                            r.stateBytesMax(),
                            r.channels(),
                            r.length(),
                            r.stateBytesDecided());
                } else {
                    out.printf(
                            Locale.ROOT,
                            "per-series state (joint Gaussian): %d bytes max at d = %d, l = %d; %d bytes after the "
                                    + "decision; %d bytes max at d = 1024, l = 30%n",
                            r.stateBytesMax(),
                            r.length(),
                            r.dims(),
                            r.stateBytesDecided(),
                            StreamBenchmark.stateBytes(1024, 30, false));
                }
            }
            out.flush();
            return 0;
        }

        /**
         * The observation pattern of {@code --missing}, {@code --channel-lag}, {@code --drop-channel} and {@code
         * --shuffle}, seeded by {@code --seed}.
         *
         * @throws CommandLine.ParameterException on a bad value, a channel {@code kind} does not have, dropping every
         *     channel, or a channel option with a univariate kind
         */
        private ObservationPattern pattern(CommandLine cl, SyntheticKind k) {
            if (k.channels() == 1 && values.namesChannels()) {
                throw new CommandLine.ParameterException(
                        cl,
                        "--channel-lag and --drop-channel need several channels; --kind " + k.cliName()
                                + " has one (use --kind multi-cbf)");
            }
            try {
                ObservationPattern p =
                        values.builder(job.seed.value).shuffled(shuffle).build();
                p.checkChannels(k.channels());
                return p;
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(cl, e.getMessage(), e);
            }
        }
    }
}
