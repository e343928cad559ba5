package io.vigil.flink;

import io.vigil.early.DecisionParams;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;

/**
 * The Vigil stream job: Kafka samples → decode (bad records to dead letters) → {@code keyBy(series)} → {@link
 * EarlyDecisionFunction} (run by {@link EarlyDecisionOperator}, which also discards restored state of another model)
 * → decisions topic, plus the dead-letter topic. {@link #pipeline} is the topology between
 * source and sinks, so tests run the production pipeline on bounded inputs; {@link #attach} adds the Kafka edges.
 * The entry point of {@code flink run} is {@code io.vigil.cli.VigilJobMain}, which takes {@code vigil run}'s flags.
 *
 * <p>Operator uids are fixed ({@code samples-source}, {@code reject-router}, {@code early-decision}, {@code
 * decisions-sink}, {@code dead-letter-sink}) so savepoints map to operators across releases.
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

    private VigilJob() {}

    /**
     * The keyed decision stage on a stream of events (accepted and rejected), for any source.
     *
     * @param modelBytes the model file's bytes
     */
    public static Outputs pipeline(
            DataStream<SampleEvent> events, byte[] modelBytes, DecisionParams params, SessionSettings settings) {
        SingleOutputStreamOperator<SampleEvent> accepted = events.process(new RejectRouter())
                .uid("reject-router")
                .name("Route rejected records")
                .returns(TypeInformation.of(SampleEvent.class));
        SingleOutputStreamOperator<DecisionRecord> decisions = accepted.keyBy(e -> e.series, Types.STRING)
                .transform(
                        "Reliable early decision",
                        TypeInformation.of(DecisionRecord.class),
                        new EarlyDecisionOperator(new EarlyDecisionFunction(modelBytes, params, settings)))
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
        DataStream<SampleEvent> events = env.fromSource(
                        source(cfg), WatermarkStrategy.noWatermarks(), "Kafka samples: " + cfg.input())
                .uid("samples-source");
        Outputs out = pipeline(tap.apply(events), modelBytes, cfg.decision(), cfg.session());
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
        return out;
    }

    /** The job's Kafka source of sample events (read_committed; bounded when the configuration says so). */
    public static KafkaSource<SampleEvent> source(JobConfig cfg) {
        KafkaSourceBuilder<SampleEvent> b = KafkaSource.<SampleEvent>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setTopics(cfg.input())
                .setGroupId(cfg.groupId())
                .setStartingOffsets(OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST))
                .setDeserializer(new SampleDeserializer())
                .setProperties(properties(cfg))
                .setProperty("isolation.level", "read_committed");
        if (cfg.bounded()) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    /** A Kafka sink with the job's delivery guarantee, client properties and a transactional id per suffix. */
    public static <T> KafkaSink<T> sink(JobConfig cfg, KafkaRecordSerializationSchema<T> schema, String suffix) {
        Properties p = properties(cfg);
        // Flink's default transaction timeout (1 h) exceeds Kafka's default transaction.max.timeout.ms (15 min).
        p.putIfAbsent("transaction.timeout.ms", "600000");
        return KafkaSink.<T>builder()
                .setBootstrapServers(cfg.bootstrap())
                .setKafkaProducerConfig(p)
                .setRecordSerializer(schema)
                .setDeliveryGuarantee(cfg.delivery().guarantee())
                .setTransactionalIdPrefix(cfg.transactionalIdPrefix() + "-" + suffix)
                .build();
    }

    private static Properties properties(JobConfig cfg) {
        Properties p = new Properties();
        p.putAll(cfg.kafkaProperties());
        return p;
    }
}
