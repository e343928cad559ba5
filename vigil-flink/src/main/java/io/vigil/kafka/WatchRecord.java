package io.vigil.kafka;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.vigil.kafka.Decoded.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The wire format of a watched stream's values (docs/watch.md), read by {@code vigil run --watch}: UTF-8 JSON objects
 * {@code {"key":"pump-7","value":0.42}} keyed (optionally) by the key, with an optional {@code "channel"} (0-based
 * index or name), an optional {@code "ts"} (epoch ms of the sample) and an optional {@code "i"} (1-based sample index
 * within the key); without {@code i} the n-th value of a channel is its sample n. A {@code null} value is a missing
 * value. Decoding never throws on bad input: it returns a {@link Decoded} naming the {@link Problem}, and shares
 * {@link SampleRecord}'s JSON reading, so the same bad bytes get the same reason in both modes.
 */
public final class WatchRecord {
    /** {@link Value#sample()} when the record did not carry {@code i}. */
    public static final long NO_INDEX = 0;

    /** {@link Value#ts()} when the record did not carry {@code ts}. */
    public static final long NO_TS = Long.MIN_VALUE;

    private WatchRecord() {}

    /**
     * One decoded value.
     *
     * @param key the stream key (non-empty, at most {@link SampleRecord#MAX_SERIES_BYTES} UTF-8 bytes)
     * @param value the value, finite, or NaN for a missing one ({@code "value":null})
     * @param channel the 0-based channel index given, or {@link SampleRecord#CHANNEL_ABSENT}
     * @param channelName the channel name given, or null
     * @param ts the sample's time stamp in epoch ms, or {@link #NO_TS}
     * @param sample the 1-based sample index given, or {@link #NO_INDEX}
     */
    public record Value(String key, double value, int channel, String channelName, long ts, long sample) {}

    /**
     * Encodes a value as {@code {"key":K,"i":I,"channel":C,"value":V}} (I and C left out when {@link #NO_INDEX} or
     * negative; V in Java's shortest round-trip form, {@code null} for NaN).
     *
     * @throws IllegalArgumentException on an empty key or an infinite value
     */
    public static byte[] encode(String key, long sample, int channel, double value) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("key must be non-empty");
        }
        if (Double.isInfinite(value)) {
            throw new IllegalArgumentException("value of key " + key + " is " + value);
        }
        StringBuilder sb = new StringBuilder(48 + key.length());
        sb.append("{\"key\":\"");
        JsonStringEncoder.getInstance().quoteAsString(key, sb);
        sb.append('"');
        if (sample != NO_INDEX) {
            sb.append(",\"i\":").append(sample);
        }
        if (channel >= 0) {
            sb.append(",\"channel\":").append(channel);
        }
        sb.append(",\"value\":")
                .append(Double.isNaN(value) ? "null" : Double.toString(value))
                .append('}');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Decodes a value record.
     *
     * @param recordKey the Kafka record key, or null/empty when the producer sent none; otherwise it must equal
     *     {@code key}
     */
    public static Decoded<Value> decode(byte[] recordKey, byte[] bytes) {
        Fields f = new Fields();
        Decoded.Rejected<Value> bad = SampleRecord.parseObject(bytes, f::field);
        if (bad != null) {
            return bad;
        }
        if (f.key == null) {
            return new Decoded.Rejected<>(Problem.MISSING_FIELD, "field 'key' is missing");
        }
        if (!f.hasValue) {
            return new Decoded.Rejected<>(Problem.MISSING_FIELD, "field 'value' is missing (key " + cut(f.key) + ")");
        }
        if (Double.isInfinite(f.value)) {
            return new Decoded.Rejected<>(
                    Problem.NON_FINITE_VALUE, "value is " + f.value + " (key " + cut(f.key) + ")");
        }
        if (f.hasIndex && f.sample < 1) {
            return new Decoded.Rejected<>(Problem.T_BELOW_ONE, "i is " + f.sample + "; the sample index i is 1-based");
        }
        int bytesOfKey = f.key.getBytes(StandardCharsets.UTF_8).length;
        if (bytesOfKey > SampleRecord.MAX_SERIES_BYTES) {
            return new Decoded.Rejected<>(
                    Problem.SERIES_TOO_LONG,
                    "key '" + cut(f.key) + "' has " + bytesOfKey + " bytes; at most " + SampleRecord.MAX_SERIES_BYTES
                            + " are allowed");
        }
        if (recordKey != null && recordKey.length > 0) {
            String k = new String(recordKey, StandardCharsets.UTF_8);
            if (!k.equals(f.key)) {
                return new Decoded.Rejected<>(
                        Problem.KEY_MISMATCH, "record key '" + cut(k) + "' but key '" + cut(f.key) + "'");
            }
        }
        return new Decoded.Ok<>(new Value(
                f.key, f.value, f.channel, f.channelName, f.hasTs ? f.ts : NO_TS, f.hasIndex ? f.sample : NO_INDEX));
    }

    private static String cut(String s) {
        return SampleRecord.abbreviate(s);
    }

    /** The fields of one value object. */
    private static final class Fields {
        String key;
        boolean hasValue;
        double value = Double.NaN;
        int channel = SampleRecord.CHANNEL_ABSENT;
        String channelName;
        boolean hasTs;
        long ts;
        boolean hasIndex;
        long sample;

        Decoded.Rejected<?> field(JsonParser p, String name, JsonToken v) throws IOException {
            switch (name) {
                case "key":
                    if (v != JsonToken.VALUE_STRING || p.getText().isEmpty()) {
                        return wrong("key must be a non-empty string, got " + SampleRecord.describe(v, p));
                    }
                    key = p.getText();
                    return null;
                case "value":
                    if (v == JsonToken.VALUE_NULL) {
                        hasValue = true;
                        value = Double.NaN;
                        return null;
                    }
                    if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) {
                        return wrong(
                                "value must be a number (or null when missing), got " + SampleRecord.describe(v, p));
                    }
                    hasValue = true;
                    value = p.getDoubleValue();
                    if (Double.isNaN(value)) {
                        return new Decoded.Rejected<>(
                                Problem.NON_FINITE_VALUE, "value is NaN; send null for a missing value");
                    }
                    return null;
                case "channel":
                    if (v == JsonToken.VALUE_STRING && !p.getText().isEmpty()) {
                        channelName = p.getText();
                        return null;
                    }
                    if (v != JsonToken.VALUE_NUMBER_INT
                            || p.getNumberType() != JsonParser.NumberType.INT
                            || p.getIntValue() < 0) {
                        return wrong("channel must be an index >= 0 or a non-empty name, got "
                                + SampleRecord.describe(v, p));
                    }
                    channel = p.getIntValue();
                    return null;
                case "ts":
                    if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        return wrong("ts must be an integer (epoch ms), got " + SampleRecord.describe(v, p));
                    }
                    hasTs = true;
                    ts = p.getLongValue();
                    return null;
                case "i":
                    if (v != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                        return wrong("i must be an integer sample index, got " + SampleRecord.describe(v, p));
                    }
                    hasIndex = true;
                    sample = p.getLongValue();
                    return null;
                default:
                    p.skipChildren();
                    return null;
            }
        }

        private static Decoded.Rejected<?> wrong(String detail) {
            return new Decoded.Rejected<>(Problem.WRONG_TYPE, detail);
        }
    }
}
