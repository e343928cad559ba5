package io.vigil.flink;

import io.vigil.stream.DeadLetter;
import io.vigil.stream.SampleEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Passes decoded samples on to the keyed stage and sends records the decoder rejected to the dead-letter side
 * output ({@link EarlyDecisionFunction#DEAD_LETTERS}), counting them per reason (metric {@code
 * deadLetters_<reason>}).
 */
public final class RejectRouter extends ProcessFunction<SampleEvent, SampleEvent> {
    private static final long serialVersionUID = 1L;

    private transient DeadLetterCounters counters;

    @Override
    public void open(OpenContext openContext) {
        counters = new DeadLetterCounters(getRuntimeContext().getMetricGroup());
    }

    @Override
    public void processElement(SampleEvent e, Context ctx, Collector<SampleEvent> out) {
        if (e.isAccepted()) {
            out.collect(e);
            return;
        }
        counters.inc(e.problem);
        ctx.output(
                deadLetters(), DeadLetter.decoderRejected(e, ctx.timerService().currentProcessingTime()));
    }

    private static OutputTag<DeadLetter> deadLetters() {
        return EarlyDecisionFunction.DEAD_LETTERS;
    }
}
