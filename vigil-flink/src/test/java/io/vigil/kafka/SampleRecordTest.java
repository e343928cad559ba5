package io.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vigil.kafka.Decoded.Problem;
import io.vigil.kafka.SampleRecord.Sample;
import io.vigil.kafka.SampleRecord.Truth;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SampleRecordTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void encodesExactlyTheDocumentedJson() {
        assertEquals(
                "{\"series\":\"CBF/test/17\",\"t\":5,\"value\":0.42}",
                new String(SampleRecord.encode("CBF/test/17", 5, 0.42), StandardCharsets.UTF_8));
        assertEquals(
                "{\"series\":\"CBF/test/17\",\"label\":\"2\",\"length\":128}",
                new String(SampleRecord.encodeTruth("CBF/test/17", "2", 128), StandardCharsets.UTF_8));
        assertEquals("CBF/test/17", new String(SampleRecord.key("CBF/test/17"), StandardCharsets.UTF_8));
    }

    @Test
    void escapesSeriesIdsAndLabels() {
        String id = "weird \"id\"\\\n\u00e9";
        byte[] v = SampleRecord.encode(id, 1, -1.5);
        Sample s = SampleRecord.decode(SampleRecord.key(id), v).value();
        assertEquals(id, s.series());
        Truth t = SampleRecord.decodeTruth(null, SampleRecord.encodeTruth(id, "a \"b\"", 3))
                .value();
        assertEquals("a \"b\"", t.label());
    }

    /** Every finite double, tiny, huge, negative zero, subnormal, survives encode then decode bit for bit. */
    @Test
    void roundTripsDoublesExactly() {
        SplittableRandom rnd = new SplittableRandom(7);
        double[] special = {0.0, -0.0, Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, 1.0 / 3};
        for (double x : special) {
            assertRoundTrip(x);
        }
        for (int i = 0; i < 10_000; i++) {
            assertRoundTrip(rnd.nextGaussian() * Math.pow(10, rnd.nextInt(-30, 30)));
            double bits = Double.longBitsToDouble(rnd.nextLong());
            if (Double.isFinite(bits)) {
                assertRoundTrip(bits);
            }
        }
    }

    private static void assertRoundTrip(double x) {
        Sample s = SampleRecord.decode(null, SampleRecord.encode("s", 3, x)).value();
        assertEquals(Double.doubleToRawLongBits(x), Double.doubleToRawLongBits(s.value()), "value " + x);
        assertEquals(3, s.t());
    }

    @Test
    void refusesToEncodeWhatItWouldReject() {
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encode("s", 0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encode("s", 1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encode("", 1, 1.0));
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encodeTruth("s", "", 1));
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encodeTruth("s", "1", 0));
    }

    @Test
    void acceptsMissingTAndKeyAndIgnoresUnknownFields() {
        Sample s = SampleRecord.decode(null, utf8("{\"value\":2,\"series\":\"x\",\"source\":{\"a\":[1,2]}}"))
                .value();
        assertEquals(new Sample("x", SampleRecord.T_ABSENT, 2.0), s);
        assertFalse(s.hasT());
        assertTrue(SampleRecord.decode(new byte[0], utf8("{\"series\":\"x\",\"t\":1,\"value\":1e-3}"))
                .isOk());
        assertTrue(SampleRecord.decode(utf8("x"), utf8(" {\"series\":\"x\",\"t\":1,\"value\":1} \n"))
                .isOk());
    }

    /** One row per bad-input class: the value bytes, the problem, and a fragment the detail must contain. */
    @ParameterizedTest(name = "{1}: {0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
            ''                                                    | EMPTY_VALUE      | no value
            '{"series":"x","t":1,"value":'                        | UNPARSEABLE_JSON | end-of-input
            'series=x t=1'                                        | UNPARSEABLE_JSON | Unrecognized token
            '{"series":"x","t":1,"value":1} trailing'             | UNPARSEABLE_JSON | trailing
            '{"series":"x","t":1,"value":1}{"series":"x"}'        | UNPARSEABLE_JSON | after the object
            '{"series":"x","t":1,"t":2,"value":1}'                | UNPARSEABLE_JSON | Duplicate field 't'
            '[1,2,3]'                                             | NOT_AN_OBJECT    | an array
            '0.42'                                                | NOT_AN_OBJECT    | a number
            '{"t":1,"value":1}'                                   | MISSING_FIELD    | 'series'
            '{"series":"x","t":1}'                                | MISSING_FIELD    | 'value'
            '{"series":17,"t":1,"value":1}'                       | WRONG_TYPE       | series must be
            '{"series":"","t":1,"value":1}'                       | WRONG_TYPE       | series must be
            '{"series":"x","t":"5","value":1}'                    | WRONG_TYPE       | t must be an integer, got "5"
            '{"series":"x","t":5.0,"value":1}'                    | WRONG_TYPE       | t must be an integer, got 5.0
            '{"series":"x","t":3000000000,"value":1}'             | WRONG_TYPE       | not a 32-bit integer
            '{"series":"x","t":1,"value":"0.42"}'                 | WRONG_TYPE       | value must be a number
            '{"series":"x","t":1,"value":null}'                   | WRONG_TYPE       | got null
            '{"series":"x","t":1,"value":[1]}'                    | WRONG_TYPE       | an array
            '{"series":"x","t":1,"value":NaN}'                    | NON_FINITE_VALUE | NaN at t=1
            '{"series":"x","t":1,"value":-Infinity}'              | NON_FINITE_VALUE | -Infinity
            '{"series":"x","t":1,"value":1e400}'                  | NON_FINITE_VALUE | Infinity
            '{"series":"x","t":0,"value":1}'                      | T_BELOW_ONE      | t is 0
            '{"series":"x","t":-4,"value":1}'                     | T_BELOW_ONE      | t is -4
            '{"series":"y","t":1,"value":1}'                      | KEY_MISMATCH     | key 'x' but series 'y'
            """)
    void rejectsEveryBadInputClassWithAPreciseReason(String value, Problem problem, String detail) {
        Decoded<Sample> d = SampleRecord.decode(utf8("x"), utf8(value));
        Decoded.Rejected<Sample> r = assertInstanceOf(Decoded.Rejected.class, d, () -> "accepted " + value);
        assertEquals(problem, r.problem(), r.detail());
        assertTrue(r.detail().contains(detail), () -> "detail '" + r.detail() + "' lacks '" + detail + "'");
        assertFalse(r.detail().contains("\n"), "one-line detail");
        assertThrows(IllegalStateException.class, d::value);
    }

    @Test
    void rejectsNullValueAndInvalidUtf8() {
        assertEquals(Problem.EMPTY_VALUE, problem(SampleRecord.decode(null, null)));
        byte[] bad = {'{', '"', 's', 'e', 'r', 'i', 'e', 's', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        assertEquals(Problem.UNPARSEABLE_JSON, problem(SampleRecord.decode(null, bad)));
    }

    @Test
    void decodesTruthAndRejectsBadTruth() {
        assertEquals(
                new Truth("CBF/test/1", "2", 128),
                SampleRecord.decodeTruth(utf8("CBF/test/1"), SampleRecord.encodeTruth("CBF/test/1", "2", 128))
                        .value());
        assertEquals(
                Problem.MISSING_FIELD,
                problem(SampleRecord.decodeTruth(null, utf8("{\"series\":\"s\",\"length\":3}"))));
        assertEquals(
                Problem.MISSING_FIELD,
                problem(SampleRecord.decodeTruth(null, utf8("{\"series\":\"s\",\"label\":\"1\"}"))));
        assertEquals(
                Problem.WRONG_TYPE,
                problem(SampleRecord.decodeTruth(null, utf8("{\"series\":\"s\",\"label\":1,\"length\":3}"))));
        assertEquals(
                Problem.WRONG_TYPE,
                problem(SampleRecord.decodeTruth(null, utf8("{\"series\":\"s\",\"label\":\"1\",\"length\":0}"))));
        assertEquals(
                Problem.KEY_MISMATCH,
                problem(SampleRecord.decodeTruth(utf8("t"), utf8("{\"series\":\"s\",\"label\":\"1\",\"length\":3}"))));
    }

    @Test
    void problemCodesAreStableLowerCase() {
        assertEquals("non_finite_value", Problem.NON_FINITE_VALUE.code());
        assertEquals("t_below_one", Problem.T_BELOW_ONE.code());
    }

    private static Problem problem(Decoded<?> d) {
        return ((Decoded.Rejected<?>) d).problem();
    }

    @Test
    void channelByIndexOrNameAndEndRecordsDecode() {
        byte[] v = SampleRecord.encode("m/1", 4, 2, 0.5);
        assertEquals("{\"series\":\"m/1\",\"t\":4,\"channel\":2,\"value\":0.5}", new String(v, StandardCharsets.UTF_8));
        assertEquals(
                new Sample("m/1", 4, 0.5, 2, null, false),
                SampleRecord.decode(null, v).value());
        byte[] named =
                "{\"series\":\"m\",\"t\":1,\"channel\":\"accel_y\",\"value\":1}".getBytes(StandardCharsets.UTF_8);
        assertEquals(
                new Sample("m", 1, 1.0, SampleRecord.CHANNEL_ABSENT, "accel_y", false),
                SampleRecord.decode(null, named).value());
        byte[] end = SampleRecord.encodeEnd("m/1");
        assertEquals("{\"series\":\"m/1\",\"end\":true}", new String(end, StandardCharsets.UTF_8));
        Sample e =
                SampleRecord.decode("m/1".getBytes(StandardCharsets.UTF_8), end).value();
        assertTrue(e.end());
        assertEquals(Problem.KEY_MISMATCH, problem(SampleRecord.decode("x".getBytes(StandardCharsets.UTF_8), end)));
        for (String bad : new String[] {"-1", "1.5", "\"\"", "true", "[0]"}) {
            byte[] b = ("{\"series\":\"m\",\"channel\":" + bad + ",\"value\":1}").getBytes(StandardCharsets.UTF_8);
            assertEquals(Problem.WRONG_TYPE, problem(SampleRecord.decode(null, b)), bad);
        }
        byte[] notBool = "{\"series\":\"m\",\"end\":1}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Problem.WRONG_TYPE, problem(SampleRecord.decode(null, notBool)));
        byte[] notEnd = "{\"series\":\"m\",\"end\":false}".getBytes(StandardCharsets.UTF_8);
        assertEquals(Problem.MISSING_FIELD, problem(SampleRecord.decode(null, notEnd)), "end:false is a sample");
        assertThrows(IllegalArgumentException.class, () -> SampleRecord.encode("m", 1, -1, 0.0));
    }
}
