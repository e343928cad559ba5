package io.vigil.flink;

import io.vigil.early.DecisionParams;
import io.vigil.stream.DeadLetter;
import java.util.function.UnaryOperator;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The watch job of {@code vigil run --watch} (docs/watch.md): Kafka values {@code {"key","value"[,"channel","ts",
 * "i"]}} → decode (bad records to dead letters) → {@code keyBy(key)} → {@link WatchFunction} (run by {@link
 * WatchOperator}) → alarms topic, plus the dead-letter topic; the same checkpointing, transactional sinks, bounded
 * reading and client properties as {@link VigilJob}. Operator uids are fixed ({@code watch-source}, {@code
 * watch-reject-router}, {@code watch}, {@code alarms-sink}, {@code dead-letter-sink}).
 */
public final class WatchJob {
    /** The alarms and dead letters of a pipeline. */
    public record Outputs(DataStream<WatchAlarm> alarms, DataStream<DeadLetter> deadLetters) {}

    private WatchJob() {}

    /** The keyed watch stage on a stream of values (accepted and rejected), for any source. */
    public static Outputs pipeline(
            DataStream<WatchSample> values, byte[] modelBytes, DecisionParams params, WatchSettings settings) {
        SingleOutputStreamOperator<WatchSample> accepted = values.process(RejectRouter.values())
                .uid("watch-reject-router")
                .name("Route rejected values")
                .returns(TypeInformation.of(WatchSample.class));
        SingleOutputStreamOperator<WatchAlarm> alarms = accepted.keyBy(s -> s.key, Types.STRING)
                .transform(
                        "Watch windows, raise alarms",
                        TypeInformation.of(WatchAlarm.class),
                        new WatchOperator(new WatchFunction(modelBytes, params, settings)))
                .uid("watch");
        DataStream<DeadLetter> dead = accepted.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS)
                .union(alarms.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS));
        return new Outputs(alarms, dead);
    }

    /** Adds the whole watch job, Kafka source and sinks included, to {@code env} and configures checkpointing. */
    public static Outputs attach(
            StreamExecutionEnvironment env, JobConfig cfg, byte[] modelBytes, WatchSettings settings) {
        return attach(env, cfg, modelBytes, settings, UnaryOperator.identity());
    }

    /**
     * {@link #attach(StreamExecutionEnvironment, JobConfig, byte[], WatchSettings)} with {@code tap} applied to the
     * source stream before the pipeline ({@code vigil bench watch} inserts a throughput probe there; the job itself is
     * unchanged).
     */
    public static Outputs attach(
            StreamExecutionEnvironment env,
            JobConfig cfg,
            byte[] modelBytes,
            WatchSettings settings,
            UnaryOperator<DataStream<WatchSample>> tap) {
        VigilJob.configure(env, cfg);
        DataStream<WatchSample> values = tap.apply(env.fromSource(
                        VigilJob.source(cfg, new WatchSampleDeserializer()),
                        WatermarkStrategy.noWatermarks(),
                        "Kafka values: " + cfg.input())
                .uid("watch-source"));
        Outputs out = pipeline(values, modelBytes, cfg.decision(), settings);
        out.alarms()
                .sinkTo(VigilJob.sink(cfg, new KafkaOutputs.Alarms(cfg.output()), "a"))
                .uid("alarms-sink")
                .name("Kafka alarms: " + cfg.output());
        out.deadLetters()
                .sinkTo(VigilJob.sink(
                        cfg,
                        new KafkaOutputs.DeadLetters(cfg.deadLetter(), cfg.input(), cfg.deadLetterValueBytes()),
                        "x"))
                .uid("dead-letter-sink")
                .name("Kafka dead letters: " + cfg.deadLetter());
        return out;
    }
}
