package io.vigil.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import io.vigil.kafka.Decoded.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The wire format of Vigil's Kafka topics, in one place because {@code vigil replay} writes it and the streaming
 * job reads it. All records are keyed by the series id (UTF-8); values are UTF-8 JSON objects:
 *
 * <ul>
 *   <li>sample: {@code {"series":"CBF/test/17","t":5,"value":0.42}} — {@code t} is the 1-based time index
 *       (optional on input: when absent, arrival order within the key defines it), {@code value} a finite number;
 *       an optional {@code "channel"} names the channel of a multichannel series, by 0-based index or by name
 *       (default channel 0);
 *   <li>end of a series: {@code {"series":"CBF/test/17","end":true}} — no more values of the series will come (a
 *       {@code value} in it is ignored);
 *   <li>truth: {@code {"series":"CBF/test/17","label":"2","length":128}} — the true label of a replayed series
 *       (verbatim from the data file) and its length.
 * </ul>
 *
 * <p>Decoding never throws on bad input: it returns a {@link Decoded} naming the {@link Problem}. Unknown fields
 * are ignored so producers may add their own (a timestamp, a source). A record without key is accepted (e.g.
 * {@code kcat -P} without {@code -K}); a key that differs from {@code series} is rejected. NaN and Infinity
 * literals are read (so a Python producer's {@code NaN} is reported as a non-finite value, not as broken JSON)
 * and rejected. Decoding uses Jackson's streaming parser: no tree, one parser per record.
 */
public final class SampleRecord {
    /** {@link Sample#t()} when the record did not carry {@code t}. */
    public static final int T_ABSENT = 0;

    /** {@link Sample#channel()} when the record did not carry a channel index (channel 0, unless named). */
    public static final int CHANNEL_ABSENT = -1;

    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private SampleRecord() {}

    /**
     * One decoded sample.
     *
     * @param series series id (non-empty)
     * @param t 1-based time index, or {@link #T_ABSENT}
     * @param value the sample, finite (NaN in an end record)
     * @param channel the 0-based channel index the record gave, or {@link #CHANNEL_ABSENT}
     * @param channelName the channel name the record gave, or null
     * @param end whether this is an end record (no more values of the series)
     */
    public record Sample(String series, int t, double value, int channel, String channelName, boolean end) {
        /** A sample of channel 0 (or without channel). */
        public Sample(String series, int t, double value) {
            this(series, t, value, CHANNEL_ABSENT, null, false);
        }

        /** Whether the producer gave {@code t}. */
        public boolean hasT() {
            return t != T_ABSENT;
        }
    }

    /**
     * The true label of one replayed series.
     *
     * @param series series id
     * @param label class label, verbatim from the data file
     * @param length number of samples in the series
     */
    public record Truth(String series, String label, int length) {}

    /** The record key for a series: its id in UTF-8. */
    public static byte[] key(String series) {
        requireSeries(series);
        return series.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Encodes a sample value exactly as {@code {"series":S,"t":T,"value":V}} (V in Java's shortest round-trip
     * decimal form, so decoding gives back the same double).
     *
     * @throws IllegalArgumentException on an empty series id, t &lt; 1 or a non-finite value (never written)
     */
    public static byte[] encode(String series, int t, double value) {
        return encodeValue(series, t, CHANNEL_ABSENT, value);
    }

    /**
     * Encodes a value of channel {@code channel} as {@code {"series":S,"t":T,"channel":C,"value":V}}.
     *
     * @throws IllegalArgumentException as {@link #encode(String, int, double)}, or on a negative channel
     */
    public static byte[] encode(String series, int t, int channel, double value) {
        if (channel < 0) {
            throw new IllegalArgumentException("channel must be >= 0, got " + channel + " for series " + series);
        }
        return encodeValue(series, t, channel, value);
    }

    private static byte[] encodeValue(String series, int t, int channel, double value) {
        requireSeries(series);
        if (t < 1) {
            throw new IllegalArgumentException("t must be >= 1, got " + t + " for series " + series);
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("value at t=" + t + " of series " + series + " is " + value);
        }
        StringBuilder sb = new StringBuilder(52 + series.length());
        sb.append("{\"series\":\"");
        JsonStringEncoder.getInstance().quoteAsString(series, sb);
        sb.append("\",\"t\":").append(t);
        if (channel != CHANNEL_ABSENT) {
            sb.append(",\"channel\":").append(channel);
        }
        sb.append(",\"value\":").append(value).append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Encodes the end record of a series: {@code {"series":S,"end":true}}. */
    public static byte[] encodeEnd(String series) {
        requireSeries(series);
        StringBuilder sb = new StringBuilder(24 + series.length());
        sb.append("{\"series\":\"");
        JsonStringEncoder.getInstance().quoteAsString(series, sb);
        sb.append("\",\"end\":true}");
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Encodes a truth value as {@code {"series":S,"label":L,"length":N}}.
     *
     * @throws IllegalArgumentException on an empty series id or label, or length &lt; 1
     */
    public static byte[] encodeTruth(String series, String label, int length) {
        requireSeries(series);
        if (label == null || label.isEmpty()) {
            throw new IllegalArgumentException("label of series " + series + " is empty");
        }
        if (length < 1) {
            throw new IllegalArgumentException("length of series " + series + " must be >= 1, got " + length);
        }
        StringBuilder sb = new StringBuilder(48 + series.length() + label.length());
        sb.append("{\"series\":\"");
        JsonStringEncoder.getInstance().quoteAsString(series, sb);
        sb.append("\",\"label\":\"");
        JsonStringEncoder.getInstance().quoteAsString(label, sb);
        sb.append("\",\"length\":").append(length).append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Longest series id accepted, in UTF-8 bytes: ids key state, decisions and dead letters, so a bound keeps every
     * record the job writes small whatever a producer sends.
     */
    public static final int MAX_SERIES_BYTES = 1024;

    /**
     * Decodes a sample record.
     *
     * @param key the record key, or {@code null}/empty when the producer sent none
     * @param value the record value
     */
    public static Decoded<Sample> decode(byte[] key, byte[] value) {
        Fields f = new Fields();
        Decoded.Rejected<Sample> bad = f.parse(value, false);
        if (bad != null) {
            return bad;
        }
        int t = f.hasT && f.t >= Integer.MIN_VALUE && f.t <= Integer.MAX_VALUE ? (int) f.t : 0;
        if (f.series == null) {
            return new Decoded.Rejected<>(Problem.MISSING_FIELD, "field 'series' is missing", t);
        }
        if (f.end) {
            Decoded.Rejected<Sample> mismatch = checkKey(key, f.series);
            if (mismatch != null) {
                return new Decoded.Rejected<>(mismatch.problem(), mismatch.detail(), t);
            }
            return new Decoded.Ok<>(new Sample(f.series, T_ABSENT, Double.NaN, CHANNEL_ABSENT, null, true));
        }
        if (!f.hasValue) {
            return new Decoded.Rejected<>(Problem.MISSING_FIELD, "field 'value' is missing", t);
        }
        if (!Double.isFinite(f.value)) {
            return new Decoded.Rejected<>(
                    Problem.NON_FINITE_VALUE, "value is " + f.value + (f.hasT ? " at t=" + f.t : ""), t);
        }
        if (f.hasT && f.t < 1) {
            return new Decoded.Rejected<>(Problem.T_BELOW_ONE, "t is " + f.t + "; t is 1-based", t);
        }
        int seriesBytes = f.series.getBytes(StandardCharsets.UTF_8).length;
        if (seriesBytes > MAX_SERIES_BYTES) {
            return new Decoded.Rejected<>(
                    Problem.SERIES_TOO_LONG,
                    "series id '" + abbreviate(f.series) + "' has " + seriesBytes + " bytes; at most "
                            + MAX_SERIES_BYTES + " are allowed",
                    t);
        }
        Decoded.Rejected<Sample> mismatch = checkKey(key, f.series);
        if (mismatch != null) {
            return new Decoded.Rejected<>(mismatch.problem(), mismatch.detail(), t);
        }
        return new Decoded.Ok<>(
                new Sample(f.series, f.hasT ? (int) f.t : T_ABSENT, f.value, f.channel, f.channelName, false));
    }

    /**
     * Decodes a truth record.
     *
     * @param key the record key, or {@code null}/empty when the producer sent none
     * @param value the record value
     */
    public static Decoded<Truth> decodeTruth(byte[] key, byte[] value) {
        Fields f = new Fields();
        Decoded.Rejected<Truth> bad = f.parse(value, true);
        if (bad != null) {
            return bad;
        }
        if (f.series == null) {
            return rejected(Problem.MISSING_FIELD, "field 'series' is missing");
        }
        if (f.label == null) {
            return rejected(Problem.MISSING_FIELD, "field 'label' is missing");
        }
        if (!f.hasLength) {
            return rejected(Problem.MISSING_FIELD, "field 'length' is missing");
        }
        if (f.length < 1) {
            return rejected(Problem.WRONG_TYPE, "length is " + f.length + "; must be >= 1");
        }
        Decoded.Rejected<Truth> mismatch = checkKey(key, f.series);
        if (mismatch != null) {
            return mismatch;
        }
        return new Decoded.Ok<>(new Truth(f.series, f.label, (int) f.length));
    }

    static <T> Decoded.Rejected<T> checkKey(byte[] key, String series) {
        if (key == null || key.length == 0) {
            return null;
        }
        String k = new String(key, StandardCharsets.UTF_8);
        if (!k.equals(series)) {
            return rejected(
                    Problem.KEY_MISMATCH, "key '" + abbreviate(k) + "' but series '" + abbreviate(series) + "'");
        }
        return null;
    }

    private static <T> Decoded.Rejected<T> rejected(Problem problem, String detail) {
        return new Decoded.Rejected<>(problem, detail);
    }

    private static void requireSeries(String series) {
        if (series == null || series.isEmpty()) {
            throw new IllegalArgumentException("series id must be non-empty");
        }
    }

    /** Keeps reasons one short line even when a producer sends a huge key or id. */
    static String abbreviate(String s) {
        final int max = 80;
        return s.length() <= max ? s : s.substring(0, max) + "...";
    }

    /** The fields of one JSON object, read by a single pass of the streaming parser. */
    private static final class Fields {
        String series;
        String label;
        boolean hasT;
        long t;
        boolean hasValue;
        double value;
        boolean hasLength;
        long length;
        int channel = CHANNEL_ABSENT;
        String channelName;
        boolean end;

        /** Reads the object; returns the first problem found, or {@code null}. */
        <T> Decoded.Rejected<T> parse(byte[] bytes, boolean truth) {
            return parseObject(bytes, truth ? this::truthField : this::sampleField);
        }

        private <T> Decoded.Rejected<T> sampleField(JsonParser p, String name, JsonToken v) throws IOException {
            switch (name) {
                case "series":
                    return readSeries(p, v);
                case "t":
                    if (v != JsonToken.VALUE_NUMBER_INT) {
                        return rejected(Problem.WRONG_TYPE, "t must be an integer, got " + describe(v, p));
                    }
                    if (p.getNumberType() != JsonParser.NumberType.INT) {
                        return rejected(
                                Problem.WRONG_TYPE, "t " + abbreviate(p.getText()) + " is not a 32-bit integer");
                    }
                    hasT = true;
                    t = p.getIntValue();
                    return null;
                case "channel":
                    if (v == JsonToken.VALUE_STRING && !p.getText().isEmpty()) {
                        channelName = p.getText();
                        return null;
                    }
                    if (v != JsonToken.VALUE_NUMBER_INT
                            || p.getNumberType() != JsonParser.NumberType.INT
                            || p.getIntValue() < 0) {
                        return rejected(
                                Problem.WRONG_TYPE,
                                "channel must be an index >= 0 or a non-empty name, got " + describe(v, p));
                    }
                    channel = p.getIntValue();
                    return null;
                case "end":
                    if (v != JsonToken.VALUE_TRUE && v != JsonToken.VALUE_FALSE) {
                        return rejected(Problem.WRONG_TYPE, "end must be true or false, got " + describe(v, p));
                    }
                    end = v == JsonToken.VALUE_TRUE;
                    return null;
                case "value":
                    if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) {
                        return rejected(Problem.WRONG_TYPE, "value must be a number, got " + describe(v, p));
                    }
                    hasValue = true;
                    value = p.getDoubleValue();
                    return null;
                default:
                    p.skipChildren();
                    return null;
            }
        }

        private <T> Decoded.Rejected<T> truthField(JsonParser p, String name, JsonToken v) throws IOException {
            switch (name) {
                case "series":
                    return readSeries(p, v);
                case "label":
                    if (v != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
                        return rejected(Problem.WRONG_TYPE, "label must be a non-empty string, got " + describe(v, p));
                    }
                    label = p.getText();
                    return null;
                case "length":
                    if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
                        return rejected(Problem.WRONG_TYPE, "length must be a 32-bit integer, got " + describe(v, p));
                    }
                    hasLength = true;
                    length = p.getIntValue();
                    return null;
                default:
                    p.skipChildren();
                    return null;
            }
        }

        private <T> Decoded.Rejected<T> readSeries(JsonParser p, JsonToken v) throws IOException {
            if (v != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
                return rejected(Problem.WRONG_TYPE, "series must be a non-empty string, got " + describe(v, p));
            }
            series = p.getText();
            return null;
        }
    }

    /** Reads one field of a JSON object: its name and first token; returns a problem or {@code null}. */
    @FunctionalInterface
    interface FieldReader {
        Decoded.Rejected<?> field(JsonParser p, String name, JsonToken v) throws IOException;
    }

    /**
     * Reads a record value as one JSON object with the streaming parser, field by field; returns the first problem
     * found ({@code reader}'s or the JSON's: empty, not an object, malformed, trailing data), or {@code null}.
     */
    @SuppressWarnings("unchecked")
    static <T> Decoded.Rejected<T> parseObject(byte[] bytes, FieldReader reader) {
        if (bytes == null || bytes.length == 0) {
            return rejected(Problem.EMPTY_VALUE, "record has no value");
        }
        try (JsonParser p = JSON.createParser(bytes)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                return rejected(Problem.NOT_AN_OBJECT, "value is " + describe(first) + ", not a JSON object");
            }
            for (JsonToken tok = p.nextToken(); tok != JsonToken.END_OBJECT; tok = p.nextToken()) {
                if (tok == null) {
                    return rejected(Problem.UNPARSEABLE_JSON, "unexpected end of input inside the object");
                }
                String name = p.currentName();
                JsonToken v = p.nextToken();
                Decoded.Rejected<?> bad = reader.field(p, name, v);
                if (bad != null) {
                    return (Decoded.Rejected<T>) bad;
                }
            }
            JsonToken trailing = p.nextToken();
            if (trailing != null) {
                return rejected(Problem.UNPARSEABLE_JSON, "unexpected " + describe(trailing) + " after the object");
            }
            return null;
        } catch (JsonProcessingException e) {
            String where =
                    e.getLocation() == null ? "" : " at byte " + e.getLocation().getByteOffset();
            return rejected(Problem.UNPARSEABLE_JSON, firstLine(e.getOriginalMessage()) + where);
        } catch (IOException e) { // not expected when reading a byte array; reported, never thrown
            return rejected(Problem.UNPARSEABLE_JSON, firstLine(e.getMessage()));
        }
    }

    private static String describe(JsonToken tok) {
        if (tok == null) {
            return "empty";
        }
        switch (tok) {
            case START_ARRAY:
                return "an array";
            case START_OBJECT:
                return "an object";
            case VALUE_STRING:
                return "a string";
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return "a number";
            case VALUE_TRUE:
            case VALUE_FALSE:
                return "a boolean";
            case VALUE_NULL:
                return "null";
            default:
                return tok.asString() == null ? tok.name() : "'" + tok.asString() + "'";
        }
    }

    static String describe(JsonToken tok, JsonParser p) throws IOException {
        if (tok == JsonToken.VALUE_STRING) {
            return "\"" + abbreviate(p.getText()) + "\"";
        }
        if (tok == JsonToken.VALUE_NUMBER_INT || tok == JsonToken.VALUE_NUMBER_FLOAT) {
            return abbreviate(p.getText());
        }
        return describe(tok);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "malformed JSON";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
