package io.vigil.cli;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.vigil.data.Dataset;
import io.vigil.evaluate.PatternSummary;
import io.vigil.flink.cli.CommandLines;
import io.vigil.flink.cli.KafkaAddress;
import io.vigil.flink.cli.StreamOptions;
import io.vigil.kafka.KafkaClientProperties;
import io.vigil.kafka.KafkaPreflight;
import io.vigil.kafka.Replay;
import io.vigil.util.Progress;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.ProducerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code vigil replay}: publishes a data set split to Kafka sample by sample, as a monitored system would
 * ({@link Replay}), so the streaming job can be fed, tested and benchmarked with labelled data. The record format
 * is {@link io.vigil.kafka.SampleRecord}'s.
 */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = {
            "Publish each series of a data set split to Kafka sample by sample, K series interleaved at a time.",
            "Key: the series id DATASET/SPLIT/INDEX (INDEX 0-based; '#PASS' added with --repeat > 1).",
            "Value: {\"series\":ID,\"t\":T,\"value\":X} with T 1-based. Truth records: {\"series\":ID,\"label\":L,"
                    + "\"length\":D}.",
            "With --recordings DIR: each recording of the split as an endless keyed stream (key: the recording's"
                    + " name), {\"key\":K,\"channel\":C,\"value\":X,\"i\":I} per observed value (C 0-based, I the"
                    + " 1-based sample), recordings interleaved in time order at their sampling rate x --speed.",
            "Exits once Kafka has acknowledged every record (idempotent producer, acks=all)."
        })
public final class ReplayCommand implements Callable<Integer> {
    /** Default number of series in flight: a monitoring feed has many series arriving side by side. */
    static final int DEFAULT_CONCURRENCY = 100;

    @Spec
    CommandSpec spec;

    @Mixin
    DataOptions data;

    @Mixin
    ObservationOptions observation;

    @Option(
            names = "--split",
            paramLabel = "SPLIT",
            defaultValue = "test",
            converter = SplitConverter.class,
            description = "Which split to publish: test or train (default ${DEFAULT-VALUE}).")
    Replay.Split split;

    @Option(
            names = "--bootstrap",
            required = true,
            paramLabel = "HOST:PORT",
            description =
                    "Kafka bootstrap servers (comma-separated); a different bootstrap.servers in --kafka-properties "
                            + "is a usage error.")
    String bootstrap;

    @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic for sample records.")
    String topic;

    @Option(
            names = "--truth-topic",
            paramLabel = "T",
            description = "Also publish each series' true label to this topic (as the series starts).")
    String truthTopic;

    @Option(
            names = "--rate",
            paramLabel = "SAMPLES_PER_S",
            defaultValue = "0",
            description = "Total samples per second (token bucket); 0 or omitted: as fast as Kafka takes them.")
    double rate;

    @Option(
            names = "--concurrency",
            paramLabel = "K",
            defaultValue = "" + DEFAULT_CONCURRENCY,
            description = "Series interleaved at a time, round-robin; the next starts when one ends "
                    + "(default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--repeat",
            paramLabel = "N",
            defaultValue = "1",
            description = "Publish the split N times (ids get #1..#N) (default ${DEFAULT-VALUE}).")
    int repeat;

    @Option(
            names = "--kafka-properties",
            paramLabel = "FILE",
            description = "Kafka producer properties passed through (security.protocol, sasl.*, ssl.*, "
                    + "linger.ms, ...); secret values are never printed.")
    Path kafkaProperties;

    @Option(
            names = "--recordings",
            paramLabel = "DIR",
            description = "Publish a recording directory (docs/recordings.md) as endless keyed streams for watching "
                    + "(docs/watch.md) instead of a data set; --split picks its recordings.")
    Path recordings;

    @Option(
            names = "--speed",
            paramLabel = "X|max",
            description = "With --recordings: send at the recordings' sampling rate x X (default 1, real time); max: as"
                    + " fast as Kafka takes them, still in time order.")
    String speed;

    @Option(
            names = "--sampling-rate",
            paramLabel = "HZ",
            description = "With --recordings: samples per second of every recording (needed for recordings without a"
                    + " time column; overrides the rate derived from time columns).")
    Double samplingRate;

    @Option(names = "--json", description = "Print one JSON object instead of the one-line summary.")
    boolean json;

    @Option(
            names = "--preflight-timeout",
            paramLabel = "DURATION",
            defaultValue = "15s",
            description = "How long to wait for a Kafka broker to answer before giving up, and the longest a send "
                    + "may block on metadata (default ${DEFAULT-VALUE}).")
    String preflightTimeout;

    /** Parses {@code --split} case-insensitively, naming the valid values on error. */
    static final class SplitConverter implements CommandLine.ITypeConverter<Replay.Split> {
        @Override
        public Replay.Split convert(String value) {
            for (Replay.Split s : Replay.Split.values()) {
                if (s.id().equals(value.toLowerCase(Locale.ROOT))) {
                    return s;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a split; use test or train");
        }
    }

    @Override
    public Integer call() throws IOException {
        if (recordings != null) {
            return new RecordingReplayRun(this).call();
        }
        for (String o : List.of("--speed", "--sampling-rate")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw usage(o + " applies to --recordings only");
            }
        }
        Replay.Settings settings = settings();
        Map<String, Object> user = userProperties();
        Duration timeout = timeout();
        Map<String, Object> config = producerConfig(user, timeout);
        Dataset ds = split == Replay.Split.TEST ? data.loadTest() : data.loadTrain();
        CommandLines.check(spec, () -> settings.pattern().checkChannels(ds.channels()));
        preflight(user, timeout);
        long total = Replay.records(ds, split, settings);
        Replay.Summary summary;
        try (Progress progress = Progress.bar("replay " + ds.name() + "/" + split.id(), total, !json)) {
            summary = Replay.run(ds, split, settings, config, progress);
        }
        Result r = new Result(
                ds.name(),
                split.id(),
                bootstrap,
                topic,
                truthTopic,
                summary.series(),
                ds.length(),
                summary.samples(),
                summary.truthRecords(),
                summary.elapsed().toNanos() / 1e9,
                summary.samplesPerSecond(),
                rate,
                concurrency,
                repeat,
                ds.channels(),
                PatternSummary.of(settings.pattern()),
                KafkaClientProperties.masked(user));
        return CommandOutput.print(
                spec,
                json,
                r,
                String.format(
                        Locale.ROOT,
                        "replayed %d series (%d samples%s%s) of %s/%s to %s in %.2f s: %.0f samples/s",
                        summary.series(),
                        summary.samples(),
                        settings.pattern().isComplete() ? "" : ", observed " + settings.pattern(),
                        truthTopic == null ? "" : ", " + summary.truthRecords() + " labels to " + truthTopic,
                        ds.name(),
                        split.id(),
                        topic,
                        r.elapsedS(),
                        r.samplesPerS()));
    }

    /** {@code replay --json}'s object for a data set split. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Result(
            String dataset,
            String split,
            String bootstrap,
            String topic,
            String truthTopic,
            long series,
            int length,
            long samples,
            long truthRecords,
            double elapsedS,
            double samplesPerS,
            double rate,
            int concurrency,
            int repeat,
            int channels,
            PatternSummary pattern,
            Map<String, String> kafkaProperties) {}

    /** The user's client properties, after checking {@code --bootstrap} against them. */
    Map<String, Object> userProperties() throws IOException {
        if (!bootstrap.matches("[^,:\\s]+:\\d{1,5}(,[^,:\\s]+:\\d{1,5})*")) {
            throw usage("--bootstrap must be HOST:PORT[,HOST:PORT...], got '" + bootstrap + "'");
        }
        Map<String, Object> user = kafkaProperties == null ? Map.of() : KafkaClientProperties.load(kafkaProperties);
        KafkaAddress.requireSame(
                spec.commandLine(), bootstrap, "--bootstrap", user, "--kafka-properties " + kafkaProperties);
        return user;
    }

    /** {@code --preflight-timeout}, positive. */
    Duration timeout() {
        Duration timeout = StreamOptions.duration(spec.commandLine(), "--preflight-timeout", preflightTimeout);
        if (timeout.isZero() || timeout.isNegative()) {
            throw usage("--preflight-timeout must be positive");
        }
        return timeout;
    }

    /** The producer's configuration: the user's properties, the bootstrap servers and the metadata timeout. */
    Map<String, Object> producerConfig(Map<String, Object> user, Duration timeout) {
        Map<String, Object> config = new HashMap<>(user);
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout.toMillis());
        return config;
    }

    /**
     * Checks that a broker answers with these client settings, and that the topics exist or the brokers create
     * them on first use; each failure is one line (exit 1) within {@code timeout}.
     */
    void preflight(Map<String, Object> user, Duration timeout) {
        try (KafkaPreflight kafka = KafkaPreflight.connect(bootstrap, user, timeout)) {
            for (String t : truthTopic == null ? List.of(topic) : List.of(topic, truthTopic)) {
                if (!kafka.topicExists(t) && !kafka.brokersCreateTopics()) {
                    throw new KafkaPreflight.KafkaSetupException(
                            "topic '" + t + "' does not exist at " + bootstrap + " and the brokers do not create "
                                    + "topics on first use (auto.create.topics.enable=false); create it first",
                            null);
                }
            }
        }
    }

    private Replay.Settings settings() {
        if (!(rate >= 0) || Double.isInfinite(rate)) {
            throw usage("--rate must be >= 0 samples/s (0 = unlimited), got " + rate);
        }
        if (concurrency < 1) {
            throw usage("--concurrency must be at least 1, got " + concurrency);
        }
        if (repeat < 1) {
            throw usage("--repeat must be at least 1, got " + repeat);
        }
        if (topic.isBlank()) {
            throw usage("--topic must not be blank");
        }
        if (truthTopic != null && (truthTopic.isBlank() || truthTopic.equals(topic))) {
            throw usage("--truth-topic must be non-blank and differ from --topic");
        }
        return CommandLines.usage(
                spec, () -> new Replay.Settings(topic, truthTopic, rate, concurrency, repeat, observation.pattern()));
    }

    ParameterException usage(String message) {
        return CommandLines.usageError(spec, message);
    }
}
