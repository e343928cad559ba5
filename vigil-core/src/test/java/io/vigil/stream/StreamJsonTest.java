package io.vigil.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamJsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void decisionRecordHasTheDocumentedFieldsAndReadsBack() throws Exception {
        DecisionRecord r = DecisionRecord.decided("CBF/test/\"17\"", "2", 41, 128, 0.9, 0.97, "abc", 1000L, 990L);
        byte[] json = StreamJson.decision(r);
        JsonNode j = MAPPER.readTree(json);
        List<String> names = new java.util.ArrayList<>();
        j.fieldNames().forEachRemaining(names::add);
        assertEquals(
                List.of(
                        "series",
                        "label",
                        "t",
                        "length",
                        "early",
                        "tau",
                        "reliability",
                        "model",
                        "emitted_at",
                        "status",
                        "sample_time",
                        "out_of_range",
                        "out_of_range_samples",
                        "certified",
                        "guarantee",
                        "target",
                        "delta",
                        "margin_tau"),
                names);
        assertEquals(false, j.get("out_of_range").asBoolean());
        assertEquals(false, j.get("certified").asBoolean(), "no certificate unless one is attached");
        assertEquals("none", j.get("guarantee").asText());
        assertEquals(0.9, j.get("target").asDouble(), 0.0);
        assertTrue(j.get("early").asBoolean());
        assertEquals(r, StreamJson.readDecision(json));
    }

    @Test
    void errorRecordNamesTheReasonAndReadsBack() throws Exception {
        DecisionRecord r = DecisionRecord.error("s", "IllegalStateException: boom", 3, 128, 0.9, "abc", 5L, 4L)
                .outOfRangeSamples(2);
        JsonNode j = MAPPER.readTree(StreamJson.decision(r));
        assertEquals("error", j.get("status").asText());
        assertEquals("IllegalStateException: boom", j.get("error").asText());
        assertEquals(2, j.get("out_of_range_samples").asInt());
        assertTrue(j.get("out_of_range").asBoolean());
        assertTrue(j.get("label").isNull());
        assertEquals(r, StreamJson.readDecision(StreamJson.decision(r)));
    }

    @Test
    void abandonedRecordHasNullLabelAndReliability() throws Exception {
        DecisionRecord r = DecisionRecord.abandoned("s", 12, 128, 0.9, "abc", 5L, 4L);
        JsonNode j = MAPPER.readTree(StreamJson.decision(r));
        assertEquals(4L, j.get("sample_time").asLong(), "the last sample's time, not 0");
        assertTrue(j.get("label").isNull());
        assertTrue(j.get("reliability").isNull());
        assertEquals("abandoned", j.get("status").asText());
        assertEquals(r, StreamJson.readDecision(StreamJson.decision(r)));
    }

    @Test
    void undecidedRecordCarriesTheCurrentLabelAndReliabilityAndReadsBack() throws Exception {
        DecisionRecord r = DecisionRecord.undecided("s", "3", 17, 128, 0.9, 0.42, "abc", 5L, 4L);
        JsonNode j = MAPPER.readTree(StreamJson.decision(r));
        assertEquals("undecided", j.get("status").asText());
        assertEquals("3", j.get("label").asText());
        assertEquals(17, j.get("t").asInt());
        assertEquals(0.42, j.get("reliability").asDouble(), 0.0);
        assertEquals(false, j.get("early").asBoolean());
        assertEquals(4L, j.get("sample_time").asLong());
        DecisionRecord back = StreamJson.readDecision(StreamJson.decision(r));
        assertEquals(r, back);
        assertEquals(false, back.isDecision());
    }

    /** The certificate of the rule in force reads back; records written before it read as uncertified at τ. */
    @Test
    void certificateReadsBackAndOlderRecordsWithoutItReadAsUncertifiedAtTau() throws Exception {
        DecisionRecord r = DecisionRecord.decided("s", "1", 3, 128, 0.8, 0.85, "abc", 5L, 4L)
                .certificate(true, "expected", 0.8);
        JsonNode j = MAPPER.readTree(StreamJson.decision(r));
        assertEquals(true, j.get("certified").asBoolean());
        assertEquals("expected", j.get("guarantee").asText());
        assertEquals(0.8, j.get("target").asDouble(), 0.0);
        assertEquals(r, StreamJson.readDecision(StreamJson.decision(r)));
        byte[] older = ("{\"series\":\"s\",\"label\":\"1\",\"t\":3,\"length\":128,\"early\":true,\"tau\":0.8,"
                        + "\"reliability\":0.85,\"model\":\"abc\",\"emitted_at\":5,\"status\":\"decided\",\"sample_time\":4,"
                        + "\"out_of_range\":false}")
                .getBytes(StandardCharsets.UTF_8);
        DecisionRecord back = StreamJson.readDecision(older);
        assertEquals(false, back.certified);
        assertEquals("none", back.guarantee);
        assertEquals(0.8, back.target, 0.0);
    }

    /**
     * A pac record carries δ, an expected one null; margin_tau (the per-decision margin, not a guarantee) is written
     * beside reliability, its alias, and older records read it from reliability.
     */
    @Test
    void deltaAndMarginTauAreWrittenAndReadBack() throws Exception {
        DecisionRecord pac = DecisionRecord.decided("s", "1", 3, 128, 0.9, 0.95, "abc", 5L, 4L)
                .certificate(true, "pac", 0.9, 0.1);
        JsonNode j = MAPPER.readTree(StreamJson.decision(pac));
        assertEquals(0.1, j.get("delta").asDouble(), 0.0);
        assertEquals(0.95, j.get("margin_tau").asDouble(), 0.0);
        assertEquals(0.95, j.get("reliability").asDouble(), 0.0);
        assertEquals(0.9, j.get("target").asDouble(), 0.0);
        assertEquals(pac, StreamJson.readDecision(StreamJson.decision(pac)));
        DecisionRecord exp = DecisionRecord.decided("s", "1", 3, 128, 0.9, 0.95, "abc", 5L, 4L)
                .certificate(true, "expected", 0.9, 0.1);
        assertTrue(MAPPER.readTree(StreamJson.decision(exp)).get("delta").isNull(), "no δ under expected");
        DecisionRecord none = DecisionRecord.decided("s", "1", 128, 128, 0.9, 1.0, "abc", 5L, 4L)
                .certificate(false, "none", 0.9, 0.1);
        assertTrue(MAPPER.readTree(StreamJson.decision(none)).get("delta").isNull(), "no δ when uncertified");
        assertEquals(exp, StreamJson.readDecision(StreamJson.decision(exp)));
    }

    @Test
    void outOfRangeMarkReadsBackAndOlderRecordsWithoutItReadAsUnmarked() throws Exception {
        DecisionRecord r = DecisionRecord.decided("s", "1", 1, 128, 0.9, 0.99, "abc", 5L, 4L)
                .outOfRange(true);
        JsonNode j = MAPPER.readTree(StreamJson.decision(r));
        assertEquals(true, j.get("out_of_range").asBoolean());
        assertEquals(r, StreamJson.readDecision(StreamJson.decision(r)));
        byte[] older = ("{\"series\":\"s\",\"label\":\"1\",\"t\":1,\"length\":128,\"early\":true,\"tau\":0.9,"
                        + "\"reliability\":0.99,\"model\":\"abc\",\"emitted_at\":5,\"status\":\"decided\",\"sample_time\":4}")
                .getBytes(StandardCharsets.UTF_8);
        assertEquals(r.outOfRange(false), StreamJson.readDecision(older));
    }

    @Test
    void deadLetterKeepsTheExactBytesAndTextOnlyWhenUtf8() throws Exception {
        byte[] notUtf8 = {(byte) 0xff, (byte) 0xfe, '{'};
        DeadLetter d = DeadLetter.of("s", DeadLetterReason.UNPARSEABLE_JSON, "bad", 0, 3, 77L, 5L, notUtf8, 9L);
        JsonNode j = MAPPER.readTree(StreamJson.deadLetter(d, "samples"));
        assertTrue(j.get("value").isNull());
        assertEquals(
                List.of((byte) 0xff, (byte) 0xfe, (byte) '{'),
                toList(Base64.getDecoder().decode(j.get("value_base64").asText())));
        assertEquals("samples", j.get("topic").asText());
        assertEquals(3, j.get("partition").asInt());
        assertEquals(77, j.get("offset").asLong());
        assertEquals("unparseable_json", j.get("reason").asText());

        byte[] text = "{\"series\":\"s\",\"t\":0}".getBytes(StandardCharsets.UTF_8);
        DeadLetter t = DeadLetter.of("s", DeadLetterReason.T_BELOW_ONE, "t is 0", 0, 0, 1L, 5L, text, 9L);
        assertEquals(
                new String(text, StandardCharsets.UTF_8),
                MAPPER.readTree(StreamJson.deadLetter(t, "x")).get("value").asText());
    }

    @Test
    void readingSomethingElseIsAClearError() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> StreamJson.readDecision("[1]".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().startsWith("not a decision record"), e.getMessage());
    }

    private static List<Byte> toList(byte[] b) {
        List<Byte> l = new java.util.ArrayList<>();
        for (byte x : b) {
            l.add(x);
        }
        return l;
    }

    @Test
    void whereARecordWasTriggeredAndWhetherTheSeriesWasCompleteRoundTrip() throws Exception {
        DecisionRecord plain = DecisionRecord.decided("s", "1", 5, 10, 0.9, 0.95, "m", 1L, 2L);
        JsonNode p = new ObjectMapper().readTree(StreamJson.decision(plain));
        assertTrue(!p.has("trigger_t") && !p.has("complete"), "a univariate record keeps its fields: " + p);
        DecisionRecord r = DecisionRecord.decided("s", "1", 5, 30, 0.9, 0.7, "m", 1L, 2L)
                .at(4, "accel_y", 5 / 30.0)
                .incomplete();
        JsonNode n = new ObjectMapper().readTree(StreamJson.decision(r));
        assertEquals(4, n.get("trigger_t").asInt());
        assertEquals("accel_y", n.get("trigger_channel").asText());
        assertEquals(5 / 30.0, n.get("observed_fraction").asDouble());
        assertEquals(false, n.get("complete").asBoolean());
        assertEquals(false, n.get("early").asBoolean());
        assertEquals(r, StreamJson.readDecision(StreamJson.decision(r)));
        assertEquals(plain, StreamJson.readDecision(StreamJson.decision(plain)));
    }
}
