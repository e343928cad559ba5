package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.api.Vigil;
import io.vigil.data.Dataset;
import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyFixtures;
import io.vigil.kafka.WatchRecord;
import io.vigil.model.WindowSection;
import io.vigil.model.json.ModelFile;
import io.vigil.stream.DeadLetter;
import io.vigil.watch.AlarmEvent;
import io.vigil.watch.WatchReplay;
import io.vigil.watch.WindowSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

/**
 * The keyed watch stage in Flink's operator test harness: alarms equal to the offline replay's (merging, per key),
 * dead letters with their reasons, the idle timeout, the flood guard, and state bounded per key across snapshots.
 */
class WatchFunctionTest {
    /** The generated CBF model as a window model: D = 128, S = 16, class "1" (cylinder) the background, 50 Hz. */
    static final byte[] MODEL = ModelFile.standard()
            .toBytes(EarlyFixtures.CBF_MODEL.toBuilder()
                    .section(new WindowSection(16, "1", 50, "windows-closed"))
                    .build());

    static final DecisionParams PARAMS = DecisionParams.defaults();
    static final Dataset TEST = EarlyFixtures.CBF.test();
    private static final Duration IDLE = Duration.ofSeconds(30);

    private final OperatorMetrics metrics = new OperatorMetrics();

    private KeyedOneInputStreamOperatorTestHarness<String, WatchSample, WatchAlarm> harness(
            MockEnvironment env, int maxAlarmsPerMinute) throws Exception {
        WatchFunction fn = new WatchFunction(MODEL, PARAMS, new WatchSettings(null, IDLE, maxAlarmsPerMinute));
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new WatchOperator(fn), (WatchSample s) -> s.key, Types.STRING, env);
    }

    /** A stream of test series back to back: bell, funnel, cylinder, …, so events of both event classes occur. */
    static double[] stream(int series) {
        double[] x = new double[series * TEST.seriesLength()];
        for (int k = 0; k < series; k++) {
            System.arraycopy(TEST.series(k), 0, x, k * TEST.seriesLength(), TEST.seriesLength());
        }
        return x;
    }

    static WatchSample value(String key, double v, long offset) {
        return WatchSample.of(
                key.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                WatchRecord.encode(key, WatchRecord.NO_INDEX, -1, v),
                1_000 + offset,
                0,
                offset);
    }

    static WatchSample raw(String json, long offset) {
        return WatchSample.of(null, json.getBytes(java.nio.charset.StandardCharsets.UTF_8), 1_000 + offset, 0, offset);
    }

    private static List<WatchAlarm> alarms(KeyedOneInputStreamOperatorTestHarness<?, ?, WatchAlarm> h) {
        List<WatchAlarm> out = new ArrayList<>();
        for (Object o : h.getOutput()) {
            if (o instanceof StreamRecord<?> r && r.getValue() instanceof WatchAlarm a) {
                out.add(a);
            }
        }
        return out;
    }

    private static List<DeadLetter> deadLetters(KeyedOneInputStreamOperatorTestHarness<?, ?, ?> h) {
        List<DeadLetter> out = new ArrayList<>();
        var q = h.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS);
        if (q != null) {
            q.forEach(r -> out.add(r.getValue()));
        }
        return out;
    }

    private static WindowSpec spec() {
        Vigil v = WatchFunction.load(MODEL, PARAMS, "model");
        return WatchFunction.spec(v, new WatchSettings(null, IDLE, 0));
    }

    private static List<String> offline(String key, double[] x) {
        Vigil v = WatchFunction.load(MODEL, PARAMS, "model");
        return WatchReplay.run(v, spec(), key, new double[][] {x}).alarms().stream()
                .map(WatchFunctionTest::describe)
                .toList();
    }

    static String describe(AlarmEvent a) {
        return a.key() + " " + a.label() + " " + a.eventStart() + ".." + a.trigger() + " w" + a.windowStart();
    }

    static String describe(WatchAlarm a) {
        return a.key + " " + a.label + " " + a.eventStart + ".." + a.trigger + " w" + a.windowStart;
    }

    @Test
    void twoInterleavedKeysRaiseTheOfflineReplaysAlarmsMergedPerEvent() throws Exception {
        double[] a = stream(12);
        double[] b = stream(20);
        try (MockEnvironment env = metrics.environment();
                var h = harness(env, 0)) {
            h.open();
            long offset = 0;
            for (int i = 0; i < Math.max(a.length, b.length); i++) {
                if (i < a.length) {
                    h.processElement(new StreamRecord<>(value("pump-1", a[i], offset++)));
                }
                if (i < b.length) {
                    h.processElement(new StreamRecord<>(value("pump-2", b[i], offset++)));
                }
            }
            List<String> expected = new ArrayList<>(offline("pump-1", a));
            expected.addAll(offline("pump-2", b));
            List<String> got =
                    alarms(h).stream().map(WatchFunctionTest::describe).collect(Collectors.toList());
            assertFalse(expected.isEmpty(), "the stream raises alarms");
            assertEquals(
                    expected.stream().sorted().toList(), got.stream().sorted().toList());
            // One alarm per event, not one per deciding window: fewer alarms than event-class window decisions.
            assertTrue(metrics.value(JobMetrics.WATCH_WINDOWS_DECIDED) > got.size(), "windows merged into alarms");
            assertEquals(got.size(), metrics.value(JobMetrics.WATCH_ALARMS));
            assertEquals(2, metrics.value(JobMetrics.WATCH_KEYS));
            WatchAlarm first = alarms(h).get(0);
            assertFalse(first.certified, "the fixture model has no calibration");
            assertEquals("none", first.guarantee);
            assertEquals(first.delaySamples * 1000.0 / 50, first.delayMs, 1e-9);
            assertTrue(deadLetters(h).isEmpty(), deadLetters(h).toString());
        }
    }

    @Test
    void unusableValuesAreDeadLetteredWithTheirReasonAndTheKeyGoesOn() throws Exception {
        try (MockEnvironment env = metrics.environment();
                var h = harness(env, 0)) {
            h.open();
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"channel\":\"y\",\"value\":1}", 1)));
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"channel\":2,\"value\":1}", 2)));
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"i\":300,\"value\":1}", 3)));
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"i\":300,\"value\":2}", 4)));
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"i\":5,\"value\":2}", 5)));
            h.processElement(new StreamRecord<>(raw("{\"key\":\"k\",\"i\":301,\"channel\":\"0\",\"value\":null}", 6)));
            List<String> reasons = deadLetters(h).stream().map(d -> d.reason).toList();
            assertEquals(List.of("unknown_channel", "unknown_channel", "duplicate", "late_value"), reasons);
            DeadLetter late = deadLetters(h).get(3);
            assertEquals(5, late.t);
            assertEquals(5, late.offset);
            assertTrue(late.detail.contains("sample 5 of channel 0"), late.detail);
            assertTrue(
                    deadLetters(h).get(0).detail.contains("[0]"), deadLetters(h).get(0).detail);
            assertEquals(1, metrics.value("deadLetters_late_value"));
            assertEquals(6, metrics.value(JobMetrics.SAMPLES_IN));
            assertTrue(metrics.value(JobMetrics.WATCH_OPEN_WINDOWS) > 0, "the key watches on");
        }
    }

    @Test
    void decoderRejectsNonNumericAndKeylessValues() {
        assertEquals("wrong_type", raw("{\"key\":\"k\",\"value\":\"high\"}", 1).problem);
        assertEquals("missing_field", raw("{\"value\":0.4}", 1).problem);
        assertEquals("t_below_one", raw("{\"key\":\"k\",\"i\":0,\"value\":0.4}", 1).problem);
        assertEquals("non_finite_value", raw("{\"key\":\"k\",\"value\":NaN}", 1).problem);
        assertEquals(
                "key_mismatch",
                WatchSample.of(
                                "a".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                raw("{\"key\":\"b\",\"value\":1}", 1).raw,
                                0,
                                0,
                                0)
                        .problem);
        WatchSample ok =
                raw("{\"key\":\"k\",\"ts\":1700000000000,\"i\":7,\"channel\":\"x\",\"value\":0.5,\"src\":[1]}", 1);
        assertTrue(ok.isAccepted(), ok.detail);
        assertEquals(7, ok.sample);
        assertEquals(1_700_000_000_000L, ok.ts);
    }

    @Test
    void theRouterPassesDecodedValuesAndDeadLettersTheRestWithTheirReason() throws Exception {
        try (var router = ProcessFunctionTestHarnesses.forProcessFunction(RejectRouter.values())) {
            router.processElement(raw("{\"key\":\"k\",\"value\":\"high\"}", 5), 0L);
            router.processElement(value("k", 0.5, 6), 0L);
            router.processElement(raw("{\"value\":0.4}", 7), 0L);
            assertEquals(
                    List.of(0.5),
                    router.extractOutputValues().stream().map(s -> s.value).toList());
            List<DeadLetter> dead = router.getSideOutput(EarlyDecisionFunction.DEAD_LETTERS).stream()
                    .map(StreamRecord::getValue)
                    .toList();
            assertEquals(
                    List.of("wrong_type", "missing_field"),
                    dead.stream().map(d -> d.reason).toList());
            assertEquals(List.of(5L, 7L), dead.stream().map(d -> d.offset).toList());
            assertEquals("{\"value\":0.4}", new String(dead.get(1).raw, java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void aSilentKeyHasItsWindowsClosedAndStartsAFreshGridAfterwards() throws Exception {
        double[] x = stream(10);
        int cut = 3 * TEST.seriesLength() + 40;
        try (MockEnvironment env = metrics.environment();
                var h = harness(env, 0)) {
            h.open();
            h.setProcessingTime(0);
            for (int i = 0; i < cut; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
            }
            assertTrue(metrics.value(JobMetrics.WATCH_OPEN_WINDOWS) > 0);
            int before = alarms(h).size();
            h.setProcessingTime(IDLE.toMillis() + 1);
            assertEquals(0, metrics.value(JobMetrics.WATCH_OPEN_WINDOWS), "the timeout closed the open windows");
            assertEquals(1, metrics.value(JobMetrics.WATCH_TIMEOUTS));
            double[] rest = java.util.Arrays.copyOfRange(x, cut, x.length);
            for (int i = 0; i < rest.length; i++) {
                h.processElement(new StreamRecord<>(value("k", rest[i], cut + i)));
            }
            // After the silence the grid restarts at the next sample: the alarms are the rest's own, shifted by cut.
            List<String> got = alarms(h).subList(before, alarms(h).size()).stream()
                    .map(a -> a.label + " " + (a.eventStart - cut) + ".." + (a.trigger - cut))
                    .toList();
            Vigil v = WatchFunction.load(MODEL, PARAMS, "model");
            List<String> expected = WatchReplay.run(v, spec(), "k", new double[][] {rest}).alarms().stream()
                    .map(a -> a.label() + " " + a.eventStart() + ".." + a.trigger())
                    .toList();
            assertFalse(expected.isEmpty());
            assertEquals(expected, got);
        }
    }

    @Test
    void theFloodGuardHoldsBackAlarmsBeyondItsLimitAsDeadLetters() throws Exception {
        double[] x = stream(20); // 2,560 samples at 50 Hz: under a minute of stream time
        try (MockEnvironment env = metrics.environment();
                var h = harness(env, 2)) {
            h.open();
            for (int i = 0; i < x.length; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
            }
            int all = offline("k", x).size();
            assertTrue(all > 2, "the stream raises more alarms than the limit: " + all);
            List<WatchAlarm> written = alarms(h);
            assertTrue(written.size() <= 3, "at most 2 per minute (the stream spans two minutes): " + written.size());
            List<DeadLetter> held = deadLetters(h);
            assertEquals(all, written.size() + held.size());
            assertEquals(held.size(), metrics.value(JobMetrics.WATCH_ALARMS_SUPPRESSED));
            assertEquals("alarm_flood", held.get(0).reason);
            WatchAlarm copy = WatchAlarm.fromJson(held.get(0).raw);
            assertEquals("k", copy.key);
            assertTrue(held.get(0).detail.contains("--max-alarms-per-minute 2"), held.get(0).detail);
        }
    }

    @Test
    void stateStaysBoundedPerKeyAndARestoredKeyGoesOnAsTheUninterruptedOne() throws Exception {
        double[] x = stream(40);
        int d = TEST.seriesLength();
        OperatorSubtaskState early;
        OperatorSubtaskState late;
        List<String> uninterrupted;
        try (MockEnvironment env = metrics.environment();
                var h = harness(env, 0)) {
            h.open();
            for (int i = 0; i < 10 * d; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
            }
            early = h.snapshot(1, 1);
            for (int i = 10 * d; i < 30 * d; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
                assertTrue(metrics.value(JobMetrics.WATCH_OPEN_WINDOWS) <= (d + 15) / 16, "⌈D/S⌉ open windows");
            }
            late = h.snapshot(2, 2);
            for (int i = 30 * d; i < x.length; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
            }
            uninterrupted = alarms(h).stream().map(WatchFunctionTest::describe).toList();
        }
        // 20 more windows of values later, the key's state is no larger: O(C·D + D/S), not the stream's length.
        assertTrue(
                late.getStateSize() <= early.getStateSize() * 1.2 + 1024,
                "state " + early.getStateSize() + " → " + late.getStateSize() + " bytes");
        OperatorMetrics restoredMetrics = new OperatorMetrics();
        try (MockEnvironment env = restoredMetrics.environment();
                var h = harness(env, 0)) {
            h.initializeState(late);
            h.open();
            assertEquals(1, restoredMetrics.value(JobMetrics.WATCH_KEYS));
            for (int i = 30 * d; i < x.length; i++) {
                h.processElement(new StreamRecord<>(value("k", x[i], i)));
            }
            List<String> after =
                    alarms(h).stream().map(WatchFunctionTest::describe).toList();
            List<String> tail = uninterrupted.stream()
                    .filter(a -> Long.parseLong(a.split(" ")[2].split("\\.\\.")[1]) > 30L * d)
                    .toList();
            assertFalse(tail.isEmpty());
            assertEquals(tail, after);
        }
    }
}
