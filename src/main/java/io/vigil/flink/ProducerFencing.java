package io.vigil.flink;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * Recognises a fenced transactional producer: another producer with the same transactional id, in practice another
 * job with the same transactional-id prefix, took the job's Kafka transactions over. The job's restarts then fail
 * for other reasons (the two jobs fence each other in turn, the TaskManager dies), so the fencing is recorded when
 * the producer sees it ({@link FencingInterceptor}) and the final message names it, the prefix and the fix.
 */
public final class ProducerFencing {
    /** Fencing errors seen in this JVM, by transactional id (first one kept). */
    private static final Map<String, String> SEEN = new ConcurrentHashMap<>();

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

    /** Records a producer error when it is a fencing error. */
    static void observed(String transactionalId, Exception e) {
        find(e).ifPresent(t -> SEEN.putIfAbsent(transactionalId, t.getClass().getSimpleName()));
    }

    /**
     * The one-line explanation when {@code failure}'s cause chain, or a producer of this job while it ran, says a
     * producer with this transactional-id prefix was fenced.
     */
    public static Optional<String> describe(Throwable failure, String transactionalIdPrefix) {
        Optional<String> error = find(failure).map(t -> t.getClass().getSimpleName());
        if (error.isEmpty()) {
            error = SEEN.entrySet().stream()
                    .filter(e ->
                            e.getKey().matches(java.util.regex.Pattern.quote(transactionalIdPrefix) + SINK_SUFFIXED_ID))
                    .map(Map.Entry::getValue)
                    .findFirst();
        }
        return error.map(name -> "another job with the same transactional-id prefix '" + transactionalIdPrefix
                + "' took over this job's Kafka transactions (" + name + "); give each job its own "
                + "--transactional-id-prefix (or its own --state-dir, from which the default prefix is derived)");
    }
}
