package io.vigil.flink;

import io.vigil.stream.DecisionRecord;
import io.vigil.stream.LiveModels;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.StreamModel;
import java.util.List;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.co.CoBroadcastWithKeyedOperator;

/**
 * The operator of the keyed decision stage with model hot swap ({@link ModelSwapFunction}): Flink's keyed broadcast
 * operator plus one pass over the restored state when the job starts from a checkpoint or savepoint. The pass reads
 * the current and previous model files from broadcast state (none when the state comes from a job without a model
 * topic: then the job's initial model is current) and counts the series of each; the previous model stays live
 * only while it has series. Undecided sessions of a model that is not live are kept to be replayed under the
 * current model with their next sample (those without a prefix, format 1, are discarded), as in {@link
 * EarlyDecisionOperator}. When the bounded sample input (input 1) ends, every series still held is ended as in
 * {@link EarlyDecisionOperator#endInput} (an undecided one gets its {@code undecided} record, from the model it runs
 * under); the end of the model input changes nothing.
 */
public final class ModelSwapOperator extends CoBroadcastWithKeyedOperator<String, SampleEvent, byte[], DecisionRecord>
        implements BoundedMultiInput {
    private static final long serialVersionUID = 1L;

    private final ModelSwapFunction function;
    private transient byte[] restoredCurrent;
    private transient byte[] restoredPrevious;
    private transient RestoredSessions counts;

    /** The operator of {@code function}. */
    public ModelSwapOperator(ModelSwapFunction function) {
        super(function, List.of(ModelSwapFunction.MODELS));
        this.function = function;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        restoredCurrent = null;
        restoredPrevious = null;
        counts = new RestoredSessions(0, 0, 0, 0, 0);
        if (!context.isRestored()) {
            return;
        }
        BroadcastState<String, byte[]> models =
                context.getOperatorStateStore().getBroadcastState(ModelSwapFunction.MODELS);
        restoredCurrent = models.get(ModelSwapFunction.CURRENT);
        restoredPrevious = restoredCurrent == null ? null : models.get(ModelSwapFunction.PREVIOUS);
        EarlyDecisionFunction decisions = function.decisions();
        long current = decisions.tagOf(restoredCurrent == null ? decisions.initialModelBytes() : restoredCurrent);
        boolean hasPrevious = restoredPrevious != null;
        long previous = hasPrevious ? decisions.tagOf(restoredPrevious) : 0;
        counts = RestoredSessions.count(getKeyedStateBackend(), current, hasPrevious, previous);
    }

    @Override
    public void open() throws Exception {
        super.open();
        EarlyDecisionFunction decisions = function.decisions();
        EarlyDecisionFunction.Live current = restoredCurrent == null
                ? decisions.models().current()
                : EarlyDecisionFunction.Live.of(restoredModel(decisions, restoredCurrent, "current"));
        EarlyDecisionFunction.Live previous = restoredPrevious == null || counts.previous() == 0
                ? null
                : EarlyDecisionFunction.Live.of(restoredModel(decisions, restoredPrevious, "previous"));
        function.restored(
                restoredCurrent == null ? decisions.initialModelBytes() : restoredCurrent,
                LiveModels.restored(
                        current,
                        current.model().tag(),
                        counts.current(),
                        previous,
                        previous == null ? 0 : previous.model().tag(),
                        counts.previous()));
        decisions.restoredFromAnotherModel(counts.toReplay(), counts.discarded());
        decisions.restoredSessions(counts.held());
    }

    @Override
    public void endInput(int inputId) throws Exception {
        if (inputId == 1) {
            EarlyDecisionOperator.endAllSeries(
                    this, output, getProcessingTimeService().getCurrentProcessingTime(), function.decisions());
        }
    }

    private static StreamModel restoredModel(EarlyDecisionFunction decisions, byte[] file, String which) {
        try {
            return decisions.load(file, "the " + which + " model in the restored state");
        } catch (StreamModel.Unusable e) {
            throw new IllegalStateException(
                    "the checkpoint or savepoint holds a model this build cannot use (" + e.getMessage()
                            + "); restore it with the release that wrote it, or start without its state",
                    e);
        }
    }
}
