package io.vigil.bench;

import io.vigil.data.TrainTest;
import io.vigil.data.synthetic.SyntheticData;
import io.vigil.data.synthetic.SyntheticKind;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyModelTrainer;
import io.vigil.flink.JobConfig;
import io.vigil.flink.JobMetrics;
import io.vigil.flink.LocalFlink;
import io.vigil.flink.LocalState;
import io.vigil.flink.VigilJob;
import io.vigil.kafka.LoopbackKafka;
import io.vigil.model.CreationTime;
import io.vigil.model.VigilModel;
import io.vigil.model.json.ModelFile;
import io.vigil.select.TrainParams;
import io.vigil.select.Trainer;
import io.vigil.util.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code vigil bench scale}: many series in flight at once through the embedded job (one process, loopback broker,
 * MiniCluster), for each requested series count N in one run. A topic is filled first with N series × K samples
 * interleaved round-robin over the series ({@link InterleavedLoad}; timed as the produce phase), so after the job
 * has read the first N records every series holds a session, and keeps it until the end of the input (K &lt; d) or
 * until t = d. The bounded Vigil job then reads the topic on the embedded cluster of {@code vigil run} ({@link
 * LocalFlink}), checkpointing to a temporary state directory with the chosen state backend.
 *
 * <p>With more than one count the first is the <b>reference</b> the others' throughput is compared with: it reads
 * as many samples as the largest run, so that both rates are steady-state figures of similar duration, not a short
 * warm-up against a long run. To keep only its N series in flight over that many samples, the reference is
 * produced in waves of N new series × d samples each (a series ends at t = d and leaves the state), one wave after
 * the other.
 *
 * <p>Measured: samples/s after the source while the middle 80 % of the records pass (start-up, warm-up and the
 * end-of-input drain left out); series in flight = the largest sum of the operator's {@code seriesInFlight} gauge (sessions held,
 * decided markers included); each completed checkpoint's duration, size and full size from Flink's own job metrics
 * ({@code lastCheckpointDuration}, {@code lastCheckpointSize}, {@code lastCheckpointFullSize}); state bytes per
 * in-flight series = the largest checkpoint's full size / the series in flight when it completed; the peak heap of
 * the whole process (broker, Flink and job) during the job.
 */
public final class ScaleBenchmark {
    /**
     * What to run.
     *
     * @param seriesCounts series in flight, one job per count, in this order
     * @param length series length d of the model (generated CBF of that length)
     * @param samplesPerSeries samples produced per series, &le; d (fewer keep every series in flight to the end)
     * @param backend state backend
     * @param rocksDbMemory managed (off-heap) memory for RocksDB with {@link LocalState.Backend#ROCKSDB}, bytes
     * @param tau the decision threshold τ (high: decisions come late and series stay undecided)
     * @param checkpointInterval checkpoint interval of the job
     * @param partitions partitions of the sample topic
     * @param parallelism Flink parallelism
     * @param producers producer threads of the produce phase
     * @param trainSize training series of the model
     * @param seed generator seed
     */
    public record Settings(
            int[] seriesCounts,
            int length,
            int samplesPerSeries,
            LocalState.Backend backend,
            long rocksDbMemory,
            double tau,
            Duration checkpointInterval,
            int partitions,
            int parallelism,
            int producers,
            int trainSize,
            long seed) {
        /** Validates. */
        public Settings {
            if (seriesCounts.length == 0 || Arrays.stream(seriesCounts).anyMatch(n -> n < 1)) {
                throw new IllegalArgumentException("series counts must be >= 1");
            }
            if (samplesPerSeries < 1 || samplesPerSeries > length) {
                throw new IllegalArgumentException(
                        "samples per series must be in 1.." + length + ", got " + samplesPerSeries);
            }
            if (!(tau > 0 && tau < 1)) {
                throw new IllegalArgumentException("tau must lie strictly between 0 and 1, got " + tau);
            }
            if (partitions < 1 || parallelism < 1 || producers < 1 || trainSize < 2) {
                throw new IllegalArgumentException("partitions, parallelism, producers must be >= 1, train >= 2");
            }
            if (checkpointInterval.isNegative() || checkpointInterval.isZero()) {
                throw new IllegalArgumentException("checkpoint interval must be positive");
            }
        }

        /** The backend, with RocksDB's memory: {@code hashmap} or {@code rocksdb (1024 MiB managed memory)}. */
        public String backendDescription() {
            return backend == LocalState.Backend.ROCKSDB
                    ? backend.cliName() + " (" + (rocksDbMemory >> 20) + " MiB managed memory)"
                    : backend.cliName();
        }
    }

    /**
     * One series count's figures.
     *
     * @param series series N (in flight at once)
     * @param waves waves of N series produced one after the other (1 but for a reference, see the class comment)
     * @param samplesPerSeries samples of each series (K, or d in a reference's waves)
     * @param samples samples produced and read (waves × N × samples per series)
     * @param produceSeconds produce phase
     * @param produceRate produce phase samples/s
     * @param jobSeconds job submission to end
     * @param samplesPerSecond job samples/s over the middle 80 % of the records
     * @param seriesInFlight largest number of sessions held at once
     * @param checkpoints checkpoints completed
     * @param failedCheckpoints checkpoints failed
     * @param checkpointMsMax longest checkpoint
     * @param checkpointMsMaxReading longest checkpoint completed while the job was still reading its input (the
     *     series in flight); the checkpoints after it wait behind the end-of-input records of every open series
     * @param checkpointBytesMax largest checkpoint full size (all state it references)
     * @param checkpointIncrementBytesMax largest checkpointed size (the increment with rocksdb)
     * @param stateBytesPerSeries {@code checkpointBytesMax} / series in flight at that checkpoint, or −1 when no
     *     checkpoint completed with series in flight
     * @param peakHeapBytes peak heap of the process during the job
     * @param decidedEarly decisions before t = d
     * @param decidedComplete decisions at t = d
     * @param undecided undecided records at the end of the input
     */
    public record Run(
            int series,
            int waves,
            int samplesPerSeries,
            long samples,
            double produceSeconds,
            double produceRate,
            double jobSeconds,
            double samplesPerSecond,
            long seriesInFlight,
            int checkpoints,
            long failedCheckpoints,
            long checkpointMsMax,
            long checkpointMsMaxReading,
            long checkpointBytesMax,
            long checkpointIncrementBytesMax,
            double stateBytesPerSeries,
            long peakHeapBytes,
            long decidedEarly,
            long decidedComplete,
            long undecided) {}

    /**
     * The figures of all series counts.
     *
     * @param length d
     * @param dims LDG dimension ℓ of the model
     * @param stateBytesModelMax serialised size of one undecided session at t = d (the upper bound per series)
     * @param runs one per series count, in order
     */
    public record Result(int length, int dims, long stateBytesModelMax, List<Run> runs) {
        /** Throughput of the last run as a fraction of the first (e.g. 1,000,000 vs 8,000 in flight). */
        public double throughputRatio() {
            return runs.get(runs.size() - 1).samplesPerSecond() / runs.get(0).samplesPerSecond();
        }
    }

    /** One completed checkpoint as seen by the poller. */
    private record Checkpoint(long ms, long bytes, long fullBytes, long inFlight, boolean reading) {}

    private static final Duration POLL = Duration.ofMillis(100);
    private static final Duration STATUS_EVERY = Duration.ofSeconds(10);

    private ScaleBenchmark() {}

    /** Runs every series count; {@code log} receives progress lines. */
    public static Result run(Settings s, Consumer<String> log) throws Exception {
        TrainTest data = SyntheticData.generate(SyntheticKind.CBF, s.trainSize(), 1000, s.seed(), true, s.length());
        VigilModel model = Trainer.train(data.train(), TrainParams.defaults(), CreationTime.now(), Progress.none());
        model = EarlyModelTrainer.addSections(model, data.train(), EarlyModelTrainer.Params.defaults());
        byte[] modelBytes = ModelFile.standard().toBytes(model);
        log.accept(String.format(
                Locale.ROOT,
                "model: cbf, d = %d, dims = %d, tau = %s; %s backend, checkpoint every %d ms",
                s.length(),
                model.dims(),
                s.tau(),
                s.backendDescription(),
                s.checkpointInterval().toMillis()));
        List<Run> runs = new ArrayList<>();
        try (LoopbackKafka kafka =
                LoopbackKafka.start(LoopbackKafka.Settings.defaults().withDefaultPartitions(s.partitions()))) {
            for (int i = 0; i < s.seriesCounts().length; i++) {
                runs.add(runOne(kafka, s, i, data, modelBytes, log));
            }
        }
        return new Result(s.length(), model.dims(), StreamBenchmark.stateBytes(s.length(), model.dims(), false), runs);
    }

    private static Run runOne(
            LoopbackKafka kafka, Settings s, int index, TrainTest data, byte[] modelBytes, Consumer<String> log)
            throws Exception {
        int n = s.seriesCounts()[index];
        Load load = load(s, index);
        long total = load.samples(n);
        String name = "scale-" + index + "-" + n;
        kafka.createTopic(name, s.partitions());
        kafka.createTopic(name + "-decisions", s.partitions());
        kafka.createTopic(name + "-dead", 1);
        long producedSamples = 0;
        long produceNanos = 0;
        try (Progress p = Progress.bar("bench scale: produce " + n + " series", total, true)) {
            for (int w = 0; w < load.waves(); w++) {
                InterleavedLoad.Summary wave = InterleavedLoad.produce(
                        kafka.clientProperties(),
                        name,
                        load.waves() == 1 ? name : name + "-w" + w,
                        data.test(),
                        n,
                        load.samplesPerSeries(),
                        s.producers(),
                        p);
                producedSamples += wave.samples();
                produceNanos += wave.elapsed().toNanos();
            }
        }
        InterleavedLoad.Summary produced = new InterleavedLoad.Summary(producedSamples, Duration.ofNanos(produceNanos));
        log.accept(String.format(
                Locale.ROOT,
                "%d series: produced %d samples in %.1f s (%.0f samples/s, %d threads)%s",
                n,
                produced.samples(),
                produced.elapsed().toNanos() / 1e9,
                produced.samplesPerSecond(),
                s.producers(),
                load.waves() == 1
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; reference: %d waves of %d series x %d samples",
                                load.waves(),
                                n,
                                load.samplesPerSeries())));
        JobConfig cfg = JobConfig.builder(
                        kafka.bootstrapServers(),
                        name,
                        name + "-decisions",
                        name + "-dead",
                        DecisionParams.defaults().withTau(s.tau()))
                .parallelism(s.parallelism())
                .bounded(true)
                .checkpointInterval(s.checkpointInterval())
                .groupId(name)
                .transactionalIdPrefix(name)
                .build();
        // Checkpoints in the embedded cluster's temp directory, removed on every exit path (SIGTERM and Ctrl-C too).
        try (LocalFlink flink = LocalFlink.start(OptionalInt.empty(), s.backend(), s.rocksDbMemory())) {
            StreamExecutionEnvironment env = flink.environment();
            VigilJob.attach(env, cfg, modelBytes, RateProbe::tap);
            RateProbe.reset(total / 10, total - total / 10);
            HeapMeter.reset();
            long start = System.nanoTime();
            JobClient job = env.executeAsync("vigil bench scale " + n);
            List<Checkpoint> checkpoints = new ArrayList<>();
            long inFlight = watch(job.getJobExecutionResult(), flink.metrics(), n, total, checkpoints, log);
            JobMetrics.Snapshot end = flink.metrics().snapshot();
            double jobSeconds = (System.nanoTime() - start) / 1e9;
            long peakHeap = HeapMeter.peakBytes();
            if (RateProbe.count() != total) {
                throw new IllegalStateException("the job read " + RateProbe.count() + " of " + total + " samples");
            }
            double rate = RateProbe.markedRate();
            Checkpoint largest = checkpoints.stream()
                    .filter(c -> c.inFlight() > 0)
                    .max((a, b) -> Long.compare(a.fullBytes(), b.fullBytes()))
                    .orElse(null);
            Run r = new Run(
                    n,
                    load.waves(),
                    load.samplesPerSeries(),
                    total,
                    produced.elapsed().toNanos() / 1e9,
                    produced.samplesPerSecond(),
                    jobSeconds,
                    rate,
                    inFlight,
                    checkpoints.size(),
                    end.get(JobMetrics.CHECKPOINTS_FAILED),
                    checkpoints.stream().mapToLong(Checkpoint::ms).max().orElse(0),
                    checkpoints.stream()
                            .filter(Checkpoint::reading)
                            .mapToLong(Checkpoint::ms)
                            .max()
                            .orElse(0),
                    checkpoints.stream().mapToLong(Checkpoint::fullBytes).max().orElse(0),
                    checkpoints.stream().mapToLong(Checkpoint::bytes).max().orElse(0),
                    largest == null ? -1 : (double) largest.fullBytes() / largest.inFlight(),
                    peakHeap,
                    end.get(JobMetrics.DECISIONS_EARLY),
                    end.get(JobMetrics.DECISIONS_COMPLETE),
                    end.get(JobMetrics.DECISIONS_UNDECIDED));
            log.accept(String.format(
                    Locale.ROOT,
                    "%d series: %.0f samples/s, %d in flight, %d checkpoints (longest %d ms, %d ms while reading the "
                            + "input, largest %.1f MiB), peak heap %.0f MiB",
                    n,
                    rate,
                    inFlight,
                    r.checkpoints(),
                    r.checkpointMsMax(),
                    r.checkpointMsMaxReading(),
                    r.checkpointBytesMax() / 1048576.0,
                    peakHeap / 1048576.0));
            return r;
        }
    }

    /** How a run's series are produced: waves of N series × samples per series. */
    private record Load(int waves, int samplesPerSeries) {
        long samples(int series) {
            return (long) waves * series * samplesPerSeries;
        }
    }

    /**
     * The load of run {@code index}: N series × K samples, or for the reference (the first of several counts) as
     * many samples as the largest run in waves of N series × d samples.
     */
    private static Load load(Settings s, int index) {
        int[] counts = s.seriesCounts();
        int n = counts[index];
        long largest = Arrays.stream(counts)
                .mapToLong(c -> (long) c * s.samplesPerSeries())
                .max()
                .orElseThrow();
        long own = (long) n * s.samplesPerSeries();
        if (index > 0 || counts.length == 1 || own >= largest) {
            return new Load(1, s.samplesPerSeries());
        }
        long perWave = (long) n * s.length();
        return new Load((int) Math.max(1, Math.round((double) largest / perWave)), s.length());
    }

    /**
     * Polls the job's metrics until it ends: notes every completed checkpoint and prints a status line every
     * {@link #STATUS_EVERY}; returns the most series in flight seen.
     */
    private static long watch(
            CompletableFuture<JobExecutionResult> done,
            JobMetrics metrics,
            int n,
            long total,
            List<Checkpoint> checkpoints,
            Consumer<String> log)
            throws InterruptedException, ExecutionException {
        long maxInFlight = 0;
        long seen = 0;
        long nextStatus = System.nanoTime() + STATUS_EVERY.toNanos();
        while (true) {
            boolean finished = done.isDone();
            JobMetrics.Snapshot now = metrics.snapshot();
            long inFlight = now.get(JobMetrics.SERIES_IN_FLIGHT);
            maxInFlight = Math.max(maxInFlight, inFlight);
            long completed = now.get(JobMetrics.CHECKPOINTS_COMPLETED);
            if (completed > seen) {
                seen = completed;
                checkpoints.add(new Checkpoint(
                        now.get(JobMetrics.LAST_CHECKPOINT_DURATION),
                        now.get(JobMetrics.LAST_CHECKPOINT_SIZE),
                        now.get(JobMetrics.LAST_CHECKPOINT_FULL_SIZE),
                        inFlight,
                        RateProbe.count() < total));
            }
            if (finished) {
                done.get();
                return maxInFlight;
            }
            if (System.nanoTime() > nextStatus) {
                nextStatus += STATUS_EVERY.toNanos();
                log.accept(String.format(
                        Locale.ROOT,
                        "%d series: %d of %d samples read, %d in flight, %d checkpoints",
                        n,
                        RateProbe.count(),
                        total,
                        inFlight,
                        checkpoints.size()));
            }
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
        }
    }
}
