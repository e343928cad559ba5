package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.apache.flink.util.FlinkRuntimeException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** The fenced-producer message: from the failure's cause chain, or from what the producers saw while the job ran. */
class ProducerFencingTest {
    @Test
    void fencingInTheCauseChainNamesThePrefixAndTheFix() {
        Throwable failure = new RuntimeException(
                "job failed",
                new FlinkRuntimeException("Failed to send data to Kafka", new ProducerFencedException("x")));
        String m = ProducerFencing.describe(failure, "chain-prefix").orElseThrow();
        assertTrue(
                m.startsWith("another job with the same transactional-id prefix 'chain-prefix' took over")
                        && m.contains("ProducerFencedException")
                        && m.contains("--transactional-id-prefix")
                        && m.contains("--state-dir"),
                m);
        assertEquals(Optional.empty(), ProducerFencing.describe(new RuntimeException(new TimeoutException("t")), "p"));
    }

    /**
     * The run ended with "NoResourceAvailableException" after the fencing killed the TaskManager: the
     * interceptor's record of the fenced send still names the cause, for this job's prefix only.
     */
    @Test
    void fencingSeenByTheInterceptorExplainsALaterUnrelatedFailure() {
        FencingInterceptor interceptor = new FencingInterceptor();
        interceptor.configure(Map.of("transactional.id", "seen-prefix-d-0-3"));
        interceptor.onAcknowledgement(null, null);
        interceptor.onAcknowledgement(null, new TimeoutException("not fencing"));
        RuntimeException later = new RuntimeException("NoResourceAvailableException: Could not acquire resources");
        assertEquals(Optional.empty(), ProducerFencing.describe(later, "seen-prefix"));
        interceptor.onAcknowledgement(null, new InvalidProducerEpochException("stale epoch"));
        String m = ProducerFencing.describe(later, "seen-prefix").orElseThrow();
        assertTrue(m.contains("'seen-prefix'") && m.contains("InvalidProducerEpochException"), m);
        assertEquals(Optional.empty(), ProducerFencing.describe(later, "seen"), "another job's prefix");
    }

    /** A job watching its prefix hears of its own fenced producer at once, and of no other job's. */
    @Test
    void aWatchCompletesForItsOwnPrefixOnly() {
        try (ProducerFencing.Watch mine = ProducerFencing.watch("watched");
                ProducerFencing.Watch other = ProducerFencing.watch("watched-too")) {
            FencingInterceptor interceptor = new FencingInterceptor();
            interceptor.configure(Map.of("transactional.id", "watched-decisions-1-7"));
            interceptor.onAcknowledgement(null, new TimeoutException("not fencing"));
            assertFalse(mine.fenced().isDone());
            interceptor.onAcknowledgement(null, new ProducerFencedException("taken over"));
            String m = mine.fenced().getNow("");
            assertTrue(m.contains("'watched'") && m.contains("ProducerFencedException") && m.contains("--job-name"), m);
            assertFalse(other.fenced().isDone(), "another prefix");
        }
    }
}
