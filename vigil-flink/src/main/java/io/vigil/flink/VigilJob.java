package io.vigil.flink;

import io.vigil.early.DecisionParams;
import io.vigil.kafka.ModelTopic;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;

/**
 * The Vigil stream job: Kafka samples → decode (bad records to dead letters) → {@code keyBy(series)} → {@link
 * EarlyDecisionFunction} (run by {@link EarlyDecisionOperator}, which also discards restored state of another model)
 * → decisions topic, plus the dead-letter topic. {@link #pipeline} is the topology between
 * source and sinks, so tests run the production pipeline on bounded inputs; {@link #attach} adds the Kafka edges.
 * The entry point of {@code flink run} is {@code io.vigil.flink.cli.VigilJobMain}, which takes {@code vigil run}'s flags.
 *
 * <p>With a model topic ({@link JobConfig#modelFeed}) the keyed stage also reads model files, broadcast to all its
 * parallel instances, and swaps models while running ({@link ModelSwapFunction}).
 *
 * <p>With a truth topic ({@link JobConfig#truthTopic}) the decisions are also compared with the true labels read from
 * it ({@link TruthAgreement}, metrics only).
 *
 * <p>Operator uids are fixed ({@code samples-source}, {@code model-source}, {@code reject-router}, {@code
 * early-decision}, {@code decisions-sink}, {@code dead-letter-sink}, {@code truth-source}, {@code truth-agreement})
 * so savepoints map to operators across releases.
 */
public final class VigilJob {
    /**
     * Longest time a partly filled network buffer waits before it is sent (Flink's default is 100 ms): decisions
     * are small and sparse, so a short timeout keeps sample-to-decision latency in milliseconds at a small cost
     * in throughput.
     */
    static final long BUFFER_TIMEOUT_MS = 5;

    /** The decisions and dead letters of a pipeline. */
    public record Outputs(DataStream<DecisionRecord> decisions, DataStream<DeadLetter> deadLetters) {}

    /** Name of the keyed decision stage. */
    private static final String STAGE_NAME = "Reliable early decision";

    /** The sinks' {@code transaction.timeout.ms} unless the Kafka properties set one: 10 min. */
    static final long DEFAULT_TRANSACTION_TIMEOUT_MS = 600_000;

    private VigilJob() {}

    /**
     * The keyed decision stage on a stream of events (accepted and rejected), for any source.
     *
     * @param modelBytes the model file's bytes
     */
    public static Outputs pipeline(
            DataStream<SampleEvent> events, byte[] modelBytes, DecisionParams params, SessionSettings settings) {
        return pipeline(events, null, modelBytes, params, settings);
    }

    /**
     * The keyed decision stage with model hot swap: {@code models} (model files, e.g. from the model topic) is
     * broadcast to every parallel instance of the stage ({@link ModelSwapOperator}); null for the fixed-model stage.
     *
     * @param modelBytes the initial model file's bytes
     */
    public static Outputs pipeline(
            DataStream<SampleEvent> events,
            DataStream<byte[]> models,
            byte[] modelBytes,
            DecisionParams params,
            SessionSettings settings) {
        SingleOutputStreamOperator<SampleEvent> accepted = events.process(RejectRouter.samples())
                .uid("reject-router")
                .name("Route rejected records")
                .returns(TypeInformation.of(SampleEvent.class));
        KeyedStream<SampleEvent, String> keyed = accepted.keyBy(e -> e.series, Types.STRING);
        EarlyDecisionFunction function = new EarlyDecisionFunction(modelBytes, params, settings);
        TypeInformation<DecisionRecord> type = TypeInformation.of(DecisionRecord.class);
        SingleOutputStreamOperator<DecisionRecord> decisions = (models == null
                        ? keyed.transform(STAGE_NAME, type, new EarlyDecisionOperator(function))
                        : keyed.connect(models.broadcast())
                                .transform(STAGE_NAME, type, new ModelSwapOperator(new ModelSwapFunction(function))))
                .uid("early-decision");
        DataStream<DeadLetter> dead = accepted.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS)
                .union(decisions.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS));
        return new Outputs(decisions, dead);
    }

    /** Adds the whole job, Kafka source and sinks included, to {@code env} and configures checkpointing. */
    public static Outputs attach(StreamExecutionEnvironment env, JobConfig cfg, byte[] modelBytes) {
        return attach(env, cfg, modelBytes, UnaryOperator.identity());
    }

    /**
     * {@link #attach} with {@code tap} applied to the source stream before the pipeline (benchmarks insert a
     * throughput probe there; the job itself is unchanged).
     */
    public static Outputs attach(
            StreamExecutionEnvironment env,
            JobConfig cfg,
            byte[] modelBytes,
            UnaryOperator<DataStream<SampleEvent>> tap) {
        configure(env, cfg);
        DataStream<SampleEvent> events = env.fromSource(
                        source(cfg), WatermarkStrategy.noWatermarks(), "Kafka samples: " + cfg.input())
                .uid("samples-source");
        DataStream<byte[]> models = null;
        if (cfg.modelFeed() != null) {
            models = env.fromSource(
                            modelSource(cfg),
                            WatermarkStrategy.noWatermarks(),
                            "Kafka models: " + cfg.modelFeed().topic())
                    .setParallelism(1)
                    .uid("model-source");
        }
        Outputs out = pipeline(tap.apply(events), models, modelBytes, cfg.decision(), cfg.session());
        out.decisions()
                .sinkTo(sink(cfg, new KafkaOutputs.Decisions(cfg.output()), "d"))
                .uid("decisions-sink")
                .name("Kafka decisions: " + cfg.output());
        out.deadLetters()
                .sinkTo(sink(
                        cfg,
                        new KafkaOutputs.DeadLetters(cfg.deadLetter(), cfg.input(), cfg.deadLetterValueBytes()),
                        "x"))
                .uid("dead-letter-sink")
                .name("Kafka dead letters: " + cfg.deadLetter());
        if (cfg.truthTopic() != null) {
            compareWithTruth(env, cfg, out.decisions());
        }
        return out;
    }

    /**
     * The environment settings every Vigil job shares: parallelism, exactly-once checkpoints at the configured
     * interval, object reuse and the short network buffer timeout.
     */
    static void configure(StreamExecutionEnvironment env, JobConfig cfg) {
        if (cfg.parallelism() > 0) {
            env.setParallelism(cfg.parallelism());
        }
        env.enableCheckpointing(cfg.checkpointInterval().toMillis(), CheckpointingMode.EXACTLY_ONCE);
        // Half an interval between the end of one checkpoint and the start of the next: large state is not
        // checkpointed back to back, and the first checkpoint comes half an interval to an interval after the
        // start (not at a random moment right after it).
        env.getCheckpointConfig()
                .setMinPauseBetweenCheckpoints(cfg.checkpointInterval().toMillis() / 2);
        env.getConfig().enableObjectReuse();
        env.setBufferTimeout(BUFFER_TIMEOUT_MS);
    }

    /** Adds the truth topic's source and {@link TruthAgreement} on the decisions (parallelism 1: one record a series). */
    private static void compareWithTruth(
            StreamExecutionEnvironment env, JobConfig cfg, DataStream<DecisionRecord> decisions) {
        KafkaSourceBuilder<Tuple2<String, String>> b = KafkaSource.<Tuple2<String, String>>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setTopics(cfg.truthTopic())
                .setGroupId(cfg.groupId() + "-truth")
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new TruthRecordDeserializer())
                .setProperties(properties(cfg))
                .setProperty("isolation.level", "read_committed");
        if (cfg.bounded()) {
            b.setBounded(OffsetsInitializer.latest());
        }
        DataStream<Tuple2<String, String>> truth = env.fromSource(
                        b.build(), WatermarkStrategy.noWatermarks(), "Kafka truth: " + cfg.truthTopic())
                .setParallelism(1)
                .uid("truth-source");
        decisions
                .keyBy(d -> d.series, Types.STRING)
                .connect(truth.keyBy(t -> t.f0, Types.STRING))
                .process(new TruthAgreement(), Types.VOID)
                .setParallelism(1)
                .uid("truth-agreement")
                .name("Agreement with truth");
    }

    /**
     * The job's Kafka source of sample events (read_committed; from the group's committed offsets, or offset 0 with
     * {@link JobConfig#fromBeginning}; bounded when the configuration says so).
     */
    public static KafkaSource<SampleEvent> source(JobConfig cfg) {
        return source(cfg, new SampleDeserializer());
    }

    /** {@link #source(JobConfig)} with another record decoder (the watch mode's). */
    static <T> KafkaSource<T> source(JobConfig cfg, KafkaRecordDeserializationSchema<T> deserializer) {
        KafkaSourceBuilder<T> b = KafkaSource.<T>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setTopics(cfg.input())
                .setGroupId(cfg.groupId())
                .setStartingOffsets(
                        cfg.fromBeginning()
                                ? OffsetsInitializer.earliest()
                                : OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(deserializer)
                .setProperties(properties(cfg))
                .setProperty("isolation.level", "read_committed");
        if (cfg.bounded()) {
            b.setBounded(stoppingOffsets(cfg));
        }
        return b.build();
    }

    /**
     * Where a bounded run stops: the end offsets snapshot of {@link JobConfig#boundedEnd} (a partition absent there
     * is not read), else the end offsets the source finds when it starts.
     */
    static OffsetsInitializer stoppingOffsets(JobConfig cfg) {
        if (cfg.boundedEnd().isEmpty()) {
            return OffsetsInitializer.latest();
        }
        Map<TopicPartition, Long> end = new HashMap<>();
        cfg.boundedEnd().forEach((p, o) -> end.put(new TopicPartition(cfg.input(), p), o));
        return OffsetsInitializer.offsets(end, OffsetResetStrategy.EARLIEST);
    }

    /**
     * The source of model files from the model topic ({@link ModelFeed}), from the offsets the run started at, on
     * the job's bootstrap servers and client properties. A bounded job reads no further than those offsets: the
     * models present at start were already considered, so a bounded run decides with its initial model only and
     * ends with its input.
     */
    public static KafkaSource<byte[]> modelSource(JobConfig cfg) {
        ModelFeed feed = cfg.modelFeed();
        Map<TopicPartition, Long> from = new HashMap<>();
        feed.startOffsets().forEach((p, o) -> from.put(new TopicPartition(feed.topic(), p), o));
        KafkaSourceBuilder<byte[]> b = KafkaSource.<byte[]>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setTopics(feed.topic())
                .setGroupId(cfg.groupId() + "-models")
                .setStartingOffsets(OffsetsInitializer.offsets(from, OffsetResetStrategy.EARLIEST))
                .setDeserializer(new ModelRecordDeserializer())
                .setProperties(properties(cfg))
                .setProperty("commit.offsets.on.checkpoint", "false");
        ModelTopic.CONSUMER_FETCH.forEach(b::setProperty);
        if (cfg.bounded()) {
            b.setBounded(OffsetsInitializer.offsets(from, OffsetResetStrategy.EARLIEST));
        }
        return b.build();
    }

    /**
     * A Kafka sink with the job's delivery guarantee, client properties and a transactional id per suffix; a fenced
     * producer, when it sends or when its transaction is committed, is recorded by {@link ProducerFencing}.
     */
    public static <T> Sink<T> sink(JobConfig cfg, KafkaRecordSerializationSchema<T> schema, String suffix) {
        Properties p = properties(cfg);
        // Flink's default transaction timeout (1 h) exceeds Kafka's default transaction.max.timeout.ms (15 min).
        p.putIfAbsent("transaction.timeout.ms", Long.toString(DEFAULT_TRANSACTION_TIMEOUT_MS));
        // Records a fenced producer, so the job's final error can say that another job took its transactions over.
        p.merge("interceptor.classes", FencingInterceptor.class.getName(), (user, ours) -> user + "," + ours);
        return new FencingAwareKafkaSink<>(KafkaSink.<T>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setKafkaProducerConfig(p)
                .setRecordSerializer(schema)
                .setDeliveryGuarantee(cfg.delivery().guarantee())
                .setTransactionalIdPrefix(cfg.transactionalIdPrefix() + "-" + suffix)
                .build());
    }

    /**
     * How long Kafka keeps a sink's open transaction before aborting it: the user's {@code transaction.timeout.ms}, or
     * the job's default of 10 min. A restart from a checkpoint older than this may find that checkpoint's decisions
     * aborted.
     */
    public static Duration transactionTimeout(JobConfig cfg) {
        String v = cfg.kafkaProperties().get("transaction.timeout.ms");
        try {
            return Duration.ofMillis(v == null ? DEFAULT_TRANSACTION_TIMEOUT_MS : Long.parseLong(v.strip()));
        } catch (NumberFormatException e) {
            return Duration.ofMillis(DEFAULT_TRANSACTION_TIMEOUT_MS); // Kafka's client refuses it with its own message
        }
    }

    private static Properties properties(JobConfig cfg) {
        Properties p = new Properties();
        p.putAll(cfg.kafkaProperties());
        p.put("bootstrap.servers", cfg.bootstrap()); // the address the preflight checked, whatever the properties say
        return p;
    }
}
