package io.vigil.bench;

import io.vigil.data.Dataset;
import io.vigil.data.ObservationPattern;
import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.flink.SeriesSessionSerializer;
import io.vigil.gauss.SubsetConditioner;
import io.vigil.kafka.SampleRecord;
import io.vigil.model.VigilModel;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.stream.ConditionedStates;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SeriesSession;
import io.vigil.stream.SeriesTracker;
import io.vigil.stream.SessionSettings;
import io.vigil.util.Progress;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Cost per record of an undecided multichannel series observed in any order when its session is serialised between
 * records, as Flink's RocksDB backend does (read, {@link ConditionedStates#attach}, {@link SeriesTracker#onSample},
 * {@link ConditionedStates#keep}, write, through {@link SeriesSessionSerializer}; RocksDB's own get and put, which do
 * not depend on the conditioned state, are left out), by how many values the series had seen: sessions kept as
 * objects (the heap backend), serialised and rebuilt from their values per record (no cache: the keyed stage before
 * the cache), serialised with the cache. A column times writing and reading the reduced Gaussian's q² + ℓq + ℓ²
 * doubles once, the least that serialising the conditioned state into the session would add per record.
 *
 * <p>Three channels × d = 315 (D = 945, UWaveGestureLibrary's shape) of generated multichannel CBF, all values of
 * each test series in a random order; only the first class may be announced early ({@code --class-of-interest}) and
 * the series fed are of the others, so they stay undecided to their last value; modes alternate, pass after pass,
 * and each row is the median over the timed passes of the mean per record. Run: {@code java -cp target/vigil.jar
 * io.vigil.bench.AnyOrderSessionBenchmark [series [passes]]} (defaults 8 and 5).
 */
public final class AnyOrderSessionBenchmark {
    private static final int CHANNELS = 3;
    private static final int LENGTH = 315;
    private static final int BUCKET = 100;
    private static final long NOW = 1_000L;

    private final SeriesTracker tracker;
    private final SeriesTracker.Workspace ws;
    private final List<List<SampleEvent>> series = new ArrayList<>();
    private final SeriesTracker.Output out = new SeriesTracker.Output() {
        @Override
        public void decision(DecisionRecord record) {
            decisions++;
        }

        @Override
        public void deadLetter(DeadLetter letter) {
            throw new IllegalStateException("dead letter in the benchmark: " + letter);
        }
    };
    private int decisions;

    private AnyOrderSessionBenchmark(EarlyClassifier classifier, Dataset test, int count) {
        this.tracker = new SeriesTracker(classifier, SessionSettings.defaults(), "bench", 1L);
        this.ws = tracker.newWorkspace();
        ObservationPattern shuffled =
                ObservationPattern.builder().shuffled(true).seed(26).build();
        String interest = test.classNames().get(0);
        for (int i = 0, s = 0; i < count; s++) {
            if (test.labelOf(s % test.size()).equals(interest)) {
                continue; // a series of the class of interest may be announced early and stop being conditioned
            }
            String id = "bench/" + i++;
            double[] x = test.series(s % test.size());
            List<SampleEvent> events = new ArrayList<>();
            long offset = 0;
            for (int j : shuffled.order(id, CHANNELS, CHANNELS * LENGTH)) {
                int t = j / CHANNELS + 1;
                int c = j % CHANNELS;
                events.add(SampleEvent.accepted(id, t, x[j], NOW, 0, offset++, SampleRecord.encode(id, t, c, x[j]))
                        .channel(c, null));
            }
            series.add(events);
        }
    }

    /** How sessions live between records. */
    private enum Mode {
        OBJECTS("objects (heap)"),
        REBUILD("serialised, rebuilt"),
        CACHED("serialised, cached");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** One pass over every series: per bucket of values seen, total nanoseconds and records (undecided before). */
    private void pass(Mode mode, long[] nanos, long[] records) throws IOException {
        ConditionedStates cache =
                new ConditionedStates(mode == Mode.CACHED ? ConditionedStates.DEFAULT_BUDGET_BYTES : 0);
        DataOutputSerializer buffer = new DataOutputSerializer(16 * 1024);
        DataInputDeserializer in = new DataInputDeserializer();
        for (List<SampleEvent> events : series) {
            SeriesSession held = null;
            byte[] stored = null;
            for (int k = 0; k < events.size(); k++) {
                SampleEvent e = events.get(k);
                long start = System.nanoTime();
                SeriesSession before = held;
                if (mode != Mode.OBJECTS && stored != null) {
                    in.setBuffer(stored);
                    before = SeriesSessionSerializer.INSTANCE.deserialize(in);
                }
                boolean collecting = before == null || before.phase() == SeriesSession.Phase.COLLECTING;
                cache.attach(e.series, before);
                SeriesSession after = tracker.onSample(before, e, NOW, out, ws);
                cache.keep(e.series, after, tracker);
                if (mode == Mode.OBJECTS) {
                    held = after;
                } else if (after == null) {
                    stored = null;
                } else {
                    buffer.clear();
                    SeriesSessionSerializer.INSTANCE.serialize(after, buffer);
                    stored = buffer.getCopyOfBuffer();
                }
                long took = System.nanoTime() - start;
                if (collecting) {
                    nanos[k / BUCKET] += took;
                    records[k / BUCKET]++;
                }
            }
        }
    }

    /** Nanoseconds to write and read back {@code doubles} doubles (the least a serialised state would add). */
    private static double stateRoundTripNanos(int doubles, int reps) throws IOException {
        DataOutputSerializer o = new DataOutputSerializer(8 * doubles + 16);
        DataInputDeserializer in = new DataInputDeserializer();
        double[] state = new double[doubles];
        Arrays.fill(state, 0.5);
        double sink = 0;
        long start = System.nanoTime();
        for (int r = 0; r < reps; r++) {
            o.clear();
            for (double v : state) {
                o.writeDouble(v);
            }
            in.setBuffer(o.getSharedBuffer(), 0, o.length());
            for (int i = 0; i < doubles; i++) {
                state[i] = in.readDouble();
            }
            sink += state[r % doubles];
        }
        long took = System.nanoTime() - start;
        if (sink < 0) {
            throw new IllegalStateException("unreachable");
        }
        return (double) took / reps;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * Runs the benchmark and prints the table.
     *
     * @param args optional: number of series (default 8) and timed passes (default 5)
     */
    public static void main(String[] args) throws IOException {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        PrintStream p = System.out;
        long t0 = System.nanoTime();
        TrainTest data = SyntheticData.generate(SyntheticKind.MULTI_CBF, 100, 30, 21L, false, LENGTH);
        TrainParams params = TrainParams.builder()
                .gamma(0.3)
                .dims(12)
                .neighbors(8)
                .qdaNeighbors(8)
                .build();
        VigilModel m = Trainer.train(data.train(), params, Instant.parse("2026-01-01T00:00:00Z"), Progress.none());
        m = EarlyModelTrainer.addSections(m, data.train(), EarlyModelTrainer.Params.defaults());
        // Only the first class may be announced early, and no series of it is fed: every series stays undecided
        // (conditioned on) to its last value, where the complete-series rule decides it.
        EarlyClassifier classifier = EarlyClassifier.of(
                m,
                DecisionParams.defaults()
                        .withClassOfInterest(data.test().classNames().get(0)));
        SubsetConditioner c = classifier.subsetConditioner();
        int q = c.rank();
        int l = c.reducedDimension();
        AnyOrderSessionBenchmark b = new AnyOrderSessionBenchmark(classifier, data.test(), count);
        p.printf(
                Locale.ROOT,
                "model: multi-cbf, C = %d, d = %d (D = %d), n = 100, ℓ = %d, q = %d; trained in %.1f s; %d series, %d "
                        + "timed passes per mode%n",
                CHANNELS,
                LENGTH,
                CHANNELS * LENGTH,
                l,
                q,
                (System.nanoTime() - t0) / 1e9,
                count,
                passes);
        int buckets = (CHANNELS * LENGTH + BUCKET - 1) / BUCKET;
        Mode[] modes = Mode.values();
        double[][][] means = new double[modes.length][buckets][passes];
        long[] undecided = new long[buckets];
        for (int pass = -1; pass < passes; pass++) { // pass −1 warms up
            for (Mode mode : modes) {
                long[] nanos = new long[buckets];
                long[] records = new long[buckets];
                b.pass(mode, nanos, records);
                for (int k = 0; k < buckets && pass >= 0; k++) {
                    means[mode.ordinal()][k][pass] = records[k] == 0 ? Double.NaN : nanos[k] / 1e3 / records[k];
                    undecided[k] = records[k];
                }
            }
        }
        int doubles = q * q + l * q + l * l;
        double design2 = stateRoundTripNanos(doubles, 20_000) / 1e3;
        p.printf(Locale.ROOT, "%nµs per record of an undecided series (median of %d passes)%n", passes);
        p.printf(
                Locale.ROOT,
                "| values seen | records | %s | %s | %s |%n",
                modes[0].label,
                modes[1].label,
                modes[2].label);
        p.println("|---|---:|---:|---:|---:|");
        for (int k = 0; k < buckets; k++) {
            p.printf(
                    Locale.ROOT,
                    "| %d–%d | %d | %.1f | %.1f | %.1f |%n",
                    k * BUCKET,
                    Math.min((k + 1) * BUCKET, CHANNELS * LENGTH) - 1,
                    undecided[k],
                    median(means[0][k]),
                    median(means[1][k]),
                    median(means[2][k]));
        }
        p.printf(
                Locale.ROOT,
                "%nwriting and reading q² + ℓq + ℓ² = %d doubles (%d bytes): %.1f µs per record%n",
                doubles,
                8 * doubles,
                design2);
        if (b.decisions == 0) {
            p.println("(no series decided)");
        }
    }
}
