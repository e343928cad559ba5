package io.vigil.cli;

import io.vigil.api.TrainOptions;
import io.vigil.api.VigilTrainer;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.demo.StreamDemo;
import io.vigil.demo.Timeline;
import io.vigil.early.Certification;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.early.calibrate.CalibrationParams;
import io.vigil.flink.JobConfig;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.DashboardOption;
import io.vigil.flink.cli.DecisionOptions;
import io.vigil.flink.cli.Json;
import io.vigil.flink.cli.MetricsPortOption;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.flink.cli.TauOption;
import io.vigil.flink.cli.WebUiOption;
import io.vigil.gauss.EstimatorType;
import io.vigil.model.CvScheme;
import io.vigil.model.VigilModel;
import io.vigil.select.SelectionProtocol;
import io.vigil.select.TrainParams;
import io.vigil.stream.DecisionRecord;
import io.vigil.util.Progress;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil demo}: the main job on embedded defaults, nothing external. Starts Apache Kafka on loopback,
 * generates (or reads) a data set, trains, replays the test split, runs the Flink job on an embedded
 * MiniCluster, prints decisions as they arrive and ends with a summary that compares every streamed decision
 * with the offline evaluation ({@code vigil evaluate}) of the same model and data.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        defaultValueProvider = DemoCommand.Defaults.class,
        description = {
            "The whole system on this machine: loopback Kafka, training, replay, the Flink job, live decisions.",
            "Without --data/--dataset it generates CBF (Saito 1994): --train series to train on, --series to replay.",
            "Each decision says the target its rule is certified at (\"certified at 0.90, pac δ=0.1\": the rate over "
                    + "all series, not per decision) or \"not certified\". Ends with: series "
                    + "decided early, mean t/d, agreement with the complete-series label, accuracy, samples/s, latency, "
                    + "and whether "
                    + "every decision equals vigil evaluate's."
        })
public final class DemoCommand implements Callable<Integer> {
    /** Default replay rate (samples/s): paced, well below the embedded job's throughput on two cores. */
    static final int DEFAULT_RATE = 20_000;

    /**
     * The demo's checkpoint interval (vigil run's is 2 s): its exactly-once decisions become visible at checkpoints,
     * so the first decision and the last appear sooner, and the state is a few kilobytes.
     */
    static final String DEFAULT_CHECKPOINT_INTERVAL = "1s";

    @Mixin
    DataOptions data;

    @Option(
            names = "--kind",
            paramLabel = "cbf|synthetic-control|two-patterns|multi-cbf|watch",
            defaultValue = "cbf",
            description = "Generated data set when no --data is given (default: ${DEFAULT-VALUE}); multi-cbf has three "
                    + "channels, streamed one record per value with its channel. watch: the watch mode instead "
                    + "(vigil run --watch, docs/watch.md) on a generated event stream (vigil generate --kind "
                    + "event-stream): trains a window model, replays the test recordings as keyed streams, prints "
                    + "alarms as they fire, true or false against the generated events, and ends with F1, false "
                    + "alarms per hour and delay; --rate is then values per second over all keys (default "
                    + DemoWatch.DEFAULT_RATE + ").")
    String kind;

    @Option(
            names = "--train-size",
            paramLabel = "N",
            defaultValue = "100",
            description = "Generated training series (default: ${DEFAULT-VALUE}).")
    int trainSize;

    @Option(
            names = "--series",
            paramLabel = "N",
            defaultValue = "1000",
            description = "Generated test series to replay (default: ${DEFAULT-VALUE}).")
    int series;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Generator seed (default: 1).")
    long seed;

    @Option(
            names = "--z-normalize",
            description = "z-normalise each generated series over its whole length, as the UCR archive does; a real "
                    + "stream cannot (prefix values then carry the future), so the demo streams raw values by default.")
    boolean zNormalize;

    @Mixin
    TauOption tau;

    @Mixin
    DecisionOptions decision;

    @Mixin
    StreamOptions stream;

    @Option(
            names = "--selection",
            paramLabel = "auto|all|given",
            defaultValue = "given",
            description = "vigil train's --selection for the demo's model (default: ${DEFAULT-VALUE}, the thesis's "
                    + "protocol; auto is train's default: searches four protocols, about 10x the training time).")
    String selection;

    @Option(
            names = "--cv",
            paramLabel = "loo|N",
            defaultValue = "10",
            description = "vigil train's --cv for the demo's model (default: ${DEFAULT-VALUE}-fold; train's default "
                    + "is loo up to 100 series, about 5x the selection time).")
    String cv;

    @Option(
            names = "--rate",
            paramLabel = "SAMPLES_PER_S",
            defaultValue = "" + DEFAULT_RATE,
            description = "Replay rate in samples per second (default: ${DEFAULT-VALUE}, well below what the job "
                    + "takes, so the latency reported is processing latency); 0 = as fast as Kafka takes them, and "
                    + "the latency then includes the backlog.")
    double rate;

    @Option(
            names = "--concurrency",
            paramLabel = "K",
            defaultValue = "" + ReplayCommand.DEFAULT_CONCURRENCY,
            description = "Series replayed side by side (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--partitions",
            paramLabel = "N",
            defaultValue = "2",
            description = "Partitions of the sample and decision topics (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(
            names = "--print",
            paramLabel = "LINES_PER_S",
            defaultValue = "5",
            description = "Live decision lines per second at most; the rest are counted (default: "
                    + "${DEFAULT-VALUE}; 0 = none).")
    int printRate;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "2min",
            description = "Longest wait for the last decisions after the replay (default: ${DEFAULT-VALUE}).")
    String timeout;

    @Mixin
    WebUiOption webUi = new WebUiOption();

    @Mixin
    MetricsPortOption metricsPort = new MetricsPortOption();

    @Mixin
    DashboardOption dashboard = new DashboardOption();

    @Option(names = "--json", description = "Print one JSON object at the end; live lines go to stderr.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Timeline timeline = Timeline.sinceProcessStart();
        CommandLine cl = spec.commandLine();
        if (DemoWatch.KIND.equals(kind)) {
            return DemoWatch.run(this, timeline);
        }
        PrintWriter out = cl.getOut();
        PrintWriter live = json ? cl.getErr() : out;
        if (tau.tau != null && !(tau.tau > 0 && tau.tau < 1)) {
            throw new CommandLine.ParameterException(cl, "--tau must lie strictly between 0 and 1, got " + tau.tau);
        }
        if (series < 1 || trainSize < 2) {
            throw new CommandLine.ParameterException(cl, "--series must be >= 1 and --train-size >= 2");
        }
        if (partitions < 1 || rate < 0) {
            throw new CommandLine.ParameterException(cl, "--partitions must be >= 1 and --rate >= 0");
        }
        TrainOptions trainOptions = trainOptions();
        metricsPort.port(cl); // a usage error before training
        OptionalInt dashboardPort = dashboard.port(cl);
        TrainTest tt = data.given() ? data.load() : generate(cl);
        timeline.mark("data ready");
        live.printf(
                Locale.ROOT,
                "vigil demo: %s, %d training and %d test series of length %d%n",
                tt.train().name(),
                tt.train().size(),
                tt.test().size(),
                tt.train().length());
        StreamDemo.Result r;
        DecisionParams params;
        int slots = stream.parallelism > 0
                ? stream.parallelism
                : Runtime.getRuntime().availableProcessors();
        try (StreamDemo.Infrastructure infra =
                StreamDemo.Infrastructure.start(partitions, slots, webUi.port(), metricsPort.port(cl), timeline)) {
            long t0 = System.nanoTime();
            VigilModel model;
            try (Progress progress = Progress.bar("train " + tt.train().name(), 1, !json)) {
                model = VigilTrainer.train(tt.train(), trainOptions, progress);
            }
            timeline.mark("trained");
            params = CommandLines.usage(spec, () -> decision.overrides(tau.tau)).resolve(model);
            live.printf(
                    Locale.ROOT,
                    "trained in %.1f s as vigil train --selection %s --cv %s would: gamma %s, dims %d, local-QDA k %d; "
                            + "streaming on loopback Kafka + Flink MiniCluster (%s, %s)%n",
                    (System.nanoTime() - t0) / 1e9,
                    selection,
                    cv,
                    model.gamma(),
                    model.dims(),
                    model.qdaNeighbors(),
                    stream.delivery,
                    Certification.of(model, params).describe());
            if (!Certification.of(model, params).certified()) {
                live.println("vigil demo: warning: the operating point at tau " + params.tau() + " is not certified on "
                        + tt.train().size() + " training series, so "
                        + (Certification.of(model, params).neverEarly()
                                ? "every series is decided only at t = d, never early"
                                : "it decides at tau itself without a guarantee"));
            }
            live.flush();
            JobConfig job = stream.apply(
                    cl,
                    JobConfig.builder("127.0.0.1:0", "samples", "decisions", "dead-letters", params)
                            .build());
            StreamDemo.Settings settings = new StreamDemo.Settings(
                    tt, model, job, rate, concurrency, StreamOptions.duration(cl, "--timeout", timeout));
            if (webUi.announcement() != null) {
                live.println(webUi.announcement());
            }
            if (metricsPort.announcement() != null) {
                live.println(metricsPort.announcement());
            }
            LivePrinter printer = new LivePrinter(live, printRate);
            r = StreamDemo.run(settings, infra, printer::accept, !json, dashboardPort, url -> {
                live.println("dashboard at " + url);
                live.flush();
            });
            printer.flushSkipped();
        }
        timeline.mark("stopped");
        if (json) {
            Map<String, Object> summary = summary(r, tt, params);
            summary.put("timeline_s", timeline.seconds());
            out.println(Json.line(summary));
        } else {
            out.printf(
                    Locale.ROOT,
                    "%d series: %d decided early, mean t/d %.3f, agreement with the complete-series label %.3f, "
                            + "accuracy %.3f; %.0f samples/s, %s p50 %.0f ms / p99 %.0f ms; %d dead letters; %s%n",
                    r.series(),
                    r.decidedEarly(),
                    r.meanFraction(),
                    r.reliability(),
                    r.accuracy(),
                    r.samplesPerSecond(),
                    latencyLabel(r),
                    r.p50Ms(),
                    r.p99Ms(),
                    r.deadLetters(),
                    r.matchesEvaluate()
                            ? "every decision equals vigil evaluate's"
                            : "MISMATCH with vigil evaluate: " + r.mismatches());
            out.println("seconds since start: " + timeline.line());
        }
        out.flush();
        return r.matchesEvaluate() ? 0 : VigilCli.EXIT_FAILURE;
    }

    /**
     * The demo model's training options: {@link #trainParams}, the complete-series sections and a calibration for the
     * estimator the demo streams with, so that its decisions can be certified.
     */
    TrainOptions trainOptions() {
        TrainParams selectionParams = trainParams();
        EstimatorType estimator = CommandLines.usage(spec, decision::estimatorOrDefault);
        return TrainOptions.builder()
                .selection(selectionParams)
                .sections(EarlyModelTrainer.Params.defaults())
                .calibration(
                        CalibrationParams.defaults(TrainParams.DEFAULT_SEED).withEstimator(estimator))
                .build();
    }

    /**
     * What {@code vigil train --selection S --cv C} would train with: the same trainer, a smaller search than train's
     * defaults so that the demo decides within seconds.
     */
    private TrainParams trainParams() {
        return CommandLines.usage(spec, () -> TrainParams.builder()
                .protocol(SelectionProtocol.parse(selection))
                .cv(CvScheme.parse(cv))
                .build());
    }

    /**
     * Paced, the latency is the job's processing latency (with exactly-once including the wait for the checkpoint
     * that commits the decision); unpaced, or when the machine could not keep the pace, it measures a backlog.
     */
    private String latencyLabel(StreamDemo.Result r) {
        if (r.keptPace()) {
            return "processing latency";
        }
        return rate > 0
                ? "backlog latency (fell behind the paced replay: machine busy)"
                : "backlog latency (unpaced replay)";
    }

    private TrainTest generate(CommandLine cl) {
        SyntheticKind k = CommandLines.usage(spec, "--kind", () -> SyntheticKind.fromName(kind));
        return SyntheticData.generate(k, trainSize, series, seed, !zNormalize);
    }

    private Map<String, Object> summary(StreamDemo.Result r, TrainTest tt, DecisionParams p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("series", r.series());
        m.put("decided_early", r.decidedEarly());
        m.put("mean_fraction", r.meanFraction());
        m.put("reliability", r.reliability());
        m.put("accuracy", r.accuracy());
        m.put("samples_per_s", r.samplesPerSecond());
        m.put("p50_ms", r.p50Ms());
        m.put("p99_ms", r.p99Ms());
        m.put("dead_letters", r.deadLetters());
        m.put("matches_evaluate", r.matchesEvaluate());
        m.put("dataset", tt.test().name());
        m.put("length", r.length());
        m.put("tau", p.tau());
        m.put("set", p.set().cliName());
        m.put("estimator", p.estimator().id());
        m.put("classifier", p.classifier().cliName());
        m.put("rule", p.rule().cliName());
        m.put("duplicates", r.duplicates());
        m.put("missing", r.missing());
        m.put("mismatches", r.mismatches());
        m.put("elapsed_s", r.elapsed().toMillis() / 1e3);
        m.put("rate", rate);
        m.put("latency", r.keptPace() ? "processing" : "backlog");
        return m;
    }

    /**
     * What a decision's rule is certified at: "certified at 0.90, pac δ=0.1" (or ", expected") — the target τ in
     * force and its guarantee, which bound the rate over all series, not this one label — or "not certified" (a τ
     * the training set could not certify, an uncalibrated model, a class of interest, or an undecided label, which
     * no rule announced). The per-decision margin ({@code margin_tau}) is left out: no guarantee covers it.
     */
    static String certificate(DecisionRecord d) {
        if (!d.certified || DecisionRecord.UNDECIDED.equals(d.status)) {
            return "not certified";
        }
        return String.format(Locale.ROOT, "certified at %.2f, %s", d.target, d.guarantee)
                + (Double.isFinite(d.delta) ? " δ=" + d.delta : "");
    }

    /** Defaults of the demo that differ from the shared options' ({@link #DEFAULT_CHECKPOINT_INTERVAL}). */
    static final class Defaults implements CommandLine.IDefaultValueProvider {
        @Override
        public String defaultValue(CommandLine.Model.ArgSpec arg) {
            return arg instanceof CommandLine.Model.OptionSpec o
                            && o.longestName().equals("--checkpoint-interval")
                    ? DEFAULT_CHECKPOINT_INTERVAL
                    : null;
        }
    }

    /** Prints at most N decision (or alarm) lines per second and counts the rest. */
    static final class LivePrinter {
        private final PrintWriter out;
        private final int perSecond;
        private final AtomicLong skipped = new AtomicLong();
        private long windowStart;
        private int inWindow;

        LivePrinter(PrintWriter out, int perSecond) {
            this.out = out;
            this.perSecond = perSecond;
        }

        void accept(DecisionRecord d) {
            line(() -> d.isDecision()
                    ? String.format(
                            Locale.ROOT,
                            "  %-22s -> %-6s at t=%d/%d%s (%s)",
                            d.series,
                            d.label,
                            d.t,
                            d.length,
                            d.early ? " early" : "",
                            certificate(d))
                    : DecisionRecord.UNDECIDED.equals(d.status)
                            ? String.format(
                                    Locale.ROOT,
                                    "  %-22s undecided after t=%d/%d (now %s, %s)",
                                    d.series,
                                    d.t,
                                    d.length,
                                    d.label,
                                    certificate(d))
                            : String.format(Locale.ROOT, "  %-22s abandoned after t=%d/%d", d.series, d.t, d.length));
        }

        /** Prints the line unless this second's are used up (then it is only counted, and never formatted). */
        synchronized void line(java.util.function.Supplier<String> text) {
            long now = System.currentTimeMillis();
            if (now - windowStart >= 1000) {
                flushSkipped();
                windowStart = now;
                inWindow = 0;
            }
            if (inWindow >= perSecond) {
                skipped.incrementAndGet();
                return;
            }
            inWindow++;
            out.println(text.get());
            out.flush();
        }

        synchronized void flushSkipped() {
            long n = skipped.getAndSet(0);
            if (n > 0) {
                out.println("  ... " + n + " more");
                out.flush();
            }
        }
    }
}
