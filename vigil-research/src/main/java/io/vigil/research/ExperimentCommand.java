package io.vigil.research;

import io.vigil.cli.SelectionOptions;
import io.vigil.data.DatasetFiles;
import io.vigil.data.TrainTest;
import io.vigil.experiment.SplitCache;
import io.vigil.experiment.Table33Experiment;
import io.vigil.experiment.Table33Experiment.DatasetResult;
import io.vigil.experiment.Table33Experiment.DimsMode;
import io.vigil.experiment.Table33Report;
import io.vigil.experiment.Table35Report;
import io.vigil.experiment.ThesisTable33;
import io.vigil.flink.cli.Json;
import io.vigil.model.CvScheme;
import io.vigil.model.VigilModel;
import io.vigil.select.Reducer;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil experiment}: reproductions of the thesis's experiments and Vigil's own benchmarks, each a subcommand
 * that writes markdown and CSV under {@code --out}: {@code table33}/{@code table34} (the small-sample protocol of
 * §3.5.2, {@link Table33Experiment}), {@code table35} (its run-times), {@code table54} (decision time at t = 1 with and
 * without LDG), {@code fig58} (earliness against accuracy), {@code transfer} (chapter 4) and {@code reliability} (the
 * calibrated operating point, docs/guarantee.md), {@code guarantee} (its certificates over re-splits) and {@code teaser} (the
 * certified curve against TEASER).
 */
@Command(
        name = "experiment",
        mixinStandardHelpOptions = true,
        description = "Reproduce experiments of Parrish (2012).",
        subcommands = {
            ExperimentCommand.Table33.class,
            ExperimentCommand.Table34.class,
            ExperimentCommand.Table35.class,
            ReliabilityExperimentCommand.class,
            GuaranteeExperimentCommand.class,
            TeaserExperimentCommand.class,
            TransferExperimentCommand.class,
            Fig58ExperimentCommand.class,
            Table54ExperimentCommand.class,
            WatchTradeoffExperimentCommand.class
        })
public final class ExperimentCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "an experiment is required (e.g. table33)");
    }

    /**
     * {@code vigil experiment table35}: thesis Table 3.5 (run-times), i.e. the Table 3.3 protocol with the reducers the
     * thesis timed that Vigil has (by default {@code ldg,pca,pca-fda,reg-fda,dlda,lfda}), written as {@code
     * table35.md}/{@code .csv} beside the accuracy files; finished splits come from the same cache.
     */
    @Command(
            name = "table35",
            mixinStandardHelpOptions = true,
            description = {
                "Thesis Table 3.5 (section 3.5.2): mean run-time of one re-split's selection and fit per dataset and",
                "reducer (default --reducers ldg,pca,pca-fda,reg-fda,dlda,lfda) beside the thesis's; writes",
                "table35.md/.csv and the table33 files. Splits already in --out DIR/cache are reused."
            })
    static final class Table35 extends Table33 {
        /** The reducers of Table 3.5 that Vigil has. */
        static final List<String> DEFAULT_REDUCERS = List.of("ldg", "pca", "pca-fda", "reg-fda", "dlda", "lfda");

        @Override
        List<String> reducerList() {
            List<String> given = super.reducerList();
            return given != null ? given : DEFAULT_REDUCERS;
        }

        @Override
        void afterReport(Map<String, List<DatasetResult>> columns) throws IOException {
            new Table35Report(columns).write(resplit.out.value);
        }
    }

    /**
     * {@code vigil experiment table34}: thesis Table 3.4, i.e. {@code table33 --dims cv} (ℓ chosen by 3-NN
     * cross-validation over {G−1, …, G+32}, γ at G − 1 first), with every other option of {@code table33}.
     */
    @Command(
            name = "table34",
            mixinStandardHelpOptions = true,
            description = {
                "Thesis Table 3.4 protocol (section 3.5.2): table33 with the dimension chosen by 3-NN",
                "cross-validation over {G-1, G, G+1, G+2, G+4, G+8, G+16, G+32}; same options and files."
            })
    static final class Table34 extends Table33 {
        @Override
        String dims() {
            if (spec.commandLine().getParseResult().hasMatchedOption("--dims")) {
                throw new IllegalArgumentException("table34 is the --dims cv table; use table33 --dims g-1 for G - 1");
            }
            return DimsMode.CV.cliName();
        }
    }

    /** {@code vigil experiment table33}: thesis Tables 3.3 (ℓ = G − 1) and 3.4 (ℓ by CV). */
    @Command(
            name = "table33",
            mixinStandardHelpOptions = true,
            description = {
                "Thesis Table 3.3/3.4 protocol (section 3.5.2): merge train+test, draw seeded stratified",
                "re-splits with the original sizes, select and train on each training part, and report",
                "LDG + 3-NN test accuracy beside the thesis's figures."
            })
    static class Table33 implements Callable<Integer> {
        @Option(
                names = "--datasets",
                split = ",",
                paramLabel = "NAME",
                description =
                        "Comma-separated datasets to run (default: every Table 3.3 dataset present under --data).")
        List<String> datasets;

        @Option(
                names = "--splits",
                defaultValue = "10",
                paramLabel = "N",
                description = "Random re-splits per dataset (default: ${DEFAULT-VALUE}, as in the thesis).")
        int splits;

        @Option(
                names = "--dims",
                defaultValue = "g-1",
                paramLabel = "g-1|cv",
                description =
                        "g-1: Table 3.3 (dims = G-1); cv: Table 3.4 (dims by 3-NN CV). Default: ${DEFAULT-VALUE}.")
        String dims;

        @CommandLine.Mixin
        ResplitOptions resplit;

        @CommandLine.Mixin
        SelectionOptions selection;

        @Option(
                names = "--reducers",
                split = ",",
                paramLabel = "R",
                description =
                        "Compare reducers on the same splits, each followed by 3-NN: ldg, kernel-ldg, sparse-ldg, and "
                                + "the comparison reducers pca, reg-fda (Ledoit-Wolf regularised FDA), fda (plain FDA), "
                                + "pca-fda (Fisherfaces), lfda (local FDA), mmc (maximum margin criterion), dlda "
                                + "(direct LDA), nca (neighbourhood components analysis), lmca (large margin component "
                                + "analysis) and kernel-lmca (its RBF-kernel version). The first, a Vigil reducer, "
                                + "is the main column (instead of --reducer); every other gets a column with a paired "
                                + "t-test mark against it, or nc where its problem is ill-posed (plain FDA with n-G < d).")
        List<String> reducers;

        @Mixin
        NoResumeOption noResume;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** The ℓ rule: {@code --dims}. */
        String dims() {
            return dims;
        }

        /** The {@code --reducers} list, or null for a single reducer. */
        List<String> reducerList() {
            return reducers;
        }

        /**
         * Called after {@code table33.md} is written, with every column's results (the first reducer's first).
         *
         * @throws IOException when a file cannot be written
         */
        void afterReport(Map<String, List<DatasetResult>> columns) throws IOException {}

        @Override
        public Integer call() throws IOException, InterruptedException {
            List<String> reducerNames = reducerList();
            DimsMode mode;
            TrainParams params;
            Map<String, Object> compared = new LinkedHashMap<>();
            try {
                mode = DimsMode.parse(dims());
                if (reducerNames != null) {
                    if (spec.commandLine().getParseResult().hasMatchedOption("--reducer")) {
                        throw new IllegalArgumentException("give --reducer or --reducers, not both");
                    }
                    params = null;
                    for (String r : reducerNames) {
                        java.util.Optional<Table33Experiment.Peer> peer = Table33Experiment.Peer.of(r);
                        Object column;
                        if (peer.isPresent()) {
                            if (params == null) {
                                throw new IllegalArgumentException("--reducers must start with a Vigil reducer (ldg, "
                                        + "kernel-ldg or sparse-ldg); " + r + " is a comparison column");
                            }
                            column = peer.get();
                        } else {
                            Reducer reducer = Reducer.parse(r);
                            if (reducer == Reducer.TRANSFER_LDG) {
                                throw new IllegalArgumentException("table33 compares reducers on one domain; "
                                        + "transfer-ldg needs a source domain (vigil train)");
                            }
                            column = selection
                                    .applyTo(TrainParams.builder(), reducer)
                                    .build();
                        }
                        String key = column instanceof TrainParams tp
                                ? tp.reducer().cliName()
                                : ((Table33Experiment.Peer) column).cliName();
                        if (params == null) {
                            params = (TrainParams) column;
                            compared.put(key, null);
                        } else if (compared.containsKey(key)) {
                            throw new IllegalArgumentException("--reducers names a reducer twice: " + reducerNames);
                        } else {
                            compared.put(key, column);
                        }
                    }
                    compared.remove(params.reducer().cliName());
                } else {
                    params = selection.applyTo(TrainParams.builder()).build();
                }
                if (params.reducer() == Reducer.TRANSFER_LDG) {
                    throw new IllegalArgumentException(
                            "table33 compares reducers on one domain; transfer-ldg needs a source domain (vigil train)");
                }
                if (resplit.threads < 1) {
                    throw new IllegalArgumentException("--threads must be ≥ 1, got " + resplit.threads);
                }
                if (splits < 2) {
                    throw new IllegalArgumentException(
                            "--splits must be ≥ 2 (a standard error needs two), got " + splits);
                }
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            Table33Experiment.Config config = new Table33Experiment.Config(mode, splits, resplit.seed.value, params);
            Map<String, List<DatasetResult>> extra = new LinkedHashMap<>();
            for (String k : compared.keySet()) {
                extra.put(k, new ArrayList<>());
            }
            List<String> names = datasets != null ? datasets : presentDatasets();
            if (names.isEmpty()) {
                throw new IllegalArgumentException("no Table 3.3 dataset found under " + resplit.dataDir);
            }
            PrintWriter err = spec.commandLine().getErr();
            List<DatasetResult> results = new ArrayList<>();
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(resplit.threads);
            SplitCache cache = SplitCache.at(resplit.out.value.resolve("cache"), !noResume.value);
            long total = (long) names.size() * splits * (1 + compared.size());
            try (Progress progress = Progress.bar("table33 " + mode.cliName(), total, !resplit.json.value)) {
                for (String name : names) {
                    TrainTest tt = resplit.load(name);
                    long t0 = System.nanoTime();
                    DatasetResult r = Table33Experiment.run(name, tt.train(), tt.test(), config, pool, progress, cache);
                    results.add(r);
                    for (Map.Entry<String, Object> c : compared.entrySet()) {
                        extra.get(c.getKey())
                                .add(
                                        c.getValue() instanceof Table33Experiment.Peer peer
                                                ? Table33Experiment.runPeer(
                                                        name,
                                                        tt.train(),
                                                        tt.test(),
                                                        config,
                                                        peer,
                                                        pool,
                                                        progress,
                                                        cache)
                                                : Table33Experiment.run(
                                                        name,
                                                        tt.train(),
                                                        tt.test(),
                                                        new Table33Experiment.Config(
                                                                mode, splits, resplit.seed.value, (TrainParams)
                                                                        c.getValue()),
                                                        pool,
                                                        progress,
                                                        cache));
                    }
                    if (!resplit.json.value) {
                        err.printf(
                                Locale.ROOT,
                                "%-22s %5.1f ± %4.1f  (thesis %s)  %.1f s%n",
                                name,
                                r.meanPercent(),
                                r.stdPercent(),
                                ThesisTable33.row(name)
                                        .map(row -> String.format(
                                                Locale.ROOT,
                                                "%.1f",
                                                mode == DimsMode.G_MINUS_1 ? row.ldgG1() : row.ldgCv()))
                                        .orElse("-"),
                                (System.nanoTime() - t0) / 1e9);
                        err.flush();
                    }
                }
            } finally {
                pool.shutdownNow();
            }
            double wall = (System.nanoTime() - start) / 1e9;
            if (cache.reused() > 0 && !resplit.json.value) {
                err.printf(
                        Locale.ROOT,
                        "resumed %d of %d splits from %s (--no-resume recomputes them)%n",
                        cache.reused(),
                        total,
                        resplit.out.value.resolve("cache"));
                err.flush();
            }
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put(
                    "command",
                    "vigil experiment table33 --dims " + mode.cliName() + " --splits " + splits
                            + " --seed " + resplit.seed.value + (selection.standardize ? " --standardize" : "")
                            + (reducerNames != null
                                    ? " --reducers " + String.join(",", reducerNames)
                                    : " --reducer " + selection.reducer)
                            + (selection.kernel != null ? " --kernel " + selection.kernel : "")
                            + (selection.kernelParam != null ? " --kernel-param " + selection.kernelParam : "")
                            + (selection.refine ? " --refine" : "")
                            + (selection.cv != null ? " --cv " + selection.cv : "")
                            + (selection.neighborSelection != null
                                    ? " --neighbor-selection " + selection.neighborSelection
                                    : "")
                            + (selection.selection != null ? " --selection " + selection.selection : "")
                            + " --neighbor-cv "
                            + selection.neighborCv
                            + " --threads "
                            + resplit.threads);
            settings.put(
                    "standardisation",
                    selection.standardize
                            ? "per-feature, training statistics"
                            : params.protocol() == SelectionProtocol.GIVEN
                                    ? "none"
                                    : "chosen with the LDG neighbour rule on each split's training series by 3-NN "
                                            + "CV (--selection "
                                            + params.protocol().cliName() + ")");
            settings.put(
                    "CV for gamma/dims/local-QDA k",
                    selection.cv != null
                            ? CvScheme.parse(selection.cv).toString()
                            : "loo for n <= 100, else stratified-10-fold");
            settings.put(
                    "CV for the LDG neighbour count",
                    CvScheme.parse(selection.neighborCv).toString());
            settings.put(
                    "reducer",
                    params.reducer().cliName()
                            + (params.reducer() == Reducer.KERNEL_LDG
                                    ? " (" + params.kernel() + " kernel, "
                                            + (params.kernelParam().isPresent()
                                                    ? "parameter "
                                                            + params.kernelParam()
                                                                    .getAsDouble()
                                                    : "parameter by 3-NN CV")
                                            + ")"
                                    : params.refine() ? " refined by gradient descent (thesis Algorithm 1)" : ""));
            settings.put("gamma grid", params.gammaGrid().toString());
            settings.put("k grid", params.kGrid().toString());
            settings.put("Vigil version", VigilModel.runtimeVersion());
            settings.put("wall time", String.format(Locale.ROOT, "%.1f s with %d threads", wall, resplit.threads));
            settings.put(
                    "splits taken from the cache",
                    String.format(
                            Locale.ROOT, "%d of %d (%s)", cache.reused(), total, resplit.out.value.resolve("cache")));
            Table33Report report =
                    new Table33Report(mode, results, settings, params.reducer().cliName(), extra);
            report.write(resplit.out.value);
            Map<String, List<DatasetResult>> columns = new LinkedHashMap<>();
            columns.put(params.reducer().cliName(), results);
            columns.putAll(extra);
            afterReport(columns);
            PrintWriter stdout = spec.commandLine().getOut();
            if (resplit.json.value) {
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("dims", mode.cliName());
                o.put("datasets", results.size());
                o.put("splits", splits);
                o.put("vigil_mean", report.vigilMeanOverThesisDatasets());
                o.put("thesis_mean", report.thesisMean());
                o.put("below_thesis", report.belowThesis());
                if (!extra.isEmpty()) {
                    Map<String, Double> means = new LinkedHashMap<>();
                    means.put(params.reducer().cliName(), report.vigilMeanOverThesisDatasets());
                    extra.forEach((k, v) -> {
                        double m = report.meanOverThesisDatasets(v);
                        means.put(k, Double.isNaN(m) ? null : m);
                    });
                    o.put("reducer_means", means);
                    o.put("not_computable", report.notComputable());
                }
                o.put("wall_seconds", wall);
                o.put("out", resplit.out.value.toString());
                stdout.println(Json.line(o));
            } else {
                stdout.printf(
                        Locale.ROOT,
                        "mean over the %d datasets the thesis reports: Vigil %.2f, thesis %.2f; wrote %s%n",
                        results.stream()
                                .filter(r -> ThesisTable33.row(r.name()).isPresent())
                                .count(),
                        report.vigilMeanOverThesisDatasets(),
                        report.thesisMean(),
                        resplit.out.value.resolve("table33.md"));
            }
            stdout.flush();
            return 0;
        }

        private List<String> presentDatasets() {
            List<String> out = new ArrayList<>();
            for (String name : ThesisTable33.datasets()) {
                if (Files.isDirectory(resplit.dataDir.resolve(name))) {
                    try {
                        DatasetFiles.resolve(resplit.dataDir, name);
                        out.add(name);
                    } catch (IOException e) {
                        // Not a complete dataset (e.g. the test file is missing): skip it like an absent one.
                        continue;
                    }
                }
            }
            return out;
        }
    }
}
