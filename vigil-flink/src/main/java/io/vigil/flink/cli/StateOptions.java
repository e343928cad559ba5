package io.vigil.flink.cli;

import io.vigil.flink.BoundedRun;
import io.vigil.flink.Delivery;
import io.vigil.flink.JobConfig;
import io.vigil.flink.LocalState;
import io.vigil.flink.StateDirectory;
import io.vigil.flink.StateManifest;
import io.vigil.flink.VigilJob;
import io.vigil.model.VigilModel;
import io.vigil.stream.ModelId;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.flink.configuration.MemorySize;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code vigil run}'s state options ({@code @Mixin StateOptions state;}): where the embedded job keeps its
 * checkpoints, with which backend, under which job name, and whether to resume. {@link #open} locks the state
 * directory, resumes from its latest completed checkpoint when the state fits this run (or refuses, naming both
 * sides), and says in one line what it does. On a cluster the cluster's checkpoint configuration applies and these
 * options are usage errors ({@link #check}).
 */
public final class StateOptions {
    /** The parent of the default state directories, relative to the working directory. */
    static final String DEFAULT_PARENT = "vigil-state";

    /** Help text of {@code --rocksdb-memory} ({@code vigil run} and {@code vigil bench scale}). */
    public static final String ROCKSDB_MEMORY_HELP = "Off-heap memory for RocksDB's cache and write buffers with "
            + "--state-backend rocksdb, on top of the JVM heap, e.g. 512m or 4g (default: 1g; at least 64m). More "
            + "keeps more series' state in memory when many are in flight.";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}");

    @Option(
            names = "--state-dir",
            paramLabel = "DIR",
            description = "Where the embedded job keeps its checkpoints, locked while it runs; a restart on the same "
                    + "directory resumes from the latest completed checkpoint (default: ./" + DEFAULT_PARENT
                    + "/JOB_NAME).")
    Path stateDir;

    @Option(
            names = "--state-backend",
            paramLabel = "hashmap|rocksdb",
            description = "Keyed-state backend: hashmap (heap) or rocksdb (local disk, incremental checkpoints, "
                    + "for more series in flight than the heap holds) (default: hashmap).")
    String stateBackend;

    @Option(names = "--rocksdb-memory", paramLabel = "SIZE", description = ROCKSDB_MEMORY_HELP)
    String rocksDbMemory;

    @Option(
            names = "--fresh",
            description = "Discard the checkpoints in the state directory and start with empty state (the input "
                    + "continues from the consumer group's committed offsets).")
    boolean fresh;

    @Option(
            names = "--job-name",
            paramLabel = "NAME",
            description = "Job name: names the default state directory and the default transactional-id prefix "
                    + "(letters, digits, '.', '_', '-'; default: INPUT-to-OUTPUT).")
    String jobName;

    /** Whether the run reads its input from offset 0 ({@code --from-beginning}): its state starts empty. */
    private boolean fromBeginning;

    /** The job name: {@code --job-name}, or {@code <input>-to-<output>} made safe for a file name. */
    public String jobName(CommandLine cl, String input, String output) {
        if (jobName == null) {
            return (input + "-to-" + output).replaceAll("[^A-Za-z0-9._-]", "_");
        }
        if (!NAME.matcher(jobName).matches()) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--job-name must be 1..200 letters, digits, '.', '_' or '-', not starting with '.', got '" + jobName
                            + "'");
        }
        return jobName;
    }

    /** The state backend. */
    LocalState.Backend backend(CommandLine cl) {
        try {
            return stateBackend == null ? LocalState.Backend.HASHMAP : LocalState.Backend.fromCliName(stateBackend);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(cl, "--state-backend: " + e.getMessage());
        }
    }

    /** Bytes of {@code --rocksdb-memory}, or the default ({@link #rocksDbMemory(CommandLine, String, LocalState.Backend)}). */
    public long rocksDbMemory(CommandLine cl) {
        return rocksDbMemory(cl, rocksDbMemory, backend(cl));
    }

    /**
     * Bytes of a {@code --rocksdb-memory} value, or {@link LocalState#DEFAULT_ROCKSDB_MEMORY} when it is null.
     *
     * @param size the option's value as given, or null
     * @param backend the state backend of the same command
     * @throws CommandLine.ParameterException when it is not a size, below the minimum, more than this machine's
     *     memory, or given without the rocksdb backend
     */
    public static long rocksDbMemory(CommandLine cl, String size, LocalState.Backend backend) {
        if (size == null) {
            return LocalState.DEFAULT_ROCKSDB_MEMORY;
        }
        if (backend != LocalState.Backend.ROCKSDB) {
            throw new CommandLine.ParameterException(cl, "--rocksdb-memory is for --state-backend rocksdb");
        }
        long bytes;
        try {
            bytes = MemorySize.parse(size).getBytes();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    cl, "--rocksdb-memory: expected a size such as 512m or 4g, got '" + size + "'");
        }
        if (bytes < LocalState.MIN_ROCKSDB_MEMORY) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--rocksdb-memory must be at least " + (LocalState.MIN_ROCKSDB_MEMORY >> 20) + "m, got '" + size
                            + "'");
        }
        long physical = physicalMemory();
        if (physical > 0 && bytes > physical) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--rocksdb-memory " + size + " is more than this machine's memory (" + (physical >> 20) + " MiB)");
        }
        return bytes;
    }

    /** This machine's physical memory in bytes, or 0 when the JVM cannot tell. */
    private static long physicalMemory() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getTotalMemorySize()
                : 0;
    }

    /** The state directory, absolute. */
    Path directory(CommandLine cl, String input, String output) {
        Path d = stateDir != null ? stateDir : Path.of(DEFAULT_PARENT, jobName(cl, input, output));
        return d.toAbsolutePath().normalize();
    }

    /**
     * The default transactional-id prefix, stable across restarts of one job and unique across jobs: {@code
     * vigil-<job name>-<8 hex digits of a hash of the state directory>}, or {@code vigil-<job name>} on a cluster.
     */
    String defaultTransactionalIdPrefix(CommandLine cl, String input, String output, boolean onCluster) {
        String name = "vigil-" + jobName(cl, input, output);
        return onCluster ? name : name + "-" + StateDirectory.shortHash(directory(cl, input, output));
    }

    /**
     * Checks the options (usage errors, exit 2). The state options are for the embedded job: a cluster checkpoints
     * where its configuration says.
     */
    void check(CommandLine cl, boolean onCluster) {
        backend(cl);
        if (onCluster && (stateDir != null || stateBackend != null || fresh || rocksDbMemory != null)) {
            throw new CommandLine.ParameterException(
                    cl,
                    "--state-dir, --state-backend, --rocksdb-memory and --fresh are for the embedded job; on a "
                            + "cluster its Flink configuration applies (execution.checkpointing.dir, "
                            + "state.backend.type, taskmanager.memory.managed.size) and `flink run -s CHECKPOINT` "
                            + "resumes");
        }
        rocksDbMemory(cl);
    }

    /**
     * A locked state directory and the embedded job's settings for it; closing releases the lock, after removing
     * the checkpoints when a bounded run finished ({@link BoundedRuns}: there is nothing left to resume).
     */
    record Opened(StateDirectory directory, LocalState local) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try {
                if (directory.boundedRun().map(BoundedRun::finished).orElse(false)) {
                    directory.removeCheckpointsBut(Optional.empty());
                }
            } finally {
                directory.close();
            }
        }
    }

    /**
     * Locks the state directory, checks that its state fits this run, and decides: resume from the latest
     * completed checkpoint, or start with empty state ({@code --fresh}, or nothing to resume). Prints one line
     * saying which (and one more when a model of the same shape takes over), then writes the manifest.
     *
     * @throws StateDirectory.RefusedException when another job holds the directory or its state does not fit
     */
    Opened open(CommandLine cl, JobConfig cfg, byte[] modelBytes, VigilModel model) throws IOException {
        fromBeginning = cfg.fromBeginning();
        String name = jobName(cl, cfg.input(), cfg.output());
        LocalState.Backend backend = backend(cl);
        StateDirectory dir = StateDirectory.lock(
                directory(cl, cfg.input(), cfg.output()),
                "vigil run, job " + name + " (" + cfg.input() + " -> " + cfg.output() + ")");
        try {
            StateManifest wanted = StateManifest.of(
                    cfg,
                    name,
                    backend,
                    new StateManifest.Model(ModelId.of(modelBytes), model.length(), model.dims(), model.classNames()));
            Optional<StateDirectory.Checkpoint> resume = decide(cl.getErr(), dir, wanted);
            resume.ifPresent(c -> warnOlderThanTransactions(cl.getErr(), cfg, c));
            dir.removeCheckpointsBut(resume);
            if (!cfg.bounded()) {
                dir.removeBoundedRun(); // BoundedRuns reads and replaces it for a bounded run
            }
            dir.writeManifest(wanted);
            cl.getErr().flush();
            return new Opened(dir, dir.localState(backend, resume).withRocksDbMemory(rocksDbMemory(cl)));
        } catch (IOException | RuntimeException e) {
            dir.close();
            throw e;
        }
    }

    private Optional<StateDirectory.Checkpoint> decide(PrintWriter err, StateDirectory dir, StateManifest wanted)
            throws IOException {
        Optional<StateDirectory.Checkpoint> latest = dir.latestCheckpoint();
        String from = fromBeginning
                ? "the input is read from offset 0 under consumer group " + wanted.groupId()
                : "the input continues from consumer group " + wanted.groupId() + "'s committed offsets";
        Optional<BoundedRun> finished = dir.boundedRun().filter(BoundedRun::finished);
        if (latest.isPresent() && finished.isPresent()) {
            err.println("vigil run: checkpoint " + latest.get().id() + " in " + dir.path() + " is of the bounded run "
                    + "that finished at " + finished.get().finishedAt() + ": not resumed; " + from);
            return Optional.empty();
        }
        if (latest.isEmpty()) {
            err.println("vigil run: state in " + dir.path() + " (" + wanted.stateBackend() + "), no checkpoint "
                    + (fresh || fromBeginning ? "to discard" : "yet") + ": starting with empty state; " + from);
            return Optional.empty();
        }
        StateDirectory.Checkpoint c = latest.get();
        if (fresh || fromBeginning) {
            err.println("vigil run: " + (fresh ? "--fresh" : "--from-beginning") + ": discarding checkpoint " + c.id()
                    + " in " + dir.path() + " (completed " + ago(c.completed()) + ") and the series in flight it "
                    + "holds; " + from);
            return Optional.empty();
        }
        StateManifest held;
        try {
            held = dir.manifest()
                    .orElseThrow(() -> new IOException("state directory " + dir.path() + " holds checkpoints but no "
                            + StateDirectory.MANIFEST + " saying whose"));
        } catch (IOException e) {
            throw refused(e.getMessage(), c);
        }
        List<String> conflicts = held.conflicts(wanted);
        if (!conflicts.isEmpty()) {
            throw refused(
                    "state directory " + dir.path() + " holds the state of job " + held.jobName()
                            + ", which does not fit this run: " + String.join("; ", conflicts),
                    c);
        }
        err.println("vigil run: resuming from checkpoint " + c.id() + " in " + dir.path() + " (completed "
                + ago(c.completed()) + ")");
        if (wanted.modelTopic() != null) {
            err.println("vigil run: the live models come from the checkpoint; model topic " + wanted.modelTopic()
                    + " continues from there");
        } else if (!held.model().id().equals(wanted.model().id())) {
            err.println("vigil run: the model changed (" + held.model().id() + " in the state, "
                    + wanted.model().id() + " now, same shape): undecided series continue under the new model, "
                    + "which replays their stored samples");
        }
        return latest;
    }

    /**
     * One warning line when the checkpoint resumed from is older than the sinks' transaction timeout: Kafka may have
     * aborted the transactions that checkpoint was committing, and their decisions would then be lost (the input
     * resumes after them). On a younger checkpoint, re-committing them finds them committed by the run that stopped,
     * which Flink's committer reports as a fenced producer; that is expected, and the logging configuration drops it
     * (docs/streaming.md, "Restarts").
     */
    private static void warnOlderThanTransactions(PrintWriter err, JobConfig cfg, StateDirectory.Checkpoint c) {
        Duration timeout = VigilJob.transactionTimeout(cfg);
        if (cfg.delivery() == Delivery.EXACTLY_ONCE
                && Duration.between(c.completed(), Instant.now()).compareTo(timeout) > 0) {
            err.println("vigil run: warning: checkpoint " + c.id() + " completed " + ago(c.completed())
                    + ", longer ago than the sinks' transaction.timeout.ms (" + timeout.toMillis() + " ms): if the "
                    + "run that stopped had not committed its last decisions, Kafka has aborted them and they are "
                    + "lost; check the output for the series in flight then, or re-score with --from-beginning");
        }
    }

    /** A refusal of the state directory with the way out. */
    private static StateDirectory.RefusedException refused(String why, StateDirectory.Checkpoint c) {
        return new StateDirectory.RefusedException(
                why + "; start over with --fresh (discards checkpoint " + c.id() + ") or give another --state-dir");
    }

    /** How long ago, in words: {@code 42 s ago}, {@code 5 min ago}, {@code 3 h ago}, {@code 2 days ago}. */
    static String ago(Instant then) {
        long s = Math.max(0, Duration.between(then, Instant.now()).toSeconds());
        if (s < 120) {
            return s + " s ago";
        }
        if (s < 120 * 60) {
            return s / 60 + " min ago";
        }
        if (s < 48 * 3600) {
            return s / 3600 + " h ago";
        }
        return s / 86_400 + " days ago";
    }
}
