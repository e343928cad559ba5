package io.vigil.flink;

import io.vigil.util.FileTrees;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.PipelineOptionsInternal;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.state.rocksdb.RocksDBConfigurableOptions;
import org.apache.flink.state.rocksdb.RocksDBOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.rocksdb.CompressionType;

/**
 * The embedded Flink MiniCluster of {@code vigil run}, {@code vigil demo} and {@code vigil bench stream}: safe by
 * default and clean on every exit path.
 *
 * <ul>
 *   <li><b>Loopback only.</b> Every listener Flink opens (REST endpoint, BLOB server, RPC, the TaskManager's data
 *       exchange) binds {@value #LOOPBACK}; the REST endpoint takes an ephemeral port unless the web UI is asked
 *       for ({@link #webUiPort}), and it is never announced otherwise.
 *   <li><b>One temp directory.</b> Flink's temp directories (io, web upload, BLOB storage, the extracted RPC jar)
 *       live in one {@code vigil-run-PID-*} directory under {@code java.io.tmpdir}, removed by {@link #close} and
 *       by a shutdown hook (SIGTERM, Ctrl-C, {@code System.exit}); directories left by a process that was killed
 *       outright (SIGKILL) are removed by the next start, once their process is gone.
 *   <li><b>Durable checkpoints.</b> Checkpoints go to a directory on disk ({@link LocalState}), never to
 *       JobManager memory (which ends a job once its state passes 5 MB): {@code vigil run}'s state directory, or
 *       for the demo and the benchmarks a directory inside the temp directory. They are retained when the job fails
 *       or is cancelled ({@code RETAIN_ON_CANCELLATION}); a checkpoint whose barriers are held up by backpressure for
 *       {@link #ALIGNED_CHECKPOINT_TIMEOUT} continues unaligned; Flink keeps the latest ({@value #RETAINED_CHECKPOINTS}). With {@link
 *       LocalState#jobId} the job runs under a fixed job id and resumes from {@link LocalState#resumeFrom} in
 *       {@code CLAIM} mode: it owns the restored checkpoint, so Flink removes it once newer ones complete and
 *       the checkpoints of one state directory never pile up. RocksDB's working files live in the temp directory.
 *   <li><b>Bounded restarts.</b> Restarts back off exponentially (1 s doubling to {@link #MAX_BACKOFF}); after
 *       {@value #MAX_RESTARTS} restarts without {@link #STABLE_RUN} of failure-free running in between, the job
 *       ends with its cause instead of restarting forever (an error no restart can fix: a deleted topic, a
 *       rejected credential), however long each attempt takes to fail. A job that ran stably starts counting
 *       afresh, so rare transient failures over days never end it.
 *   <li><b>Metrics in-process.</b> {@link JobMetricsReporter} hands Vigil's operator metrics to {@link #metrics()};
 *       {@link #serveMetrics} adds a Prometheus scrape endpoint on {@value #LOOPBACK}, closed with the cluster.
 * </ul>
 */
public final class LocalFlink implements AutoCloseable {
    /** The only address the embedded cluster listens on. */
    public static final String LOOPBACK = "127.0.0.1";

    /** Port of the web UI when {@code --web-ui} is given without one (Flink's usual REST port). */
    public static final int DEFAULT_WEB_UI_PORT = 8081;

    /** Restarts after which a job that keeps failing ends. */
    public static final int MAX_RESTARTS = 6;

    /** Longest pause before a restart. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);

    /** Failure-free running after which the restart count starts afresh. */
    public static final Duration STABLE_RUN = Duration.ofMinutes(10);

    /** How long a restart waits for a slot before it counts as a failure. */
    static final Duration SLOT_REQUEST_TIMEOUT = Duration.ofSeconds(20);

    /** Prefix of the per-process temp directory. */
    static final String TEMP_PREFIX = "vigil-run-";

    /**
     * How long a checkpoint may wait for its barriers to pass the records buffered between the operators before it
     * continues unaligned (the buffered records go into the checkpoint instead). At full throughput the job is
     * backpressured by design, and an aligned barrier queues behind every buffered sample: that wait, not writing
     * the state, was the largest part of a checkpoint with many series in flight (BENCHMARKS, "Scale"). Unaligned
     * checkpoints keep exactly-once: the in-flight records are restored with the state.
     */
    public static final Duration ALIGNED_CHECKPOINT_TIMEOUT = Duration.ofSeconds(1);

    /** Longest wait for a cluster of {@link #startCluster} to stop. */
    static final Duration CLUSTER_STOP_TIMEOUT = Duration.ofSeconds(30);

    /** Completed checkpoints Flink keeps: a resume needs only the latest ({@link StateDirectory}). */
    public static final int RETAINED_CHECKPOINTS = 1;

    private final Path dir;
    private final Configuration configuration;
    private final OptionalInt webUiPort;
    private final JobMetrics metrics = JobMetrics.register();
    private final List<Runnable> onShutdown = new CopyOnWriteArrayList<>();
    private final Thread cleanup;
    private PrometheusEndpoint prometheus;
    private volatile EmbeddedCluster cluster;
    private boolean closed;

    private LocalFlink(Path dir, OptionalInt webUiPort, LocalState state) {
        this.dir = dir;
        this.webUiPort = webUiPort;
        this.configuration = configuration(dir, webUiPort, state);
        JobMetricsReporter.configure(configuration, metrics);
        this.cleanup = new Thread(
                () -> {
                    onShutdown.forEach(Runnable::run);
                    FileTrees.delete(dir);
                },
                "vigil-temp-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    /**
     * {@link #start(OptionalInt, LocalState)} with checkpoints in the temp directory (removed with it): the demo
     * and the benchmarks, whose state need not outlive the process.
     */
    public static LocalFlink start(OptionalInt webUiPort) {
        return start(webUiPort, LocalState.Backend.HASHMAP, LocalState.DEFAULT_ROCKSDB_MEMORY);
    }

    /**
     * {@link #start(OptionalInt)} with another state backend and, for RocksDB, {@code rocksDbMemory} bytes of
     * managed memory (checkpoints still in the temp directory, removed with it on every exit path): {@code vigil
     * bench scale}.
     */
    public static LocalFlink start(OptionalInt webUiPort, LocalState.Backend backend, long rocksDbMemory) {
        return start(
                webUiPort,
                temp -> new LocalState(
                        temp.resolve("checkpoints"), backend, Optional.empty(), Optional.empty(), rocksDbMemory));
    }

    /**
     * Creates the temp directory (after removing those of dead processes) and the configuration.
     *
     * @param webUiPort the REST port for the web UI on {@value #LOOPBACK}, or empty for an ephemeral, unannounced
     *     port
     * @param state where checkpoints go and what the job resumes from
     * @throws UncheckedIOException when the temp directory cannot be created, naming it
     */
    public static LocalFlink start(OptionalInt webUiPort, LocalState state) {
        return start(webUiPort, temp -> Objects.requireNonNull(state, "state"));
    }

    private static LocalFlink start(OptionalInt webUiPort, Function<Path, LocalState> stateIn) {
        if (webUiPort.isPresent() && (webUiPort.getAsInt() < 1 || webUiPort.getAsInt() > 65_535)) {
            throw new IllegalArgumentException("web UI port must be 1..65535, got " + webUiPort.getAsInt());
        }
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        removeStale(base);
        try {
            Path temp = Files.createTempDirectory(
                    base, TEMP_PREFIX + ProcessHandle.current().pid() + "-");
            return new LocalFlink(temp, webUiPort, stateIn.apply(temp));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temp directory in " + base + ": " + e.getMessage(), e);
        }
    }

    /** The Flink configuration of the embedded cluster (see the class comment for each group of settings). */
    static Configuration configuration(Path dir, OptionalInt webUiPort, LocalState state) {
        Configuration c = new Configuration();
        c.setString("rest.address", LOOPBACK);
        c.setString("rest.bind-address", LOOPBACK);
        c.setString("rest.bind-port", webUiPort.isPresent() ? Integer.toString(webUiPort.getAsInt()) : "0");
        c.setString("jobmanager.rpc.address", LOOPBACK);
        c.setString("jobmanager.bind-host", LOOPBACK); // the BLOB server binds here too
        c.setString("taskmanager.host", LOOPBACK);
        c.setString("taskmanager.bind-host", LOOPBACK);
        c.setString("io.tmp.dirs", dir.resolve("io").toString());
        c.setString("web.tmpdir", dir.resolve("web").toString());
        c.setString("web.upload.dir", dir.resolve("web-upload").toString());
        c.setString("blob.storage.directory", dir.resolve("blob").toString());
        c.setString("restart-strategy.type", "exponential-delay");
        c.setString("restart-strategy.exponential-delay.initial-backoff", "1 s");
        c.setString("restart-strategy.exponential-delay.backoff-multiplier", "2.0");
        c.setString("restart-strategy.exponential-delay.max-backoff", MAX_BACKOFF.toSeconds() + " s");
        c.setString("restart-strategy.exponential-delay.reset-backoff-threshold", STABLE_RUN.toMinutes() + " min");
        c.setString("restart-strategy.exponential-delay.attempts-before-reset-backoff", Integer.toString(MAX_RESTARTS));
        // A MiniCluster does not replace a TaskManager that died of a fatal error: without slots a restart must
        // fail fast (and count towards the bound) instead of waiting Flink's default 5 minutes per attempt.
        c.setString("slot.request.timeout", SLOT_REQUEST_TIMEOUT.toSeconds() + " s");
        checkpoints(c, dir, state);
        return c;
    }

    /** Durable checkpoints in {@code state}'s directory with its backend, resuming where it says. */
    private static void checkpoints(Configuration c, Path dir, LocalState state) {
        c.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        c.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                state.checkpoints().toUri().toString());
        c.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, RETAINED_CHECKPOINTS);
        c.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        c.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
        c.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, ALIGNED_CHECKPOINT_TIMEOUT);
        c.set(StateBackendOptions.STATE_BACKEND, state.backend().cliName());
        if (state.backend() == LocalState.Backend.ROCKSDB) {
            rocksDb(c, dir, state);
        }
        state.jobId().ifPresent(id -> c.set(PipelineOptionsInternal.PIPELINE_FIXED_JOB_ID, id));
        state.resumeFrom().ifPresent(p -> {
            c.set(StateRecoveryOptions.SAVEPOINT_PATH, p.toUri().toString());
            c.set(StateRecoveryOptions.RESTORE_MODE, RecoveryClaimMode.CLAIM);
        });
    }

    /**
     * Starts the cluster now, with {@code slots} task slots, instead of when {@link #environment}'s first job is
     * submitted: the demo starts it while its model trains. Jobs of {@link #environment} then run on it (with {@code
     * slots} as their default parallelism) and it stops with {@link #close}. Call after {@link #serveMetrics}.
     *
     * @throws IllegalStateException when the cluster cannot start, with Flink's reason
     */
    public void startCluster(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("slots must be >= 1, got " + slots);
        }
        if (cluster != null || closed) {
            throw new IllegalStateException("the embedded Flink cluster was already started or closed");
        }
        try {
            cluster = EmbeddedCluster.start(configuration, slots);
        } catch (Exception e) {
            throw new IllegalStateException("the embedded Flink cluster did not start: " + e.getMessage(), e);
        }
        configuration.set(CoreOptions.DEFAULT_PARALLELISM, slots);
    }

    /**
     * RocksDB with incremental checkpoints, its working files in the temp directory, and what one point read and
     * one write of a series' session per sample need when far more series are in flight than fit in memory:
     *
     * <ul>
     *   <li><b>Managed memory</b> ({@link LocalState#rocksDbMemory}, {@code --rocksdb-memory}, default 1 GiB): the
     *       embedded TaskManager's native memory, from which RocksDB's block cache and write buffers come. A
     *       MiniCluster's default (128 MiB) keeps almost none of a million series' state in cache: at 1,000,000 in
     *       flight the job ran at ≈ 9,400 samples/s with it and at ≈ 70,000 with 2 GiB (BENCHMARKS, "Scale").
     *   <li><b>Bloom filters</b>: a point read skips the files that cannot hold the key (Flink's default has none,
     *       so a read of a session not in memory looked into every level-0 file and every level), and the first
     *       sample of a series, whose read finds nothing, usually touches no data block at all.
     *   <li><b>No block compression</b>: a session is mostly doubles that Snappy hardly shrinks, but every block
     *       read from disk was decompressed and every flush and compaction compressed again, on the cores the job
     *       needs. Checkpoints grow by what little Snappy saved.
     * </ul>
     *
     * The hashmap backend uses none of this.
     */
    private static void rocksDb(Configuration c, Path dir, LocalState state) {
        c.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        c.set(RocksDBOptions.LOCAL_DIRECTORIES, dir.resolve("rocksdb").toString());
        c.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, new MemorySize(state.rocksDbMemory()));
        c.set(RocksDBConfigurableOptions.USE_BLOOM_FILTER, true);
        c.set(RocksDBConfigurableOptions.COMPRESSION_PER_LEVEL, List.of(CompressionType.NO_COMPRESSION));
    }

    /**
     * A new execution environment on this configuration: on the cluster of {@link #startCluster} when it was
     * started, else a local one that starts a cluster for its job (with the web UI when one was asked for).
     */
    public StreamExecutionEnvironment environment() {
        if (closed) {
            throw new IllegalStateException("the embedded Flink cluster was closed");
        }
        EmbeddedCluster started = cluster;
        if (started != null) {
            return new StreamExecutionEnvironment(
                    started, EmbeddedCluster.target(configuration), LocalFlink.class.getClassLoader());
        }
        return webUiPort.isPresent()
                ? StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(configuration)
                : StreamExecutionEnvironment.createLocalEnvironment(configuration);
    }

    /**
     * Runs {@code action} when the JVM shuts down (SIGTERM, Ctrl-C) while this cluster is open, before the temp
     * directory is removed, so that a job can still stop cleanly while its working files exist. The action must
     * bound its own duration and catch its own exceptions.
     */
    public void onShutdown(Runnable action) {
        onShutdown.add(Objects.requireNonNull(action, "action"));
    }

    /**
     * On SIGTERM or Ctrl-C, cancels {@code job} and waits (at most {@code bound} for the cancel and as long again for
     * the end) before this cluster's temp directory is removed, so that no checkpoint of the job is written into a
     * directory nobody removes. Never throws from the hook: a job that ended already, or does not end within the
     * bound, lets the process exit either way.
     */
    public void cancelOnShutdown(JobClient job, Duration bound) {
        Objects.requireNonNull(job, "job");
        onShutdown(() -> {
            try {
                job.cancel().get(bound.toMillis(), TimeUnit.MILLISECONDS);
                job.getJobExecutionResult().handle((r, e) -> null).get(bound.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception alreadyEnded) {
                // cancelled before, or not within the bound
            }
        });
    }

    /**
     * Serves every metric of this cluster's jobs for Prometheus on {@value #LOOPBACK}:{@code port} (0 = an ephemeral
     * port) until {@link #close}; call before {@link #environment}.
     *
     * @throws java.io.UncheckedIOException when the port cannot be bound, naming it
     */
    public PrometheusEndpoint serveMetrics(int port) {
        if (prometheus != null) {
            throw new IllegalStateException("the metrics endpoint is already served on port " + prometheus.port());
        }
        prometheus = PrometheusEndpoint.start(port);
        prometheus.configure(configuration);
        return prometheus;
    }

    /** Vigil's metrics of the jobs run on this cluster, read in-process (progress lines, summaries). */
    public JobMetrics metrics() {
        return metrics;
    }

    /** The web UI address when asked for, e.g. {@code http://127.0.0.1:8081/}. */
    public OptionalInt webUiPort() {
        return webUiPort;
    }

    /** The per-process temp directory (removed by {@link #close}). */
    public Path tempDirectory() {
        return dir;
    }

    /** Stops a cluster of {@link #startCluster} and removes the temp directory now (the shutdown hook is then no longer needed). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        IllegalStateException failure = null;
        if (cluster != null) {
            try {
                cluster.close(CLUSTER_STOP_TIMEOUT);
            } catch (Exception e) {
                failure = new IllegalStateException("stopping the embedded Flink cluster: " + e.getMessage(), e);
            }
            cluster = null;
        }
        metrics.unregister();
        if (prometheus != null) {
            prometheus.close();
        }
        FileTrees.delete(dir);
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already exiting: the hook runs (and finds nothing left to delete).
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Removes {@code vigil-run-PID-*} directories under {@code base} whose process is no longer alive. */
    static void removeStale(Path base) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, TEMP_PREFIX + "*")) {
            for (Path d : dirs) {
                String rest = d.getFileName().toString().substring(TEMP_PREFIX.length());
                int dash = rest.indexOf('-');
                if (dash <= 0) {
                    continue;
                }
                long pid;
                try {
                    pid = Long.parseLong(rest.substring(0, dash));
                } catch (NumberFormatException notOurs) {
                    continue;
                }
                if (pid != ProcessHandle.current().pid()
                        && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true)) {
                    FileTrees.delete(d);
                }
            }
        } catch (IOException | UncheckedIOException unreadable) {
            // Stale directories are an optimisation to clean; an unreadable temp dir is not this run's problem.
        }
    }
}
