package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.MultiChannelFixtures;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The keyed stage with a multichannel model on Flink's RocksDB backend (every session serialised between records)
 * in the operator test harness: with the conditioned-state cache it decides series by series as on the heap backend;
 * restored from a snapshot (a cold cache) it decides as a run without one; an expired series leaves no entry, and its
 * id reused decides as a new series.
 */
class ConditionedStatesOperatorTest {
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));
    /** τ = 0.999: most series stay undecided long, many until their end record or expiry. */
    private static final DecisionParams STRICT = DecisionParams.defaults().withTau(0.999);

    private static final long NOW = 5_000L;
    private static final int SERIES = MultiChannelFixtures.TEST.size();

    private record Run(
            EarlyDecisionFunction fn, KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> h) {}

    private static Run harness(boolean rocksDb) throws Exception {
        EarlyDecisionFunction fn = new EarlyDecisionFunction(MultiChannelFixtures.MODEL_BYTES, STRICT, SETTINGS);
        var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(fn), (SampleEvent e) -> e.series, Types.STRING);
        if (rocksDb) {
            h.setStateBackend(new EmbeddedRocksDBStateBackend());
        }
        return new Run(fn, h);
    }

    /** Feeds {@code events}, then lets every series left expire; returns the records. */
    private static List<DecisionRecord> feedAndExpire(Run r, List<SampleEvent> events) throws Exception {
        for (SampleEvent e : events) {
            r.h().processElement(e, 0L);
        }
        r.h().setProcessingTime(NOW + SETTINGS.idleTimeout().toMillis());
        return r.h().extractOutputValues();
    }

    private static List<DecisionRecord> straight(boolean rocksDb, List<SampleEvent> events) throws Exception {
        Run r = harness(rocksDb);
        try (var h = r.h()) {
            h.open();
            h.setProcessingTime(NOW);
            return feedAndExpire(r, events);
        }
    }

    /** Keys with a session ({@code numKeyedStateEntries} is for the heap backend only). */
    private static long sessionsHeld(KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> h)
            throws Exception {
        try (var keys = h.getOperator()
                .<String>getKeyedStateBackend()
                .getKeys(EarlyDecisionFunction.STATE_NAME, VoidNamespace.INSTANCE)) {
            return keys.count();
        }
    }

    @Test
    void onRocksDbWithTheCacheSeriesDecideAsOnTheHeapBackend() throws Exception {
        List<SampleEvent> events = MultiChannelFixtures.interleaved(SERIES, i -> i % 2 == 0);
        List<DecisionRecord> heap = straight(false, events);
        Run r = harness(true);
        List<DecisionRecord> rocks;
        try (var h = r.h()) {
            h.open();
            h.setProcessingTime(NOW);
            int half = events.size() / 2;
            for (SampleEvent e : events.subList(0, half)) {
                h.processElement(e, 0L);
            }
            assertTrue(r.fn().conditionedStates().size() > 0, "undecided series' states are cached");
            rocks = feedAndExpire(r, events.subList(half, events.size()));
            assertEquals(0, r.fn().conditionedStates().size(), "every series ended: no entry left");
            assertEquals(0, sessionsHeld(h), "and no session");
        }
        assertEquals(SERIES, heap.size(), "one record per series");
        assertTrue(heap.stream().anyMatch(d -> !d.complete), "some series ended incomplete");
        assertEquals(heap, rocks);
    }

    @Test
    void restoredFromASnapshotWithAColdCacheSeriesDecideAsStraight() throws Exception {
        List<SampleEvent> events = MultiChannelFixtures.interleaved(SERIES, i -> i % 2 == 0);
        List<DecisionRecord> want = straight(true, events);
        int cut = events.size() / 3;
        OperatorSubtaskState snapshot;
        List<DecisionRecord> got;
        Run before = harness(true);
        try (var h = before.h()) {
            h.open();
            h.setProcessingTime(NOW);
            for (SampleEvent e : events.subList(0, cut)) {
                h.processElement(e, 0L);
            }
            got = new ArrayList<>(h.extractOutputValues());
            snapshot = h.snapshot(1L, NOW);
        }
        Run after = harness(true);
        try (var h = after.h()) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            h.setProcessingTime(NOW);
            assertEquals(0, after.fn().conditionedStates().size(), "a restored subtask starts with no entry");
            got.addAll(feedAndExpire(after, events.subList(cut, events.size())));
        }
        assertEquals(want, got);
    }

    @Test
    void anExpiredSeriesLeavesNoEntryAndItsIdReusedDecidesAsANewSeries() throws Exception {
        String id = MultiChannelFixtures.id(0);
        List<SampleEvent> first = MultiChannelFixtures.events(0, MultiChannelFixtures.PATTERN, 0, false);
        List<SampleEvent> second = MultiChannelFixtures.underId(
                MultiChannelFixtures.events(1, MultiChannelFixtures.PATTERN, 500, true), id);
        List<DecisionRecord> fresh = straight(true, second);
        Run r = harness(true);
        try (var h = r.h()) {
            h.open();
            h.setProcessingTime(NOW - SETTINGS.idleTimeout().toMillis());
            for (SampleEvent e : first.subList(0, 40)) {
                h.processElement(e, 0L);
            }
            assertEquals(1, r.fn().conditionedStates().size());
            h.setProcessingTime(NOW);
            assertEquals(1, h.extractOutputValues().size(), "series 0 expired with its incomplete decision");
            assertEquals(0, r.fn().conditionedStates().size(), "and left no entry");
            assertEquals(0, sessionsHeld(h), "and no session");
            List<DecisionRecord> reused = feedAndExpire(r, second);
            assertEquals(fresh, reused.subList(1, reused.size()), "the reused id decides as a new series");
        }
    }
}
