package io.vigil.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.data.OutOfRangePolicy;
import io.vigil.stream.DeadLetter;
import io.vigil.stream.DecisionRecord;
import io.vigil.stream.SampleEvent;
import io.vigil.stream.SessionSettings;
import io.vigil.stream.StreamFixtures;
import io.vigil.stream.StreamJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Finite but extreme values (±1e308, 1e200) in the keyed stage, in Flink's operator test harness: under every
 * {@code --out-of-range} policy each series gets exactly one record, no record carries NaN, and nothing is dropped
 * silently — under reject the extreme samples are dead-lettered as {@code out_of_range} and counted in the record.
 */
class ExtremeValuesOperatorTest {
    /** Series of the fixture and the (t, value) each gets replaced; series 3 stays clean. */
    private static final int[][] AT = {{0, 10}, {1, 2}, {2, 128}, {3, 0}, {4, 1}};

    private static final double[] VALUES = {1e308, -1e308, 1e200, 0.0, -1e200};

    static KeyedOneInputStreamOperatorTestHarness<String, SampleEvent, DecisionRecord> harness(OutOfRangePolicy p)
            throws Exception {
        SessionSettings settings = EarlyDecisionFunctionTest.SETTINGS.withOutOfRange(p);
        EarlyDecisionFunction fn =
                new EarlyDecisionFunction(StreamFixtures.MODEL_BYTES, StreamFixtures.PARAMS, settings);
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(fn), e -> e.series, Types.STRING);
    }

    @ParameterizedTest
    @EnumSource(OutOfRangePolicy.class)
    void extremeValuesGiveEverySeriesExactlyOneRecordWithoutNaN(OutOfRangePolicy policy) throws Exception {
        try (var h = harness(policy)) {
            h.open();
            long offset = 0;
            for (int k = 0; k < AT.length; k++) {
                for (SampleEvent e : StreamFixtures.events(AT[k][0], offset)) {
                    SampleEvent sent = e.t == AT[k][1] ? StreamFixtures.event(e.series, e.t, VALUES[k], e.offset) : e;
                    h.processElement(sent, 0L);
                }
                offset += 1000;
            }
            h.endInput();
            Map<String, List<DecisionRecord>> bySeries = new TreeMap<>();
            for (DecisionRecord r : h.extractOutputValues()) {
                bySeries.computeIfAbsent(r.series, s -> new ArrayList<>()).add(r);
                String json = new String(StreamJson.decision(r), java.nio.charset.StandardCharsets.UTF_8);
                // the error text may quote the arithmetic's own message; every number in the record is finite
                String numbers = json.replaceAll("\"error\":\"[^\"]*\"", "");
                assertFalse(numbers.contains("NaN") || numbers.contains("Infinity"), json);
                if (r.isDecision()) {
                    assertTrue(r.reliability >= 0.0 && r.reliability <= 1.0, json);
                    assertNotNull(r.label, json);
                }
            }
            assertEquals(AT.length, bySeries.size(), bySeries.toString());
            bySeries.forEach((s, rs) -> assertEquals(1, rs.size(), s + ": " + rs));
            List<DeadLetter> letters = EarlyDecisionFunctionTest.deadLetters(h);
            for (DeadLetter d : letters) {
                assertTrue(
                        d.reason.equals("out_of_range") || d.reason.equals("processing_error"),
                        "only extreme samples are dead-lettered: " + d.reason + " " + d.detail);
            }
            assertEquals(0, h.numKeyedStateEntries(), "every series ended");
            if (policy == OutOfRangePolicy.REJECT) {
                assertTrue(letters.stream().allMatch(d -> d.reason.equals("out_of_range")));
                int counted = 0;
                for (int k = 0; k < AT.length; k++) {
                    DecisionRecord r = bySeries.get(StreamFixtures.id(AT[k][0])).get(0);
                    counted += r.outOfRangeSamples;
                    if (k == 3) {
                        assertEquals(0, r.outOfRangeSamples, r.toString());
                    } else if (AT[k][1] <= 10) { // before any decision of the fixture: rejected and counted
                        assertEquals(1, r.outOfRangeSamples, r.toString());
                        assertTrue(r.outOfRange, r.toString());
                    }
                    assertTrue(r.isDecision() || DecisionRecord.UNDECIDED.equals(r.status), r.toString());
                }
                assertEquals(counted, letters.size(), "one dead letter per rejected sample: " + letters);
            }
            for (List<DecisionRecord> rs : bySeries.values()) {
                DecisionRecord r = rs.get(0);
                if (DecisionRecord.ERROR.equals(r.status)) {
                    assertNotNull(r.error, r.toString());
                    assertTrue(letters.stream().anyMatch(d -> d.reason.equals("processing_error")));
                }
            }
        }
    }
}
