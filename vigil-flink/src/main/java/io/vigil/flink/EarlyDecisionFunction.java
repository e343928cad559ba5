package io.vigil.flink;

import io.vigil.early.Certification;
import io.vigil.early.DecisionParams;
import io.vigil.stream.ConditionedStates;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.LiveModels;
import io.vigil.stream.ModelId;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SeriesSession;
import io.vigil.stream.SeriesTracker;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamModel;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keyed stage of the job (key = series id): keeps one {@link SeriesSession} per series in Flink managed
 * state ({@link SeriesSessionSerializer}) and calls the pure {@link SeriesTracker} once per sample. Decisions and
 * abandoned notices go to the main output, unusable samples to {@link #DEAD_LETTERS}. One processing-time timer
 * per series implements the idle timeout; state and timer are gone once a series reaches t = d or expires. When a
 * bounded input ends, {@link EarlyDecisionOperator} ends every series still held ({@link #endOfInput}): an undecided
 * one gets its {@code undecided} record.
 *
 * <p>The model travels inside the function as the model file's bytes, so a cluster needs no shared model path;
 * each parallel instance parses it once in {@link #open}.
 *
 * <p>Restored sessions of another model or estimator (a model upgrade) are replayed under this model by the
 * {@link SeriesTracker} with their next sample or expiry: an undecided series' stored prefix goes through the new
 * classifier, so it still gets exactly one decision. {@link EarlyDecisionOperator} counts them at restore (logged
 * once per subtask) and discards the few that cannot be replayed (written by format 1, without a prefix).
 *
 * <p>Metrics: {@code samplesIn}, {@code decisionsEarly}, {@code decisionsComplete}, {@code decisionsIncomplete}
 * (decisions of series that ended before all their values came: an end record, or idle expiry of a multichannel
 * series), {@code seriesAbandoned},
 * {@code decisionsUndecided} (undecided records at the end of a bounded input), gauge {@code seriesInFlight} (series
 * sessions this subtask holds, collecting or decided markers), {@code outOfRange} (consumed samples of undecided
 * series outside the training range, {@code --range-guard}),
 * {@code deadLetters_<reason>}, {@code upgradeSessionsRestored} (undecided series of another model found at restore,
 * each to be replayed with its next sample or expiry), {@code upgradeReplays} (those replayed so far),
 * {@code incompatibleStateRestarts} (restored series that could not be replayed and restarted),
 * {@code conditionedStateHits} and {@code conditionedStateRebuilds} (records of undecided multichannel series whose
 * conditioned state came from {@link ConditionedStates}, or was rebuilt from the values kept in the session: after a
 * restore, or for series beyond the cache's budget; the heap backend mostly needs neither),
 * histograms {@code decisionFractionPermille} (1000·t/d per decision), {@code decisionLatencyMs} (per decision: emitted
 * at − Kafka timestamp of the sample that triggered it) and {@code sampleProcessingNanos}.
 */
public final class EarlyDecisionFunction extends KeyedProcessFunction<String, SampleEvent, DecisionRecord> {
    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(EarlyDecisionFunction.class);

    /** Dead letters of the whole job (decoder rejections and keyed-stage rejections). */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters") {};

    /** Name of the keyed state. */
    static final String STATE_NAME = "series-session";

    /** Samples in the sliding window of the histograms. */
    private static final int HISTOGRAM_WINDOW = 10_000;

    private final byte[] modelBytes;
    private final String modelId;
    private final long modelTag;
    private final DecisionParams params;
    private final SessionSettings settings;

    /** The models deciding now (one, unless models are swapped by a {@link ModelSwapFunction}). */
    private transient LiveModels<Live> models;

    private transient ValueState<SeriesSession> sessions;
    /** Conditioned states of any-order series, so a session read back from RocksDB is not rebuilt per record. */
    private transient ConditionedStates conditioned;

    private transient Counter conditionedHits;
    private transient Counter conditionedRebuilds;
    private transient Emitter emitter;
    private transient Counter samplesIn;
    private transient Counter incompatibleRestarts;
    private transient Counter upgradeReplays;
    private transient Counter upgradeSessionsRestored;
    private transient Histogram processingNanos;
    /** Sessions held by this subtask (gauge {@code seriesInFlight}); recounted at restore. */
    private transient long inFlight;

    /**
     * The function for a model file's bytes.
     *
     * @throws IllegalArgumentException when the model does not parse or cannot decide early with these
     *     parameters (checked here, on the client, so a bad job fails before it is submitted)
     */
    public EarlyDecisionFunction(byte[] modelBytes, DecisionParams params, SessionSettings settings) {
        this.modelBytes = Objects.requireNonNull(modelBytes, "modelBytes").clone();
        this.modelId = ModelId.of(this.modelBytes);
        this.modelTag = ModelId.tag(modelId, params.estimator());
        this.params = Objects.requireNonNull(params, "params");
        this.settings = Objects.requireNonNull(settings, "settings");
        load(this.modelBytes, "the job's model");
    }

    /**
     * Checks and loads a model under this function's decision parameters and session settings.
     *
     * @throws StreamModel.Unusable with a one-line reason naming {@code source}
     */
    StreamModel load(byte[] bytes, String source) {
        return StreamModel.load(bytes, params, settings, source);
    }

    /** A live model with the scratch of this parallel instance. */
    record Live(StreamModel model, SeriesTracker.Workspace workspace) {
        static Live of(StreamModel m) {
            return new Live(m, m.tracker().newWorkspace());
        }

        SeriesTracker tracker() {
            return model.tracker();
        }
    }

    /** The model file this function was built with (the job's initial model). */
    byte[] initialModelBytes() {
        return modelBytes;
    }

    /** The live models of this parallel instance (after {@link #open}). */
    LiveModels<Live> models() {
        return models;
    }

    /** Replaces the live models (a restore of swapped models, after {@link #open}). */
    void models(LiveModels<Live> live) {
        this.models = Objects.requireNonNull(live, "live");
    }

    /** The descriptor of the per-series session state. */
    static ValueStateDescriptor<SeriesSession> stateDescriptor() {
        return new ValueStateDescriptor<>(STATE_NAME, SeriesSessionSerializer.INSTANCE);
    }

    /** The session tag of a model file under this function's estimator. */
    long tagOf(byte[] file) {
        return ModelId.tag(ModelId.of(file), params.estimator());
    }

    /** The tag this function's sessions carry (model file id and estimator). */
    long modelTag() {
        return modelTag;
    }

    /**
     * Called once after {@link #open} by {@link EarlyDecisionOperator} with what it found in the restored state of
     * another model or estimator: undecided sessions that will be replayed under this model, and sessions it
     * discarded because they keep no prefix (counted in {@code incompatibleStateRestarts}). Logged once per subtask attempt, naming the job and
     * the attempt, so that a job that restores twice (a restart before its first checkpoint) is told apart.
     */
    void restoredFromAnotherModel(long toReplay, long discarded) {
        if (discarded > 0) {
            incompatibleRestarts.inc(discarded);
            LOG.warn(
                    "Subtask {} of the early-decision stage discarded {} restored series sessions of another model or "
                            + "estimator written without a prefix (series session format 1); those series restart "
                            + "with their next sample under model {}",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    discarded,
                    modelId);
        }
        if (toReplay > 0) {
            upgradeSessionsRestored.inc(toReplay);
            LOG.info(
                    "Subtask {} (attempt {}, job {}) of the early-decision stage will replay {} undecided restored "
                            + "series of another model under model {} (each with its next sample or at its expiry)",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    getRuntimeContext().getTaskInfo().getAttemptNumber(),
                    getRuntimeContext().getJobInfo().getJobId(),
                    toReplay,
                    modelId);
        }
    }

    @Override
    public void open(OpenContext openContext) {
        StreamModel initial = load(modelBytes, "the job's model");
        models = new LiveModels<>(Live.of(initial), initial.tag());
        sessions = getRuntimeContext().getState(stateDescriptor());
        conditioned = new ConditionedStates(settings.anyOrderCache());
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        conditionedHits = metrics.counter("conditionedStateHits");
        conditionedRebuilds = metrics.counter("conditionedStateRebuilds");
        samplesIn = metrics.counter("samplesIn");
        incompatibleRestarts = metrics.counter("incompatibleStateRestarts");
        upgradeReplays = metrics.counter("upgradeReplays");
        upgradeSessionsRestored = metrics.counter("upgradeSessionsRestored");
        processingNanos =
                metrics.histogram("sampleProcessingNanos", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
        metrics.gauge("seriesInFlight", (Gauge<Long>) () -> inFlight);
        metrics.gauge(JobMetrics.OPERATING_POINT_CERTIFIED, (Gauge<Integer>)
                () -> Certification.of(models.current().tracker().classifier().thresholds())
                        .metricValue());
        emitter = new Emitter(metrics);
    }

    @Override
    public void processElement(SampleEvent e, Context ctx, Collector<DecisionRecord> out) throws Exception {
        long start = System.nanoTime();
        samplesIn.inc();
        SeriesSession before = sessions.value();
        long now = ctx.timerService().currentProcessingTime();
        emitter.bind(ctx, out);
        Live m = before == null ? models.current() : models.forTag(before.modelTag());
        String key = ctx.getCurrentKey();
        attachConditioned(key, before);
        SeriesSession after = m.tracker().onSample(before, e, now, emitter, m.workspace());
        conditioned.keep(key, after, m.tracker());
        count(before, after);
        if (after == null) {
            if (before != null && before.timerAt() != SeriesSession.NO_TIMER) {
                ctx.timerService().deleteProcessingTimeTimer(before.timerAt());
            }
            if (before != null) {
                sessions.clear();
                inFlight--;
            }
        } else {
            if (before == null) {
                inFlight++;
            }
            if (after.timerAt() == SeriesSession.NO_TIMER) {
                long at = m.tracker().expiryTime(after);
                ctx.timerService().registerProcessingTimeTimer(at);
                after.timerAt(at);
            }
            sessions.update(after);
        }
        processingNanos.update(System.nanoTime() - start);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<DecisionRecord> out) throws Exception {
        SeriesSession s = sessions.value();
        if (s == null || s.timerAt() != timestamp) {
            return;
        }
        emitter.bind(ctx, out);
        Live m = models.forTag(s.modelTag());
        String key = ctx.getCurrentKey();
        attachConditioned(key, s);
        SeriesSession alive = m.tracker().onIdle(s, key, timestamp, emitter, m.workspace());
        conditioned.keep(key, alive, m.tracker());
        count(s, alive);
        if (alive == null) {
            sessions.clear();
            inFlight--;
            return;
        }
        long at = m.tracker().expiryTime(alive);
        ctx.timerService().registerProcessingTimeTimer(at);
        alive.timerAt(at);
        sessions.update(alive);
    }

    /** Attaches the cached conditioned state to a session read from the keyed state, counting hits and rebuilds. */
    private void attachConditioned(String key, SeriesSession s) {
        ConditionedStates.Lookup l = conditioned.attach(key, s);
        if (l == ConditionedStates.Lookup.HIT) {
            conditionedHits.inc();
        } else if (l == ConditionedStates.Lookup.REBUILD) {
            conditionedRebuilds.inc();
        }
    }

    /** The conditioned-state cache of this parallel instance (after {@link #open}). */
    ConditionedStates conditionedStates() {
        return conditioned;
    }

    /**
     * Counts series per live model: a session that appears, disappears or moves to another model (a replay); logs
     * when the previous model's last series ended and it was dropped.
     */
    private void count(SeriesSession before, SeriesSession after) {
        long from = before == null ? 0 : before.modelTag();
        if (after != null && (before == null || after.modelTag() != from)) {
            models.started(after.modelTag());
        }
        if (before != null && (after == null || after.modelTag() != from) && models.ended(from)) {
            LOG.info(
                    "Subtask {} of the early-decision stage dropped its previous model: its last series ended; model "
                            + "{} decides every series now",
                    getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    models.current().model().id());
        }
    }

    /**
     * Sets the count of sessions this subtask holds after a restore ({@link EarlyDecisionOperator#initializeState}
     * counts them; called after {@link #open}).
     */
    void restoredSessions(long held) {
        inFlight = held;
    }

    /**
     * Ends the current key's series because the bounded input ended ({@link SeriesTracker#onEndOfInput}): its
     * records go to {@code out} and {@code deadLetters}, its expiry timer to {@code deleteTimer}, and its state is
     * cleared. Nothing happens for a key without a session.
     *
     * @param now processing time (epoch ms)
     */
    void endOfInput(
            String key,
            long now,
            Collector<DecisionRecord> out,
            Consumer<DeadLetter> deadLetters,
            LongConsumer deleteTimer)
            throws java.io.IOException {
        SeriesSession s = sessions.value();
        if (s == null) {
            return;
        }
        emitter.bind(out, deadLetters);
        Live m = models.forTag(s.modelTag());
        attachConditioned(key, s);
        m.tracker().onEndOfInput(s, key, now, emitter, m.workspace());
        conditioned.keep(key, null, m.tracker());
        count(s, null);
        if (s.timerAt() != SeriesSession.NO_TIMER) {
            deleteTimer.accept(s.timerAt());
        }
        sessions.clear();
        inFlight--;
    }

    /** Routes tracker output to the collector and side output, counting as it goes. */
    private final class Emitter implements SeriesTracker.Output {
        private final Counter early;
        private final Counter complete;
        private final Counter incomplete;
        private final Counter abandoned;
        private final Counter undecided;
        private final Counter errors;
        private final Counter outOfRange;
        private final Histogram fraction;
        private final Histogram latency;
        private final DeadLetterCounters deadLetters;
        private Context ctx;
        private Collector<DecisionRecord> out;
        /** Where dead letters go at the end of input, when there is no {@link #ctx}. */
        private Consumer<DeadLetter> endOfInputDeadLetters;

        Emitter(MetricGroup metrics) {
            early = metrics.counter("decisionsEarly");
            complete = metrics.counter("decisionsComplete");
            incomplete = metrics.counter("decisionsIncomplete");
            abandoned = metrics.counter("seriesAbandoned");
            undecided = metrics.counter("decisionsUndecided");
            errors = metrics.counter(JobMetrics.SERIES_ERRORS);
            outOfRange = metrics.counter("outOfRange");
            fraction =
                    metrics.histogram("decisionFractionPermille", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
            latency = metrics.histogram("decisionLatencyMs", new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
            deadLetters = new DeadLetterCounters(metrics);
        }

        void bind(Context context, Collector<DecisionRecord> collector) {
            this.ctx = context;
            this.out = collector;
        }

        /** Binds to the operator's outputs at the end of input (no process-function context there). */
        void bind(Collector<DecisionRecord> collector, Consumer<DeadLetter> deadLetters) {
            this.ctx = null;
            this.out = collector;
            this.endOfInputDeadLetters = deadLetters;
        }

        @Override
        public void decision(DecisionRecord record) {
            if (record.isDecision()) {
                (record.early ? early : record.complete ? complete : incomplete).inc();
                fraction.update(Math.round(1000.0 * record.t / record.length));
                latency.update(record.emittedAt - record.sampleTime);
            } else if (DecisionRecord.UNDECIDED.equals(record.status)) {
                undecided.inc();
            } else if (DecisionRecord.ERROR.equals(record.status)) {
                errors.inc();
            } else {
                abandoned.inc();
            }
            out.collect(record);
        }

        @Override
        public void deadLetter(DeadLetter letter) {
            deadLetters.inc(letter.reason);
            if (ctx != null) {
                ctx.output(DEAD_LETTERS, letter);
            } else {
                endOfInputDeadLetters.accept(letter);
            }
        }

        @Override
        public void restartedIncompatible(SeriesSession discarded) {
            incompatibleRestarts.inc();
            long n = incompatibleRestarts.getCount();
            if (n == 1 || Long.bitCount(n) == 1) {
                LOG.warn(
                        "{} series had state from another model or estimator and were restarted from t = 1 "
                                + "(latest: {})",
                        n,
                        ctx.getCurrentKey());
            }
        }

        @Override
        public void outOfRange(String series, int t, double value) {
            outOfRange.inc();
        }

        @Override
        public void endOfInputFailed(String series, RuntimeException failure) {
            LOG.warn(
                    "Series {} could not be labelled at the end of the input and got an abandoned record",
                    series,
                    failure);
        }

        @Override
        public void replayedUnderNewModel(SeriesSession restored) {
            upgradeReplays.inc();
        }
    }
}
