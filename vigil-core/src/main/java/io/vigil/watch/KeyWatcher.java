package io.vigil.watch;

import io.vigil.api.EarlyDecision;
import io.vigil.api.SessionGroup;
import io.vigil.api.Vigil;
import io.vigil.api.VigilSession;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Watches one key's endless stream (docs/watch.md): windows of D samples open at samples a, a + S, a + 2S, … (a = 1,
 * or the first sample after a timeout), each decided early by its own {@link VigilSession} of the model as a series of
 * length D (thesis §5.3; window sample i is the series' t = i − start + 1), and the event-class decisions go through an
 * {@link AlarmMerger}. Values arrive per channel, either in arrival order ({@link #observe(int, double)}: the n-th
 * value of a channel is its sample n) or with their sample index ({@link #observe(int, long, long, double)}); NaN is a
 * missing value. While values come time-major (sample by sample, channels 0..C−1) every window runs the prefix
 * recursion; out of that order a window conditions on the values it has (eq. 5.19).
 *
 * <p><b>Closing windows.</b> A window closes when it is decided, or when a value of a later sample arrives while it is
 * undecided (values of its samples never came): it is then decided at E[x | observed] ({@link VigilSession#end()})
 * with the arriving sample as trigger. Values of a sample whose windows have all closed are dropped as late. A jump of
 * more than {@link WindowSpec#timeoutSamples()} samples, a time-stamp gap of more than {@link
 * WindowSpec#timeoutMillis()}, {@link #expire(long)} and {@link #close()} discard the open windows undecided and
 * restart the window grid at the next sample that arrives: what was under way when the key fell silent is not
 * decided, so a recording's end and a silent key behave alike.
 *
 * <p><b>Bounded.</b> At most ⌈D / S⌉ windows are open at once (window k and k + ⌈D/S⌉ never overlap), held in a ring
 * of sessions reused by {@link VigilSession#reset()} that share one scratch workspace ({@link SessionGroup}, the key's
 * own or one the caller shares among the keys of its thread; decisions are those of sessions with a workspace each);
 * the rest of the state is O(C·D). Single-threaded, like a session.
 */
public final class KeyWatcher {
    /** Time stamp of a value that carries none. */
    public static final long NO_TIME = Long.MIN_VALUE;

    private final Vigil vigil;
    /** Where the windows' sessions come from (sharing one workspace), or null: each window a workspace of its own. */
    private final SessionGroup group;

    private final WindowSpec spec;
    private final String key;
    private final WatchListener listener;
    private final AlarmMerger merger;
    private final int channels;
    private final int length;
    private final int stride;
    private final int slots;
    private final boolean[] eventClass;
    private final VigilSession[] sessions;
    private final long[] slotStart;
    private final boolean[] slotOpen;
    /** seen[c · D + (i − 1) mod D] == i when channel c's value of sample i was observed. */
    private final long[] seen;

    private final long[] timeSample;
    private final long[] time;
    private final long[] channelCount;
    /** The accepted values in arrival order, at least those of the last D samples (compacted when full). */
    private final int[] logChannel;

    private final long[] logSample;
    private final double[] logValue;
    private int logSize;
    private long anchor = 1;
    private long nextStart = 1;
    private long frontier;
    private long lastTime = NO_TIME;
    private int open;
    private long late;
    private long timeouts;
    private long windowsOpened;

    /**
     * A watcher for one key whose windows share one workspace ({@link SessionGroup}).
     *
     * @throws IllegalArgumentException when the spec does not fit the model ({@link WindowSpec#check})
     */
    public KeyWatcher(Vigil vigil, WindowSpec spec, String key, WatchListener listener) {
        this(vigil, spec, key, listener, vigil.newSessionGroup());
    }

    /**
     * A watcher for one key whose windows' sessions come from {@code group}, e.g. one group for every key a stream
     * operator watches on its thread (the sessions share its workspace, so the watcher belongs to that thread); with
     * {@code group} null every window has a workspace of its own (the same decisions, for comparisons).
     *
     * @throws IllegalArgumentException when the spec does not fit the model, or the group decides with another vigil
     */
    public KeyWatcher(Vigil vigil, WindowSpec spec, String key, WatchListener listener, SessionGroup group) {
        this.vigil = Objects.requireNonNull(vigil, "vigil");
        if (group != null && group.vigil() != vigil) {
            throw new IllegalArgumentException("key " + key + ": the session group decides with another model");
        }
        this.group = group;
        this.spec = Objects.requireNonNull(spec, "spec");
        this.key = Objects.requireNonNull(key, "key");
        this.listener = Objects.requireNonNull(listener, "listener");
        spec.check(vigil);
        this.channels = vigil.channels();
        this.length = spec.length();
        this.stride = spec.stride();
        this.slots = spec.maxOpenWindows();
        this.eventClass = new boolean[vigil.classNames().size()];
        for (String e : spec.eventLabels()) {
            eventClass[vigil.classNames().indexOf(e)] = true;
        }
        this.merger = new AlarmMerger(key, eventClass.length, spec.rearm());
        this.sessions = new VigilSession[slots];
        this.slotStart = new long[slots];
        this.slotOpen = new boolean[slots];
        this.seen = new long[channels * length];
        this.timeSample = new long[length];
        this.time = new long[length];
        this.channelCount = new long[channels];
        this.logChannel = new int[2 * channels * length];
        this.logSample = new long[logChannel.length];
        this.logValue = new double[logChannel.length];
    }

    /** The next value of {@code channel} in arrival order (its sample is one after the channel's last). */
    public void observe(int channel, double value) {
        checkChannel(channel);
        observe(channel, channelCount[channel] + 1, NO_TIME, value);
    }

    /** The values of all channels of the next sample (one after the highest sample seen), time-major. */
    public void observeSample(double[] values, long timeMillis) {
        if (values.length != channels) {
            throw new IllegalArgumentException(
                    "a sample of this model has " + channels + " channels, got " + values.length + " values");
        }
        long sample = frontier + 1;
        for (int c = 0; c < channels; c++) {
            observe(c, sample, timeMillis, values[c]);
        }
    }

    /**
     * The value of {@code channel} at 1-based {@code sample}, with its time stamp in ms or {@link #NO_TIME}.
     *
     * @throws IllegalArgumentException for a channel outside the model, a sample &lt; 1, an infinite value, or a value
     *     of (channel, sample) already observed — before any state changes
     */
    public void observe(int channel, long sample, long timeMillis, double value) {
        checkChannel(channel);
        if (sample < 1) {
            throw new IllegalArgumentException("sample index must be ≥ 1, got " + sample + " (key " + key + ")");
        }
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException(
                    "value of key " + key + " at sample " + sample + ", channel " + channel + " is " + value);
        }
        int ring = (int) ((sample - 1) % length);
        if (seen[channel * length + ring] == sample) {
            throw new IllegalArgumentException(
                    "key " + key + ": sample " + sample + ", channel " + channel + " was already observed");
        }
        if (timedOut(sample, timeMillis)) {
            discard();
            anchor = sample;
            nextStart = sample;
        } else if (sample <= frontier - length || sample < anchor) {
            late++;
            return;
        }
        channelCount[channel] = Math.max(channelCount[channel], sample);
        if (sample > frontier) {
            advance(sample);
        }
        seen[channel * length + ring] = sample;
        if (logSize == logChannel.length) {
            compactLog();
        }
        logChannel[logSize] = channel;
        logSample[logSize] = sample;
        logValue[logSize++] = value;
        if (timeMillis != NO_TIME) {
            if (timeSample[ring] != sample) {
                timeSample[ring] = sample;
                time[ring] = timeMillis;
            }
            lastTime = lastTime == NO_TIME ? timeMillis : Math.max(lastTime, timeMillis);
        }
        long kNext = (nextStart - anchor) / stride;
        for (long k = Math.max(0, kNext - slots); k < kNext; k++) {
            int s = (int) (k % slots);
            long start = slotStart[s];
            if (slotOpen[s] && start <= sample && sample < start + length) {
                Optional<EarlyDecision> d = sessions[s].observe(channel, (int) (sample - start + 1), value);
                if (d.isPresent()) {
                    closeSlot(s);
                    emit(d.get(), start, sample);
                }
            }
        }
        merger.release(oldestLive());
    }

    /**
     * Discards the open windows undecided when the key's last time stamp is more than the timeout before {@code
     * nowMillis} (a processing-time check for a key that stopped sending).
     *
     * @return whether windows were discarded
     */
    public boolean expire(long nowMillis) {
        if (spec.timeoutMillis() > 0
                && lastTime != NO_TIME
                && nowMillis - lastTime > spec.timeoutMillis()
                && open > 0) {
            discard();
            anchor = frontier + 1;
            nextStart = anchor;
            return true;
        }
        return false;
    }

    /** The stream ended: discards the open windows undecided, like a timeout. */
    public void close() {
        discard();
        anchor = frontier + 1;
        nextStart = anchor;
    }

    /** A checkpoint of this watcher ({@link #restore}). */
    public KeyWatcherState snapshot() {
        compactLog();
        return new KeyWatcherState(
                anchor,
                nextStart,
                frontier,
                lastTime,
                new long[] {late, timeouts, windowsOpened},
                channelCount.clone(),
                slotStart.clone(),
                slotOpen.clone(),
                seen.clone(),
                timeSample.clone(),
                time.clone(),
                Arrays.copyOf(logChannel, logSize),
                Arrays.copyOf(logSample, logSize),
                Arrays.copyOf(logValue, logSize),
                merger.exportState());
    }

    /**
     * A watcher restored from a checkpoint of a watcher with the same model, spec and key: every open window's session
     * is rebuilt by feeding it again, in arrival order, the values it was fed (no window of a model can decide on
     * them, since it had not); it then continues exactly as the checkpointed watcher would.
     *
     * @throws IllegalArgumentException when the state does not fit the model and spec, or an open window decides
     *     while it is rebuilt (the state was taken under another model)
     */
    public static KeyWatcher restore(
            Vigil vigil, WindowSpec spec, String key, WatchListener listener, KeyWatcherState state) {
        return restore(vigil, spec, key, listener, state, vigil.newSessionGroup());
    }

    /**
     * As {@link #restore(Vigil, WindowSpec, String, WatchListener, KeyWatcherState)}, the windows' sessions from
     * {@code group} (as {@link #KeyWatcher(Vigil, WindowSpec, String, WatchListener, SessionGroup)}).
     */
    public static KeyWatcher restore(
            Vigil vigil,
            WindowSpec spec,
            String key,
            WatchListener listener,
            KeyWatcherState state,
            SessionGroup group) {
        KeyWatcher w = new KeyWatcher(vigil, spec, key, listener, group);
        if (state.channelCount().length != w.channels
                || state.slotStart().length != w.slots
                || state.slotOpen().length != w.slots
                || state.seen().length != w.seen.length
                || state.timeSample().length != w.length
                || state.time().length != w.length
                || state.counters().length != 3
                || state.logChannel().length > w.logChannel.length
                || state.logSample().length != state.logChannel().length
                || state.logValue().length != state.logChannel().length) {
            throw new IllegalArgumentException("key " + key + ": the checkpointed watcher state does not fit a model"
                    + " of " + w.channels + " channels and windows of D = " + w.length + ", S = " + w.stride);
        }
        w.anchor = state.anchor();
        w.nextStart = state.nextStart();
        w.frontier = state.frontier();
        w.lastTime = state.lastTime();
        w.late = state.counters()[0];
        w.timeouts = state.counters()[1];
        w.windowsOpened = state.counters()[2];
        System.arraycopy(state.channelCount(), 0, w.channelCount, 0, w.channels);
        System.arraycopy(state.slotStart(), 0, w.slotStart, 0, w.slots);
        System.arraycopy(state.seen(), 0, w.seen, 0, w.seen.length);
        System.arraycopy(state.timeSample(), 0, w.timeSample, 0, w.length);
        System.arraycopy(state.time(), 0, w.time, 0, w.length);
        w.logSize = state.logChannel().length;
        System.arraycopy(state.logChannel(), 0, w.logChannel, 0, w.logSize);
        System.arraycopy(state.logSample(), 0, w.logSample, 0, w.logSize);
        System.arraycopy(state.logValue(), 0, w.logValue, 0, w.logSize);
        w.merger.importState(state.merger());
        for (int s = 0; s < w.slots; s++) {
            if (state.slotOpen()[s]) {
                w.rebuild(s);
            }
        }
        return w;
    }

    /** Opens slot {@code s} (its start set) and feeds its session the logged values of its samples. */
    private void rebuild(int s) {
        sessions[s] = newSession();
        slotOpen[s] = true;
        open++;
        long start = slotStart[s];
        for (int i = 0; i < logSize; i++) {
            long sample = logSample[i];
            if (sample >= start && sample < start + length) {
                Optional<EarlyDecision> d = sessions[s].observe(logChannel[i], (int) (sample - start + 1), logValue[i]);
                if (d.isPresent()) {
                    throw new IllegalArgumentException("key " + key + ": the window at sample " + start
                            + " decides while it is rebuilt from the checkpoint, so the state was not taken under this"
                            + " model");
                }
            }
        }
    }

    /** Drops logged values no open window can need: those of samples ≤ frontier − D or before the grid's anchor. */
    private void compactLog() {
        int n = 0;
        for (int i = 0; i < logSize; i++) {
            if (logSample[i] > frontier - length && logSample[i] >= anchor) {
                logChannel[n] = logChannel[i];
                logSample[n] = logSample[i];
                logValue[n++] = logValue[i];
            }
        }
        logSize = n;
    }

    /** Windows open now (at most {@link WindowSpec#maxOpenWindows()}). */
    public int openWindows() {
        return open;
    }

    /** The highest sample seen. */
    public long sample() {
        return frontier;
    }

    /** Values dropped because every window of their sample had closed. */
    public long lateValues() {
        return late;
    }

    /** Times the open windows were discarded by a timeout. */
    public long timeouts() {
        return timeouts;
    }

    /** Windows opened so far. */
    public long windowsOpened() {
        return windowsOpened;
    }

    /** The merger, for its counts (alarms, merged, dropped, open groups). */
    public AlarmMerger merger() {
        return merger;
    }

    /** The key. */
    public String key() {
        return key;
    }

    private void checkChannel(int channel) {
        if (channel < 0 || channel >= channels) {
            throw new IllegalArgumentException("key " + key + ": channel " + channel
                    + " is not a channel of the model (0.." + (channels - 1) + ")");
        }
    }

    private boolean timedOut(long sample, long timeMillis) {
        if (frontier == 0) {
            return false;
        }
        boolean jump = spec.timeoutSamples() > 0 && sample - frontier > spec.timeoutSamples();
        boolean gap = spec.timeoutMillis() > 0
                && timeMillis != NO_TIME
                && lastTime != NO_TIME
                && timeMillis - lastTime > spec.timeoutMillis();
        return jump || gap;
    }

    /** Moves the frontier to {@code sample}: closes windows that end before it, opens those that start by it. */
    private void advance(long sample) {
        long kNext = (nextStart - anchor) / stride;
        for (long k = Math.max(0, kNext - slots); k < kNext; k++) {
            int s = (int) (k % slots);
            if (slotOpen[s] && slotStart[s] + length - 1 < sample) {
                closeSlot(s);
                Optional<EarlyDecision> d = sessions[s].end();
                if (d.isPresent()) {
                    emit(d.get(), slotStart[s], sample);
                }
            }
        }
        while (nextStart <= sample) {
            if (nextStart + length - 1 >= sample) {
                int s = (int) (((nextStart - anchor) / stride) % slots);
                if (slotOpen[s]) {
                    throw new IllegalStateException("window ring overflow at sample " + sample);
                }
                if (sessions[s] == null) {
                    sessions[s] = newSession();
                } else {
                    sessions[s].reset();
                }
                slotStart[s] = nextStart;
                slotOpen[s] = true;
                open++;
                windowsOpened++;
            }
            nextStart += stride;
        }
        frontier = sample;
    }

    private VigilSession newSession() {
        return group == null ? vigil.newSession() : group.newSession();
    }

    private void closeSlot(int s) {
        slotOpen[s] = false;
        open--;
    }

    private void discard() {
        if (open > 0) {
            timeouts++;
        }
        Arrays.fill(slotOpen, false);
        open = 0;
        merger.releaseAll();
    }

    private long oldestLive() {
        long oldest = nextStart;
        for (int s = 0; s < slots; s++) {
            if (slotOpen[s]) {
                oldest = Math.min(oldest, slotStart[s]);
            }
        }
        return oldest;
    }

    private void emit(EarlyDecision e, long start, long trigger) {
        boolean event = eventClass[e.classIndex()];
        WindowDecision d = new WindowDecision(
                key,
                e.label(),
                e.classIndex(),
                event,
                start,
                length,
                trigger,
                e.t(),
                e.early(),
                e.complete(),
                e.reliability(),
                e.tau(),
                e.certified(),
                vigil.classifier().thresholds().guarantee());
        listener.window(d);
        if (event) {
            AlarmEvent a = merger.offer(d, delayMs(start, trigger));
            if (a != null) {
                listener.alarm(a);
            }
        }
    }

    private double delayMs(long start, long trigger) {
        int rs = (int) ((start - 1) % length);
        int rt = (int) ((trigger - 1) % length);
        if (timeSample[rs] == start && timeSample[rt] == trigger && trigger - start < length) {
            return time[rt] - time[rs];
        }
        if (!Double.isNaN(spec.samplingRateHz())) {
            return (trigger - start) * 1000.0 / spec.samplingRateHz();
        }
        return Double.NaN;
    }
}
