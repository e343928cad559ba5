package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.early.DecisionParams;
import io.vigil.early.EarlyClassifier;
import io.vigil.early.EarlyFixtures;
import io.vigil.early.EarlyReplay;
import io.vigil.early.SeriesDecision;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.StreamFixtures;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The keyed function restored from a snapshot of another model's job: sessions are kept at restore and replayed
 * under the new model, never mixed with its state.
 */
class EarlyDecisionFunctionUpgradeTest {
    /** The fixture model file with a trailing newline: another file, hence another model id (and tag). */
    private static byte[] otherModelBytes() {
        byte[] other = java.util.Arrays.copyOf(StreamFixtures.MODEL_BYTES, StreamFixtures.MODEL_BYTES.length + 1);
        other[other.length - 1] = (byte) '\n';
        return other;
    }

    /** τ = 0.99: decisions later than the fixture's, so a replay under it is told apart from a resumption. */
    private static final DecisionParams STRICT = StreamFixtures.PARAMS.withTau(0.99);

    private static List<SeriesDecision> strictOffline() {
        return EarlyReplay.replay(EarlyClassifier.of(EarlyFixtures.CBF_MODEL, STRICT), StreamFixtures.TEST);
    }

    @Test
    void stateOfAnotherModelIsReplayedUnderTheNewModelNotMixed() throws Exception {
        OperatorSubtaskState snapshot;
        List<SampleEvent> ea = StreamFixtures.events(2, 0);
        try (var h = EarlyDecisionFunctionTest.harness()) {
            h.open();
            for (int t = 0; t < 2; t++) {
                h.processElement(ea.get(t), 0L);
            }
            snapshot = h.snapshot(1L, 0L);
        }
        EarlyDecisionFunction fn =
                new EarlyDecisionFunction(otherModelBytes(), STRICT, EarlyDecisionFunctionTest.SETTINGS);
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(fn), (SampleEvent e) -> e.series, Types.STRING)) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            for (SampleEvent e : ea.subList(2, ea.size())) {
                h.processElement(e, 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            assertEquals(strictOffline().get(2).t(), out.get(0).t, "the new model's decision on the whole series");
            assertEquals(io.vigil.stream.ModelId.of(otherModelBytes()), out.get(0).model);
            assertTrue(
                    EarlyDecisionFunctionTest.deadLetters(h).isEmpty(),
                    "the stored prefix was replayed: nothing is missing");
            assertEquals(0, h.numKeyedStateEntries());
        }
    }

    @Test
    void restoredStateOfAnotherModelIsKeptAtRestoreAndReplayed() throws Exception {
        OperatorSubtaskState snapshot;
        List<SampleEvent> ea = StreamFixtures.events(2, 0);
        List<SampleEvent> eb = StreamFixtures.events(3, 100);
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new EarlyDecisionOperator(new EarlyDecisionFunction(
                        StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, EarlyDecisionFunctionTest.SETTINGS)),
                (SampleEvent e) -> e.series,
                Types.STRING)) {
            h.open();
            for (int t = 0; t < 2; t++) {
                h.processElement(ea.get(t), 0L);
                h.processElement(eb.get(t), 0L);
            }
            assertTrue(h.extractOutputValues().isEmpty());
            assertEquals(2, h.numKeyedStateEntries());
            snapshot = h.snapshot(1L, 0L);
        }
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new EarlyDecisionOperator(
                        new EarlyDecisionFunction(otherModelBytes(), STRICT, EarlyDecisionFunctionTest.SETTINGS)),
                (SampleEvent e) -> e.series,
                Types.STRING)) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            assertEquals(2, h.numKeyedStateEntries(), "both sessions kept at restore, to be replayed");
            for (SampleEvent e : ea.subList(2, ea.size())) {
                h.processElement(e, 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            assertEquals(strictOffline().get(2).t(), out.get(0).t);
        }
        try (var h = new KeyedOneInputStreamOperatorTestHarness<>(
                new EarlyDecisionOperator(new EarlyDecisionFunction(
                        StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, EarlyDecisionFunctionTest.SETTINGS)),
                (SampleEvent e) -> e.series,
                Types.STRING)) {
            h.setup();
            h.initializeState(snapshot);
            h.open();
            assertEquals(2, h.numKeyedStateEntries(), "same model: sessions kept");
            for (int t = 2; t < ea.size(); t++) {
                h.processElement(ea.get(t), 0L);
            }
            List<DecisionRecord> out = h.extractOutputValues();
            assertEquals(1, out.size());
            assertEquals(StreamFixtures.offlineDecisions().get(2).t(), out.get(0).t);
        }
    }
}
