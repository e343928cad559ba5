package io.vigil.flink.cli;

import io.vigil.flink.BoundedRun;
import io.vigil.flink.JobConfig;
import io.vigil.flink.StateDirectory;
import io.vigil.kafka.KafkaPreflight;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * What makes a {@code --bounded} run of the embedded job repeatable. At its start it takes a snapshot of the input's
 * end offsets (read_committed) and reads up to exactly those; when it finishes it commits exactly those to its
 * consumer group and records that in the state directory ({@link BoundedRun}), whose checkpoints are then removed
 * and never resumed. A second identical run therefore starts where the first ended: with nothing new in the input
 * it decides nothing and exits 0 without starting a job; with records added since, it decides those. A bounded run
 * that was stopped or crashed resumes from its latest checkpoint and still stops at its first snapshot.
 */
final class BoundedRuns {
    private BoundedRuns() {}

    /**
     * The run's configuration with its stopping offsets, or empty when there is nothing to decide (the group's
     * committed offsets are at the end of every partition; one line says so and names the run that got there).
     *
     * @param resuming whether the job resumes from a checkpoint of the state directory
     */
    static Optional<JobConfig> plan(
            PrintWriter err, JobConfig cfg, StateDirectory dir, boolean resuming, Duration timeout) throws IOException {
        Optional<BoundedRun> previous = dir.boundedRun();
        try (KafkaPreflight kafka = KafkaPreflight.connect(cfg.bootstrap(), cfg.kafkaProperties(), timeout)) {
            if (resuming) {
                Optional<BoundedRun> unfinished =
                        previous.filter(r -> !r.finished() && r.reads(cfg.input(), cfg.groupId()));
                if (unfinished.isEmpty()) {
                    // State of an older release: its source stops where its checkpoint says; nothing is committed.
                    dir.removeBoundedRun();
                    return Optional.of(cfg);
                }
                err.println("vigil run: the resumed bounded run reads " + cfg.input() + " up to the end offsets "
                        + "taken when it started at " + unfinished.get().startedAt() + " ("
                        + BoundedRun.describe(unfinished.get().endOffsets()) + ")");
                return Optional.of(cfg.toBuilder()
                        .boundedEnd(unfinished.get().endOffsets())
                        .build());
            }
            Map<Integer, Long> end = kafka.endOffsets(cfg.input());
            if (!cfg.fromBeginning()) {
                Map<Integer, Long> committed = kafka.committedOffsets(cfg.groupId(), cfg.input());
                boolean atEnd =
                        end.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), 0L) >= e.getValue());
                if (atEnd) {
                    Optional<BoundedRun> decidedBy = previous.filter(r -> r.finished()
                            && r.reads(cfg.input(), cfg.groupId())
                            && r.endOffsets().equals(end));
                    err.println("vigil run: nothing to decide: consumer group " + cfg.groupId() + " has committed "
                            + "offsets at the end of " + cfg.input() + " (" + BoundedRun.describe(end) + ")"
                            + decidedBy
                                    .map(r -> ", decided by the bounded run that finished at " + r.finishedAt() + " in "
                                            + dir.path())
                                    .orElse("")
                            + "; records added later are decided by the next run, --from-beginning re-scores the "
                            + "topic from offset 0 under a new consumer group");
                    return Optional.empty();
                }
            }
            dir.writeBoundedRun(new BoundedRun(
                    cfg.input(), cfg.groupId(), end, Instant.now().toString(), null));
            err.println("vigil run: bounded: reads " + cfg.input() + " up to its end offsets now ("
                    + BoundedRun.describe(end) + ")");
            return Optional.of(cfg.toBuilder().boundedEnd(end).build());
        }
    }

    /**
     * After the job finished: commits the stopping offsets to the group (the source commits only at checkpoints,
     * and the last records are read after the last one) and marks the run finished, so closing the state directory
     * removes its checkpoints.
     */
    static void finished(PrintWriter err, JobConfig cfg, StateDirectory dir, Duration timeout) throws IOException {
        Optional<BoundedRun> run = dir.boundedRun().filter(r -> !r.finished());
        if (run.isEmpty() || cfg.boundedEnd().isEmpty()) {
            return;
        }
        try (KafkaPreflight kafka = KafkaPreflight.connect(cfg.bootstrap(), cfg.kafkaProperties(), timeout)) {
            kafka.commitOffsets(cfg.groupId(), cfg.input(), cfg.boundedEnd());
        }
        dir.writeBoundedRun(run.get().finishedAt(Instant.now().toString()));
        err.println("vigil run: committed consumer group " + cfg.groupId() + "'s offsets on " + cfg.input() + " ("
                + BoundedRun.describe(cfg.boundedEnd()) + "); the same command decides only records added later");
    }
}
