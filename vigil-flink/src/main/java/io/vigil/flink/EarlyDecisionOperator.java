package io.vigil.flink;

import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The operator of the keyed decision stage: Flink's {@link KeyedProcessOperator} around an {@link
 * EarlyDecisionFunction}, plus one pass over the restored keyed state when the job starts from a checkpoint or
 * savepoint, and one pass over every held series when a bounded input ends.
 *
 * <p>At restore, undecided sessions stamped with another model or estimator (a model upgrade: another fingerprint,
 * d or ℓ) are counted and kept: the tracker replays their prefix under the new model with their next sample.
 * Sessions that cannot be replayed (format 1, no prefix) are discarded there, all at once, and those series start
 * afresh with their next sample; their idle timers stay registered and fire on an empty session, which is ignored.
 * Both counts are reported once ({@link EarlyDecisionFunction#restoredFromAnotherModel}), and the sessions kept
 * are counted for the {@code seriesInFlight} gauge.
 *
 * <p>At the end of a bounded input ({@link #endInput}; processing-time timers do not fire then) every series still
 * held is ended by {@link EarlyDecisionFunction#endOfInput}: an undecided series gets its one {@code undecided}
 * record, buffered samples are dead-lettered, and state and timer are cleared. The keys are collected before any
 * state is cleared, so the state backend is never modified while it is iterated.
 */
public final class EarlyDecisionOperator extends KeyedProcessOperator<String, SampleEvent, DecisionRecord>
        implements BoundedOneInput {
    private static final long serialVersionUID = 1L;

    /** The name {@link KeyedProcessOperator} registers its timer service under (the same service is returned). */
    private static final String TIMER_SERVICE = "user-timers";

    private final EarlyDecisionFunction function;
    private transient long discarded;
    private transient long toReplay;
    private transient long held;

    /** The operator of {@code function}. */
    public EarlyDecisionOperator(EarlyDecisionFunction function) {
        super(function);
        this.function = function;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        discarded = 0;
        toReplay = 0;
        held = 0;
        if (!context.isRestored()) {
            return;
        }
        RestoredSessions n = RestoredSessions.count(getKeyedStateBackend(), function.modelTag(), false, 0);
        discarded = n.discarded();
        toReplay = n.toReplay();
        held = n.held();
    }

    @Override
    public void open() throws Exception {
        super.open();
        function.restoredFromAnotherModel(toReplay, discarded);
        function.restoredSessions(held);
    }

    @Override
    public void endInput() throws Exception {
        endAllSeries(this, output, getProcessingTimeService().getCurrentProcessingTime(), function);
    }

    /**
     * Ends every series {@code op} holds at the end of its bounded sample input ({@link
     * EarlyDecisionFunction#endOfInput}), for this operator and {@link ModelSwapOperator}.
     *
     * @param output the operator's output
     * @param now processing time (epoch ms)
     */
    static <O extends AbstractStreamOperator<DecisionRecord> & Triggerable<String, VoidNamespace>> void endAllSeries(
            O op, Output<StreamRecord<DecisionRecord>> output, long now, EarlyDecisionFunction function)
            throws Exception {
        List<String> keys = new ArrayList<>();
        try (Stream<String> all =
                op.<String>getKeyedStateBackend().getKeys(EarlyDecisionFunction.STATE_NAME, VoidNamespace.INSTANCE)) {
            all.forEach(keys::add);
        }
        if (keys.isEmpty()) {
            return;
        }
        TimestampedCollector<DecisionRecord> records = new TimestampedCollector<>(output);
        records.eraseTimestamp();
        InternalTimerService<VoidNamespace> timers =
                op.getInternalTimerService(TIMER_SERVICE, VoidNamespaceSerializer.INSTANCE, op);
        for (String key : keys) {
            op.setCurrentKey(key);
            function.endOfInput(
                    key,
                    now,
                    records,
                    letter -> output.collect(EarlyDecisionFunction.DEAD_LETTERS, new StreamRecord<>(letter)),
                    at -> timers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, at));
        }
    }
}
