package io.vigil.flink;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * Recognises a fenced transactional producer: another producer with the same transactional id, in practice another
 * job with the same transactional-id prefix, took the job's Kafka transactions over. The job's restarts then fail
 * for other reasons (the two jobs fence each other in turn, the TaskManager dies), so the fencing is recorded when
 * the producer sees it ({@link FencingInterceptor}) or a commit fails with it ({@link FencingAwareKafkaSink}) and
 * the final message names it, the prefix and the fix. A job
 * that {@link #watch watches} its prefix learns of the fencing at once and can end instead of restarting: a restart
 * would fence the other job in turn, and each aborts the other's transactions.
 */
public final class ProducerFencing {
    /** Fencing errors seen in this JVM, by transactional id (first one kept). */
    private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

    /** Jobs of this JVM waiting to hear that a producer of theirs was fenced. */
    private static final Set<Watch> WATCHES = ConcurrentHashMap.newKeySet();

    /** What the sinks add to the prefix: {@code -<sink>-<subtask>-<checkpoint>} ({@link VigilJob#sink}). */
    private static final String SINK_SUFFIXED_ID = "-[^-]+-\\d+-\\d+";

    private ProducerFencing() {}

    /** The fencing error in {@code e}'s cause chain, if any (also when the connector wraps it). */
    static Optional<Throwable> find(Throwable e) {
        Map<Throwable, Boolean> seen = new IdentityHashMap<>();
        for (Throwable t = e; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /** Records a producer or commit error when it is a fencing error. */
    static void observed(String transactionalId, Throwable e) {
        find(e).ifPresent(t -> {
            String name = t.getClass().getSimpleName();
            SEEN.putIfAbsent(transactionalId, name);
            for (Watch w : WATCHES) {
                if (w.owns(transactionalId)) {
                    w.fenced.complete(message(w.prefix, name));
                }
            }
        });
    }

    /**
     * Starts watching for a fenced producer of the job with this transactional-id prefix (its sinks' producers, in
     * this JVM); {@link Watch#fenced} completes with the one-line explanation. Start it before the job.
     */
    public static Watch watch(String transactionalIdPrefix) {
        Watch w = new Watch(transactionalIdPrefix);
        WATCHES.add(w);
        return w;
    }

    /** A job's watch for a fenced producer ({@link #watch}); closing it stops watching. */
    public static final class Watch implements AutoCloseable {
        private final String prefix;
        private final Pattern ids;
        private final CompletableFuture<String> fenced = new CompletableFuture<>();

        private Watch(String prefix) {
            this.prefix = prefix;
            this.ids = sinkIds(prefix);
        }

        private boolean owns(String transactionalId) {
            return ids.matcher(transactionalId).matches();
        }

        /** Completes with the message when a producer of the job is fenced; never completes otherwise. */
        public CompletableFuture<String> fenced() {
            return fenced;
        }

        @Override
        public void close() {
            WATCHES.remove(this);
        }
    }

    /** The transactional ids the job's sinks derive from {@code prefix}. */
    private static Pattern sinkIds(String prefix) {
        return Pattern.compile(Pattern.quote(prefix) + SINK_SUFFIXED_ID);
    }

    /**
     * The one-line explanation when {@code failure}'s cause chain, or a producer of this job while it ran, says a
     * producer with this transactional-id prefix was fenced.
     */
    public static Optional<String> describe(Throwable failure, String transactionalIdPrefix) {
        Optional<String> error = find(failure).map(t -> t.getClass().getSimpleName());
        if (error.isEmpty()) {
            Pattern ids = sinkIds(transactionalIdPrefix);
            error = SEEN.entrySet().stream()
                    .filter(e -> ids.matcher(e.getKey()).matches())
                    .map(Map.Entry::getValue)
                    .findFirst();
        }
        return error.map(name -> message(transactionalIdPrefix, name));
    }

    private static String message(String prefix, String error) {
        return "another job with the same transactional-id prefix '" + prefix + "' took over this job's Kafka "
                + "transactions (" + error + "); give each job its own --transactional-id-prefix, or, for the "
                + "default prefix (derived from the job name and the state directory), its own --job-name or "
                + "--state-dir";
    }
}
