package io.vigil.flink.cli;

import io.vigil.dashboard.Dashboard;
import io.vigil.early.Certification;
import io.vigil.early.DecisionOverrides;
import io.vigil.early.DecisionParams;
import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.ModelFeed;
import io.vigil.flink.ProducerFencing;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.KafkaClientProperties;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.KafkaPreflight.KafkaSetupException;
import io.vigil.kafka.ModelTopic;
import io.vigil.model.CalibrationSection;
import io.vigil.model.VigilModel;
import io.vigil.stream.ModelId;
import io.vigil.stream.StreamModel;
import io.vigil.util.Failures;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil run}: the streaming job ({@link VigilJob}) on Kafka. Runs on an embedded Flink MiniCluster when
 * started from the CLI ({@link LocalFlink}: loopback only, one temp directory removed on every exit path, bounded
 * restarts), and on the cluster when the same flags are given to {@code flink run vigil-flink-job.jar}. Decision
 * flags mean what they mean for {@code vigil evaluate}.
 *
 * <p>Before the job starts, a preflight ({@link KafkaPreflight}) checks that a broker answers and that the input
 * topic exists, so a wrong address, a malformed security setting or a missing topic ends in one line (exit 1)
 * within seconds; an unbounded job whose input topic does not exist yet says so once and waits for it.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the streaming job: samples from Kafka, one reliable early decision per series to Kafka.",
            "Input value: {\"series\":ID,\"t\":T,\"value\":X} keyed by ID (t optional: arrival order).",
            "With --watch a window model watches endless keyed streams and writes alarms (docs/watch.md).",
            "Runs until cancelled; with --bounded it reads the input up to the offsets current at start and ends.",
            "State is checkpointed to --state-dir; a restart on the same directory resumes from the latest "
                    + "checkpoint (--fresh starts over)."
        })
public final class RunCommand implements Callable<Integer> {
    @Option(
            names = "--model",
            paramLabel = "MODEL",
            description = "Model file from vigil train (required, here or in --job, unless --model-topic holds one).")
    Path modelFile;

    @Option(
            names = "--model-topic",
            paramLabel = "TOPIC",
            description = "Follow this model topic (vigil publish-model) and hot-swap to each model published: "
                    + "series in flight keep their model, new series use the new one. The job starts with the "
                    + "topic's newest model, or --model while the topic holds none.")
    String modelTopic;

    @Option(
            names = "--bootstrap",
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers (required, here or in --job).")
    String bootstrap;

    @Option(
            names = "--input",
            paramLabel = "TOPIC",
            description = "Topic of sample records (required, here or in --job).")
    String input;

    @Option(names = "--output", paramLabel = "TOPIC", description = "Topic for decisions (required, here or in --job).")
    String output;

    @Option(
            names = "--dead-letter",
            paramLabel = "TOPIC",
            description = "Topic for records that cannot be used, with the reason and original bytes (required, "
                    + "here or in --job).")
    String deadLetter;

    @Mixin
    TauOption tau;

    @Mixin
    DecisionOptions decision;

    @Mixin
    public StreamOptions stream;

    @Option(
            names = "--truth-topic",
            paramLabel = "TOPIC",
            description = "Compare each decision with its series' true label from this topic (vigil replay "
                    + "--truth-topic writes it) and report the agreement as metrics truthAgreement (last 1,000 "
                    + "decisions) and truthAccuracy (since start). The topic must exist.")
    String truthTopic;

    @Option(
            names = "--bounded",
            description = "Read the input up to the offsets current at start, then finish (replays, re-scoring).")
    boolean bounded;

    @Option(
            names = "--require-certified",
            description = "Refuse (exit 1) a model whose operating point at this run's tau is not certified: such a "
                    + "model decides every series only at t = d, never early.")
    boolean requireCertified;

    @Option(
            names = "--from-beginning",
            description = "Re-score the input from offset 0 with empty state, under a new consumer group "
                    + "(GROUP-from-beginning-TIME, or --group-id) so the usual group's offsets stay as they are.")
    boolean fromBeginning;

    @Option(
            names = {"--config", "--kafka-properties"},
            paramLabel = "FILE",
            description = "Kafka client properties passed through to the source and sinks (security.protocol, "
                    + "sasl.*, ssl.*, ...); secret values are never printed. See config/.")
    Path config;

    @Option(names = "--group-id", paramLabel = "ID", description = "Consumer group id (default: vigil-INPUT).")
    String groupId;

    @Option(
            names = "--transactional-id-prefix",
            paramLabel = "PREFIX",
            description = "Prefix of the Kafka transactional ids; unique per job, the same across its restarts "
                    + "(default: vigil-JOB_NAME-HASH, HASH from the state directory; on a cluster vigil-JOB_NAME).")
    String transactionalIdPrefix;

    @Mixin
    public StateOptions state;

    @Mixin
    WatchOptions watch = new WatchOptions();

    @Option(
            names = "--job",
            paramLabel = "FILE",
            description = "YAML job definition (see jobs/): option names without dashes plus a kafka: map of client "
                    + "properties; unknown keys are errors. Flags given here override the file.")
    Path job;

    @Mixin
    WebUiOption webUi = new WebUiOption();

    @Mixin
    MetricsPortOption metricsPort = new MetricsPortOption();

    @Mixin
    DashboardOption dashboard = new DashboardOption();

    @Option(
            names = "--json",
            description = "Print the final summary (decisions by status, dead letters by reason, samples, seconds) as "
                    + "one JSON object on stdout (embedded job).")
    boolean json;

    @Option(
            names = "--skip-preflight",
            description = "Start without first checking Kafka (broker, client settings, topics and their record size "
                    + "limits), e.g. when this machine cannot reach the brokers the job will.")
    boolean skipPreflight;

    @Option(
            names = "--preflight-timeout",
            paramLabel = "DURATION",
            defaultValue = "15s",
            description = "How long the preflight waits for a Kafka broker to answer (default ${DEFAULT-VALUE}).")
    String preflightTimeout;

    /** What the model is called in messages: the --model file, or the model topic's record it came from. */
    private String modelSource;

    /** End offsets of the model topic when its newest model was read (the job follows it from there). */
    private Map<Integer, Long> modelTopicEnd = Map.of();

    /** Kafka client properties from the job file (lowest precedence). */
    private Map<String, String> jobKafka = Map.of();

    /** Where {@link #bootstrap} and {@link #jobKafka} came from, for the one-address check ({@link KafkaAddress}). */
    private String bootstrapOrigin = "--bootstrap";

    private String jobKafkaOrigin = "the job file's kafka: map";

    /** The job's model, once {@link #config} has read it (its shape goes to the state manifest, its d to warnings). */
    private VigilModel parsedModel;

    /** Whether the run's decisions are certified (its start line, the dashboard and --require-certified). */
    private Certification certification;

    /** The embedded job's locked state directory while it runs. */
    private StateOptions.Opened opened;

    /** Bound on each Kafka request made before and after the job (--preflight-timeout). */
    private Duration preflightTimeoutValue = KafkaPreflight.DEFAULT_TIMEOUT;

    /** True when started by {@code flink run} ({@link VigilJobMain}): the cluster's environment, no MiniCluster. */
    private boolean onCluster;

    /** The command as {@code flink run} executes it: on the cluster's execution environment. */
    public static RunCommand forCluster() {
        RunCommand c = new RunCommand();
        c.onCluster = true;
        return c;
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (job != null) {
            return runJobFile(cl);
        }
        if (modelTopic == null) {
            require(cl, modelFile, "--model");
        }
        require(cl, bootstrap, "--bootstrap");
        require(cl, input, "--input");
        require(cl, output, "--output");
        require(cl, deadLetter, "--dead-letter");
        config(cl, null); // every flag checked (usage errors, exit 2) before the model file is read
        if (webUi.port().isPresent() && onCluster) {
            throw new CommandLine.ParameterException(cl, "--web-ui is for the embedded job; a cluster has its own");
        }
        if (metricsPort.port(cl).isPresent() && onCluster) {
            throw new CommandLine.ParameterException(
                    cl, "--metrics-port is for the embedded job; a cluster reports through its metrics reporters");
        }
        OptionalInt dashboardPort = dashboard.port(cl);
        if (dashboardPort.isPresent() && onCluster) {
            throw new CommandLine.ParameterException(
                    cl, "--dashboard is for the embedded job; a cluster has its web UI and metrics");
        }
        if (json && onCluster) {
            throw new CommandLine.ParameterException(cl, "--json is for the embedded job; a cluster has its metrics");
        }
        state.check(cl, onCluster);
        Duration timeout = StreamOptions.duration(cl, "--preflight-timeout", preflightTimeout);
        if (timeout.isZero() || timeout.isNegative()) {
            throw new CommandLine.ParameterException(cl, "--preflight-timeout must be positive");
        }
        modelSource = String.valueOf(modelFile);
        byte[] model = modelTopic == null ? ModelFiles.read(modelFile) : initialModel(cl, timeout);
        JobConfig cfg = config(cl, model);
        watch.requireMode(parsedModel, modelSource, modelTopic, truthTopic);
        certification = Certification.of(parsedModel, cfg.decision());
        if (!certification.certified()) {
            String what =
                    modelSource + "'s operating point at tau " + cfg.decision().tau() + " is not certified ("
                            + (certification.neverEarly()
                                    ? "the training set could not certify it), so every series is decided only at t = d, "
                                            + "never early"
                                    : "the model holds no calibration for this rule), so it decides at tau itself without a "
                                            + "guarantee");
            if (requireCertified) {
                throw new UncertifiedException("--require-certified: " + what + "; lower --tau, retrain on more "
                        + "series (vigil train says what would certify it), or run without --require-certified");
            }
            if (certification.neverEarly()) { // an uncalibrated model's start line says it is not certified
                cl.getErr().println("vigil run: warning: " + what);
            }
        }
        if (!skipPreflight) {
            RunPreflight.preflight(cl, cfg, timeout);
        }
        if (onCluster) {
            return execute(cl, StreamExecutionEnvironment.getExecutionEnvironment(), cfg, model, null);
        }
        try (StateOptions.Opened stateDir = state.open(cl, cfg, model, parsedModel)) {
            opened = stateDir;
            if (cfg.bounded()) {
                Optional<JobConfig> planned = BoundedRuns.plan(
                        cl.getErr(),
                        cfg,
                        stateDir.directory(),
                        stateDir.local().resumeFrom().isPresent(),
                        timeout);
                if (planned.isEmpty()) {
                    RunProgress.Summary none = RunProgress.Summary.of(JobMetrics.Snapshot.EMPTY, 0);
                    cl.getOut().println(json ? none.json() : "vigil run: " + none.text());
                    return 0;
                }
                cfg = planned.get();
            }
            preflightTimeoutValue = timeout;
            return runEmbedded(cl, cfg, model, dashboardPort, stateDir);
        }
    }

    /** The job on the embedded cluster, with the web UI, metrics endpoint and dashboard asked for. */
    private int runEmbedded(
            CommandLine cl, JobConfig cfg, byte[] model, OptionalInt dashboardPort, StateOptions.Opened stateDir)
            throws Exception {
        try (LocalFlink flink = LocalFlink.start(webUi.port(), stateDir.local());
                Dashboard board = startDashboard(dashboardPort, cfg, flink.metrics(), watch.enabled())) {
            if (webUi.announcement() != null) {
                cl.getErr().println("vigil run: " + webUi.announcement());
            }
            metricsPort.port(cl).ifPresent(port -> {
                flink.serveMetrics(port);
                cl.getErr().println("vigil run: " + metricsPort.announcement());
            });
            if (board != null) {
                board.certification(certification);
                cl.getErr().println("vigil run: dashboard at " + board.url());
            }
            return execute(cl, flink.environment(), cfg, model, flink);
        }
    }

    /** The live dashboard of the embedded job (listing alarms when it watches), or null when not asked for. */
    private static Dashboard startDashboard(OptionalInt port, JobConfig cfg, JobMetrics metrics, boolean watching)
            throws IOException {
        if (port.isEmpty()) {
            return null;
        }
        Map<String, Object> props = new LinkedHashMap<>(cfg.kafkaProperties());
        props.put("bootstrap.servers", cfg.bootstrap());
        return Dashboard.start(Dashboard.Settings.of(
                        port.getAsInt(),
                        cfg.input() + " → " + cfg.output(),
                        props,
                        cfg.input(),
                        cfg.output(),
                        metrics::snapshot)
                .withTruthTopic(cfg.truthTopic())
                .watching(watching));
    }

    /**
     * Runs the job; on the embedded cluster ({@code flink} not null) with progress lines, the mismatch warning and
     * the final summary ({@link RunProgress}), also when a signal stops it, and ending at once when another job
     * fences its producers ({@link EmbeddedRun}).
     */
    private int execute(CommandLine cl, StreamExecutionEnvironment env, JobConfig cfg, byte[] model, LocalFlink flink)
            throws Exception {
        try {
            watch.attach(env, cfg, model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(modelSource + ": " + e.getMessage(), e);
        }
        cl.getErr()
                .println("vigil run: " + cfg.input() + " -> " + cfg.output() + " (dead letters: " + cfg.deadLetter()
                        + ") at " + cfg.bootstrap() + ", " + certification.describe() + ", "
                        + cfg.delivery().cliName() + (cfg.bounded() ? ", bounded" : "") + ", transactional-id prefix "
                        + cfg.transactionalIdPrefix() + "; Kafka properties "
                        + KafkaClientProperties.masked(cfg.kafkaProperties()));
        cl.getErr().flush();
        String name = "vigil " + cfg.input() + " -> " + cfg.output();
        if (flink == null) {
            JobExecutionResult result = env.execute(name);
            if (result.isJobExecutionResult()) {
                cl.getOut().println("vigil run: job finished after " + result.getNetRuntime() + " ms");
            }
            return 0;
        }
        try (RunProgress progress = RunProgress.start(
                        flink.metrics()::snapshot,
                        cl.getErr(),
                        parsedModel.length(),
                        cfg.session().reorderWindow());
                EmbeddedRun run = EmbeddedRun.watch(cfg.transactionalIdPrefix(), flink)) {
            EmbeddedRun.Ended ended;
            try {
                ended = run.execute(env, name);
            } catch (EmbeddedRun.FencedException e) {
                cl.getErr().println("vigil run: " + progress.finish().text());
                throw new JobFailedException(e.getMessage(), e);
            } catch (Exception e) {
                cl.getErr().println("vigil run: " + progress.finish().text());
                Optional<String> fenced = ProducerFencing.describe(e, cfg.transactionalIdPrefix());
                if (fenced.isPresent()) {
                    throw new JobFailedException(fenced.get(), e);
                }
                throw new JobFailedException(
                        "the job ended with an error (restarts stop after " + LocalFlink.MAX_RESTARTS
                                + " in a row without " + LocalFlink.STABLE_RUN.toMinutes()
                                + " min of stable running): " + rootCause(e),
                        e);
            }
            RunProgress.Summary summary = progress.finish();
            cl.getOut().println(json ? summary.json() : "vigil run: " + summary.text());
            watch.summary(cl.getErr(), flink.metrics().snapshot());
            cl.getOut().flush();
            if (ended.end() == EmbeddedRun.End.STOPPED) {
                cl.getErr()
                        .println("vigil run: stopped; the job's state stays in "
                                + state.directory(cl, cfg.input(), cfg.output())
                                + " (its latest completed checkpoint): the same command resumes from there");
            } else {
                if (cfg.bounded()) {
                    BoundedRuns.finished(cl.getErr(), cfg, opened.directory(), preflightTimeoutValue);
                }
                if (!json) {
                    cl.getOut()
                            .println("vigil run: job finished after "
                                    + ended.result().getNetRuntime() + " ms");
                }
            }
            cl.getErr().flush();
            cl.getOut().flush();
        }
        return 0;
    }

    /**
     * Re-parses the command with the job file's options first ({@link JobFile}), so flags on the command line
     * override the file, and runs it.
     */
    private int runJobFile(CommandLine cl) throws Exception {
        JobFile file;
        try {
            file = JobFile.load(job, spec);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        List<String> argv = new ArrayList<>(cl.getParseResult().originalArgs());
        if (cl.getParent() != null) { // drop the parent's arguments and this command's name
            argv.subList(0, argv.indexOf(cl.getCommandName()) + 1).clear();
        }
        int at = argv.indexOf("--job");
        if (at >= 0) {
            argv.subList(at, at + 2).clear();
        } else {
            argv.removeIf(a -> a.startsWith("--job="));
        }
        RunCommand resolved = new RunCommand();
        resolved.onCluster = onCluster;
        CommandLine sub = CommandLines.standalone(resolved);
        sub.setOverwrittenOptionsAllowed(true);
        sub.setOut(cl.getOut());
        sub.setErr(cl.getErr());
        sub.parseArgs(file.withArguments(argv).toArray(String[]::new));
        resolved.jobKafka = file.kafkaProperties();
        resolved.jobKafkaOrigin = "the kafka: map of " + job;
        if (resolved.bootstrap != null
                && argv.stream().noneMatch(a -> a.equals("--bootstrap") || a.startsWith("--bootstrap="))) {
            resolved.bootstrapOrigin = "bootstrap: of " + job;
        }
        return resolved.call();
    }

    /** The time in the group id of a {@code --from-beginning} run (UTC, to the second). */
    private static final java.time.format.DateTimeFormatter FROM_BEGINNING_TIME =
            java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(java.time.ZoneOffset.UTC);

    private static void require(CommandLine cl, Object value, String option) {
        if (value == null) {
            throw new CommandLine.ParameterException(
                    cl, "missing " + option + " (give it on the command line or in the --job file)");
        }
    }

    /**
     * The job configuration the flags describe, decision defaults from the model's operating point.
     *
     * @param modelBytes the model file, or null to check the flags alone (defaults without an operating point)
     */
    public JobConfig config(CommandLine cl, byte[] modelBytes) throws IOException {
        DecisionParams params;
        VigilModel model = modelBytes == null ? null : StreamModel.parse(modelBytes, modelSource);
        if (model != null) {
            parsedModel = model;
        }
        Optional<CalibrationSection.OperatingPoint> point =
                model == null ? Optional.empty() : DecisionOverrides.operatingPoint(model);
        try {
            params = decision.resolve(tau.tau, point);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        if (model != null) {
            DecisionOverrides.otherEstimatorWarning(model, params, modelSource)
                    .ifPresent(w -> cl.getErr().println("vigil run: " + w));
        }
        KafkaAddress.requireSame(cl, bootstrap, bootstrapOrigin, jobKafka, jobKafkaOrigin);
        Map<String, String> props = new LinkedHashMap<>(jobKafka);
        if (config != null) {
            Map<String, Object> file = KafkaClientProperties.load(config);
            KafkaAddress.requireSame(cl, bootstrap, bootstrapOrigin, file, "--config " + config);
            file.forEach((k, v) -> props.put(k, String.valueOf(v)));
        }
        JobConfig cfg;
        try {
            cfg = JobConfig.builder(bootstrap, input, output, deadLetter, params)
                    .kafkaProperties(props)
                    .build();
            JobConfig.Builder b =
                    stream.apply(cl, cfg).toBuilder().bounded(bounded).fromBeginning(fromBeginning);
            if (groupId != null) {
                b.groupId(groupId);
            } else if (fromBeginning) {
                b.groupId(cfg.groupId() + "-from-beginning-" + FROM_BEGINNING_TIME.format(java.time.Instant.now()));
            }
            b.transactionalIdPrefix(
                    transactionalIdPrefix != null
                            ? transactionalIdPrefix
                            : state.defaultTransactionalIdPrefix(cl, input, output, onCluster));
            if (modelTopic != null) {
                b.modelFeed(new ModelFeed(modelTopic, modelTopicEnd));
            }
            b.truthTopic(truthTopic);
            cfg = b.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        return cfg;
    }

    /** The root cause of a job failure in one line: its type and message. */
    private static String rootCause(Throwable e) {
        Throwable root = Failures.rootCause(e);
        return root.getClass().getSimpleName() + ": " + Failures.ownMessageOfRoot(root);
    }

    /** {@code --require-certified} refused the model; the message says why and the way out in one line. */
    static final class UncertifiedException extends IllegalStateException implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        UncertifiedException(String message) {
            super(message);
        }
    }

    /** The embedded job ended after repeated failures; the message says why in one line. */
    static final class JobFailedException extends Exception implements Failures.Complete {
        private static final long serialVersionUID = 1L;

        JobFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The model a {@code --model-topic} run starts with: the topic's newest usable model (older ones are looked at
     * when the newest is not usable, each such one named in a line), else the {@code --model} file.
     *
     * @throws KafkaSetupException when the topic cannot be read, or holds no usable model and no --model is given
     */
    private byte[] initialModel(CommandLine cl, Duration timeout) throws IOException {
        Map<String, Object> props = new LinkedHashMap<>(jobKafka);
        if (config != null) {
            props.putAll(KafkaClientProperties.load(config));
        }
        ModelTopic.Contents topic = ModelTopic.read(bootstrap, props, modelTopic, timeout);
        modelTopicEnd = topic.endOffsets();
        List<ModelTopic.Entry> entries = topic.entries();
        for (int i = entries.size() - 1; i >= 0; i--) {
            ModelTopic.Entry e = entries.get(i);
            String source = "topic " + modelTopic + " partition " + e.partition() + " offset " + e.offset();
            try {
                StreamModel.parse(e.value(), source);
            } catch (StreamModel.Unusable bad) {
                cl.getErr().println("vigil run: ignored " + bad.getMessage());
                continue;
            }
            modelSource = source;
            cl.getErr()
                    .println("vigil run: starting with model " + ModelId.of(e.value()) + " from " + source
                            + (modelFile == null
                                    ? ""
                                    : " (the newest published; --model " + modelFile + " is not used)"));
            return e.value();
        }
        if (modelFile == null) {
            throw new KafkaSetupException(
                    "model topic '" + modelTopic + "' at " + bootstrap + " holds no "
                            + (entries.isEmpty() ? "" : "usable ") + "model; publish one with `vigil publish-model "
                            + "--bootstrap " + bootstrap + " --topic " + modelTopic + " MODEL` or give --model",
                    null);
        }
        modelSource = modelFile.toString();
        return ModelFiles.read(modelFile);
    }
}
