package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ConditionedStates} in front of a store that serialises every session between records (as RocksDB does):
 * decisions are those of a rebuild per record and of sessions kept as objects (the heap backend), with the cache, with
 * it full, and with entries that no longer match the stored values (a rolled-back session, a series id reused).
 */
class ConditionedStatesTest {
    private static final long TAG = 7L;
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));
    /** τ = 0.999: most series stay undecided long, many until their end record (the incomplete rule). */
    private static final DecisionParams STRICT = DecisionParams.defaults().withTau(0.999);

    private final SeriesTracker tracker =
            new SeriesTracker(MultiChannelFixtures.classifier(STRICT), SETTINGS, "model-id", TAG);
    private final SeriesTracker.Workspace ws = tracker.newWorkspace();

    /** A keyed store of sessions, as bytes (serialising) or as the objects themselves, with the cache in front. */
    private final class Store {
        final Map<String, Object> held = new HashMap<>();
        final ConditionedStates cache;
        final boolean serialising;
        final SeriesTrackerTest.Recorder out = new SeriesTrackerTest.Recorder();
        final Map<ConditionedStates.Lookup, Integer> lookups = new EnumMap<>(ConditionedStates.Lookup.class);

        Store(long budget, boolean serialising) {
            this.cache = new ConditionedStates(budget);
            this.serialising = serialising;
        }

        SeriesSession get(String series) {
            Object o = held.get(series);
            return o == null ? null : serialising ? read((byte[]) o) : (SeriesSession) o;
        }

        void put(String series, SeriesSession s) {
            if (s == null) {
                held.remove(series);
            } else {
                held.put(series, serialising ? bytes(s) : s);
            }
        }

        /** One record, as the keyed function processes it. */
        void process(SampleEvent e) {
            SeriesSession before = get(e.series);
            lookups.merge(cache.attach(e.series, before), 1, Integer::sum);
            SeriesSession after = tracker.onSample(before, e, 5L, out, ws);
            cache.keep(e.series, after, tracker);
            put(e.series, after);
        }

        int count(ConditionedStates.Lookup l) {
            return lookups.getOrDefault(l, 0);
        }
    }

    private static byte[] bytes(SeriesSession s) {
        try {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            s.writeTo(new DataOutputStream(b));
            return b.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static SeriesSession read(byte[] b) {
        try {
            return SeriesSession.read(new DataInputStream(new ByteArrayInputStream(b)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Store run(List<SampleEvent> events, long budget, boolean serialising) {
        Store s = new Store(budget, serialising);
        events.forEach(s::process);
        return s;
    }

    @Test
    void sessionsReadBackPerRecordDecideAsWithoutTheCacheAndAsSessionsKeptAsObjects() {
        List<SampleEvent> events = MultiChannelFixtures.interleaved(MultiChannelFixtures.TEST.size(), i -> true);
        Store objects = run(events, ConditionedStates.DEFAULT_BUDGET_BYTES, false);
        Store rebuilt = run(events, 0, true);
        Store cached = run(events, ConditionedStates.DEFAULT_BUDGET_BYTES, true);
        assertEquals(MultiChannelFixtures.TEST.size(), rebuilt.out.decisions.size(), "one record per series");
        assertTrue(rebuilt.out.decisions.stream().anyMatch(r -> !r.complete), "some decided at their end record");
        assertTrue(rebuilt.out.decisions.stream().anyMatch(r -> r.early), "some decided early");
        assertEquals(rebuilt.out.decisions, cached.out.decisions, "cache ≡ rebuild, record for record");
        assertEquals(objects.out.decisions, cached.out.decisions, "cache ≡ sessions kept as objects");
        assertTrue(rebuilt.count(ConditionedStates.Lookup.REBUILD) > 1_000, "without a budget, every record rebuilds");
        assertEquals(0, cached.count(ConditionedStates.Lookup.REBUILD), "with it, none does");
        assertEquals(rebuilt.count(ConditionedStates.Lookup.REBUILD), cached.count(ConditionedStates.Lookup.HIT));
        assertEquals(0, objects.count(ConditionedStates.Lookup.HIT), "objects keep their state: nothing to attach");
        assertEquals(0, cached.cache.size(), "every series ended: nothing left");
        assertEquals(0, cached.cache.bytes());
    }

    @Test
    void whenFullNewSeriesAreNotAdmittedAndAreRebuiltAsWithoutTheCache() {
        List<SampleEvent> events = MultiChannelFixtures.interleaved(3, i -> true);
        Store rebuilt = run(events, 0, true);
        long one = tracker.conditionedStateBytes();
        Store full = new Store(one, true);
        for (int k = 0; k < 30; k++) {
            full.process(events.get(k));
        }
        assertEquals(1, full.cache.size(), "room for one series");
        assertEquals(one, full.cache.bytes());
        events.subList(30, events.size()).forEach(full::process);
        assertEquals(rebuilt.out.decisions, full.out.decisions, "decisions as without the cache");
        assertTrue(full.count(ConditionedStates.Lookup.HIT) > 0, "the series admitted hits");
        assertTrue(full.count(ConditionedStates.Lookup.REBUILD) > 0, "the others rebuild");
        assertEquals(0, full.cache.size());
    }

    @Test
    void anEntryForOtherValuesUnderTheSameSeriesTagAndCountIsNeverUsed() {
        List<SampleEvent> a = MultiChannelFixtures.events(4, MultiChannelFixtures.PATTERN, 0, false);
        String id = a.get(0).series;
        Store s = new Store(ConditionedStates.DEFAULT_BUDGET_BYTES, true);
        a.subList(0, 20).forEach(s::process);
        byte[] at20 = (byte[]) s.held.get(id);
        s.process(a.get(20)); // cached: the first 21 values
        byte[] at21 = (byte[]) s.held.get(id);
        // A rollback to the session of 20 values, then another 21st value (one not among the 20).
        s.held.put(id, at20);
        int j = 0;
        while (read(at20).observed().seen(j)) {
            j++;
        }
        SampleEvent other = MultiChannelFixtures.event(id, j / 3 + 1, j % 3, 0.5, 100);
        assertEquals(ConditionedStates.Lookup.REBUILD, s.cache.attach(id, read(at20)), "20 values, entry for 21");
        s.process(other); // cached now: the first 20 values and the other value, 21 as before
        assertEquals(1, s.cache.size());
        // The session of the first 21 values again: same series, tag and count as the entry, other values.
        SeriesSession back = read(at21);
        assertEquals(ConditionedStates.Lookup.REBUILD, s.cache.attach(id, back));
        assertNull(back.observed().subset(), "no state attached");
        // Processed from there, the series decides as a fresh rebuild of the same values does.
        s.held.put(id, at21);
        a.subList(21, a.size()).forEach(s::process);
        s.process(MultiChannelFixtures.end(id, 999));
        Store fresh = run(a, 0, true);
        fresh.process(MultiChannelFixtures.end(id, 999));
        assertEquals(fresh.out.decisions, s.out.decisions);
    }

    @Test
    void aSeriesIdReusedAfterItsSessionEndedStartsWithNoEntry() {
        String id = MultiChannelFixtures.id(0);
        List<SampleEvent> first = MultiChannelFixtures.events(0, MultiChannelFixtures.PATTERN, 0, false);
        // The values of test series 1 under series 0's id, after series 0 ended on its end record.
        List<SampleEvent> second = MultiChannelFixtures.underId(
                MultiChannelFixtures.events(1, MultiChannelFixtures.PATTERN, 500, true), id);
        Store s = new Store(ConditionedStates.DEFAULT_BUDGET_BYTES, true);
        first.subList(0, 40).forEach(s::process);
        assertEquals(1, s.cache.size());
        s.process(MultiChannelFixtures.end(id, 499));
        assertEquals(1, s.out.decisions.size());
        assertEquals(0, s.cache.size(), "the ended series' entry is gone");
        assertFalse(s.held.containsKey(id));
        s.out.decisions.clear();
        second.forEach(s::process);
        Store fresh = run(second, 0, true);
        assertEquals(fresh.out.decisions, s.out.decisions, "the reused id decides as a new series");
        assertEquals(0, s.cache.size());
    }
}
