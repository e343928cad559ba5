package io.vigil.flink;

import io.vigil.api.SessionGroup;
import io.vigil.api.Vigil;
import io.vigil.early.DecisionParams;
import io.vigil.kafka.SampleRecord;
import io.vigil.kafka.WatchRecord;
import io.vigil.model.VigilModel;
import io.vigil.model.WindowModels;
import io.vigil.model.WindowSection;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DeadLetterReason;
import io.vigil.stream.ModelId;
import io.vigil.stream.StreamModel;
import io.vigil.watch.AlarmEvent;
import io.vigil.watch.KeyWatcher;
import io.vigil.watch.KeyWatcherState;
import io.vigil.watch.RearmPolicy;
import io.vigil.watch.WatchListener;
import io.vigil.watch.WindowDecision;
import io.vigil.watch.WindowSpec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The keyed stage of {@code vigil run --watch} (key = stream key, docs/watch.md): one {@link KeyWatcher} per key, the
 * same per-key logic {@code vigil evaluate --recordings} replays offline, so the stream raises the same alarms for the
 * same values. Values resolve their channel (name or index of the model's channels) and sample (the record's
 * {@code i}, else one after the channel's last); unusable ones go to the dead letters with their reason, and the job
 * carries on.
 *
 * <p><b>State.</b> The live watchers stay on the heap between records (rebuilding a watcher per record would replay
 * its windows each time); {@link WatchOperator} writes every watcher changed since the last checkpoint to the keyed
 * state ({@link KeyWatcherState}, O(C·D + ⌈D/S⌉) numbers per key) right before the state is snapshotted, and a key
 * read back after a restore is rebuilt once ({@link KeyWatcher#restore}).
 *
 * <p><b>Silence.</b> A processing-time timer per key closes its open windows undecided ({@link KeyWatcher#close})
 * when it received nothing for the idle timeout; with {@code ts} on the values, a gap of more than the idle timeout
 * between them does the same, and so does a jump of more than D in the sample index.
 *
 * <p><b>Flood guard.</b> At most {@link WatchSettings#maxAlarmsPerMinute()} alarms per key per minute of stream time
 * (the trigger's {@code ts}, else its sample at the model's sampling rate, else processing time) are written; the
 * excess is dead-lettered as {@code alarm_flood} with the alarm record as its value.
 *
 * <p>Metrics: {@code samplesIn}, {@code watchAlarms}, {@code watchAlarmsSuppressed}, {@code watchWindowsDecided},
 * {@code watchTimeouts}, gauges {@code watchOpenWindows} and {@code watchKeys}, {@code deadLetters_<reason>},
 * histogram {@code alarmLatencyMs} (emitted at − Kafka timestamp of the triggering value).
 */
public final class WatchFunction extends KeyedProcessFunction<String, WatchSample, WatchAlarm> {
    private static final long serialVersionUID = 1L;

    /** Name of the keyed state. */
    static final String STATE_NAME = "watch-key";

    private static final int STATE_VERSION = 1;
    private static final long MINUTE_MS = 60_000;
    private static final long NO_TIMER = Long.MIN_VALUE;

    private final byte[] modelBytes;
    private final String modelId;
    private final DecisionParams params;
    private final WatchSettings settings;

    private transient Vigil vigil;
    /** One workspace for every key's windows: the keys of a subtask are all watched on its one thread. */
    private transient SessionGroup sessions;

    private transient WindowSpec spec;
    private transient List<String> channelNames;
    private transient ValueState<byte[]> state;
    private transient Map<String, Live> live;
    private transient Set<String> dirty;
    private transient List<AlarmEvent> raised;
    private transient Counter samplesIn;
    private transient Counter alarms;
    private transient Counter suppressed;
    private transient Counter windowsDecided;
    private transient Counter timeouts;
    private transient Counter incompatible;
    private transient Histogram latency;
    private transient DeadLetterCounters deadLetters;
    private transient long openWindows;
    private transient long keys;

    /**
     * The function for a window model's bytes.
     *
     * @throws IllegalArgumentException when the model does not parse, is a series model, or does not fit the settings
     *     (checked on the client, so a bad job fails before it is submitted)
     */
    public WatchFunction(byte[] modelBytes, DecisionParams params, WatchSettings settings) {
        this.modelBytes = Objects.requireNonNull(modelBytes, "modelBytes").clone();
        this.modelId = ModelId.of(this.modelBytes);
        this.params = Objects.requireNonNull(params, "params");
        this.settings = Objects.requireNonNull(settings, "settings");
        Vigil v = load(this.modelBytes, params, "the job's model");
        spec(v, settings);
    }

    /**
     * A window model's bytes as a {@link Vigil} under {@code params}.
     *
     * @throws IllegalArgumentException naming {@code source} when it is not a usable window model
     */
    public static Vigil load(byte[] bytes, DecisionParams params, String source) {
        VigilModel model = StreamModel.parse(bytes, source);
        WindowModels.requireWindowModel(model, source);
        return Vigil.of(model, params);
    }

    /** The window spec of the job: the model's, with the settings' re-arm policy and timeouts (a jump of D samples). */
    static WindowSpec spec(Vigil vigil, WatchSettings settings) {
        WindowSection section = WindowModels.requireWindowModel(vigil.model(), "the job's model");
        WindowSpec s = WindowSpec.of(vigil, section);
        if (settings.rearm() != null) {
            s = s.withRearm(RearmPolicy.parse(settings.rearm()));
        }
        return s.withTimeout(s.length(), settings.idleTimeout().toMillis());
    }

    /** The descriptor of the per-key state. */
    static ValueStateDescriptor<byte[]> stateDescriptor() {
        return new ValueStateDescriptor<>(STATE_NAME, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** The watch spec this function decides with (after {@link #open}). */
    WindowSpec spec() {
        return spec;
    }

    @Override
    public void open(OpenContext openContext) {
        vigil = load(modelBytes, params, "the job's model");
        sessions = vigil.newSessionGroup();
        spec = spec(vigil, settings);
        channelNames = vigil.model().channelNames();
        state = getRuntimeContext().getState(stateDescriptor());
        live = new HashMap<>();
        dirty = new LinkedHashSet<>();
        raised = new ArrayList<>();
        MetricGroup m = getRuntimeContext().getMetricGroup();
        samplesIn = m.counter(JobMetrics.SAMPLES_IN);
        alarms = m.counter(JobMetrics.WATCH_ALARMS);
        suppressed = m.counter(JobMetrics.WATCH_ALARMS_SUPPRESSED);
        windowsDecided = m.counter(JobMetrics.WATCH_WINDOWS_DECIDED);
        timeouts = m.counter(JobMetrics.WATCH_TIMEOUTS);
        incompatible = m.counter("incompatibleStateRestarts");
        latency = m.histogram("alarmLatencyMs", new DescriptiveStatisticsHistogram(10_000));
        deadLetters = new DeadLetterCounters(m);
        m.gauge(JobMetrics.WATCH_OPEN_WINDOWS, (Gauge<Long>) () -> openWindows);
        m.gauge(JobMetrics.WATCH_KEYS, (Gauge<Long>) () -> keys);
    }

    /** Sets the counts read from the restored state ({@link WatchOperator}; after {@link #open}). */
    void restored(long keyCount, long open) {
        keys = keyCount;
        openWindows = open;
    }

    @Override
    public void processElement(WatchSample s, Context ctx, Collector<WatchAlarm> out) throws Exception {
        samplesIn.inc();
        long now = ctx.timerService().currentProcessingTime();
        Consumer<DeadLetter> dead = d -> {
            deadLetters.inc(d.reason);
            ctx.output(EarlyDecisionFunction.DEAD_LETTERS, d);
        };
        int channel = channelOf(s);
        if (channel < 0) {
            dead.accept(s.deadLetter(DeadLetterReason.UNKNOWN_CHANNEL, unknownChannel(s), now));
            return;
        }
        String key = ctx.getCurrentKey();
        Live k = live(key);
        KeyWatcher w = k.watcher;
        long sample = s.sample != WatchRecord.NO_INDEX ? s.sample : k.channelCount[channel] + 1;
        long late = w.lateValues();
        int openBefore = w.openWindows();
        long timeoutsBefore = w.timeouts();
        raised.clear();
        try {
            w.observe(channel, sample, s.ts == WatchRecord.NO_TS ? KeyWatcher.NO_TIME : s.ts, s.value);
        } catch (IllegalArgumentException e) {
            DeadLetterReason r = e.getMessage() != null && e.getMessage().contains("already observed")
                    ? DeadLetterReason.DUPLICATE
                    : DeadLetterReason.PROCESSING_ERROR;
            dead.accept(s.deadLetter(r, e.getMessage(), now));
            return;
        } finally {
            openWindows += w.openWindows() - openBefore;
            timeouts.inc(w.timeouts() - timeoutsBefore);
            dirty.add(key);
        }
        if (w.lateValues() > late) {
            dead.accept(s.deadLetter(
                    DeadLetterReason.LATE_VALUE,
                    "sample " + sample + " of channel " + channelNames.get(channel) + " arrived after every window"
                            + " holding it had closed (newest sample " + w.sample() + ", window length "
                            + spec.length() + ")",
                    now));
        } else {
            k.channelCount[channel] = Math.max(k.channelCount[channel], sample);
        }
        for (AlarmEvent a : raised) {
            long at = s.ts != WatchRecord.NO_TS
                    ? s.ts
                    : Double.isNaN(spec.samplingRateHz())
                            ? now
                            : Math.round(a.trigger() * 1000.0 / spec.samplingRateHz());
            emit(k, a, at, s, now, out, dead);
        }
        k.lastArrival = now;
        if (k.timerAt == NO_TIMER) {
            k.timerAt = now + settings.idleTimeout().toMillis();
            ctx.timerService().registerProcessingTimeTimer(k.timerAt);
        }
    }

    /** Writes an alarm, or dead-letters it when the key is over the flood guard's limit for the minute. */
    private void emit(
            Live k,
            AlarmEvent a,
            long at,
            WatchSample s,
            long now,
            Collector<WatchAlarm> out,
            Consumer<DeadLetter> dead) {
        WatchAlarm r = WatchAlarm.of(a, modelId, s.timestamp, now);
        int max = settings.maxAlarmsPerMinute();
        if (max > 0) {
            long minute = Math.floorDiv(at, MINUTE_MS);
            if (minute != k.floodMinute) {
                k.floodMinute = minute;
                k.floodCount = 0;
            }
            if (k.floodCount >= max) {
                suppressed.inc();
                DeadLetter d = DeadLetter.of(
                        a.key(),
                        DeadLetterReason.ALARM_FLOOD,
                        "alarm " + a.label() + " at sample " + a.trigger() + " held back: the key raised " + max
                                + " alarms this minute (--max-alarms-per-minute " + max + ")",
                        s.t(),
                        s.partition,
                        s.offset,
                        s.timestamp,
                        r.toJson(),
                        now);
                dead.accept(d);
                return;
            }
            k.floodCount++;
        }
        alarms.inc();
        latency.update(now - s.timestamp);
        out.collect(r);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<WatchAlarm> out) throws Exception {
        String key = ctx.getCurrentKey();
        Live k = live(key);
        if (k.timerAt != timestamp) {
            return;
        }
        long idle = settings.idleTimeout().toMillis();
        if (timestamp - k.lastArrival >= idle) {
            int open = k.watcher.openWindows();
            if (open > 0) {
                timeouts.inc();
            }
            k.watcher.close();
            openWindows -= open;
            k.timerAt = NO_TIMER;
        } else {
            k.timerAt = k.lastArrival + idle;
            ctx.timerService().registerProcessingTimeTimer(k.timerAt);
        }
        dirty.add(key);
    }

    /**
     * Writes every watcher changed since the last call to the keyed state ({@link WatchOperator}, right before a
     * snapshot), selecting each key with {@code setKey}.
     */
    void flush(Consumer<String> setKey) throws IOException {
        for (String key : dirty) {
            setKey.accept(key);
            state.update(live.get(key).toBytes());
        }
        dirty.clear();
    }

    /** The channel index of a value, or −1 when the model has no such channel. */
    private int channelOf(WatchSample s) {
        if (s.channelName != null) {
            return channelNames.indexOf(s.channelName);
        }
        if (s.channel != SampleRecord.CHANNEL_ABSENT) {
            return s.channel < channelNames.size() ? s.channel : -1;
        }
        return channelNames.size() == 1 ? 0 : -1;
    }

    private String unknownChannel(WatchSample s) {
        String given = s.channelName != null
                ? "channel '" + s.channelName + "'"
                : s.channel != SampleRecord.CHANNEL_ABSENT ? "channel " + s.channel : "no channel";
        return given + ": the model's channels are " + channelNames + " (by name or 0-based index"
                + (channelNames.size() > 1 ? "; a model of several channels needs \"channel\" on every value)" : ")");
    }

    /** The key's live watcher: cached, rebuilt from the keyed state, or new. */
    private Live live(String key) throws IOException {
        Live k = live.get(key);
        if (k != null) {
            return k;
        }
        k = new Live();
        byte[] bytes = state.value();
        if (bytes != null && k.read(key, bytes)) {
            openWindows += k.watcher.openWindows();
        } else {
            if (bytes != null) {
                incompatible.inc();
            } else {
                keys++;
            }
            k.watcher = new KeyWatcher(vigil, spec, key, k, sessions);
            k.channelCount = new long[channelNames.size()];
        }
        live.put(key, k);
        return k;
    }

    /** The open windows held in a serialised key state (for the restore count), or −1 when it does not read. */
    static int openWindowsOf(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            Header.read(in);
            int n = 0;
            for (boolean open : KeyWatcherState.readFrom(in).slotOpen()) {
                n += open ? 1 : 0;
            }
            return n;
        } catch (IOException e) {
            return -1;
        }
    }

    /** The fields written before the watcher's state. */
    private record Header(
            String model, long floodMinute, int floodCount, long lastArrival, long timerAt, long[] counts) {
        static Header read(DataInputStream in) throws IOException {
            int version = in.readUnsignedByte();
            if (version != STATE_VERSION) {
                throw new IOException("watch key state has format version " + version + ", expected " + STATE_VERSION);
            }
            String model = in.readUTF();
            long floodMinute = in.readLong();
            int floodCount = in.readInt();
            long lastArrival = in.readLong();
            long timerAt = in.readLong();
            long[] counts = new long[in.readInt()];
            for (int c = 0; c < counts.length; c++) {
                counts[c] = in.readLong();
            }
            return new Header(model, floodMinute, floodCount, lastArrival, timerAt, counts);
        }
    }

    /** One key on the heap: its watcher, arrival counts per channel, flood guard and idle timer. */
    private final class Live implements WatchListener {
        KeyWatcher watcher;
        long[] channelCount;
        long floodMinute = Long.MIN_VALUE;
        int floodCount;
        long lastArrival;
        long timerAt = NO_TIMER;

        @Override
        public void window(WindowDecision decision) {
            windowsDecided.inc();
        }

        @Override
        public void alarm(AlarmEvent alarm) {
            raised.add(alarm);
        }

        byte[] toBytes() throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(STATE_VERSION);
            out.writeUTF(modelId);
            out.writeLong(floodMinute);
            out.writeInt(floodCount);
            out.writeLong(lastArrival);
            out.writeLong(timerAt);
            out.writeInt(channelCount.length);
            for (long c : channelCount) {
                out.writeLong(c);
            }
            watcher.snapshot().writeTo(out);
            out.flush();
            return bytes.toByteArray();
        }

        /** Reads the state back; false when it was written under another model or does not fit this one. */
        boolean read(String key, byte[] bytes) {
            try {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
                Header h = Header.read(in);
                if (!h.model().equals(modelId) || h.counts().length != channelNames.size()) {
                    return false;
                }
                KeyWatcherState st = KeyWatcherState.readFrom(in);
                watcher = KeyWatcher.restore(vigil, spec, key, this, st, sessions);
                channelCount = h.counts();
                floodMinute = h.floodMinute();
                floodCount = h.floodCount();
                lastArrival = h.lastArrival();
                timerAt = h.timerAt();
                return true;
            } catch (IOException | IllegalArgumentException e) {
                return false;
            }
        }
    }
}
