package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vigil.early.SeriesDecision;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.ModelId;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamFixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/** The hot-swapping keyed stage in Flink's operator test harness: swaps, rejections, the third model, restores. */
class ModelSwapOperatorTest {
    private static final SessionSettings SETTINGS = new SessionSettings(8, Duration.ofSeconds(30));
    private static final byte[] A = StreamFixtures.MODEL_BYTES;
    private static final byte[] B = padded(1);
    private static final byte[] C = padded(2);
    private static final List<SeriesDecision> OFFLINE = StreamFixtures.offlineDecisions();

    /** Model A's file with trailing newlines: the same classifier under another id. */
    private static byte[] padded(int newlines) {
        byte[] b = Arrays.copyOf(A, A.length + newlines);
        Arrays.fill(b, A.length, b.length, (byte) '\n');
        return b;
    }

    private static KeyedTwoInputStreamOperatorTestHarness<String, SampleEvent, byte[], DecisionRecord> harness()
            throws Exception {
        ModelSwapOperator op = new ModelSwapOperator(
                new ModelSwapFunction(new EarlyDecisionFunction(A, StreamFixtures.PARAMS, SETTINGS)));
        return new KeyedTwoInputStreamOperatorTestHarness<>(op, (SampleEvent e) -> e.series, null, Types.STRING);
    }

    /** Series i of the test split under the id {@code series}, samples t = from..to. */
    private static void feed(
            KeyedTwoInputStreamOperatorTestHarness<String, SampleEvent, byte[], DecisionRecord> h,
            String series,
            int i,
            int from,
            int to)
            throws Exception {
        double[] x = StreamFixtures.TEST.series(i);
        for (int t = from; t <= to; t++) {
            h.processElement1(StreamFixtures.event(series, t, x[t - 1], t), 0L);
        }
    }

    private static Map<String, DecisionRecord> bySeries(List<DecisionRecord> out) {
        Map<String, DecisionRecord> m = new HashMap<>();
        for (DecisionRecord r : out) {
            assertEquals(null, m.put(r.series, r), "second decision for " + r.series);
        }
        return m;
    }

    /** A test series A decides after t = 5, so it is in flight after five samples. */
    private static int late(int skip) {
        int found = 0;
        for (int i = 0; i < OFFLINE.size(); i++) {
            if (OFFLINE.get(i).t() > 5 && found++ == skip) {
                return i;
            }
        }
        throw new IllegalStateException("fixture lacks late series");
    }

    /** Series x starts under A (five samples), B is published, series y starts under B (five samples). */
    private static void startSwapped(
            KeyedTwoInputStreamOperatorTestHarness<String, SampleEvent, byte[], DecisionRecord> h, int x, int y)
            throws Exception {
        h.open();
        feed(h, "x", x, 1, 5);
        h.processElement2(B, 0L);
        feed(h, "y", y, 1, 5);
    }

    @Test
    void seriesKeepTheModelTheyStartedUnderAcrossASnapshotAndRestore() throws Exception {
        int x = late(0);
        int y = late(1);
        OperatorSubtaskState snapshot;
        try (var h = harness()) {
            startSwapped(h, x, y);
            assertEquals(List.of(), h.extractOutputValues());
            snapshot = h.snapshot(1L, 0L);
        }
        try (var h = harness()) { // the job restarts with its initial model A; the state says B is current
            h.setup();
            h.initializeState(snapshot);
            h.open();
            feed(h, "x", x, 6, 128);
            feed(h, "y", y, 6, 128);
            feed(h, "z", x, 1, 128);
            Map<String, DecisionRecord> d = bySeries(h.extractOutputValues());
            assertEquals(ModelId.of(A), d.get("x").model, "started under A before the swap");
            assertEquals(OFFLINE.get(x).t(), d.get("x").t);
            assertEquals(ModelId.of(B), d.get("y").model, "started after the swap");
            assertEquals(OFFLINE.get(y).t(), d.get("y").t);
            assertEquals(ModelId.of(B), d.get("z").model, "new series after the restore: the restored current model");
            assertEquals(0, h.numKeyedStateEntries());
        }
    }

    @Test
    void anUnusableModelIsIgnoredAndTheRunningModelStays() throws Exception {
        try (var h = harness()) {
            h.open();
            h.processElement2("{\"not\": \"a model\"}".getBytes(StandardCharsets.UTF_8), 0L);
            h.processElement2(new byte[0], 0L);
            feed(h, "s", 0, 1, 128);
            assertEquals(ModelId.of(A), h.extractOutputValues().get(0).model);
        }
    }

    @Test
    void aThirdModelReplaysTheOldestModelsUndecidedSeriesUnderTheNewest() throws Exception {
        int x = late(0);
        int y = late(1);
        try (var h = harness()) {
            startSwapped(h, x, y);
            h.processElement2(C, 0L); // A still has x: A is dropped, x goes to C
            feed(h, "x", x, 6, 128);
            feed(h, "y", y, 6, 128);
            Map<String, DecisionRecord> d = bySeries(h.extractOutputValues());
            assertEquals(ModelId.of(C), d.get("x").model, "replayed under the newest model");
            assertEquals(OFFLINE.get(x).t(), d.get("x").t, "the replayed prefix lost nothing");
            assertEquals(ModelId.of(B), d.get("y").model, "B is still live: y keeps it");
            assertEquals(0, h.numKeyedStateEntries());
        }
    }

    @Test
    void atTheEndOfABoundedInputEachUndecidedSeriesGetsOneRecordFromItsOwnModel() throws Exception {
        int x = late(0);
        int y = late(1);
        try (var h = harness()) {
            startSwapped(h, x, y);
            h.endAllInputs();
            Map<String, DecisionRecord> d = bySeries(h.extractOutputValues());
            assertEquals(DecisionRecord.UNDECIDED, d.get("x").status);
            assertEquals(5, d.get("x").t);
            assertEquals(ModelId.of(A), d.get("x").model);
            assertEquals(DecisionRecord.UNDECIDED, d.get("y").status);
            assertEquals(ModelId.of(B), d.get("y").model);
            assertEquals(0, h.numKeyedStateEntries());
        }
    }
}
