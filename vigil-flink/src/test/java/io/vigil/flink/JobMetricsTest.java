package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.stream.DeadLetterReason;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link JobMetrics}' aggregation: summed over subtasks, monotone across task attempts, missing metrics 0. */
class JobMetricsTest {
    private final JobMetrics metrics = JobMetrics.register();

    @AfterEach
    void unregister() {
        metrics.unregister();
    }

    private static SimpleCounter counter(long count) {
        SimpleCounter c = new SimpleCounter();
        c.inc(count);
        return c;
    }

    @Test
    void countersAreSummedOverSubtasksAndKeptWhenRemoved() {
        SimpleCounter first = counter(5);
        SimpleCounter second = counter(7);
        metrics.added(JobMetrics.SAMPLES_IN, first);
        metrics.added(JobMetrics.SAMPLES_IN, second);
        assertEquals(12, metrics.snapshot().get(JobMetrics.SAMPLES_IN));
        first.inc(3);
        metrics.removed(JobMetrics.SAMPLES_IN, first); // its attempt ended: the last value stays
        first.inc(100); // no longer counted
        assertEquals(15, metrics.snapshot().get(JobMetrics.SAMPLES_IN));
        metrics.added(JobMetrics.SAMPLES_IN, counter(0)); // the restarted attempt starts from 0
        assertEquals(15, metrics.snapshot().get(JobMetrics.SAMPLES_IN));
    }

    @Test
    void gaugesCountWhileRegisteredAndMissingMetricsReadZero() {
        AtomicLong inFlight = new AtomicLong(40);
        Gauge<Long> a = inFlight::get;
        Gauge<Integer> b = () -> 2;
        metrics.added(JobMetrics.SERIES_IN_FLIGHT, a);
        metrics.added(JobMetrics.SERIES_IN_FLIGHT, b);
        inFlight.set(50);
        assertEquals(52, metrics.snapshot().get(JobMetrics.SERIES_IN_FLIGHT));
        metrics.removed(JobMetrics.SERIES_IN_FLIGHT, a);
        assertEquals(2, metrics.snapshot().get(JobMetrics.SERIES_IN_FLIGHT));
        assertEquals(0, metrics.snapshot().get(JobMetrics.DECISIONS_UNDECIDED));
    }

    @Test
    void checkpointGaugesOfTheJobKeepTheirLastValueWhenTheJobEnds() {
        AtomicLong completed = new AtomicLong(3);
        Gauge<Long> g = completed::get;
        Gauge<Long> duration = () -> 1_250L;
        metrics.added(JobMetrics.CHECKPOINTS_COMPLETED, g);
        metrics.added(JobMetrics.LAST_CHECKPOINT_DURATION, duration);
        completed.set(4);
        assertEquals(4, metrics.snapshot().get(JobMetrics.CHECKPOINTS_COMPLETED));
        metrics.removed(JobMetrics.CHECKPOINTS_COMPLETED, g);
        metrics.removed(JobMetrics.LAST_CHECKPOINT_DURATION, duration);
        completed.set(99); // no longer read
        assertEquals(4, metrics.snapshot().get(JobMetrics.CHECKPOINTS_COMPLETED));
        assertEquals(1_250, metrics.snapshot().get(JobMetrics.LAST_CHECKPOINT_DURATION));
    }

    @Test
    void deadLettersByReasonListEveryReasonAndOtherMetricsAreIgnored() {
        metrics.added("deadLetters_t_beyond_length", counter(4));
        metrics.added("deadLetters_duplicate", counter(1));
        metrics.added("numRecordsIn", counter(99));
        JobMetrics.Snapshot s = metrics.snapshot();
        assertEquals(DeadLetterReason.values().length, s.deadLettersByReason().size());
        assertEquals(4, s.deadLetters(DeadLetterReason.T_BEYOND_LENGTH));
        assertEquals(5, s.deadLettersTotal());
        assertEquals(0, s.get("numRecordsIn"));
    }

    /** The reporter Flink creates from the configuration feeds the metrics of its id, and only those. */
    @Test
    void reporterFromItsFactoryFeedsTheMetricsOfItsId() {
        Properties p = new Properties();
        p.setProperty(JobMetricsReporter.ID_KEY, metrics.id());
        MetricReporter reporter = new JobMetricsReporter.Factory().createMetricReporter(p);
        SimpleCounter early = counter(3);
        reporter.notifyOfAddedMetric(early, JobMetrics.DECISIONS_EARLY, null);
        assertEquals(3, metrics.snapshot().get(JobMetrics.DECISIONS_EARLY));
        reporter.notifyOfRemovedMetric(early, JobMetrics.DECISIONS_EARLY, null);
        assertEquals(3, metrics.snapshot().get(JobMetrics.DECISIONS_EARLY));
        Properties other = new Properties();
        other.setProperty(JobMetricsReporter.ID_KEY, "another cluster");
        new JobMetricsReporter.Factory()
                .createMetricReporter(other)
                .notifyOfAddedMetric(counter(9), JobMetrics.DECISIONS_EARLY, null);
        assertEquals(3, metrics.snapshot().get(JobMetrics.DECISIONS_EARLY));
        assertTrue(JobMetrics.byId(metrics.id()).isPresent());
    }
}
