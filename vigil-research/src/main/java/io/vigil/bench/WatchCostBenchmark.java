package io.vigil.bench;

import io.vigil.api.SessionGroup;
import io.vigil.api.Vigil;
import io.vigil.api.VigilSession;
import io.vigil.data.recording.Recording;
import io.vigil.model.WindowModels;
import io.vigil.watch.AlarmEvent;
import io.vigil.watch.KeyWatcher;
import io.vigil.watch.WatchListener;
import io.vigil.watch.WindowDecision;
import io.vigil.watch.WindowSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost per incoming value of one watched key against the cost per value of one series of the same window model
 * (docs/watch.md): {@code keyValue} feeds one value of a key's endless stream to a {@link KeyWatcher} — every open
 * window (at most ⌈D/S⌉, 20 at D = 200, S = 10) takes it at its own position — and {@code seriesValue} feeds one
 * value to one {@link VigilSession}, a window of the same stream decided alone (windows one after another at the
 * stream's window starts, each fed all its C·D values, reset after the last). The ratio keyValue / seriesValue is
 * what watching costs per value over deciding one series. The model and stream are {@link WatchWorkload}'s (C = 6, D
 * = 200, S = 10 by default; trained on first use and cached), values time-major from a test recording. {@code
 * shared} = false gives every window a workspace of its own instead of the key's one {@link SessionGroup}. Run with
 * {@code java -cp target/vigil.jar org.openjdk.jmh.Main WatchCostBenchmark}; the counters {@code openWindows} (sum
 * over calls of the key's open windows) and {@code values} give the mean open windows per value.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx4g"})
public class WatchCostBenchmark {
    /** Channels C. */
    @Param({"6"})
    public int channels;

    /** Window length D. */
    @Param({"200"})
    public int window;

    /** Window stride S. */
    @Param({"10"})
    public int stride;

    /** Whether the model is calibrated ({@code vigil train}'s default) or trained with {@code --no-calibration}. */
    @Param({"false"})
    public boolean calibrated;

    /** Whether a key's windows share one workspace ({@link SessionGroup}) or have one each. */
    @Param({"true"})
    public boolean shared;

    private Vigil vigil;
    private WindowSpec spec;
    private double[][] stream;
    private int samples;

    private KeyWatcher watcher;
    private int sample;
    private int channel;

    private VigilSession session;
    private int seriesStart;
    private int seriesIndex;

    private static final WatchListener QUIET = new WatchListener() {
        @Override
        public void window(WindowDecision decision) {}

        @Override
        public void alarm(AlarmEvent alarm) {}
    };

    /** The mean open windows per value of {@code keyValue}: openWindows / values. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counts {
        /** Sum over calls of the windows open after the value. */
        public long openWindows;

        /** Values fed. */
        public long values;

        /** Zeroed per iteration. */
        @Setup(Level.Iteration)
        public void clear() {
            openWindows = 0;
            values = 0;
        }
    }

    /** Trains or reads the model and takes the first test recording as the key's stream. */
    @Setup
    public void setUp() {
        WatchWorkload.Model m;
        try {
            m = WatchWorkload.model(
                    new WatchWorkload.Shape(channels, window, stride, 10_000, calibrated, 1),
                    WatchWorkload.defaultCache(),
                    line -> System.err.println("watch cost: " + line));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        vigil = m.vigil();
        spec = WindowSpec.of(vigil, WindowModels.requireWindowModel(vigil.model(), "the benchmark's model"));
        Recording r = m.recordings().split("test").recordings().get(0);
        samples = r.samples();
        stream = new double[channels][];
        for (int c = 0; c < channels; c++) {
            stream[c] = r.channel(c);
        }
        watcher = newWatcher();
        session = shared ? vigil.newSessionGroup().newSession() : vigil.newSession();
    }

    private KeyWatcher newWatcher() {
        sample = 0;
        channel = 0;
        return new KeyWatcher(vigil, spec, "bench", QUIET, shared ? vigil.newSessionGroup() : null);
    }

    /** One value of the key's stream (time-major); at the recording's end the key starts over. */
    @Benchmark
    public int keyValue(Counts counts) {
        if (sample == samples) {
            watcher = newWatcher();
        }
        watcher.observe(channel, sample + 1, KeyWatcher.NO_TIME, stream[channel][sample]);
        if (++channel == channels) {
            channel = 0;
            sample++;
        }
        int open = watcher.openWindows();
        counts.openWindows += open;
        counts.values++;
        return open;
    }

    /** One value of one series: the window at the current start, fed time-major, then the next start. */
    @Benchmark
    public boolean seriesValue() {
        int t = seriesIndex / channels;
        int c = seriesIndex % channels;
        boolean decided = session.observe(stream[c][seriesStart + t]).isPresent();
        if (++seriesIndex == channels * window) {
            seriesIndex = 0;
            seriesStart += stride;
            if (seriesStart + window > samples) {
                seriesStart = 0;
            }
            session.reset();
        }
        return decided;
    }
}
