package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.ObservationPattern;
import io.vigil.early.DecisionParams;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.MultiChannelFixtures;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The keyed stage with a multichannel model in Flink's operator test harness: a series ends on its end record or at
 * its idle timeout with one {@code complete: false} decision and leaves neither state nor timer; a snapshot taken
 * mid-series (session format 4 through {@link SeriesSessionSerializer}) resumes to the same decision.
 */
class AnyOrderOperatorTest {
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));
    private static final long IDLE_MS = SETTINGS.idleTimeout().toMillis();
    /** τ = 0.999: few series decide within their first values, so the ends are exercised. */
    private static final DecisionParams STRICT = DecisionParams.defaults().withTau(0.999);

    private static final ObservationPattern SHUFFLED =
            ObservationPattern.builder().shuffled(true).seed(11).build();

    private static KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> harness()
            throws Exception {
        EarlyDecisionFunction fn = new EarlyDecisionFunction(MultiChannelFixtures.MODEL_BYTES, STRICT, SETTINGS);
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(fn), e -> e.series, Types.STRING);
    }

    private static List<DeadLetter> deadLetters(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> h) {
        ConcurrentLinkedQueue<StreamRecord<DeadLetter>> q = h.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS);
        List<DeadLetter> out = new ArrayList<>();
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    @Test
    void theEndRecordAndTheIdleTimeoutEachEndASeriesWithOneIncompleteDecision() throws Exception {
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(1_000L);
            List<SampleEvent> a = MultiChannelFixtures.events(0, SHUFFLED, 0, false);
            List<SampleEvent> b = MultiChannelFixtures.events(1, SHUFFLED, 1_000, false);
            for (int k = 0; k < 5; k++) {
                h.processElement(a.get(k), 0L);
                h.processElement(b.get(k), 0L);
            }
            assertTrue(h.extractOutputValues().isEmpty(), "undecided after 5 of 384 values");
            assertEquals(2, h.numKeyedStateEntries());
            assertEquals(2, h.numProcessingTimeTimers());
            h.processElement(MultiChannelFixtures.end(MultiChannelFixtures.id(0), 500), 0L);
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            DecisionRecord ra = out.get(0);
            assertEquals(MultiChannelFixtures.id(0), ra.series);
            assertEquals(DecisionRecord.DECIDED, ra.status);
            assertFalse(ra.complete);
            assertFalse(ra.early);
            assertEquals(5 / 384.0, ra.observedFraction);
            int[] first = Arrays.copyOf(MultiChannelFixtures.order(0, SHUFFLED), 5);
            int last = first[4];
            assertEquals(last / 3 + 1, ra.triggerT, "the last value observed");
            assertEquals(Arrays.stream(first).max().getAsInt() + 1, ra.t, "t: the latest of the five positions");
            assertEquals(1, h.numKeyedStateEntries(), "series 0's state is gone");
            assertEquals(1, h.numProcessingTimeTimers(), "and its timer");
            h.setProcessingTime(1_000L + IDLE_MS);
            out = h.extractOutputValues();
            assertEquals(2, out.size());
            DecisionRecord rb = out.get(1);
            assertEquals(MultiChannelFixtures.id(1), rb.series);
            assertEquals(
                    DecisionRecord.DECIDED, rb.status, "a multichannel series is decided at expiry, not abandoned");
            assertFalse(rb.complete);
            assertEquals(0, h.numKeyedStateEntries());
            assertEquals(0, h.numProcessingTimeTimers());
            assertTrue(deadLetters(h).isEmpty(), "no gap dead letters: " + deadLetters(h));
            // A value after the end record starts a new series (its end is the next end record or expiry).
            h.processElement(a.get(5), 0L);
            assertEquals(1, h.numKeyedStateEntries());
        }
    }

    @Test
    void aSnapshotMidSeriesResumesToTheSameDecision() throws Exception {
        List<SampleEvent> a = MultiChannelFixtures.events(3, MultiChannelFixtures.PATTERN, 0, true);
        DecisionRecord straight;
        try (var h = harness()) {
            h.open();
            for (SampleEvent e : a) {
                h.processElement(e, 0L);
            }
            straight = h.extractOutputValues().get(0);
        }
        int cut = 40;
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            h.open();
            h.setProcessingTime(5_000L);
            for (SampleEvent e : a.subList(0, cut)) {
                h.processElement(e, 0L);
            }
            assertTrue(h.extractOutputValues().isEmpty(), "undecided after " + cut + " values");
            snapshot = h.snapshot(1L, 5_000L);
        }
        try (var h = harness()) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            assertEquals(1, h.numKeyedStateEntries());
            for (SampleEvent e : a.subList(cut, a.size())) {
                h.processElement(e, 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            DecisionRecord r = out.get(0);
            assertEquals(straight.label, r.label);
            assertEquals(straight.t, r.t);
            assertEquals(straight.triggerT, r.triggerT);
            assertEquals(straight.triggerChannel, r.triggerChannel);
            assertEquals(straight.complete, r.complete);
            assertEquals(straight.reliability, r.reliability, 1e-9);
            assertEquals(0, h.numKeyedStateEntries());
        }
    }
}
