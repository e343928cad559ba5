package io.vigil.cli;

import io.vigil.early.DecisionParams;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.ModelFiles;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.kafka.KafkaClientProperties;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.ModelTopic;
import io.vigil.stream.ModelId;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamModel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.RecordMetadata;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code vigil publish-model}: hands a new model to running jobs ({@code vigil run --model-topic}). The model file is
 * checked here first, as the job would check it, then written whole to a compacted topic under one key
 * ({@link ModelTopic}); the topic is created when missing. Prints the model id the job will write in decisions.
 */
@Command(
        name = "publish-model",
        mixinStandardHelpOptions = true,
        description = {
            "Publish a model to a compacted model topic; jobs run with --model-topic swap to it: series already in "
                    + "flight keep their model, new series use this one.",
            "Prints the model id (the 'model' field of the decisions it makes)."
        })
public final class PublishModelCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "MODEL", description = "Model file from vigil train.")
    Path modelFile;

    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description = "Kafka bootstrap servers; overrides bootstrap.servers in --config.")
    String bootstrap;

    @Option(
            names = "--topic",
            required = true,
            paramLabel = "TOPIC",
            description = "Model topic (created compacted, one partition, when missing).")
    String topic;

    @Option(
            names = {"--config", "--kafka-properties"},
            paramLabel = "FILE",
            description = "Kafka client properties (security.protocol, sasl.*, ssl.*, ...); secret values are never "
                    + "printed.")
    Path config;

    @Option(
            names = "--timeout",
            paramLabel = "DURATION",
            defaultValue = "15s",
            description = "How long to wait for the broker to answer and to acknowledge (default ${DEFAULT-VALUE}).")
    String timeout;

    @Override
    public Integer call() throws Exception {
        CommandLine cl = spec.commandLine();
        Duration wait = StreamOptions.duration(cl, "--timeout", timeout);
        if (wait.isZero() || wait.isNegative()) {
            throw CommandLines.usageError(spec, "--timeout must be positive");
        }
        byte[] model = ModelFiles.read(modelFile);
        StreamModel.load(model, DecisionParams.defaults(), SessionSettings.defaults(), modelFile.toString());
        Map<String, Object> props = config == null ? Map.of() : KafkaClientProperties.load(config);
        boolean created;
        try (KafkaPreflight kafka = KafkaPreflight.connect(bootstrap, props, wait)) {
            created = ModelTopic.prepare(kafka, topic, model.length);
        }
        RecordMetadata at = ModelTopic.publish(bootstrap, props, topic, model, wait);
        String id = ModelId.of(model);
        cl.getErr()
                .println("vigil publish-model: model " + id + " (" + model.length + " bytes) written to "
                        + (created ? "new compacted topic " : "topic ") + topic + " at " + bootstrap + ", partition "
                        + at.partition() + " offset " + at.offset());
        cl.getOut().println(id);
        return 0;
    }
}
