package io.vigil.flink.cli;

import io.vigil.flink.LocalFlink;
import io.vigil.flink.ProducerFencing;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded job of {@code vigil run} while it runs, with the two ways it ends early that an operator must see
 * in one piece: a fenced producer (another job with the same transactional-id prefix took the job's Kafka
 * transactions over) cancels the job at once, since every restart would fence the other job in turn; and SIGTERM or
 * Ctrl-C cancels it (its checkpoints stay in the state directory: the same command resumes) and holds the JVM's
 * exit until the command has printed its final summary.
 */
final class EmbeddedRun implements AutoCloseable {
    /** Longest wait for the job to end after a cancel, and for the summary after a signal. */
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    /** How the job ended. */
    enum End {
        /** Bounded input read to the end. */
        FINISHED,
        /** Stopped by SIGTERM or Ctrl-C. */
        STOPPED
    }

    private final ProducerFencing.Watch fencing;
    private final CountDownLatch reported = new CountDownLatch(1);
    private volatile JobClient client;
    private volatile boolean stopping;

    private EmbeddedRun(String transactionalIdPrefix, LocalFlink flink) {
        this.fencing = ProducerFencing.watch(transactionalIdPrefix);
        flink.onShutdown(this::stopOnSignal);
    }

    /** Watches the job of {@code flink} whose sinks use {@code transactionalIdPrefix}; start before the job. */
    static EmbeddedRun watch(String transactionalIdPrefix, LocalFlink flink) {
        return new EmbeddedRun(transactionalIdPrefix, flink);
    }

    /**
     * Submits the job and waits until it ends.
     *
     * @return {@link End#FINISHED} with its result, or {@link End#STOPPED} (result null) after a signal
     * @throws FencedException when a producer of the job was fenced (the job was cancelled)
     * @throws Exception the job's failure
     */
    Ended execute(StreamExecutionEnvironment env, String jobName) throws Exception {
        if (stopping) {
            return new Ended(End.STOPPED, null);
        }
        JobClient job = env.executeAsync(jobName);
        client = job;
        if (stopping) { // the signal came while the job was being submitted
            job.cancel();
        }
        CompletableFuture<JobExecutionResult> done = job.getJobExecutionResult();
        try {
            CompletableFuture.anyOf(done, fencing.fenced()).get();
        } catch (ExecutionException failed) {
            if (stopping) {
                return new Ended(End.STOPPED, null);
            }
            String fenced = fencing.fenced().getNow(null);
            if (fenced != null) {
                throw new FencedException(fenced, failed.getCause());
            }
            throw failed.getCause() instanceof Exception e ? e : failed;
        }
        String fenced = fencing.fenced().getNow(null);
        if (fenced != null && !done.isDone()) {
            cancel(job);
            throw new FencedException(fenced, null);
        }
        return new Ended(End.FINISHED, done.get());
    }

    /** The job's end and, when it finished, its result. */
    record Ended(End end, JobExecutionResult result) {}

    /** A producer of the job was fenced; the message says by whom and the fix. */
    static final class FencedException extends Exception {
        private static final long serialVersionUID = 1L;

        FencedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Cancels the job and waits (bounded) until it has ended; the checkpoints are retained. */
    private static void cancel(JobClient job) {
        try {
            job.cancel().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            job.getJobExecutionResult().handle((r, e) -> null).get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException ended) {
            // Already ended, or not within the bound: the process exits either way.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** From the shutdown hook: cancels the job and waits (bounded) until the command has reported. */
    private void stopOnSignal() {
        stopping = true;
        JobClient job = client;
        if (job == null) {
            return;
        }
        cancel(job);
        try {
            reported.await(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command has printed what it prints at the end: a signal's shutdown may proceed. */
    @Override
    public void close() {
        fencing.close();
        reported.countDown();
    }
}
