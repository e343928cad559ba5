package io.vigil.flink;

import io.vigil.stream.DecisionRecord;
import io.vigil.stream.LiveModels;
import io.vigil.stream.ModelId;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.StreamModel;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.TimerService;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keyed decision stage with model hot swap: samples (keyed by series) on the first input, model files from the
 * model topic on the second, broadcast to every parallel instance. Samples are handled by an {@link
 * EarlyDecisionFunction} exactly as without swapping; a model that arrives is checked ({@link StreamModel#load})
 * and made current ({@link LiveModels#swapTo}): series in flight keep their model, new series start under the new
 * one, and the decision's {@code model} field says which decided. A model that fails the check is ignored and
 * logged once (by subtask 0); the running model stays.
 *
 * <p>The current and previous model files live in Flink broadcast state ({@link #MODELS}), written only here, the
 * same way on every parallel instance, so a restore from a checkpoint or savepoint sees the models the
 * checkpointed series were running under ({@link ModelSwapOperator} rebuilds the live set from them). The previous
 * model's file stays in that state until the next swap; its classifier is released once its last series ends.
 *
 * <p>Metrics, besides those of {@link EarlyDecisionFunction}: {@code modelSwaps}, {@code modelsRejected}, gauge
 * {@code liveModels} (1 or 2).
 */
public final class ModelSwapFunction
        extends KeyedBroadcastProcessFunction<String, SampleEvent, byte[], DecisionRecord> {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(ModelSwapFunction.class);

    /** Broadcast state: the current model file under {@link #CURRENT}, the previous one under {@link #PREVIOUS}. */
    static final MapStateDescriptor<String, byte[]> MODELS = new MapStateDescriptor<>(
            "live-models", Types.STRING, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);

    /** Key of the current model file in {@link #MODELS}. */
    static final String CURRENT = "current";

    /** Key of the previous model file in {@link #MODELS}. */
    static final String PREVIOUS = "previous";

    private final EarlyDecisionFunction decisions;

    private transient byte[] currentBytes;
    private transient Set<String> rejectedIds;
    private transient Counter swaps;
    private transient Counter rejected;
    private transient ElementContext elementContext;
    private transient TimerContext timerContext;

    /** Model swapping around {@code decisions}, whose model is the initial one. */
    public ModelSwapFunction(EarlyDecisionFunction decisions) {
        this.decisions = Objects.requireNonNull(decisions, "decisions");
    }

    /** The function that handles the samples. */
    EarlyDecisionFunction decisions() {
        return decisions;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        decisions.setRuntimeContext(getRuntimeContext());
        decisions.open(openContext);
        currentBytes = decisions.initialModelBytes();
        rejectedIds = new HashSet<>();
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        swaps = metrics.counter("modelSwaps");
        rejected = metrics.counter("modelsRejected");
        metrics.gauge("liveModels", (Gauge<Integer>) () -> decisions.models().liveCount());
        elementContext = new ElementContext();
        timerContext = new TimerContext();
    }

    @Override
    public void close() throws Exception {
        decisions.close();
    }

    /** Installs restored models: the current model file and the live set ({@link ModelSwapOperator}). */
    void restored(byte[] current, LiveModels<EarlyDecisionFunction.Live> live) {
        currentBytes = current;
        decisions.models(live);
    }

    @Override
    public void processElement(SampleEvent e, ReadOnlyContext ctx, Collector<DecisionRecord> out) throws Exception {
        elementContext.ctx = ctx;
        decisions.processElement(e, elementContext, out);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DecisionRecord> out) throws Exception {
        timerContext.ctx = ctx;
        decisions.onTimer(timestamp, timerContext, out);
    }

    @Override
    public void processBroadcastElement(byte[] file, Context ctx, Collector<DecisionRecord> out) throws Exception {
        int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        StreamModel next;
        String id = ModelId.of(file);
        try {
            next = decisions.load(file, id);
        } catch (StreamModel.Unusable e) {
            rejected.inc();
            if (subtask == 0 && rejectedIds.add(id)) {
                LOG.warn(
                        "Ignored an unusable model from the model topic ({}); model {} stays current",
                        e.getMessage(),
                        decisions.models().current().model().id());
            }
            return;
        }
        LiveModels<EarlyDecisionFunction.Live> live = decisions.models();
        String was = live.current().model().id();
        long wasSeries = live.series(live.currentTag());
        LiveModels.Swap<EarlyDecisionFunction.Live> swap = live.swapTo(EarlyDecisionFunction.Live.of(next), next.tag());
        if (!swap.changed()) {
            return;
        }
        BroadcastState<String, byte[]> state = ctx.getBroadcastState(MODELS);
        state.put(PREVIOUS, currentBytes);
        state.put(CURRENT, file);
        currentBytes = file;
        swaps.inc();
        LOG.info(
                "Subtask {} of the early-decision stage swapped model {} for {}: new series start under {}, the {} "
                        + "series in flight under {} keep it{}",
                subtask,
                was,
                next.id(),
                next.id(),
                wasSeries,
                was,
                swap.dropped() == null
                        ? ""
                        : "; model " + swap.dropped().model().id() + " was dropped (at most " + LiveModels.MAX_LIVE
                                + " live) and its " + swap.droppedSeries() + " series are replayed under " + next.id());
    }

    /** {@link EarlyDecisionFunction}'s view of a sample's context (reused: no allocation per sample). */
    private final class ElementContext extends KeyedProcessFunction<String, SampleEvent, DecisionRecord>.Context {
        private ReadOnlyContext ctx;

        ElementContext() {
            decisions.super();
        }

        @Override
        public Long timestamp() {
            return ctx.timestamp();
        }

        @Override
        public TimerService timerService() {
            return ctx.timerService();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            ctx.output(tag, value);
        }

        @Override
        public String getCurrentKey() {
            return ctx.getCurrentKey();
        }
    }

    /** {@link EarlyDecisionFunction}'s view of a timer's context. */
    private final class TimerContext extends KeyedProcessFunction<String, SampleEvent, DecisionRecord>.OnTimerContext {
        private OnTimerContext ctx;

        TimerContext() {
            decisions.super();
        }

        @Override
        public Long timestamp() {
            return ctx.timestamp();
        }

        @Override
        public TimerService timerService() {
            return ctx.timerService();
        }

        @Override
        public <X> void output(OutputTag<X> tag, X value) {
            ctx.output(tag, value);
        }

        @Override
        public TimeDomain timeDomain() {
            return ctx.timeDomain();
        }

        @Override
        public String getCurrentKey() {
            return ctx.getCurrentKey();
        }
    }
}
