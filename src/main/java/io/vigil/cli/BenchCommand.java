package io.vigil.cli;

import io.vigil.bench.HeapMeter;
import io.vigil.bench.LdgCvBenchmark;
import io.vigil.bench.LdgFitBenchmark;
import io.vigil.ldg.Ldg;
import io.vigil.ldg.LdgParams;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code vigil bench}: performance measurements on synthetic data, one subcommand per benchmark. Prints a
 * human-readable table, or exactly one JSON object with {@code --json}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        description = "Benchmarks on synthetic data (LDG fit, LDG cross-validation).",
        subcommands = {BenchCommand.LdgFit.class, BenchCommand.LdgCv.class})
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

        @Option(names = "--n", defaultValue = "300", description = "training rows (default: ${DEFAULT-VALUE})")
        int n;

        @Option(names = "--d", defaultValue = "20000", description = "features per row (default: ${DEFAULT-VALUE})")
        int d;

        @Option(names = "--classes", defaultValue = "2", description = "classes (default: ${DEFAULT-VALUE})")
        int classes;

        @Option(names = "--neighbors", defaultValue = "5", description = "LDG neighbours k (default: ${DEFAULT-VALUE})")
        int neighbors;

        @Option(names = "--gamma", defaultValue = "0.5", description = "LDG γ (default: ${DEFAULT-VALUE})")
        double gamma;

        @Option(
                names = "--form",
                defaultValue = "AUTO",
                description = "auto, kernel or primal (default: ${DEFAULT-VALUE}: kernel when n <= d)")
        Ldg.Form form;

        @Option(names = "--repeat", defaultValue = "3", description = "timed fits (default: ${DEFAULT-VALUE})")
        int repeat;

        @Option(names = "--seed", defaultValue = "1", description = "data seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--json", description = "print one JSON object instead of a table")
        boolean json;

        @Override
        public Integer call() {
            LdgParams params = params(spec, neighbors, gamma);
            if (repeat < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--repeat must be >= 1");
            }
            LdgFitBenchmark.Result r = LdgFitBenchmark.run(n, d, classes, params, form, repeat, seed);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("benchmark", "ldg-fit");
                m.put("n", r.n());
                m.put("d", r.d());
                m.put("classes", r.classes());
                m.put("neighbors", neighbors);
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

        @Option(names = "--n", defaultValue = "300", description = "training rows (default: ${DEFAULT-VALUE})")
        int n;

        @Option(names = "--d", defaultValue = "270", description = "features per row (default: ${DEFAULT-VALUE})")
        int d;

        @Option(names = "--classes", defaultValue = "25", description = "classes (default: ${DEFAULT-VALUE})")
        int classes;

        @Option(names = "--neighbors", defaultValue = "5", description = "LDG neighbours k (default: ${DEFAULT-VALUE})")
        int neighbors;

        @Option(
                names = "--folds",
                defaultValue = "10",
                description = "stratified folds, or 0 for leave-one-out (default: ${DEFAULT-VALUE})")
        int folds;

        @Option(names = "--threads", description = "worker threads (default: available processors)")
        Integer threads;

        @Option(names = "--seed", defaultValue = "1", description = "data and fold seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--json", description = "print one JSON object instead of a table")
        boolean json;

        @Override
        public Integer call() {
            params(spec, neighbors, 0.5);
            if (folds != 0 && folds < 2) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--folds must be 0 (LOO) or >= 2");
            }
            int t = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
            if (t < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be >= 1");
            }
            LdgCvBenchmark.Result r = LdgCvBenchmark.run(n, d, classes, neighbors, folds, t, seed);
            PrintWriter out = spec.commandLine().getOut();
            String scheme = folds == 0 ? "loo" : folds + "-fold";
            if (json) {
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
}
