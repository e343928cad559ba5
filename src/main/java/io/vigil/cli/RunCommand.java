package io.vigil.cli;

import io.vigil.early.DecisionParams;
import io.vigil.flink.JobConfig;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.KafkaClientProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
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
    @Option(names = "--model", required = true, paramLabel = "MODEL", description = "Model file from vigil train.")
    Path modelFile;

    @Option(names = "--bootstrap", required = true, paramLabel = "HOST:PORT", description = "Kafka bootstrap servers.")
    String bootstrap;

    @Option(names = "--input", required = true, paramLabel = "TOPIC", description = "Topic of sample records.")
    String input;

    @Option(names = "--output", required = true, paramLabel = "TOPIC", description = "Topic for decisions.")
    String output;

    @Option(
            names = "--dead-letter",
            required = true,
            paramLabel = "TOPIC",
            description = "Topic for records that cannot be used, with the reason and original bytes.")
    String deadLetter;

    @Option(
            names = "--tau",
            paramLabel = "T",
            defaultValue = "" + DecisionParams.DEFAULT_TAU,
            description = "Required probability that the early label matches the complete-series label "
                    + "(default: ${DEFAULT-VALUE}).")
    double tau;

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        JobConfig cfg = config(cl);
        byte[] model = readModel(modelFile);
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

    /** The job configuration the flags describe. */
    JobConfig config(CommandLine cl) throws IOException {
        DecisionParams params;
        try {
            params = decision.params(tau);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, e.getMessage(), e);
        }
        Map<String, String> props = new LinkedHashMap<>();
        if (config != null) {
            KafkaClientProperties.load(config).forEach((k, v) -> props.put(k, String.valueOf(v)));
        }
        JobConfig cfg;
        try {
            cfg = JobConfig.of(bootstrap, input, output, deadLetter, params).withKafkaProperties(props);
            cfg = stream.apply(cl, cfg).withBounded(bounded);
            cfg = cfg.withIds(
                    groupId == null ? cfg.groupId() : groupId,
                    transactionalIdPrefix == null ? cfg.transactionalIdPrefix() : transactionalIdPrefix);
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
