package io.vigil.flink;

import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SeriesSession;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;

/**
 * The operator of the keyed decision stage: Flink's {@link KeyedProcessOperator} around an {@link
 * EarlyDecisionFunction}, plus one pass over the restored keyed state when the job starts from a checkpoint or
 * savepoint. Undecided sessions stamped with another model or estimator (a model upgrade: another fingerprint, d
 * or ℓ) are counted there and kept: the tracker replays their prefix under the new model with their next sample.
 * Sessions that cannot be replayed (format 1, no prefix) are discarded there, all at once, and those series start
 * afresh with their next sample; their idle timers stay registered and fire on an empty session, which is ignored.
 * Both counts are reported once ({@link EarlyDecisionFunction#restoredFromAnotherModel}).
 */
public final class EarlyDecisionOperator extends KeyedProcessOperator<String, SampleEvent, DecisionRecord> {
    private static final long serialVersionUID = 1L;

    private final EarlyDecisionFunction function;
    private transient long discarded;
    private transient long toReplay;

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
        if (!context.isRestored()) {
            return;
        }
        long tag = function.modelTag();
        long[] n = {0, 0};
        this.<String>getKeyedStateBackend()
                .applyToAllKeys(
                        VoidNamespace.INSTANCE,
                        VoidNamespaceSerializer.INSTANCE,
                        EarlyDecisionFunction.stateDescriptor(),
                        (String key, ValueState<SeriesSession> state) -> {
                            SeriesSession s = state.value();
                            if (s == null || s.modelTag() == tag || s.phase() != SeriesSession.Phase.COLLECTING) {
                                return;
                            }
                            if (s.hasPrefix()) {
                                n[1]++;
                            } else {
                                state.clear();
                                n[0]++;
                            }
                        });
        discarded = n[0];
        toReplay = n[1];
    }

    @Override
    public void open() throws Exception {
        super.open();
        function.restoredFromAnotherModel(toReplay, discarded);
    }
}
