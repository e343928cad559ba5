package io.vigil.cli;

import io.vigil.early.DecisionParams;
import io.vigil.flink.JobConfig;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.KafkaClientProperties;
import io.vigil.model.CalibrationSection;
import io.vigil.model.json.ModelFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code vigil run}: the streaming job ({@link VigilJob}) on Kafka. Runs on an embedded Flink MiniCluster when
 * started from the CLI, and on the cluster when the same flags are given to {@code flink run
 * vigil-flink-job.jar}. Decision flags mean what they mean for {@code vigil evaluate}.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run the streaming job: samples from Kafka, one reliable early decision per series to Kafka.",
            "Input value: {\"series\":ID,\"t\":T,\"value\":X} keyed by ID (t optional: arrival order).",
            "Runs until cancelled; with --bounded it reads the input up to the offsets current at start and ends."
        })
public final class RunCommand implements Callable<Integer> {
    @Option(
            names = "--model",
            paramLabel = "MODEL",
            description = "Model file from vigil train (required, here or in --job).")
    Path modelFile;

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
    StreamOptions stream;

    @Option(
            names = "--bounded",
            description = "Read the input up to the offsets current at start, then finish (replays, re-scoring).")
    boolean bounded;

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
            description = "Prefix of the Kafka transactional ids; unique per job (default: vigil-OUTPUT).")
    String transactionalIdPrefix;

    @Option(
            names = "--job",
            paramLabel = "FILE",
            description = "YAML job definition (see jobs/): option names without dashes plus a kafka: map of client "
                    + "properties; unknown keys are errors. Flags given here override the file.")
    Path job;

    /** Kafka client properties from the job file (lowest precedence). */
    private Map<String, String> jobKafka = Map.of();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        if (job != null) {
            return runJobFile(cl);
        }
        require(cl, modelFile, "--model");
        require(cl, bootstrap, "--bootstrap");
        require(cl, input, "--input");
        require(cl, output, "--output");
        require(cl, deadLetter, "--dead-letter");
        config(cl, null); // every flag checked (usage errors, exit 2) before the model file is read
        byte[] model = readModel(modelFile);
        JobConfig cfg = config(cl, model);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        try {
            VigilJob.attach(env, cfg, model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(modelFile + ": " + e.getMessage(), e);
        }
        cl.getErr()
                .println("vigil run: " + cfg.input() + " -> " + cfg.output() + " (dead letters: " + cfg.deadLetter()
                        + ") at " + cfg.bootstrap() + ", tau " + cfg.decision().tau() + ", "
                        + cfg.delivery().cliName() + (cfg.bounded() ? ", bounded" : "") + "; Kafka properties "
                        + KafkaClientProperties.masked(cfg.kafkaProperties()));
        cl.getErr().flush();
        JobExecutionResult result = env.execute("vigil " + cfg.input() + " -> " + cfg.output());
        if (result.isJobExecutionResult()) {
            cl.getOut().println("vigil run: job finished after " + result.getNetRuntime() + " ms");
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
        CommandLine sub = VigilCli.standalone(resolved);
        sub.setOverwrittenOptionsAllowed(true);
        sub.setOut(cl.getOut());
        sub.setErr(cl.getErr());
        sub.parseArgs(file.withArguments(argv).toArray(String[]::new));
        resolved.jobKafka = file.kafkaProperties();
        return resolved.call();
    }

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
    JobConfig config(CommandLine cl, byte[] modelBytes) throws IOException {
        DecisionParams params;
        Optional<CalibrationSection.OperatingPoint> point = modelBytes == null
                ? Optional.empty()
                : DecisionOptions.operatingPoint(ModelFile.standard().read(modelBytes, modelFile.toString()));
        try {
            params = decision.resolve(tau.tau, point);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        Map<String, String> props = new LinkedHashMap<>(jobKafka);
        if (config != null) {
            KafkaClientProperties.load(config).forEach((k, v) -> props.put(k, String.valueOf(v)));
        }
        JobConfig cfg;
        try {
            cfg = JobConfig.builder(bootstrap, input, output, deadLetter, params)
                    .kafkaProperties(props)
                    .build();
            JobConfig.Builder b = stream.apply(cl, cfg).toBuilder().bounded(bounded);
            if (groupId != null) {
                b.groupId(groupId);
            }
            if (transactionalIdPrefix != null) {
                b.transactionalIdPrefix(transactionalIdPrefix);
            }
            cfg = b.build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        return cfg;
    }

    static byte[] readModel(Path file) throws IOException {
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new IOException("model file " + file + " does not exist (train one with `vigil train`)", e);
        }
    }
}
