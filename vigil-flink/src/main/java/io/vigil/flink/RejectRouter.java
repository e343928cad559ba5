package io.vigil.flink;

import io.vigil.stream.DeadLetter;
import io.vigil.stream.SampleEvent;
import java.io.Serializable;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Passes decoded records on to the keyed stage and sends records the decoder rejected to the dead-letter side
 * output ({@link EarlyDecisionFunction#DEAD_LETTERS}), counting them per reason (metric {@code
 * deadLetters_<reason>}). One router serves both jobs: {@link #samples()} for {@link VigilJob}'s samples, {@link
 * #values()} for {@link WatchJob}'s values.
 *
 * @param <T> the decoded record type
 */
public final class RejectRouter<T> extends ProcessFunction<T, T> {
    private static final long serialVersionUID = 1L;

    /** The decode problem code of a record ({@code DeadLetterReason#code()}), or null when it decoded. */
    @FunctionalInterface
    interface Problem<T> extends Serializable {
        String of(T record);
    }

    /** The dead letter of a rejected record, emitted at processing time {@code now}. */
    @FunctionalInterface
    interface Letter<T> extends Serializable {
        DeadLetter of(T record, long now);
    }

    private final Problem<T> problem;
    private final Letter<T> letter;
    private transient DeadLetterCounters counters;

    private RejectRouter(Problem<T> problem, Letter<T> letter) {
        this.problem = problem;
        this.letter = letter;
    }

    /** The router of the decision job's samples. */
    public static RejectRouter<SampleEvent> samples() {
        return new RejectRouter<>(e -> e.problem, DeadLetter::decoderRejected);
    }

    /** The router of the watch job's values. */
    static RejectRouter<WatchSample> values() {
        return new RejectRouter<>(s -> s.problem, WatchSample::decoderRejected);
    }

    @Override
    public void open(OpenContext openContext) {
        counters = new DeadLetterCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(T record, Context ctx, Collector<T> out) {
        String code = problem.of(record);
        if (code == null) {
            out.collect(record);
            return;
        }
        counters.inc(code);
        ctx.output(
                EarlyDecisionFunction.DEAD_LETTERS,
                letter.of(record, ctx.timerService().currentProcessingTime()));
    }
}
