package io.vigil.flink;

import java.util.stream.Stream;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;

/**
 * The operator of the keyed watch stage: Flink's {@link KeyedProcessOperator} around a {@link WatchFunction}, which
 * writes the watchers changed since the last checkpoint to the keyed state right before the state is snapshotted,
 * and counts the keys and open windows of a restored state for the gauges.
 */
public final class WatchOperator extends KeyedProcessOperator<String, WatchSample, WatchAlarm> {
    private static final long serialVersionUID = 1L;

    private final WatchFunction function;
    private transient long keys;
    private transient long open;

    /** The operator of {@code function}. */
    public WatchOperator(WatchFunction function) {
        super(function);
        this.function = function;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        keys = 0;
        open = 0;
        if (!context.isRestored()) {
            return;
        }
        ValueState<byte[]> state = getKeyedStateBackend()
                .getPartitionedState(
                        VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE, WatchFunction.stateDescriptor());
        java.util.List<String> all = new java.util.ArrayList<>();
        try (Stream<String> k =
                this.<String>getKeyedStateBackend().getKeys(WatchFunction.STATE_NAME, VoidNamespace.INSTANCE)) {
            k.forEach(all::add);
        }
        for (String key : all) {
            setCurrentKey(key);
            byte[] bytes = state.value();
            if (bytes != null) {
                keys++;
                open += Math.max(0, WatchFunction.openWindowsOf(bytes));
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        function.restored(keys, open);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        function.flush(this::setCurrentKey);
        super.snapshotState(context);
    }
}
